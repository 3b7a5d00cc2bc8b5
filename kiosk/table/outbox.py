"""The table's on-disk outbox and state store (SQLite, WAL, synchronous FULL).

A report is committed here before it is published and deleted only when the
director's ack names it, so a power cut or a broker outage loses nothing. The last
schedule, plan and seating directory and the controller's hand state are kept too,
so a kiosk that restarts offline still shows the clock and the seats.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kiosk.lang.active import N_
from kiosk.protocol.messages import encode

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    payload BLOB NOT NULL,
    created REAL NOT NULL,
    sent_at REAL,                        -- last publish attempt, NULL = never
    delivered INTEGER NOT NULL DEFAULT 0,  -- the broker took it (PUBACK)
    attempts INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class StorageFull(Exception):
    """The state folder took no write (its disk is full, or failing). What is on disk
    stays; what was being written is not there."""


FULL_CODES = {"SQLITE_FULL", "SQLITE_IOERR", "SQLITE_IOERR_WRITE", "SQLITE_IOERR_FSYNC",
              "SQLITE_IOERR_SHMSIZE", "SQLITE_IOERR_TRUNCATE", "SQLITE_CANTOPEN"}


@contextmanager
def storing(path: str) -> Iterator[None]:
    """Turn SQLite's "disk is full" (and the I/O errors a full disk gives) into
    `StorageFull`, naming the folder and its free space."""
    try:
        yield
    except (sqlite3.OperationalError, OSError) as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name not in FULL_CODES and getattr(exc, "errno", None) != errno.ENOSPC:
            raise
        folder = os.path.dirname(path) or "."
        try:
            st = os.statvfs(folder)
            free = f"{st.f_bavail * st.f_frsize // 1024} KiB free"
        except OSError:
            free = "free space unknown"
        what = N_("DISK FULL") if name == "SQLITE_FULL" or "full" in str(exc) else \
            N_("DISK ERROR")      # the screen says it in the dealer's language
        raise StorageFull(f"{what}: {folder} ({free}): {exc}") from exc


class Outbox:
    """Reports waiting for the director's ack, plus small JSON state; thread-safe."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # reports
    def add(self, report: dict[str, Any], state: Any = None) -> bytes:
        """Commit one report, the seq counter and (when given) the controller state that
        made it, in one transaction, before anyone publishes it: a power cut leaves
        either both or neither."""
        return self.add_all([report], state)[0]

    def add_all(self, reports: list[dict[str, Any]], state: Any = None) -> list[bytes]:
        """`add` for the reports of one action, in one transaction: all or none (a full
        disk raises `StorageFull` and leaves what was there)."""
        payloads = [encode({k: v for k, v in r.items() if k != "v"}) for r in reports]
        with self._lock, storing(self.path), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            for report, payload in zip(reports, payloads, strict=True):
                self._db.execute("INSERT OR IGNORE INTO outbox (id, seq, payload, created) "
                                 "VALUES (?, ?, ?, ?)",
                                 (report["id"], report["seq"], payload, report["ts"]))
                self._db.execute("INSERT INTO state (key, value) VALUES ('seq', ?) "
                                 "ON CONFLICT(key) DO UPDATE SET "
                                 "value = max(CAST(value AS INTEGER), excluded.value)",
                                 (str(report["seq"]),))
            if state is not None:
                self._db.execute("INSERT INTO state (key, value) VALUES ('controller', ?) "
                                 "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                                 (json.dumps(state),))
        return payloads

    def unsent(self) -> list[tuple[str, bytes]]:
        """Reports the broker has not taken yet, oldest first: sent on (re)connect."""
        with self._lock:
            return self._db.execute("SELECT id, payload FROM outbox WHERE delivered = 0 "
                                    "ORDER BY seq").fetchall()

    def unacked(self) -> list[tuple[str, bytes]]:
        """Every report the director has not acked, oldest first: sent again on a broker
        the table has just moved to."""
        with self._lock:
            return self._db.execute("SELECT id, payload FROM outbox ORDER BY seq").fetchall()

    def due(self, now: float, after: float) -> list[tuple[str, bytes]]:
        """Reports published more than `after` seconds ago and still not acked."""
        with self._lock:
            return self._db.execute("SELECT id, payload FROM outbox WHERE sent_at IS NOT NULL "
                                    "AND sent_at < ? ORDER BY seq", (now - after,)).fetchall()

    def mark_sent(self, rid: str, now: float) -> None:
        with self._lock, storing(self.path), self._db:
            self._db.execute("UPDATE outbox SET sent_at = ?, attempts = attempts + 1 "
                             "WHERE id = ?", (now, rid))

    def mark_delivered(self, rid: str) -> None:
        with self._lock, storing(self.path), self._db:
            self._db.execute("UPDATE outbox SET delivered = 1 WHERE id = ?", (rid,))

    def ack(self, ids: list[str]) -> int:
        """Drop reports the director has applied; returns how many were ours."""
        if not ids:
            return 0
        with self._lock, storing(self.path), self._db:
            cur = self._db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])
            return cur.rowcount

    def pending_count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM outbox").fetchone()[0]

    def pending_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM outbox ORDER BY seq")]

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT value FROM state WHERE key = 'seq'").fetchone()
            top = self._db.execute("SELECT max(seq) FROM outbox").fetchone()[0]
        return max(int(row[0]) if row else 0, top or 0)

    # state
    def put(self, key: str, value: Any) -> None:
        with self._lock, storing(self.path), self._db:
            self._db.execute("INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) "
                             "DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def values(self, prefix: str) -> list[Any]:
        """Every stored value whose key starts with `prefix` (one per event, say)."""
        with self._lock:
            rows = self._db.execute("SELECT value FROM state WHERE substr(key, 1, ?) = ? "
                                    "ORDER BY key", (len(prefix), prefix)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def get(self, key: str, default: Any = None) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default
