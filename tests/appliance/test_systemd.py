"""Units pass systemd-analyze verify; the watchdog pings reach a real notify socket."""

from __future__ import annotations

import configparser
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import wait_for

from kiosk.system.sdnotify import Notifier, WatchdogPinger

REPO = Path(__file__).resolve().parents[2]
UNITS = REPO / "systemd"
HOST_UNITS = Path("/usr/lib/systemd/system")


def unit_root(tmp: Path, units: dict[str, str]) -> Path:
    """A file tree for `systemd-analyze verify --root`: the host's stock units, ours in
    /etc, and the executables the units name, so the ExecStart checks are real."""
    root = tmp / "root"
    shutil.copytree(HOST_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "bin").symlink_to("usr/bin")
    (root / "lib").symlink_to("usr/lib")
    (root / "usr/bin").mkdir(parents=True)
    (root / "usr/sbin").mkdir(parents=True)
    for tool in ("mkdir", "chown", "kill"):      # named by Debian's mosquitto.service
        shutil.copy(shutil.which(tool) or f"/usr/bin/{tool}", root / "usr/bin" / tool)
    shutil.copy("/usr/sbin/mosquitto", root / "usr/sbin/mosquitto")
    for rel in ("opt/pokerkiosk/venv/bin/pokerkiosk", "usr/bin/python3"):
        exe = root / rel
        exe.parent.mkdir(parents=True, exist_ok=True)
        exe.write_text("#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    (root / "opt/pokerkiosk/ab").mkdir()
    for script in ("import-config.sh", "unprovisioned.sh"):   # as install-root.sh puts them
        shutil.copy(REPO / "images/stage-pokerkiosk" / script, root / "opt/pokerkiosk" / script)
    for rel, text in units.items():
        dest = root / "etc/systemd/system" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text)
    return root


def verify(root: Path, *units: str) -> str:
    proc = subprocess.run(["systemd-analyze", "verify", f"--root={root}", *units],
                          capture_output=True, text=True, cwd=root, timeout=60, check=False)
    return (proc.stdout + proc.stderr).strip() + ("" if proc.returncode == 0 else
                                                  f"\n(exit {proc.returncode})")


def our_units() -> dict[str, str]:
    files = [*UNITS.glob("*.service"), *UNITS.glob("*.service.d/*.conf")]
    assert len(files) == 5
    return {str(p.relative_to(UNITS)): p.read_text() for p in files}


def test_every_unit_verifies(tmp_path: Path) -> None:
    root = unit_root(tmp_path, our_units())
    etc = root / "etc/systemd/system"
    out = verify(root, *(str(etc / f"pokerkiosk-{u}.service")
                         for u in ("table", "director", "import", "unprovisioned")),
                 "mosquitto.service")
    assert out == ""


def test_verify_catches_mistakes(tmp_path: Path) -> None:
    """The check above can fail: a typo in a unit or in the drop-in is reported."""
    units = our_units()
    units["pokerkiosk-table.service"] = units["pokerkiosk-table.service"].replace(
        "Restart=always", "Restart=sometimes")
    units["mosquitto.service.d/pokerkiosk.conf"] += "RestartSecs=1\n"
    root = unit_root(tmp_path, units)
    out = verify(root, str(root / "etc/systemd/system/pokerkiosk-table.service"),
                 "mosquitto.service")
    assert "restart specifier" in out and "Unknown key 'RestartSecs'" in out


def load_unit(name: str) -> configparser.ConfigParser:
    cp = configparser.ConfigParser(strict=False, interpolation=None)
    cp.optionxform = str  # type: ignore[assignment,method-assign]
    cp.read_string(_flatten((UNITS / name).read_text()))
    return cp


