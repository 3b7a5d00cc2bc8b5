"""`pokerkiosk doctor` against a real broker: a good setup passes, each breakage is named."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import fake_sysfs
import pytest
from appliance_helpers import Broker, free_port, make_room, start_broker, stop_broker

from kiosk.appliance import checks
from kiosk.appliance.provision import Room
from kiosk.commands.main import main
from kiosk.lang.fonts import cjk_font

SYNCED = """Reference ID    : C0A80102 (pk-director.local)
Stratum         : 11
System time     : 0.000123400 seconds slow of NTP time
Last offset     : -0.000011000 seconds
Leap status     : Normal
"""

Doctor = Callable[..., tuple[int, list[str]]]


@pytest.fixture
def chronyc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """A `chronyc` on PATH printing the given `tracking` output."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")

    def set_output(text: str) -> None:
        (bindir / "tracking.txt").write_text(text)
        exe = bindir / "chronyc"
        exe.write_text(f"#!/bin/sh\n[ \"$2\" = tracking ] && cat '{bindir}/tracking.txt'\n")
        exe.chmod(0o755)

    set_output(SYNCED)
    return set_output


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch, chronyc: Callable[[str], None],
            tmp_path: Path) -> None:
    """A table Pi as the tests can have it: mock GPIO pins, a display, a synced clock, the
    7-inch display's touch panel and the SoC's GPIO chip in a /sys of files."""
    monkeypatch.setattr(checks, "ROOT", fake_sysfs.table_pi(tmp_path / "pi"))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


@pytest.fixture(params=[False, True], ids=["plain", "tls"])
def room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Broker]:
    port = free_port()
    state = tmp_path / "state"
    state.mkdir()
    r: Room = make_room(tmp_path / "room", tls=request.param, port=port,
                        reader_port="loop://", state_dir=str(state))
    broker = start_broker(r, port, tmp_path)
    yield broker
    stop_broker(broker)


@pytest.fixture
def doctor(capsys: pytest.CaptureFixture[str]) -> Doctor:
    def run(config: Path | str, *extra: str) -> tuple[int, list[str]]:
        code = main(["doctor", "--config", str(config), "--timeout", "2", *extra])
        return code, capsys.readouterr().out.splitlines()
    return run


def line(lines: list[str], name: str) -> str:
    found = [x for x in lines if re.match(rf"^\S+\s+{name}:", x)]
    assert len(found) == 1, lines
    return found[0]


def director_config(room: Broker, tmp_path: Path, http: int) -> Path:
    """The provisioned event.toml, serving the dashboard on a free port of this machine."""
    src = room.out / "director" / "event.toml"
    text = src.read_text()
    old = re.search(r'^http = "[^"]+"', text, re.M)
    assert old
    return edited(src, src.parent / "event-test.toml", old.group(0),
                  f'http = "127.0.0.1:{http}"')


def edited(src: Path, dest: Path, old: str, new: str) -> Path:
    text = src.read_text()
    assert old in text
    dest.write_text(text.replace(old, new))
    return dest


# ------------------------------------------------------------------ good setups
@pytest.mark.usefixtures("machine")
def test_good_table(room: Broker, doctor: Doctor) -> None:
    code, lines = doctor(room.out / "tables" / "table-3.toml")
    scheme = "mqtts" if room.room.tls else "mqtt"
    assert lines == [
        f"OK   config: {room.out}/tables/table-3.toml: table 3 of room spring-open",
        f"OK   broker: connected to {scheme}://127.0.0.1:{room.port} as table-3",
        f"OK   anonymous: {scheme}://127.0.0.1:{room.port} refuses clients without a login",
        "OK   clock: synchronised, offset -0.1 ms",
        "OK   buttons: /dev/gpiochip0 (pinctrl-bcm2711) has the header's lines",
        "OK   gpio: pins free: allin 17, clock 27, floor 22, floor_led 5, clock_led 6, "
        "buzzer 13",
        "OK   reader: loop:// opens at 9600 baud",
        "OK   display: DISPLAY=:0",
        "OK   touch: 'raspberrypi-ts' (/dev/input/event0) by mtdev",
        "OK   languages: 7 languages, every text translated; Chinese in "
        f"{cjk_font()}",
    ]
    assert code == 0


