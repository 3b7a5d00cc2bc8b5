"""`python -m kiosk.releases.supervisor ROOT -- pokerkiosk-args...`: the unit of a table
kiosk, or of a director that updates itself.

It runs `ROOT/current/bin/pokerkiosk ARGS`, hands it a notify socket as systemd would,
and restarts it when it exits (at once for the updater's RESTART code, after a second
for a crash). While a switch is on trial it is also the judge: a new kiosk that does not
say READY=1 within `--ready` seconds, or exits within `--crash` seconds, is stopped and
`current` goes back to the previous environment, with the reason written for the old
kiosk to report. Standard library only, so a broken release cannot break it; systemd
runs it (docs/updates.md) and restarts it if it dies.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from kiosk.releases.ab import CURRENT, RESTART, Install


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
        env = {**os.environ, "NOTIFY_SOCKET": self.address}
        born = time.time()
        self.child = child = subprocess.Popen([str(exe), *self.args], env=env)
        started, ready = time.monotonic(), False
        while True:
            ready = self._ready() or ready
            code = child.poll()
            age = time.monotonic() - started
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
                self.say(f"version {trial['to']} kept")

    def _ready(self) -> bool:
        try:
            data = self.sock.recv(4096)
        except (TimeoutError, BlockingIOError):
            return False
        return b"READY=1" in data.split(b"\n")

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
