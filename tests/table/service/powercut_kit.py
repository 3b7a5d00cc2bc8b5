"""`pokerkiosk table --headless` as a child process driven over stdin, queuing reports
while its broker is away: the power-cut and full-disk tests read what it kept."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from table_helpers import plan, schedule, table_toml
from waiting import wait_for

from kiosk.protocol.topics import Topics

TOPICS = Topics("test")
PYTHON = sys.executable


class Kiosk:
    """`pokerkiosk table --headless` as a subprocess, driven over stdin."""

    def __init__(self, config: Path) -> None:
        self.proc = subprocess.Popen(
            [PYTHON, "-m", "kiosk", "table", "--config", str(config), "--headless"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        wait_for(lambda: any("ready" in line for line in self.lines), timeout=20)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def send(self, command: str) -> dict[str, Any]:
        n = len(self.lines)
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        wait_for(lambda: len(self.lines) > n, timeout=10)
        return json.loads(self.lines[n])

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def offline_kiosk(broker, observer, tmp_path: Path, state: Path) -> Kiosk:  # type: ignore[no-untyped-def]
    """A headless kiosk on table 3 that took its plan, then lost its broker."""
    config = tmp_path / "table.toml"
    config.write_text(table_toml(str(state), broker.port))
    sub = observer(TOPICS.report(3))
    sub.publish(TOPICS.schedule("test"), schedule(anchor=time.time()), retain=True)
    sub.publish(TOPICS.plan(3), plan(rev=1), retain=True)
    kiosk = Kiosk(config)
    wait_for(lambda: not kiosk.send("view")["offline"] and kiosk.send("view")["seats"])
    broker.stop()
    wait_for(lambda: kiosk.send("view")["offline"])
    return kiosk


def queued(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute("SELECT id FROM outbox ORDER BY seq")]
