"""The event log: SQLite, append-only, WAL with synchronous FULL; rows are typed events.

An event is on disk (fsynced) before anything derived from it is published, so a
director killed at any instant restarts from the log and publishes the same state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kiosk.core import events as ev_
from kiosk.core.events import Event
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
                            "seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, body BLOB NOT NULL, "
                            f"v INTEGER NOT NULL DEFAULT {ev_.SCHEMA})")
            cols = [r[1] for r in self.db.execute("PRAGMA table_info(events)")]
            if "v" not in cols:   # a log from before rows carried their schema version
                self.db.execute("ALTER TABLE events ADD COLUMN v INTEGER NOT NULL DEFAULT 1")
        except sqlite3.DatabaseError as exc:
            raise KioskError(f"event log {self.path}: {exc}") from None
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        self.last_seq: int = row[0]

    def append(self, events: Sequence[Event | dict[str, Any]]) -> int:
        """Write `events` in one transaction; returns the seq of the last one.

        Each is checked against its declared schema first (EventError names the one that
        does not fit), so nothing that a replay could not read is ever written."""
        rows = []
        for e in events:
            ev = ev_.coerce(e)
            rows.append((ev.kind, ev_.check(ev)))
        return self.append_rows(rows)

    def append_rows(self, rows: list[tuple[str, bytes]]) -> int:
        """Write already checked (kind, JSON) rows in one transaction."""
        if not rows:
            return self.last_seq
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany(f"INSERT INTO events(kind, body, v) VALUES (?, ?, {ev_.SCHEMA})",
                                rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.last_seq += len(rows)
        return self.last_seq

    def read(self, after: int = 0, batch: int = 20000) -> Iterator[Event]:
        """Every event after `after`, in order, typed, streamed so a long log needs no
        copy. Rows of today's schema are decoded a batch at a time (one JSON array, one
        call into msgspec); rows of an older schema are upcast one by one."""
        cur = self.db.execute("SELECT body, v FROM events WHERE seq > ? ORDER BY seq", (after,))
        while rows := cur.fetchmany(batch):
            if all(v == ev_.SCHEMA for _body, v in rows):
                yield from ev_.decode_many([body for body, _v in rows])
            else:
                for body, v in rows:
                    yield ev_.decode(body, v)

    def __len__(self) -> int:
        return self.last_seq

    def close(self) -> None:
        self.db.close()
