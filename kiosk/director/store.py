"""The store: one SQLite file, append-only, WAL with synchronous FULL; rows are typed events.

Every row belongs to a stream (one per event, and `room` for the room itself) and carries a
global `seq`, so a command that touches several events (a ticket into a target, Day 2 from
its flights, a table moving) is one transaction over several streams, and the file replays
in the order it was decided. An event is on disk (fsynced) before anything derived from it
is published, so a director killed at any instant restarts from the file and publishes the
same state.

A file from before streams (no `stream` column) is migrated in place, in one transaction:
its rows become the stream named after the event in its first `created` row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from kiosk.core import events as ev_
from kiosk.core.events import Event
from kiosk.errors import KioskError

ROOM_STREAM = "room"
Row = tuple[str, bytes]

_SCHEMA = ("CREATE TABLE IF NOT EXISTS events ("
           "seq INTEGER PRIMARY KEY, stream TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL, "
           f"body BLOB NOT NULL, v INTEGER NOT NULL DEFAULT {ev_.SCHEMA})")
_INDEX = "CREATE INDEX IF NOT EXISTS events_stream_seq ON events(stream, seq)"
# every distinct stream in O(streams * log rows), through the index
_STREAMS = ("WITH RECURSIVE s(x) AS (SELECT MIN(stream) FROM events UNION ALL "
            "SELECT (SELECT MIN(stream) FROM events WHERE stream > x) FROM s "
            "WHERE x IS NOT NULL) SELECT x FROM s WHERE x IS NOT NULL")


class Store:
    """Every stream of a room in one file; `last_seq` is the global position (1-based)."""

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
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        self.last_seq: int = row[0]
        self._last: dict[str, int] = {}      # stream -> seq of its last row
        self._count: dict[str, int] = {}     # stream -> rows, once asked

    # ------------------------------------------------------------------ schema
    def _migrate(self) -> None:
        """Create the schema, or bring an older file up to it in one transaction. A file
        already up to date is only read (no write lock, so readers never wait on it)."""
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(events)")}
        index = self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' "
                                "AND name = 'events_stream_seq'").fetchone()
        if {"stream", "v"} <= cols and index is not None:
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

    # ------------------------------------------------------------------ streams
    def stream(self, name: str) -> EventLog:
        """A view of one stream: append, read and last_seq scoped to it."""
        return EventLog(self, name)

    def streams(self) -> list[str]:
        """Every stream that holds at least one row, sorted."""
        return [r[0] for r in self.db.execute(_STREAMS)]

    def event_streams(self) -> list[str]:
        """The streams of events (every one but the room's own)."""
        return [s for s in self.streams() if s != ROOM_STREAM]

    def last_of(self, stream: str) -> int:
        """The global seq of `stream`'s last row (0 when it has none)."""
        last = self._last.get(stream)
        if last is None:
            row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE stream = ?",
                                  (stream,)).fetchone()
            last = self._last[stream] = row[0]
        return last

    def count_of(self, stream: str) -> int:
        """How many rows `stream` holds."""
        n = self._count.get(stream)
        if n is None:
            row = self.db.execute("SELECT COUNT(*) FROM events WHERE stream = ?",
                                  (stream,)).fetchone()
            n = self._count[stream] = row[0]
        return n

    # ------------------------------------------------------------------ writing
    def append_many(self, rows: Mapping[str, Sequence[Row]]) -> int:
        """Write already checked (kind, JSON) rows of several streams in ONE transaction:
        all of them or, if any fails, none. Returns the global seq of the last row."""
        batches = [(stream, list(rs)) for stream, rs in rows.items() if rs]
        if not batches:
            return self.last_seq
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for stream, rs in batches:
                self.db.executemany("INSERT INTO events(stream, kind, body, v) "
                                    f"VALUES (?, ?, ?, {ev_.SCHEMA})",
                                    [(stream, kind, body) for kind, body in rs])
            last = self.db.execute("SELECT MAX(seq) FROM events").fetchone()[0]
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self._advance(batches, last)
        return last

    def append(self, events: Mapping[str, Sequence[Event | dict[str, Any]]]) -> int:
        """Check then write events of several streams in one transaction (see append_many).

        Each is checked against its declared schema first (EventError names the one that
        does not fit), so nothing that a replay could not read is ever written."""
        return self.append_many({s: [_row(e) for e in evs] for s, evs in events.items()})

    def _advance(self, batches: list[tuple[str, list[Row]]], last: int) -> None:
        """Positions after a commit: rows got consecutive seqs after the previous end."""
        total = sum(len(rs) for _s, rs in batches)
        seq = last - total
        for stream, rs in batches:
            seq += len(rs)
            self._last[stream] = seq
            if stream in self._count:
                self._count[stream] += len(rs)
        self.last_seq = last

    # ------------------------------------------------------------------ reading
    def read(self, stream: str, after: int = 0, batch: int = 20000) -> Iterator[Event]:
        """Every event of `stream` after global seq `after`, in order, typed, streamed so
        a long log needs no copy. Rows of today's schema are decoded a batch at a time
        (one JSON array, one call into msgspec); rows of an older schema are upcast one
        by one."""
        cur = self.db.execute("SELECT body, v FROM events WHERE stream = ? AND seq > ? "
                              "ORDER BY seq", (stream, after))
        while rows := cur.fetchmany(batch):
            if all(v == ev_.SCHEMA for _body, v in rows):
                yield from ev_.decode_many([body for body, _v in rows])
            else:
                for body, v in rows:
                    yield ev_.decode(body, v)

    def close(self) -> None:
        self.db.close()


