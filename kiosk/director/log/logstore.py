"""The log store's interface: what the director needs of a database, on any backend.

A room's log is rows of typed events in streams, with one global `seq`; snapshots of each
stream's fold sit beside them; a schema version table says which shape the database has.
Two implementations hold it: SQLite (kiosk.director.log.sqlite_store, the default: one file,
nothing to install) and PostgreSQL (kiosk.director.log.pg_store: a log that outlives the
director's machine and can be replicated). Both write a batch of every stream in one
transaction, and both hand rows back in seq order, so the director cannot tell them apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from kiosk.base.errors import KioskError, RuleError
from kiosk.core.model import events as ev_
from kiosk.core.model.events import Event

ROOM_STREAM = "room"
Row = tuple[str, bytes]     # (kind, JSON body), already checked
# one stored row as it is copied between backends: (seq, stream, kind, body, v)
FullRow = tuple[int, str, str, bytes, int]
Snapshot = tuple[str, int, str, bytes]   # (stream, seq, code version, pickled state)
NO_BOUND = 2**62


class Fenced(RuleError):
    """An append refused because this director no longer holds the room's lease (a
    refusal like a rule's: nothing was written, the caller's state is not the log's)."""


def to_row(e: Event | dict[str, Any]) -> Row:
    ev = ev_.coerce(e)
    return ev.kind, ev_.check(ev)


