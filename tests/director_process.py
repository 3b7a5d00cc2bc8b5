"""`pokerkiosk director` as a child process, for tests that kill it for real."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from waiting import STARTUP_S, eventually

from kiosk.config import floor_users as floor_logins
from kiosk.mqtt.broker import Mosquitto, free_port, stop_process


class DirectorProcess:
    """`pokerkiosk director` as a child process, so a test can kill -9 it for real."""

    def __init__(self, workdir: Path, broker: Mosquitto, *, name: str = "test-event",
                 profile: str = "tda-2017", structure: str = "turbo", seed: int = 7,
                 players: int = 0, web: bool = False, floor_users: dict[str, str] | None = None,
                 seats: int = 9, extra_toml: str = "", start_stack: int = 20000,
                 brokers: list[Mosquitto] | None = None, db: str = "event.db",
                 standby: bool = False) -> None:
        self.dir = workdir
        self.db_setting = db
        self.standby = standby
        self.http_port = free_port()
        floor_logins.save(workdir / floor_logins.FILE, {
            u: floor_logins.hash_password(p) for u, p in (floor_users or {}).items()})
        self.config = workdir / "event.toml"
        where = (f'url = "mqtt://127.0.0.1:{broker.port}"' if brokers is None else "urls = ["
                 + ", ".join(f'"mqtt://127.0.0.1:{b.port}"' for b in brokers) + "]")
        self.config.write_text(
            f'[event]\nname = "{name}"\nprofile = "{profile}"\nstructure = "{structure}"\n'
            f"seats = {seats}\nseed = {seed}\nbuy_in = 100\nstart_stack = {start_stack}\n\n"
            f"[broker]\n{where}\n\n"
            f'[director]\ndb = "{db}"\nhttp = "127.0.0.1:{self.http_port}"\n\n'
            f"{extra_toml}")
        self.players_csv = workdir / "players.csv"
        self.players_csv.write_text("name,card\n" + "".join(
            f"Player {i + 1},C{i + 1:04d}\n" for i in range(players)))
        self.web = web
        self.log_path = workdir / "director.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.name = name

    @property
    def db(self) -> Path:
        return self.dir / self.db_setting

    def command(self, start_event: bool = True) -> list[str]:
        """The command line `start` runs."""
        cmd = [sys.executable, "-m", "kiosk", "director", "--config", str(self.config),
               "--players", str(self.players_csv)]
        if start_event:
            cmd.append("--start")
        if not self.web:
            cmd.append("--no-web")
        if self.standby:
            cmd.append("--standby")
        return cmd

    def start(self, start_event: bool = True) -> DirectorProcess:
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as out:
            self.proc = subprocess.Popen(self.command(start_event), stdout=out, stderr=out)
        # a loaded CI machine can take its time to import, fold the log and connect
        self.wait_log("standby of room" if self.standby else "connected to",
                      timeout=STARTUP_S, start=offset)
        return self

    def run_to_exit(self, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        """Run the director expecting it to stop by itself (a mistake in its setup): its
        exit code and what it printed."""
        return subprocess.run(self.command(), capture_output=True, text=True,
                              timeout=timeout, check=False)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_log(self, text: str, timeout: float = 30.0, start: int = 0) -> None:
        def seen() -> bool:
            if text in self.log_text()[start:]:
                return True
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"director exited: {self.log_text()[-2000:]}")
            return False

        if not eventually(seen, True, timeout):
            raise AssertionError(f"{text!r} not in director log: {self.log_text()[-2000:]}")

    def internal_errors(self) -> int:
        """Bugs this director met (commands refused as internal errors): what its
        /api/health counts while it serves the dashboard, and at least what its log
        records over every run (a killed or restarted one, one without a dashboard)."""
        logged = self.log_text().count("internal error in ") if self.log_path.exists() else 0
        if not self.web or self.proc is None or self.proc.poll() is not None:
            return logged
        url = f"http://127.0.0.1:{self.http_port}/api/health"
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                served = int(json.load(r)["internal_errors"])
        except OSError:   # not serving (yet, or any more): the log still tells
            return logged
        return max(logged, served)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        stop_process(self.proc, grace=10)
        self.proc = None