@pytest.mark.usefixtures("machine")
def test_good_director(room: Broker, doctor: Doctor, tmp_path: Path) -> None:
    http = free_port()
    cfg = director_config(room, tmp_path, http)
    code, lines = doctor(cfg)
    assert code == 0, lines
    assert line(lines, "broker").endswith(f"127.0.0.1:{room.port} as director")
    scheme = "https" if room.room.tls else "http"
    assert line(lines, "http") == \
        f"OK   http: 127.0.0.1:{http} is free for the dashboard ({scheme})"
    assert line(lines, "db").startswith("OK   db: event log ")
    assert line(lines, "floor") == "OK   floor: 1 floor user(s), none with a default password"
    assert line(lines, "anonymous").endswith("refuses clients without a login")


@pytest.mark.usefixtures("machine")
def test_qr_codes_that_lead_phones_to_this_machine_only_are_warned_of(
        room: Broker, doctor: Doctor, tmp_path: Path) -> None:
    """Without `public_url` the TV's QR code carries the dashboard's own address: on
    127.0.0.1 no phone reaches it. A warning with the fix; the exit code stays 0."""
    from kiosk.config.public import network_address

    http = free_port()
    cfg = director_config(room, tmp_path, http)
    if room.room.tls:      # provision names the director as the tables do: 127.0.0.1 here
        code, lines = doctor(cfg)
        assert "point phones at https://127.0.0.1:8443, which only" in line(lines, "qr")
        provisioned = re.search(r"^public_url = .*\n", cfg.read_text(), re.M)
        assert provisioned
        cfg = edited(cfg, cfg, provisioned.group(0), "")
    code, lines = doctor(cfg)
    scheme = "https" if room.room.tls else "http"
    here = network_address()
    assert code == 0, lines
    assert line(lines, "qr") == (
        f"WARN qr: the QR codes on the TV clock and the seat cards point phones at "
        f"{scheme}://127.0.0.1:{http}, which only this machine reaches — fix: set "
        f'[director] public_url = "https://{here}:{http}", the address phones reach the '
        "director by (serving it there takes tls_cert and tls_key on that address, or a "
        "proxy in front)")
    public = edited(cfg, cfg.parent / "event-public.toml", "[director]\n",
                    '[director]\npublic_url = "https://poker.example.org"\n')
    code, lines = doctor(public)
    assert code == 0, lines
    assert line(lines, "qr") == "OK   qr: QR codes point phones at https://poker.example.org"
    for wrong in ("http://localhost:8080", "http://0.0.0.0:8080", "https://[::1]"):
        loop = edited(cfg, cfg.parent / "event-loop.toml", "[director]\n",
                      f'[director]\npublic_url = "{wrong}"\n')
        code, lines = doctor(loop)
        assert line(lines, "qr").startswith(f"WARN qr: the QR codes on the TV clock and "
                                            f"the seat cards point phones at {wrong}"), lines


# ------------------------------------------------------------------ broken setups
@pytest.mark.usefixtures("machine")
def test_wrong_password(room: Broker, doctor: Doctor, tmp_path: Path) -> None:
    src = room.out / "tables" / "table-3.toml"
    pw = re.search(r'password = "([^"]+)"', src.read_text())
    assert pw
    cfg = edited(src, tmp_path / "t3.toml", pw.group(1), "not-the-password")
    code, lines = doctor(cfg)
    scheme = "mqtts" if room.room.tls else "mqtt"
    assert code == 1
    assert line(lines, "broker") == (
        f"FAIL broker: {scheme}://127.0.0.1:{room.port} refused as table-3: not authorized "
        "(wrong user name or password) — fix: copy this machine's config again from the "
        "provision output, and install that run's broker/passwd and acl on the director")
    assert line(lines, "gpio").startswith("OK")   # one failure does not hide the rest


