"""The print queue on disk: every slip is a job in a small SQLite file in the state
folder, written before anyone waits for paper, so a printer that is off, out of paper or
unplugged loses nothing and a restart prints what was waiting. Printed jobs are kept (the
newest KEEP) so the desk can reprint one."""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import msgspec

from kiosk.printer.slip import Slip

KEEP = 500
JobState = Literal["queued", "printed"]
_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, created REAL NOT NULL, state TEXT NOT NULL,
  kind TEXT NOT NULL, title TEXT NOT NULL, event TEXT NOT NULL, slip BLOB NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0, error TEXT NOT NULL DEFAULT '', printed REAL)
"""


@dataclass(frozen=True)
class Job:
    id: int
    created: float
    state: JobState
    slip: Slip
    tries: int = 0
    error: str = ""
    printed: float | None = None

    def summary(self) -> dict[str, object]:
        """The job as the dashboard lists it (no slip body)."""
        return {"id": self.id, "created": self.created, "state": self.state,
                "kind": self.slip.kind, "title": self.slip.title, "event": self.slip.event,
                "tries": self.tries, "error": self.error, "printed": self.printed}


class JobStore:
    """Jobs in order; safe to use from the loop thread and the printing thread."""

    def __init__(self, path: str | Path) -> None:
        self._lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(_SCHEMA)

    def add(self, slip: Slip, now: float | None = None) -> int:
        with self._lock:
            cur = self.db.execute(
                "INSERT INTO jobs (created, state, kind, title, event, slip) "
                "VALUES (?, 'queued', ?, ?, ?, ?)",
                (time.time() if now is None else now, slip.kind, slip.title, slip.event,
                 msgspec.json.encode(slip)))
            return int(cur.lastrowid or 0)

    def next_queued(self) -> Job | None:
        return next(iter(self._select("WHERE state = 'queued' ORDER BY id LIMIT 1")), None)

    def get(self, job: int) -> Job | None:
        return next(iter(self._select("WHERE id = ?", (job,))), None)

    def recent(self, limit: int = 50) -> list[Job]:
        """Waiting jobs first (oldest first), then the latest printed."""
        return (self._select("WHERE state = 'queued' ORDER BY id")
                + self._select("WHERE state = 'printed' ORDER BY id DESC LIMIT ?", (limit,)))

    def waiting(self) -> int:
        with self._lock:
            return int(self.db.execute(
                "SELECT count(*) FROM jobs WHERE state = 'queued'").fetchone()[0])

    def printed(self, job: int, now: float | None = None, error: str = "") -> None:
        """Done with `job` (printed; or, with `error`, given up: the slip was unprintable)."""
        with self._lock:
            self.db.execute("UPDATE jobs SET state = 'printed', printed = ?, error = ?, "
                            "tries = tries + 1 WHERE id = ?",
                            (time.time() if now is None else now, error, job))
            self.db.execute("DELETE FROM jobs WHERE state = 'printed' AND id <= "
                            "(SELECT id FROM jobs WHERE state = 'printed' ORDER BY id DESC "
                            "LIMIT 1 OFFSET ?)", (KEEP,))

    def failed(self, job: int, error: str) -> None:
        with self._lock:
            self.db.execute("UPDATE jobs SET tries = tries + 1, error = ? WHERE id = ?",
                            (error, job))

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def _select(self, where: str, args: tuple[object, ...] = ()) -> list[Job]:
        with self._lock:
            rows = self.db.execute(
                f"SELECT id, created, state, slip, tries, error, printed FROM jobs {where}",
                args).fetchall()
        return [Job(id=r[0], created=r[1], state=r[2], slip=msgspec.json.decode(r[3], type=Slip),
                    tries=r[4], error=r[5], printed=r[6]) for r in rows]
