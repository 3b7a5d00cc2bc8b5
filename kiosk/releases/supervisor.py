"""`python -m kiosk.releases.supervisor ROOT -- pokerkiosk-args...`: the unit of a table
kiosk, or of a director that updates itself.

It runs `ROOT/current/bin/pokerkiosk ARGS`, hands it a notify socket as systemd would,
and restarts it when it exits (at once for the updater's RESTART code, after a second
for a crash). While a switch is on trial it is also the judge: a new kiosk that does not
say READY=1 within `--ready` seconds, or exits within `--crash` seconds, is stopped and
`current` goes back to the previous environment, with the reason written for the old
kiosk to report.

Under systemd (`Type=notify`, `WatchdogSec=`) it is the unit's main process, so it
speaks for the kiosk: READY=1 once the first kiosk is ready, the kiosk's WATCHDOG=1 and
STATUS= passed on, and while a (re)started kiosk is still coming up, WATCHDOG=1 of its
own for at most `--ready` seconds (a restart for an update is not a freeze). A kiosk that
froze stops its pings and systemd restarts the whole unit, as before.

A kiosk never outlives its supervisor: on a Pi systemd's cgroup ends both, but a
supervisor killed anywhere else (kill -9, a test) would leave the kiosk running beside the
next one, both driving the same buttons and state folder. So the kiosk is started with
PR_SET_PDEATHSIG: the kernel sends it SIGTERM (it stops cleanly) when the supervisor dies.

Standard library only (and `kiosk.releases.ab`), so a broken release cannot break it: the
image keeps its own copy of the two files outside every release (docs/updates.md).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from kiosk.releases.ab import CURRENT, RESTART, Install

PING_S = 5.0     # WATCHDOG=1 at most this often (the units' WatchdogSec is 30)
PR_SET_PDEATHSIG = 1


def dies_with(parent: int) -> Callable[[], None]:
    """What the child runs before exec: SIGTERM from the kernel when `parent` dies (even
    by kill -9), or at once when it is already gone (it died between fork and here).
    libc is looked up now, in the parent: the child only calls it."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):   # not Linux: systemd's cgroup is all there is
        return lambda: None

    def child() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)
    return child


class Supervisor:
    def __init__(self, root: Path, args: list[str], *, ready_s: float = 30.0,
                 crash_s: float = 60.0) -> None:
        self.install, self.args = Install(root), args
        self.ready_s, self.crash_s = ready_s, crash_s
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.address = f"@pokerkiosk-{os.getpid()}-{secrets.token_hex(4)}"
        self.sock.bind("\0" + self.address[1:])
        self.sock.settimeout(0.2)
        self.child: subprocess.Popen[bytes] | None = None
        self.stopping = False
        self.systemd = os.environ.get("NOTIFY_SOCKET", "")   # where systemd listens, if it does
        self.said_ready = False
        self.pinged = 0.0

    def say(self, text: str) -> None:
        print(f"supervisor: {text}", file=sys.stderr, flush=True)

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self._stop)
        while True:
            code = self.once()
            if self.stopping or code == 0:
                return 0
            if code != RESTART:
                time.sleep(1.0)

    def _stop(self, *_: object) -> None:
        self.stopping = True
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()

    def once(self) -> int:
        """Run `current` once; its exit code (RESTART after a rollback)."""
        exe = self.install.root / CURRENT / "bin" / "pokerkiosk"
        # the unit's PYTHONPATH names this supervisor's own copy, never the release's
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["NOTIFY_SOCKET"] = self.address
        born = time.time()
        self.child = child = subprocess.Popen([str(exe), *self.args], env=env,
                                              preexec_fn=dies_with(os.getpid()))
        started, ready = time.monotonic(), False
        while True:
            age = time.monotonic() - started
            ready = self._hear(ready, age) or ready
            code = child.poll()
            trial = self.install.trial()
            if trial is not None and float(trial.get("at", 0)) > born:
                trial = None       # begun by this child, which is about to exit for it
            if code is not None:
                if trial is not None and code not in (0, RESTART) and not self.stopping:
                    return self._back(f"the new version exited with code {code} after "
                                      f"{age:.0f} s")
                return code
            if trial is None or self.stopping:
                continue
            if not ready and age > self.ready_s:
                child.kill()
                child.wait()
                return self._back(f"the new version did not start within {self.ready_s:.0f} s")
            if ready and age > self.crash_s:
                self.install.keep()
                gone = self.install.prune(float(trial.get("at", 0)))
                self.say(f"version {trial['to']} kept"
                         + (f"; removed {', '.join(gone)}" if gone else ""))

    def _hear(self, ready: bool, age: float) -> bool:
        """One datagram of the kiosk's, passed on to systemd; True once it said READY=1.
        Before that, and for `ready_s` at most, the supervisor pings for it."""
        try:
            lines = self.sock.recv(4096).decode(errors="replace").split("\n")
        except (TimeoutError, BlockingIOError):
            lines = []
        said = "READY=1" in lines
        if said and not self.said_ready:
            self.said_ready = self._tell("READY=1")
        for line in lines:
            if line.startswith("STATUS="):
                self._tell(line)
        alive = "WATCHDOG=1" in lines or said or (not ready and age < self.ready_s)
        if alive and time.monotonic() - self.pinged >= PING_S:
            self.pinged = time.monotonic()
            self._tell("WATCHDOG=1")
        return said

    def _tell(self, line: str) -> bool:
        """One line to systemd's notify socket ('@' names the abstract namespace)."""
        if not self.systemd:
            return False
        where = "\0" + self.systemd[1:] if self.systemd.startswith("@") else self.systemd
        try:
            self.sock.sendto(line.encode(), where)
        except OSError:
            return False
        return True

    def _back(self, reason: str) -> int:
        failed = self.install.roll_back(reason)
        self.say(f"rolled back from {failed}: {reason}")
        return RESTART


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kiosk.releases.supervisor",
                                description=__doc__.splitlines()[0],
                                epilog="then -- and pokerkiosk's arguments")
    p.add_argument("root", help="the install folder (/opt/pokerkiosk)")
    p.add_argument("--ready", type=float, default=30.0, help="seconds to READY=1")
    p.add_argument("--crash", type=float, default=60.0,
                   help="a new kiosk that exits within this many seconds is rolled back")
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    a = p.parse_args(argv[:cut])
    return Supervisor(Path(a.root), argv[cut + 1:], ready_s=a.ready, crash_s=a.crash).run()


if __name__ == "__main__":
    sys.exit(main())
