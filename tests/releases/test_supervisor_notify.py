"""The supervisor as the unit's main process: systemd hears READY=1 and the watchdog
through it, a restart for an update is not taken for a freeze, a frozen kiosk is, the
unit's PYTHONPATH (the supervisor's own copy) never reaches the kiosk it runs, and the
kiosk never outlives its supervisor."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import processes
import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
import itertools

from update_bench import first_env
from waiting import wait_for


class Systemd:
    """The notify socket systemd would hold: every datagram the unit's process sends."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.settimeout(0.2)
        self.heard: list[tuple[float, str]] = []

    def listen(self, seconds: float) -> list[str]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.sock.recv(4096).decode()
            except TimeoutError:
                continue
            self.heard += [(time.monotonic(), line) for line in data.split("\n")]
        return [line for _, line in self.heard]

    def until(self, line: str, timeout: float, times: int = 1, after: float = 0.0) -> float:
        """When systemd had heard `line` `times` times since `after` (monotonic)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.listen(0.5)
            seen = [t for t, got in self.heard if got == line and t > after]
            if len(seen) >= times:
                return seen[times - 1]
        raise AssertionError(f"systemd never heard {line} {times} times: {self.heard[-5:]}")


@pytest.fixture
def unit(tmp_path: Path) -> Iterator[tuple[Systemd, subprocess.Popen[bytes], Path]]:
    root, etc = tmp_path / "opt", tmp_path / "etc"
    etc.mkdir()
    first_env(root)
    (etc / "table.toml").write_text(
        f'[table]\nnumber = 3\nroom = "sup"\nstate_dir = "{tmp_path / "state"}"\n\n'
        '[broker]\nurl = "mqtt://127.0.0.1:9"\nusername = "table-3"\npassword = "x"\n\n'
        "[gpio]\nenabled = false\n")
    # what the unit's Environment=PYTHONPATH names: a `kiosk` that is not the release's
    shadow = tmp_path / "supervisor-copy" / "kiosk"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise SystemExit('the unit path reached the kiosk')\n")
    systemd = Systemd(tmp_path)
    repo = str(Path(__file__).parents[2])
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk.releases.supervisor", str(root), "--ready", "20", "--",
         "table", "--config", str(etc / "table.toml"), "--headless"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        cwd=repo, env={**os.environ, "NOTIFY_SOCKET": str(systemd.path),
                       "PYTHONPATH": f"{repo}:{shadow.parent}"})
    yield systemd, proc, root
    stop(proc)


def stop(supervisor: subprocess.Popen[bytes]) -> None:
    """As systemd stops the unit: SIGTERM to the supervisor, which stops its kiosk (woken
    first, if a test froze it) and exits; both are gone before the next test."""
    kiosks = processes.children(supervisor.pid)
    for pid in kiosks:
        os.kill(pid, signal.SIGCONT)
    supervisor.terminate()
    try:
        supervisor.wait(30)
    finally:
        supervisor.kill()
        supervisor.wait()
    assert not [pid for pid in kiosks if processes.alive(pid)]


def kiosk_pid(supervisor: int) -> int:
    def found() -> list[int]:
        return [pid for pid in processes.children(supervisor) if processes.alive(pid)]
    wait_for(found, timeout=30)
    return found()[0]


def test_systemd_hears_ready_and_the_kiosks_watchdog(unit: tuple) -> None:
    systemd, proc, _root = unit
    ready = systemd.until("READY=1", 60)
    systemd.until("WATCHDOG=1", 60, times=3, after=ready)
    pings = [t for t, line in systemd.heard if line == "WATCHDOG=1" and t > ready]
    assert len(pings) >= 2, systemd.heard          # the kiosk's own pings, passed on
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    assert max(gaps) < 10 and min(gaps) > 4        # about every 5 s, never a flood
    assert proc.poll() is None                     # the shadow `kiosk` was not imported


def test_a_frozen_kiosk_stops_the_pings_a_restarted_one_does_not(unit: tuple) -> None:
    systemd, proc, _root = unit
    systemd.until("READY=1", 60)
    child = kiosk_pid(proc.pid)
    killed = time.monotonic()
    os.kill(child, signal.SIGKILL)                 # a restart: the supervisor pings for it
    systemd.until("WATCHDOG=1", 60, times=2, after=killed)
    assert systemd.listen(0).count("READY=1") == 1   # systemd is told once, not per start
    child = kiosk_pid(proc.pid)
    systemd.until("WATCHDOG=1", 60)
    os.kill(child, signal.SIGSTOP)                 # frozen: no more pings reach systemd
    frozen_at = time.monotonic() + 1               # (one already on its way may arrive)
    systemd.listen(13)                             # two of its 5 s periods and more
    assert not [t for t, line in systemd.heard if line == "WATCHDOG=1" and t > frozen_at]
    os.kill(child, signal.SIGCONT)


def test_a_kiosk_does_not_outlive_its_supervisor(unit: tuple) -> None:
    """Killed with SIGKILL (no chance to stop its kiosk), the supervisor still takes the
    kiosk along: the kernel tells it (PR_SET_PDEATHSIG), it stops, and nothing runs on
    beside the kiosk the next supervisor starts."""
    systemd, proc, _root = unit
    systemd.until("READY=1", 60)
    child = kiosk_pid(proc.pid)
    proc.kill()
    proc.wait()
    wait_for(lambda: not processes.alive(child), timeout=15)
