"""A power cut: `kill -9` a headless kiosk with reports queued; nothing is lost."""

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


def test_kill_minus_nine_with_queued_reports_loses_nothing(broker, observer, tmp_path) -> None:
    config = tmp_path / "table.toml"
    kiosk = offline_kiosk(broker, observer, tmp_path, tmp_path / "state")
    try:
        replies = [kiosk.send(c) for c in ("new", "allin 3", "end", "floor", "bust 3 15000")]
        assert [r["ok"] for r in replies] == [True] * 5, replies
        ids = [r["report"] for r in replies]
    finally:
        kiosk.kill9()                                   # no goodbye, no flush
    db = tmp_path / "state" / "table-3.db"
    assert queued(db) == ids                            # committed before the cut

    broker.start()
    sub = observer(TOPICS.report(3))
    sub.ack_reports(TOPICS.ack(3))
    kiosk = Kiosk(config)
    try:
        wait_for(lambda: set(ids) <= set(sub.count(TOPICS.report(3))), timeout=20)
        wait_for(lambda: queued(db) == [], timeout=10)  # all acked, outbox empty
        assert all(sub.count(TOPICS.report(3))[i] == 1 for i in ids)
        bust = next(m for m in sub.on(TOPICS.report(3)) if m["id"] == ids[-1])
        assert bust["data"] == {"seat": 3, "player": "p3", "stack": 15000}
        view = kiosk.send("view")                       # hand count survived the restart
        assert view["hand"] == 1 and not view["in_hand"] and view["level"] == "Level 1"
        nxt = kiosk.send("new")
        assert nxt["ok"]
        msg = wait_for(lambda: [m for m in sub.on(TOPICS.report(3)) if m["id"] == nxt["report"]])
        assert msg[0]["seq"] == 6 and msg[0]["data"]["hand"] == 2
    finally:
        kiosk.proc.terminate()
        kiosk.proc.wait(10)
