"""The log on PostgreSQL (`db = "postgresql://..."`): a log that outlives the director's
machine, shared by a leader and a standby director, replicated by PostgreSQL itself.

Same tables and the same semantics as the SQLite file: a batch of every stream is one
transaction; seqs are global, consecutive and in commit order, because every append takes
one transaction-level advisory lock first and numbers its rows after the current end. A
follower polling `seq > last` therefore never misses a row committed later with a lower
seq. When the director holds the room's lease (kiosk.director.log.lease) the same transaction
checks the lease's term: a deposed leader's append is refused whole (Fenced).

Reads page by seq (no transaction is held open while the caller folds), in binary so an
event's JSON arrives as the bytes that were written.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import psycopg

from kiosk.base.errors import KioskError
from kiosk.config.database import (
    STORE_SCHEMA,
    connect,
    one_line,
    replication,
    schema_error,
    schema_version,
    shown,
)
from kiosk.core.model import events as ev_
from kiosk.director.log.logstore import Fenced, FullRow, LogStore, Row, Snapshot

log = logging.getLogger("kiosk.director")
T = TypeVar("T")
WRITE_LOCK = 0x6B696F736B   # pg_advisory_xact_lock key: one writer of the log at a time
_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS events (seq BIGINT PRIMARY KEY, stream TEXT NOT NULL, "
    "kind TEXT NOT NULL, body BYTEA NOT NULL, v INTEGER NOT NULL, "
    "term BIGINT NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS events_stream_seq ON events(stream, seq)",
    "CREATE TABLE IF NOT EXISTS snapshots (stream TEXT NOT NULL, seq BIGINT NOT NULL, "
    "version TEXT NOT NULL, state BYTEA NOT NULL, PRIMARY KEY (stream, seq))",
    # the room's lease and the standbys' positions: kiosk.director.log.lease
    "CREATE TABLE IF NOT EXISTS lease (room TEXT PRIMARY KEY, term BIGINT NOT NULL, "
    "holder TEXT NOT NULL, url TEXT NOT NULL DEFAULT '', epoch DOUBLE PRECISION NOT NULL, "
    "expires TIMESTAMPTZ NOT NULL)",
    "CREATE TABLE IF NOT EXISTS followers (holder TEXT PRIMARY KEY, room TEXT NOT NULL, "
    "seq BIGINT NOT NULL, url TEXT NOT NULL DEFAULT '', seen TIMESTAMPTZ NOT NULL)",
]
WRITE_RETRY_S = 10.0   # how long an append waits for a restarting or unreachable database
# a transaction left open by a frozen director would block the log: the server ends it
_SESSION = "SET idle_in_transaction_session_timeout = '2s'"
_STREAMS = ("WITH RECURSIVE s(x) AS (SELECT MIN(stream) FROM events UNION ALL "
            "SELECT (SELECT MIN(stream) FROM events WHERE stream > x) FROM s "
            "WHERE x IS NOT NULL) SELECT x FROM s WHERE x IS NOT NULL")


class PgStore(LogStore):
    """Every stream of a room in one PostgreSQL database."""

    backend = "postgresql"

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.path = shown(dsn)
        self.db = connect(dsn)
        self.fence: tuple[str, int] | None = None    # (room, term) while leading
        try:
            self.db.execute(_SESSION)
            self._migrate()
            self._init_positions()
            self._fresh_statistics()
        except psycopg.Error as exc:
            self.db.close()
            raise KioskError(f"event log {self.path}: {one_line(exc)}") from None
        except BaseException:
            self.db.close()
            raise

    # ------------------------------------------------------------------ schema
    def schema_version(self) -> int:
        return schema_version(self.db)

    def _migrate(self) -> None:
        """Create the schema in a new database; refuse one of another version whole. A
        database already at this version is only read (a hot standby is read-only)."""
        version = self.schema_version()
        if version == STORE_SCHEMA:
            return
        if version != 0:
            raise schema_error(self.path, version)
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            for stmt in _SCHEMA:
                self.db.execute(stmt)   # type: ignore[arg-type]
            if self._scalar("SELECT COUNT(*) FROM schema_version") == 0:
                self.db.execute("INSERT INTO schema_version VALUES (%s)", (STORE_SCHEMA,))

    def _fresh_statistics(self) -> None:
        """ANALYZE a log that grew a lot since autovacuum last counted it: without
        statistics the planner sorts a whole stream to read a page of it (a replay of 1M
        events took 13 s instead of 4). A hot standby's statistics come from its primary."""
        counted = self._scalar("SELECT reltuples FROM pg_class WHERE oid = 'events'::regclass")
        if self.last_seq > 10000 and (counted or 0) < 0.8 * self.last_seq \
                and not self._scalar("SELECT pg_is_in_recovery()"):
            self.db.execute("ANALYZE events")

    def _scalar(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = self.db.execute(sql, args).fetchone()   # type: ignore[arg-type]
        return None if row is None else row[0]

    # ------------------------------------------------------------------ primitives
    def _max_seq(self, stream: str | None, upto: int) -> int:
        if stream is None:
            return int(self._read(lambda: self._scalar(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE seq <= %s", (upto,))))
        return int(self._read(lambda: self._scalar(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE stream = %s AND seq <= %s",
            (stream, upto))))

    def _count_rows(self, stream: str) -> int:
        return int(self._read(lambda: self._scalar(
            "SELECT COUNT(*) FROM events WHERE stream = %s AND seq <= %s",
            (stream, self.horizon))))

    def streams(self) -> list[str]:
        return self._read(lambda: [r[0] for r in self.db.execute(_STREAMS)])

    def reconnect(self) -> None:
        """A new connection after the old one broke (a server restart, a network cut)."""
        self.db.close()
        self.db = connect(self.dsn)
        self.db.execute(_SESSION)

    def _insert(self, batches: list[tuple[str, list[Row]]]) -> int:
        """One transaction; when the connection breaks, reconnect and find out whether
        the commit landed (our rows, under our term, right after our end) before trying
        again, so a restart of the server neither loses nor doubles a batch. Once the
        database answers again, a lease another director took meanwhile is a refusal
        (Fenced), however long this one was away: a leader frozen past the retries (the
        clock ran on while it was stopped) wakes deposed, not unable to write."""
        total = sum(len(rs) for _s, rs in batches)
        deadline = time.monotonic() + WRITE_RETRY_S
        while True:
            try:
                return self._insert_once(batches)
            except psycopg.Error as exc:
                lost = isinstance(exc, psycopg.OperationalError) or self.db.broken \
                    or self.db.closed   # e.g. ended by the server while we were frozen
                if not lost:
                    raise
                log.warning("event log %s: %s; reconnecting", self.path, one_line(exc))
                failed = exc
            time.sleep(0.2)
            fenced: Fenced | None = None
            with contextlib.suppress(KioskError, psycopg.Error):
                self.reconnect()
                landed = self.db.execute(
                    "SELECT COUNT(*), MAX(seq) FROM events WHERE seq > %s AND term = %s",
                    (self.last_seq, self.fence[1] if self.fence else 0)).fetchone()
                if landed is not None and landed[0] == total:
                    return int(landed[1])   # whatever another leader wrote after it
                fenced = self._fenced()
            if fenced is not None:
                raise fenced
            if time.monotonic() > deadline:
                raise failed

    def _insert_once(self, batches: list[tuple[str, list[Row]]]) -> int:
        term = self.fence[1] if self.fence else 0
        with self.db.transaction():
            self.db.execute("SET LOCAL statement_timeout = '3s'")
            start = self._lock_for_write()
            streams = [stream for stream, rs in batches for _row in rs]
            kinds = [kind for _s, rs in batches for kind, _body in rs]
            bodies = [body for _s, rs in batches for _kind, body in rs]
            seqs = list(range(start + 1, start + len(kinds) + 1))
            # ONE statement, not a pipeline or a COPY: a director frozen mid-transaction
            # leaves its session "idle in transaction", which the server ends after 2 s,
            # releasing the write lock for the standby (a half-sent pipeline would hold
            # it until the frozen director wakes)
            self.db.execute(
                "INSERT INTO events (seq, stream, kind, body, v, term) SELECT s, st, k, b, "
                "%s, %s FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::bytea[]) "
                "AS r(s, st, k, b)", (ev_.SCHEMA, term, seqs, streams, kinds, bodies))
        return start + len(kinds)

    def _lock_for_write(self) -> int:
        """Inside a write transaction: the log's write lock, the fence, the current end."""
        self.db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        fenced = self._fenced()
        if fenced is not None:
            raise fenced
        return int(self._scalar("SELECT COALESCE(MAX(seq), 0) FROM events"))

    def _fenced(self) -> Fenced | None:
        """The refusal of a write when the room's lease is no longer at our term."""
        if self.fence is None:
            return None
        room, term = self.fence
        now = self._scalar("SELECT term FROM lease WHERE room = %s", (room,))
        if now == term:
            return None
        return Fenced(f"event log {self.path}: room {room}'s lease is at term {now}, this "
                      f"director led term {term if term > 0 else '-'}: it no longer leads; "
                      "nothing written")

    def _rows(self, stream: str, after: int, batch: int) -> Iterator[list[tuple[bytes, int]]]:
        while True:
            rows = self._page(stream, after, batch)
            if not rows:
                return
            after = rows[-1][0]
            yield [(body, v) for _seq, body, v in rows]

    def _page(self, stream: str, after: int, batch: int) -> list[Any]:
        """One page of a stream after `after`; the pages go by seq, so a page read again
        after a lost connection reads nothing twice and skips nothing."""
        return self._read(lambda: self.db.cursor(binary=True).execute(
            "SELECT seq, body, v FROM events WHERE stream = %s AND seq > %s "
            "AND seq <= %s ORDER BY seq LIMIT %s",
            (stream, after, self.horizon, batch)).fetchall())

    def _read(self, query: Callable[[], T]) -> T:
        """A read outside any transaction, asked again on a new connection when the old
        one is lost (the server restarted while a director started: its positions, its
        snapshot, its replay) for up to WRITE_RETRY_S, then refused with the reason."""
        deadline = time.monotonic() + WRITE_RETRY_S
        while True:
            try:
                return query()
            except psycopg.OperationalError as exc:
                if time.monotonic() > deadline:
                    raise KioskError(f"event log {self.path}: {one_line(exc)}") from None
                log.warning("event log %s: %s; reconnecting to read on", self.path,
                            one_line(exc))
            time.sleep(0.2)
            with contextlib.suppress(KioskError, psycopg.Error):
                self.reconnect()

    def all_rows(self, after: int = 0, batch: int = 20000) -> Iterator[list[FullRow]]:
        cur = self.db.cursor(binary=True)
        while True:
            rows = cur.execute("SELECT seq, stream, kind, body, v FROM events WHERE seq > %s "
                               "ORDER BY seq LIMIT %s", (after, batch)).fetchall()
            if not rows:
                return
            after = rows[-1][0]
            yield rows

    def put_rows(self, rows: Iterable[FullRow]) -> None:
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            with self.db.cursor().copy(
                    "COPY events (seq, stream, kind, body, v) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        self.db.execute("ANALYZE events")
        self.forget_positions()

    # ------------------------------------------------------------------ snapshots
    def snapshot_seq(self, stream: str) -> int:
        return int(self._read(lambda: self._scalar(
            "SELECT COALESCE(MAX(seq), 0) FROM snapshots WHERE stream = %s", (stream,))))

    def save_snapshot(self, stream: str, seq: int, version: str, state: bytes) -> None:
        with self.db.transaction():
            self._lock_for_write()
            self.db.execute("INSERT INTO snapshots(stream, seq, version, state) "
                            "VALUES (%s, %s, %s, %s) ON CONFLICT (stream, seq) DO UPDATE "
                            "SET version = EXCLUDED.version, state = EXCLUDED.state",
                            (stream, seq, version, state))
            self.db.execute("DELETE FROM snapshots WHERE stream = %s AND seq < %s",
                            (stream, seq))

    def load_snapshot(self, stream: str, version: str) -> tuple[int, bytes] | None:
        row = self._read(lambda: self.db.cursor(binary=True).execute(
            "SELECT seq, state FROM snapshots WHERE stream = %s AND version = %s "
            "ORDER BY seq DESC LIMIT 1", (stream, version)).fetchone())
        return None if row is None else (int(row[0]), bytes(row[1]))

    def snapshots(self) -> list[Snapshot]:
        return [(s, q, v, bytes(b)) for s, q, v, b in self.db.cursor(binary=True).execute(
            "SELECT stream, seq, version, state FROM snapshots ORDER BY stream, seq")]

    # ------------------------------------------------------------------ the server
    def replication(self) -> str:
        """This database's place in replication (doctor, dashboard)."""
        return replication(self.db)

    def close(self) -> None:
        self.db.close()