@pytest.mark.usefixtures("machine")
def test_missing_and_bad_files(doctor: Doctor, tmp_path: Path) -> None:
    code, lines = doctor(tmp_path / "nope" / "table.toml")
    assert code == 1
    assert lines == [f"FAIL config: {tmp_path}/nope/table.toml: file not found — fix: copy it "
                     "from the provision output (tables/table-N.toml or director/event.toml)",
                     "SKIP other checks: they need a readable config"]
    bad = tmp_path / "table.toml"
    bad.write_text('[table]\nnumber = 3\nevent = "spring-open\n')
    code, lines = doctor(bad)
    assert code == 1 and lines[0].startswith(f"FAIL config: {bad}: not valid TOML (")
    assert lines[0].endswith("— fix: correct that line, or copy the file again from the "
                             "provision output")
    bad.write_text('[table]\nnumber = "three"\nevent = "spring-open"\n')
    code, lines = doctor(bad)
    assert code == 1 and lines[0].startswith(
        f"FAIL config: {bad}: table.number: expected an integer, got a string — fix:")


@pytest.mark.usefixtures("machine")
def test_every_broker_of_the_list_is_checked(room: Broker, doctor: Doctor) -> None:
    scheme = "mqtts" if room.room.tls else "mqtt"
    good, dead = f"{scheme}://127.0.0.1:{room.port}", f"{scheme}://127.0.0.1:{free_port()}"
    src = room.out / "tables" / "table-3.toml"
    config = edited(src, src.parent / "two-brokers.toml", f'url = "{good}"',
                    f'urls = ["{good}", "{dead}"]')
    code, lines = doctor(config)
    assert code == 1
    assert [x for x in lines if x.startswith(("OK   broker", "FAIL broker"))] == [
        f"OK   broker: connected to {good} as table-3",
        f"FAIL broker: nothing listening on 127.0.0.1:{dead.rsplit(':', 1)[1]} ({dead}) — "
        "fix: start the broker on the director (systemctl status mosquitto) and check the "
        "port in [broker] url"]


@pytest.mark.usefixtures("machine")
def test_nothing_listening(doctor: Doctor, tmp_path: Path) -> None:
    port = free_port()
    room = make_room(tmp_path / "room", tls=False, port=port, reader_port="loop://")
    code, lines = doctor(room.out / "tables" / "table-1.toml")
    assert code == 1
    assert line(lines, "broker") == (
        f"FAIL broker: nothing listening on 127.0.0.1:{port} (mqtt://127.0.0.1:{port}) — fix: "
        "start the broker on the director (systemctl status mosquitto) and check the port "
        "in [broker] url")


