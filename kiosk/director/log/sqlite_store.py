"""The log on SQLite: one file, append-only, WAL with synchronous FULL (the default store).

An event is on disk (fsynced) before anything derived from it is published, so a director
killed at any instant restarts from the file and publishes the same state.

A file from before streams (no `stream` column) is migrated in place, in one transaction:
its rows become the stream named after the event in its first `created` row. A file from
before the schema version table gets one (version 1: the shape it already has).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec

from kiosk.base.errors import KioskError
from kiosk.config.database import STORE_SCHEMA, schema_error
from kiosk.core.model import events as ev_
from kiosk.director.log.logstore import FullRow, LogStore, Row, Snapshot

_SCHEMA = ("CREATE TABLE IF NOT EXISTS events ("
           "seq INTEGER PRIMARY KEY, stream TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL, "
           f"body BLOB NOT NULL, v INTEGER NOT NULL DEFAULT {ev_.SCHEMA})")
_INDEX = "CREATE INDEX IF NOT EXISTS events_stream_seq ON events(stream, seq)"
SNAPSHOTS_SCHEMA = ("CREATE TABLE IF NOT EXISTS snapshots (stream TEXT NOT NULL DEFAULT '', "
                    "seq INTEGER NOT NULL, version TEXT NOT NULL, state BLOB NOT NULL, "
                    "PRIMARY KEY (stream, seq))")
_VERSION = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
# every distinct stream in O(streams * log rows), through the index
_STREAMS = ("WITH RECURSIVE s(x) AS (SELECT MIN(stream) FROM events UNION ALL "
            "SELECT (SELECT MIN(stream) FROM events WHERE stream > x) FROM s "
            "WHERE x IS NOT NULL) SELECT x FROM s WHERE x IS NOT NULL")


class SqliteStore(LogStore):
    """Every stream of a room in one SQLite file."""

    backend = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise KioskError(f"event log {self.path}: {exc}") from None
        self._init_positions()

    # ------------------------------------------------------------------ schema
    def schema_version(self) -> int:
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master "
                                                "WHERE type = 'table'")}
        if "schema_version" not in tables:
            return 0
        row = self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def _migrate(self) -> None:
        """Create the schema, or bring an older file up to it in one transaction. A file
        already up to date is only read (no write lock, so readers never wait on it)."""
        version = self.schema_version()
        if version > STORE_SCHEMA:
            raise schema_error(self.path, version)
        if version == STORE_SCHEMA:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(_SCHEMA)
            cols = {r[1] for r in self.db.execute("PRAGMA table_info(events)")}
            if "v" not in cols:   # a log from before rows carried their schema version
                self.db.execute("ALTER TABLE events ADD COLUMN v INTEGER NOT NULL DEFAULT 1")
            if "stream" not in cols:   # a log of one event, from before streams
                name = self._first_event_name()
                self.db.execute("ALTER TABLE events ADD COLUMN stream TEXT NOT NULL DEFAULT ''")
                self.db.execute("UPDATE events SET stream = ?", (name,))
                self._migrate_snapshots(name)
            self.db.execute(_INDEX)
            self.db.execute(SNAPSHOTS_SCHEMA)
            self.db.execute(_VERSION)
            self.db.execute("DELETE FROM schema_version")
            self.db.execute("INSERT INTO schema_version VALUES (?)", (STORE_SCHEMA,))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _first_event_name(self) -> str:
        row = self.db.execute("SELECT body FROM events WHERE kind = 'created' "
                              "ORDER BY seq LIMIT 1").fetchone()
        if row is None:
            return ""
        try:
            return str(msgspec.json.decode(row[0])["event"])
        except (msgspec.DecodeError, KeyError, TypeError):
            raise KioskError(f"event log {self.path}: its first 'created' row names no event; "
                             "cannot migrate it") from None

    def _migrate_snapshots(self, name: str) -> None:
        """Snapshots of a one-event file become that stream's snapshots."""
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master "
                                                "WHERE type = 'table'")}
        if "snapshots" not in tables:
            return
        self.db.execute("ALTER TABLE snapshots RENAME TO snapshots_old")
        self.db.execute(SNAPSHOTS_SCHEMA)
        self.db.execute("INSERT INTO snapshots(stream, seq, version, state) "
                        "SELECT ?, seq, version, state FROM snapshots_old", (name,))
        self.db.execute("DROP TABLE snapshots_old")

    # ------------------------------------------------------------------ primitives
    def _max_seq(self, stream: str | None, upto: int) -> int:
        if stream is None:
            return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events "
                                       "WHERE seq <= ?", (upto,)).fetchone()[0])
        return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE stream = ? "
                                   "AND seq <= ?", (stream, upto)).fetchone()[0])

    def _count_rows(self, stream: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM events WHERE stream = ? AND seq <= ?",
                                   (stream, self.horizon)).fetchone()[0])

    def streams(self) -> list[str]:
        return [r[0] for r in self.db.execute(_STREAMS)]

    def _insert(self, batches: list[tuple[str, list[Row]]]) -> int:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for stream, rs in batches:
                self.db.executemany("INSERT INTO events(stream, kind, body, v) "
                                    f"VALUES (?, ?, ?, {ev_.SCHEMA})",
                                    [(stream, kind, body) for kind, body in rs])
            last = int(self.db.execute("SELECT MAX(seq) FROM events").fetchone()[0])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return last

    def _rows(self, stream: str, after: int, batch: int) -> Iterator[list[tuple[bytes, int]]]:
        cur = self.db.execute("SELECT body, v FROM events WHERE stream = ? AND seq > ? "
                              "AND seq <= ? ORDER BY seq", (stream, after, self.horizon))
        while rows := cur.fetchmany(batch):
            yield rows

    def all_rows(self, after: int = 0, batch: int = 20000) -> Iterator[list[FullRow]]:
        cur = self.db.execute("SELECT seq, stream, kind, body, v FROM events WHERE seq > ? "
                              "ORDER BY seq", (after,))
        while rows := cur.fetchmany(batch):
            yield rows

    def put_rows(self, rows: Iterable[FullRow]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany("INSERT INTO events(seq, stream, kind, body, v) "
                                "VALUES (?, ?, ?, ?, ?)", rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.forget_positions()

    # ------------------------------------------------------------------ snapshots
    def snapshot_seq(self, stream: str) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM snapshots WHERE stream = ?",
                              (stream,)).fetchone()
        return int(row[0])

    def save_snapshot(self, stream: str, seq: int, version: str, state: bytes) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("INSERT OR REPLACE INTO snapshots(stream, seq, version, state) "
                            "VALUES (?, ?, ?, ?)", (stream, seq, version, state))
            self.db.execute("DELETE FROM snapshots WHERE stream = ? AND seq < ?", (stream, seq))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def load_snapshot(self, stream: str, version: str) -> tuple[int, bytes] | None:
        row = self.db.execute("SELECT seq, state FROM snapshots WHERE stream = ? AND "
                              "version = ? ORDER BY seq DESC LIMIT 1",
                              (stream, version)).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def snapshots(self) -> list[Snapshot]:
        return [(s, q, v, bytes(b)) for s, q, v, b in self.db.execute(
            "SELECT stream, seq, version, state FROM snapshots ORDER BY stream, seq")]

    def close(self) -> None:
        self.db.close()