class LogStore:
    """Every stream of a room; `last_seq` is the global position (1-based).

    A backend supplies the SQL-shaped primitives (`_insert`, `_rows`, `_scalar`...); the
    bookkeeping of positions and the typed decoding are shared here."""

    backend = ""
    path = ""            # how the log is named in messages (a DSN without its password)
    last_seq = 0
    # reads stop here: a standby loads every stream as of one position, while the
    # leader goes on writing, then follows from exactly that position
    horizon = NO_BOUND

    def _init_positions(self) -> None:
        self.last_seq = self._max_seq(None, self.horizon)
        self._last: dict[str, int] = {}      # stream -> seq of its last row
        self._count: dict[str, int] = {}     # stream -> rows, once asked

    # ------------------------------------------------------------ backend primitives
    def _max_seq(self, stream: str | None, upto: int) -> int:
        """The highest seq up to `upto` of `stream`, or of the whole log for None (0 when
        empty)."""
        raise NotImplementedError

    def _count_rows(self, stream: str) -> int:
        raise NotImplementedError

    def _insert(self, batches: list[tuple[str, list[Row]]]) -> int:
        """Write the rows in one transaction; the global seq of the last one."""
        raise NotImplementedError

    def _rows(self, stream: str, after: int, batch: int) -> Iterator[list[tuple[bytes, int]]]:
        """(body, v) of `stream` after `after`, in seq order, a batch at a time."""
        raise NotImplementedError

    def streams(self) -> list[str]:
        """Every stream that holds at least one row, sorted."""
        raise NotImplementedError

    def all_rows(self, after: int = 0, batch: int = 20000) -> Iterator[list[FullRow]]:
        """Every row of every stream after global seq `after`, in order (copies, followers)."""
        raise NotImplementedError

    def put_rows(self, rows: Iterable[FullRow]) -> None:
        """Rows with their own seqs, into an empty log, in one transaction (a copy)."""
        raise NotImplementedError

    def snapshot_seq(self, stream: str) -> int:
        raise NotImplementedError

    def save_snapshot(self, stream: str, seq: int, version: str, state: bytes) -> None:
        """Store a stream's fold at `seq`, dropping its older snapshots."""
        raise NotImplementedError

    def load_snapshot(self, stream: str, version: str) -> tuple[int, bytes] | None:
        """The newest snapshot of `stream` written by code `version`: (seq, state)."""
        raise NotImplementedError

    def snapshots(self) -> list[Snapshot]:
        raise NotImplementedError

    def put_snapshots(self, snaps: Sequence[Snapshot]) -> None:
        for stream, seq, version, state in snaps:
            self.save_snapshot(stream, seq, version, state)

    def close(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ streams
    def stream(self, name: str) -> StreamLog:
        """A view of one stream: append, read and last_seq scoped to it."""
        return StreamLog(self, name)

    def event_streams(self) -> list[str]:
        """The streams of events (every one but the room's own)."""
        return [s for s in self.streams() if s != ROOM_STREAM]

    def last_of(self, stream: str) -> int:
        """The global seq of `stream`'s last row (0 when it has none)."""
        last = self._last.get(stream)
        if last is None:
            last = self._last[stream] = self._max_seq(stream, self.horizon)
        return last

    def count_of(self, stream: str) -> int:
        """How many rows `stream` holds."""
        n = self._count.get(stream)
        if n is None:
            n = self._count[stream] = self._count_rows(stream)
        return n

    def end(self) -> int:
        """The log's end as the database has it now (another director may write)."""
        return self._max_seq(None, NO_BOUND)

    def advanced(self, stream: str, seq: int) -> None:
        """A row another director wrote, folded by this one: positions move past it."""
        self._last[stream] = seq
        if stream in self._count:
            self._count[stream] += 1
        self.last_seq = seq

    def hold(self, at: int | None) -> None:
        """Reads stop at global seq `at`, positions read again up to it; None lifts the
        bound and keeps the positions (what was loaded is exactly the log up to there)."""
        if at is None:
            self.horizon = NO_BOUND
            return
        self.horizon = at
        self.forget_positions()

    def forget_positions(self) -> None:
        """Positions are read again from the database (another director wrote to it)."""
        self.last_seq = self._max_seq(None, self.horizon)
        self._last.clear()
        self._count.clear()

    # ------------------------------------------------------------------ writing
    def append_many(self, rows: Mapping[str, Sequence[Row]]) -> int:
        """Write already checked (kind, JSON) rows of several streams in ONE transaction:
        all of them or, if any fails, none. Returns the global seq of the last row."""
        batches = [(stream, list(rs)) for stream, rs in rows.items() if rs]
        if not batches:
            return self.last_seq
        last = self._insert(batches)
        total = sum(len(rs) for _s, rs in batches)
        seq = last - total          # rows got consecutive seqs after the previous end
        for stream, rs in batches:
            seq += len(rs)
            self._last[stream] = seq
            if stream in self._count:
                self._count[stream] += len(rs)
        self.last_seq = last
        return last

    def append(self, events: Mapping[str, Sequence[Event | dict[str, Any]]]) -> int:
        """Check then write events of several streams in one transaction (see append_many).

        Each is checked against its declared schema first (EventError names the one that
        does not fit), so nothing that a replay could not read is ever written."""
        return self.append_many({s: [to_row(e) for e in evs] for s, evs in events.items()})

    # ------------------------------------------------------------------ reading
    def read(self, stream: str, after: int = 0, batch: int = 20000) -> Iterator[Event]:
        """Every event of `stream` after global seq `after`, in order, typed, streamed so
        a long log needs no copy. Rows of today's schema are decoded a batch at a time
        (one JSON array, one call into msgspec); rows of an older schema are upcast one
        by one."""
        for rows in self._rows(stream, after, batch):
            if all(v == ev_.SCHEMA for _body, v in rows):
                yield from ev_.decode_many([body for body, _v in rows])
            else:
                for body, v in rows:
                    yield ev_.decode(body, v)


class StreamLog:
    """One stream of a store: append-only typed events; `seq` is the global position.

    Stream `""` is "the only event": the one event stream the log holds, or, in a new log,
    the stream named after the event whose `created` row is written first."""

    def __init__(self, store: LogStore, stream: str = "", owned: bool = False) -> None:
        self._owned = owned
        self.store = store
        self.path = store.path
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
        return self.append_rows([to_row(e) for e in events])

    def append_rows(self, rows: list[Row]) -> int:
        """Write already checked (kind, JSON) rows in one transaction."""
        if not rows:
            return self.last_seq
        if not self.stream and self.store.last_of("") == 0 and rows[0][0] == "created":
            self.stream = str(msgspec.json.decode(rows[0][1])["event"])   # a new log
        return self.store.append_many({self.stream: rows})

    def read(self, after: int = 0, batch: int = 20000) -> Iterator[Event]:
        """Every event of this stream after global seq `after`, in order (LogStore.read)."""
        return self.store.read(self.stream, after, batch)

    def __len__(self) -> int:
        return self.store.count_of(self.stream)

    def close(self) -> None:
        """Close the store if this view opened it (a store's views share its connection)."""
        if self._owned:
            self.store.close()