@pytest.mark.usefixtures("machine")
def test_port_held_by_something_else(doctor: Doctor, tmp_path: Path) -> None:
    """A listener that is not Mosquitto (wrong port in the url) and a taken dashboard port."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        stop = threading.Event()
        held: list[socket.socket] = []

        def accept() -> None:       # accept and say nothing, like a stuck service
            squatter.settimeout(0.2)
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    held.append(squatter.accept()[0])

        t = threading.Thread(target=accept)
        t.start()
        try:
            room = make_room(tmp_path / "room", tls=False, port=port, reader_port="loop://",
                             state_dir=str(tmp_path))
            code, lines = doctor(room.out / "tables" / "table-1.toml", "--timeout", "1")
            assert code == 1
            assert line(lines, "broker") == (
                f"FAIL broker: mqtt://127.0.0.1:{port} accepted the connection but sent no "
                "MQTT answer within 1 s — fix: the port is in use by something other than "
                "Mosquitto; check [broker] url and `ss -ltnp` on the director")
            cfg = edited(room.out / "director" / "event.toml", tmp_path / "event.toml",
                         'http = "127.0.0.1:8080"', f'http = "127.0.0.1:{port}"')
            code, lines = doctor(cfg, "--timeout", "1")
            assert code == 1
            assert line(lines, "http") == (
                f"FAIL http: cannot listen on 127.0.0.1:{port} (Address already in use) — "
                "fix: another program holds the port (`ss -ltnp`); stop it or change "
                "[director] http")
        finally:
            stop.set()
            t.join()
            for c in held:
                c.close()


@pytest.mark.usefixtures("machine")
def test_tls_with_another_rooms_ca(doctor: Doctor, tmp_path: Path) -> None:
    port = free_port()
    room = make_room(tmp_path / "room", tls=True, port=port, reader_port="loop://")
    other = make_room(tmp_path / "other", tls=True, port=port)
    broker = start_broker(room, port, tmp_path)
    try:
        cfg = edited(room.out / "tables" / "table-2.toml", tmp_path / "t2.toml",
                     f'ca_file = "{room.out}/tables/ca.crt"',
                     f'ca_file = "{other.out}/tables/ca.crt"')
        code, lines = doctor(cfg)
        assert code == 1
        assert line(lines, "broker").startswith(
            f"FAIL broker: TLS certificate of mqtts://127.0.0.1:{port} rejected (")
        assert "use the ca.crt from the same provision run" in line(lines, "broker")
        gone = edited(room.out / "tables" / "table-2.toml", tmp_path / "t2b.toml",
                      f'ca_file = "{room.out}/tables/ca.crt"', 'ca_file = "/nope/ca.crt"')
        _, lines = doctor(gone)
        assert line(lines, "broker") == ("FAIL broker: CA file /nope/ca.crt not found — fix: "
                                         "copy ca.crt from the provision output to /nope/ca.crt")
    finally:
        stop_broker(broker)


@pytest.mark.usefixtures("machine")
def test_devices_missing_or_busy(doctor: Doctor, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Button

    room = make_room(tmp_path / "room", tls=False, port=free_port(),
                     reader_port="/dev/ttyNOPE")
    monkeypatch.delenv("DISPLAY")
    monkeypatch.setattr(checks, "DEV", tmp_path / "dev")    # a Pi with nothing plugged in
    busy = Button(27)            # the kiosk is running and holds the CLOCK button
    try:
        code, lines = doctor(room.out / "tables" / "table-1.toml")
    finally:
        busy.close()
    assert code == 1
    assert line(lines, "gpio") == (
        "FAIL gpio: pin 27 (clock) is in use — fix: stop the kiosk first (systemctl stop "
        "pokerkiosk-table) or move [gpio] clock to a free pin")
    assert line(lines, "reader") == (
        "FAIL reader: cannot open /dev/ttyNOPE (No such file or directory) — fix: enable the "
        "UART (firmware_cfg/config.txt), plug the reader in, or set [reader] port")
    assert line(lines, "display") == (
        "FAIL display: no DISPLAY, WAYLAND_DISPLAY, /dev/dri/card* or /dev/fb0 — fix: connect "
        "the display and keep dtoverlay=vc4-kms-v3d in config.txt")
    (tmp_path / "dev" / "dri").mkdir(parents=True)
    (tmp_path / "dev" / "dri" / "card1").touch()
    assert checks.display({}).line() == f"OK   display: {tmp_path}/dev/dri/card1 (KMS)"


def test_clock_states(chronyc: Callable[[str], None], monkeypatch: pytest.MonkeyPatch,
                      tmp_path: Path) -> None:
    assert checks.clock().line() == "OK   clock: synchronised, offset -0.1 ms"
    chronyc(SYNCED.replace("0.000123400 seconds slow", "2.500000000 seconds fast"))
    assert checks.clock().line() == ("FAIL clock: +2.500 s from the reference — fix: wait a "
                                     "minute for chrony to step, or run chronyc makestep")
    chronyc(SYNCED.replace("Leap status     : Normal", "Leap status     : Not synchronised"))
    assert checks.clock().line() == ("FAIL clock: not synchronised — fix: check that chrony "
                                     "reaches the director: chronyc sources")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    c = checks.clock()
    assert (c.status, c.failed) == ("WARN", False)
    assert c.line().startswith("WARN clock: sync unknown: chronyc not installed — fix:")


# ------------------------------------------------------- a room that is running
@pytest.mark.usefixtures("machine")
def test_doctor_passes_on_a_running_director(room: Broker, doctor: Doctor,
                                             tmp_path: Path) -> None:
    """Install step 7: the director runs; its own port and broker session are fine."""
    import ssl
    import subprocess
    import sys
    import urllib.request

    from waiting import wait_for

    http = free_port()
    cfg = director_config(room, tmp_path, http)
    out = tmp_path / "director.log"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "director", "--config",
                                 str(cfg)], stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "connected to" in out.read_text() or proc.poll() is not None)
        assert proc.poll() is None, out.read_text()
        code, lines = doctor(cfg)
        assert code == 0, lines
        scheme = "https" if room.room.tls else "http"
        assert line(lines, "http") == (f"OK   http: the director of spring-open serves "
                                       f"{scheme}://127.0.0.1:{http}/")
        assert line(lines, "broker").startswith("OK   broker: the running director is "
                                                "connected to")
        assert line(lines, "health") == ("OK   health: the running director met no "
                                         "internal error")
        if room.room.tls:     # the dashboard speaks HTTPS with the room's certificate
            ctx = ssl.create_default_context(cafile=str(room.out / "ca" / "ca.crt"))
            with urllib.request.urlopen(f"https://127.0.0.1:{http}/api/health",
                                        context=ctx, timeout=5) as r:
                assert r.status == 200
        else:
            assert "127.0.0.1:" in cfg.read_text()
        assert "WARNING" not in out.read_text()
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.mark.usefixtures("machine")
def test_a_broker_open_to_anyone_fails(mosquitto, doctor: Doctor,  # type: ignore[no-untyped-def]
                                       tmp_path: Path) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'[table]\nnumber = 1\nevent = "spring-open"\n[broker]\n'
                   f'url = "mqtt://127.0.0.1:{mosquitto.port}"\n[gpio]\nenabled = false\n')
    code, lines = doctor(cfg)
    assert code == 1
    assert line(lines, "anonymous").startswith(
        f"FAIL anonymous: mqtt://127.0.0.1:{mosquitto.port} accepts clients without a login")


@pytest.mark.usefixtures("machine")
def test_a_default_floor_password_fails(room: Broker, doctor: Doctor, tmp_path: Path) -> None:
    from kiosk.config import floor_users

    cfg = director_config(room, tmp_path, free_port())
    floor_users.save(cfg.parent / floor_users.FILE, {"floor": floor_users.hash_password("floor")})
    code, lines = doctor(cfg)
    assert code == 1
    assert line(lines, "floor") == (
        f"FAIL floor: floor in {cfg.parent}/floor-users.toml has a password anyone could "
        f"guess — fix: pokerkiosk floor-user add floor --config {cfg}")


def test_gpio_library_warnings_stay_on_the_gpio_line(tmp_path: Path) -> None:
    """Without a Pi, gpiozero warns while looking for a pin library: one line per check."""
    import subprocess
    import sys

    room = make_room(tmp_path / "room", tls=False, port=free_port(), reader_port="none")
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    proc = subprocess.run([sys.executable, "-m", "kiosk", "doctor", "--config",
                           str(room.out / "tables" / "table-1.toml"), "--timeout", "1"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert proc.stderr == ""
    assert all(re.match(r"^(OK|FAIL|WARN|SKIP) +\S+: ", x) for x in proc.stdout.splitlines())
    assert line(proc.stdout.splitlines(), "gpio").startswith("FAIL gpio: cannot open pin 17")