SNAPSHOTS_SCHEMA = ("CREATE TABLE IF NOT EXISTS snapshots (stream TEXT NOT NULL DEFAULT '', "
                    "seq INTEGER NOT NULL, version TEXT NOT NULL, state BLOB NOT NULL, "
                    "PRIMARY KEY (stream, seq))")


def _row(e: Event | dict[str, Any]) -> Row:
    ev = ev_.coerce(e)
    return ev.kind, ev_.check(ev)


class EventLog:
    """One stream of a store: append-only typed events; `seq` is the global position.

    `EventLog(path)` opens a file of its own and the stream `""`, "the only event": the one
    event stream the file holds, or, in a new file, the stream named after the event whose
    `created` row is written first. Several events in one file are read through
    `Store(path).stream(name)` instead."""

    def __init__(self, path: str | Path | Store, stream: str = "") -> None:
        self._owned = not isinstance(path, Store)
        self.store = path if isinstance(path, Store) else Store(path)
        self.path = self.store.path
        self.db = self.store.db
        self.stream = stream or self._only_event()

    def _only_event(self) -> str:
        names = self.store.event_streams()
        if len(names) > 1:
            raise KioskError(f"event log {self.path} holds several events "
                             f"({', '.join(names)}); name the one to read")
        return names[0] if names else ""

    @property
    def last_seq(self) -> int:
        """The global seq of this stream's last event (0 before the first)."""
        return self.store.last_of(self.stream)

    def append(self, events: Sequence[Event | dict[str, Any]]) -> int:
        """Check then write `events` in one transaction; returns the seq of the last one.

        Each is checked against its declared schema first (EventError names the one that
        does not fit), so nothing that a replay could not read is ever written."""
        return self.append_rows([_row(e) for e in events])

    def append_rows(self, rows: list[Row]) -> int:
        """Write already checked (kind, JSON) rows in one transaction."""
        if not rows:
            return self.last_seq
        if not self.stream and self.store.last_of("") == 0 and rows[0][0] == "created":
            self.stream = str(msgspec.json.decode(rows[0][1])["event"])   # a new file
        return self.store.append_many({self.stream: rows})

    def read(self, after: int = 0, batch: int = 20000) -> Iterator[Event]:
        """Every event of this stream after global seq `after`, in order (Store.read)."""
        return self.store.read(self.stream, after, batch)

    def __len__(self) -> int:
        return self.store.count_of(self.stream)

    def close(self) -> None:
        """Close the file if this view opened it (a Store's views share its connection)."""
        if self._owned:
            self.store.close()
