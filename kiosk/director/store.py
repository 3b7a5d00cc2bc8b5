"""The event log: SQLite, append-only, WAL with synchronous FULL.

An event is on disk (fsynced) before anything derived from it is published, so a
director killed at any instant restarts from the log and publishes the same state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from kiosk.errors import KioskError


class EventLog:
    """Append-only sequence of JSON events; `seq` is the log position (1-based)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("CREATE TABLE IF NOT EXISTS events ("
                            "seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, body BLOB NOT NULL)")
        except sqlite3.DatabaseError as exc:
            raise KioskError(f"event log {self.path}: {exc}") from None
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        self.last_seq: int = row[0]

    def append(self, events: list[dict[str, Any]]) -> int:
        """Write `events` in one transaction; returns the seq of the last one."""
        if not events:
            return self.last_seq
        rows = [(e["kind"], orjson.dumps(e)) for e in events]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany("INSERT INTO events(kind, body) VALUES (?, ?)", rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.last_seq += len(rows)
        return self.last_seq

    def read(self, after: int = 0, batch: int = 20000) -> Iterator[dict[str, Any]]:
        """Every event after `after`, in order, streamed so a long log needs no copy."""
        loads = orjson.loads
        cur = self.db.execute("SELECT body FROM events WHERE seq > ? ORDER BY seq", (after,))
        while rows := cur.fetchmany(batch):
            for (body,) in rows:
                yield loads(body)

    def __len__(self) -> int:
        return self.last_seq

    def close(self) -> None:
        self.db.close()