def _flatten(text: str) -> str:
    """Repeated keys (DeviceAllow=) joined, as configparser keeps only one of each."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith("["):
            seen.clear()
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#") and key in seen:
            out[seen[key]] += " " + value
            continue
        if sep and not line.startswith("#"):
            seen[key] = len(out)
        out.append(line)
    return "\n".join(out)


def test_table_unit_keeps_its_devices_and_escalates() -> None:
    u = load_unit("pokerkiosk-table.service")
    s = u["Service"]
    # the supervisor's own copy runs the A/B folder's current kiosk (docs/updates.md)
    assert s["ExecStart"] == ("/usr/bin/python3 -m kiosk.releases.supervisor "
                              "/opt/pokerkiosk/ab --ready 120 --crash 60 -- "
                              "table --config /etc/pokerkiosk/table.toml")
    assert s["Environment"].split()[0] == "PYTHONPATH=/opt/pokerkiosk/supervisor"
    assert s["ReadWritePaths"] == "/opt/pokerkiosk/ab"
    assert (s["Type"], s["Restart"], s["User"]) == ("notify", "always", "pokerkiosk")
    assert int(s["WatchdogSec"]) >= 15   # the UI pings every 5 s
    assert set(s["SupplementaryGroups"].split()) == {"video", "render", "input", "dialout",
                                                     "gpio"}
    assert s["PrivateDevices"] == "no" and s["DevicePolicy"] == "closed"
    for dev in ("char-drm", "char-input", "char-gpiochip", "char-ttyAMA", "char-fb"):
        assert dev in s["DeviceAllow"]
    assert s["StateDirectory"] == "pokerkiosk" and s["RuntimeDirectory"] == "pokerkiosk"
    env = dict(kv.split("=", 1) for kv in s["Environment"].split())
    # one tap is one touch (Kivy reads the panel, SDL adds no mouse click of its own), and
    # the GPIO pin factory is the one the image installs
    assert env["SDL_TOUCH_MOUSE_EVENTS"] == "0"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert u["Unit"]["StartLimitAction"] == "reboot"
    d = load_unit("pokerkiosk-director.service")["Service"]
    assert d["ExecStart"].endswith("pokerkiosk director --config /etc/pokerkiosk/event.toml")
    assert (d["Type"], d["Restart"], d["PrivateDevices"]) == ("notify", "always", "yes")


@pytest.fixture(params=["path", "abstract"])
def notify_socket(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[
        tuple[str, socket.socket]]:
    """A datagram socket standing in for systemd's, by path or in the abstract namespace."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if request.param == "path":
        addr = str(tmp_path / "notify")
        sock.bind(addr)
        env_value = addr
    else:
        name = f"pk-test-{os.getpid()}-{time.monotonic_ns()}"
        sock.bind("\0" + name)
        env_value = "@" + name
    sock.settimeout(2)
    yield env_value, sock
    sock.close()


def recv_all(sock: socket.socket, wait: float = 0.3) -> list[str]:
    got: list[str] = []
    sock.settimeout(wait)
    try:
        while True:
            got.append(sock.recv(4096).decode())
    except TimeoutError:
        return got


def test_notifier_sends_state_lines(notify_socket: tuple[str, socket.socket],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    addr, sock = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", addr)
    n = Notifier()                     # the call the table UI and the director make
    assert n.enabled
    assert n.ready() and n.status("event spring-open: 90 players\nsecond line")
    assert n.watchdog() and n.stopping()
    assert recv_all(sock) == ["READY=1", "STATUS=event spring-open: 90 players",
                              "WATCHDOG=1", "STOPPING=1"]
    n.close()


def test_notifier_is_a_no_op_outside_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    n = Notifier()
    assert not n.enabled
    assert (n.ready(), n.watchdog(), n.status("x"), n.stopping()) == (False,) * 4


def test_watchdog_interval_from_environment() -> None:
    pid = str(os.getpid())
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": pid}).watchdog_interval() == 30
    assert Notifier({"WATCHDOG_USEC": "30000000"}).watchdog_interval() == 30
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).watchdog_interval() \
        is None                         # meant for another process
    assert Notifier({"WATCHDOG_USEC": "0"}).watchdog_interval() is None
    assert Notifier({}).watchdog_interval() is None


def test_watchdog_pings_follow_the_loop(notify_socket: tuple[str, socket.socket]) -> None:
    """Pings come while the loop runs, at half the interval, and stop when it stops."""
    addr, sock = notify_socket
    n = Notifier({"NOTIFY_SOCKET": addr, "WATCHDOG_USEC": "200000"})
    pinger = WatchdogPinger(n)
    assert pinger.period == pytest.approx(0.1)
    running = threading.Event()
    running.set()

    def ui_loop() -> None:          # a frame loop at 100 fps, like Kivy's Clock
        while running.is_set():
            pinger.tick()
            time.sleep(0.01)        # the frame period: the behaviour, not a wait

    t = threading.Thread(target=ui_loop)
    began = time.monotonic()
    t.start()
    wait_for(lambda: pinger.sent >= 8)
    running.clear()                 # the "UI" freezes / ends
    t.join()
    ran = time.monotonic() - began
    during = recv_all(sock, 0.2)
    assert set(during) == {"WATCHDOG=1"}
    assert 8 <= len(during) <= ran / 0.1 + 1   # one per 0.1 s at most, not one per frame
    assert recv_all(sock, 0.5) == []   # nothing after the loop stopped
    assert pinger.sent == len(during)


def test_pinger_rate_limits_with_a_fake_clock() -> None:
    sent: list[str] = []

    class Rec(Notifier):
        def notify(self, *lines: str) -> bool:
            sent.extend(lines)
            return True

    now = [0.0]
    p = WatchdogPinger(Rec({"NOTIFY_SOCKET": "@x"}), interval=10, clock=lambda: now[0])
    ticks = []
    for t in (0, 1, 4.9, 5.0, 6, 10.1):
        now[0] = t
        ticks.append(p.tick())
    assert ticks == [True, False, False, True, False, True]
    assert sent == ["WATCHDOG=1"] * 3
    assert WatchdogPinger(Rec({})).tick() is False   # no watchdog configured
