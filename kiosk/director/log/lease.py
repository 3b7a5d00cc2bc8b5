"""The room's lease in PostgreSQL: which director leads, under which term.

One row per room (`lease`): the term, who holds it, the holder's dashboard URL, the epoch
its plans carry, and when it expires by the database's clock (no two machines' clocks are
compared). A director takes the lease only when it has expired (or is free), always with
term + 1, under the log's write lock, so a takeover is ordered against every append: an
append either committed before it (and the new leader reads it) or checks the new term
and is refused (fencing, kiosk.director.log.pg_store). The leader renews it from a thread of
its own, on a connection of its own, so a long replay or a busy loop never loses it.

Standbys write their position into `followers`, so the leader's dashboard shows how far
behind each one is.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import msgspec
import psycopg

from kiosk.config.database import connect, one_line
from kiosk.director.log.pg_store import WRITE_LOCK

log = logging.getLogger("kiosk.director")
TTL = 2.0          # seconds a lease lasts without renewal (takeover after about this)
RENEW_EVERY = 0.4  # seconds between renewals


class Holder(msgspec.Struct, frozen=True):
    """The lease as the database has it (`valid`: not expired, by the database's clock)."""

    term: int
    holder: str
    url: str
    epoch: float
    valid: bool


_instances = itertools.count(1)


def identity() -> str:
    """This director: machine and process (and which one, when a process runs several)."""
    n = next(_instances)
    return f"{socket.gethostname()} pid {os.getpid()}" + (f"/{n}" if n > 1 else "")


class Lease:
    """One director's side of the room's lease, on a connection of its own."""

    def __init__(self, dsn: str, room: str, url: str) -> None:
        self.dsn = dsn
        self.room = room
        self.url = url
        self.me = identity()
        self.term = 0                 # the term this director leads, 0 while it does not
        self.epoch = 0.0
        self.renewed = 0.0            # time.monotonic() of the last renewal
        self.standbys: list[dict[str, Any]] = []   # as the leader last read them
        self.conn: psycopg.Connection[Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the row
    def _db(self) -> psycopg.Connection[Any]:
        if self.conn is None or self.conn.closed or self.conn.broken:
            self.conn = connect(self.dsn, timeout=2)
        return self.conn

    def _drop(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def current(self) -> Holder | None:
        """Who holds the lease now, or None when nobody ever has."""
        row = self._db().execute(
            "SELECT term, holder, url, epoch, expires > clock_timestamp() FROM lease "
            "WHERE room = %s", (self.room,)).fetchone()
        return None if row is None else Holder(int(row[0]), row[1], row[2], float(row[3]),
                                               bool(row[4]))

    def try_take(self) -> bool:
        """Take the lease if it is free or expired: term + 1, a new epoch above the last.
        False when another director holds it, or the log is busy (a write in progress)."""
        db = self._db()
        try:
            with db.transaction():
                db.execute("SET LOCAL lock_timeout = '1s'")
                db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                db.execute("INSERT INTO lease (room, term, holder, url, epoch, expires) "
                           "VALUES (%s, 0, '', '', 0, '-infinity') ON CONFLICT DO NOTHING",
                           (self.room,))
                row = db.execute(
                    "UPDATE lease SET term = term + 1, holder = %s, url = %s, epoch = "
                    "GREATEST(epoch + 0.001, round(EXTRACT(EPOCH FROM clock_timestamp()), 3)), "
                    "expires = clock_timestamp() + make_interval(secs => %s) "
                    "WHERE room = %s AND expires <= clock_timestamp() RETURNING term, epoch",
                    (self.me, self.url, TTL, self.room)).fetchone()
        except psycopg.errors.LockNotAvailable:
            return False
        if row is None:
            return False
        self.term, self.epoch = int(row[0]), float(row[1])
        self.renewed = time.monotonic()
        log.info("took the lease of room %s: term %d", self.room, self.term)
        return True

    def renew(self) -> bool:
        """Extend the lease; False when another director took it (this one is deposed)."""
        row = self._db().execute(
            "UPDATE lease SET expires = clock_timestamp() + make_interval(secs => %s) "
            "WHERE room = %s AND term = %s AND holder = %s RETURNING term",
            (TTL, self.room, self.term, self.me)).fetchone()
        if row is not None:
            self.renewed = time.monotonic()
        return row is not None

    def release(self) -> None:
        """On a clean stop: the lease expires now, so the standby need not wait for it."""
        self.stop_renewing()
        if self.term:
            try:
                self._db().execute("UPDATE lease SET expires = clock_timestamp() WHERE "
                                   "room = %s AND term = %s AND holder = %s",
                                   (self.room, self.term, self.me))
            except Exception as exc:   # the lease simply runs out
                log.warning("could not release the lease: %s", one_line(exc))
        self.term = 0
        self._drop()

    # --------------------------------------------------------------- followers
    def report_position(self, seq: int, url: str) -> None:
        """A standby's position, for the leader's dashboard."""
        self._db().execute(
            "INSERT INTO followers (holder, room, seq, url, seen) VALUES (%s, %s, %s, %s, "
            "clock_timestamp()) ON CONFLICT (holder) DO UPDATE SET seq = EXCLUDED.seq, "
            "url = EXCLUDED.url, seen = EXCLUDED.seen", (self.me, self.room, seq, url))

    def followers(self) -> list[dict[str, Any]]:
        """Standbys seen in the last 10 s: who, where they are, how long ago."""
        rows = self._db().execute(
            "SELECT holder, seq, url, EXTRACT(EPOCH FROM clock_timestamp() - seen) FROM "
            "followers WHERE room = %s AND holder <> %s AND seen > clock_timestamp() - "
            "interval '10 s' ORDER BY holder", (self.room, self.me)).fetchall()
        return [{"holder": h, "seq": int(s), "url": u, "seen_s": round(float(a), 1)}
                for h, s, u, a in rows]

    def forget_me(self) -> None:
        self._db().execute("DELETE FROM followers WHERE holder = %s", (self.me,))

    # ------------------------------------------------------------------ renewing
    def keep(self, lost: Callable[[str], None], alive: Callable[[], bool]) -> None:
        """Renew from a thread until stopped, while `alive()` says the director's loop
        still turns (a leader stuck in a call must not hold the room); call `lost(why)`
        once, from that thread, when another director took the lease or this one could
        not renew it in time."""
        self._stop.clear()

        def run() -> None:
            told = False
            while not self._stop.wait(RENEW_EVERY):
                if not alive():   # let it run out: a standby takes over
                    if time.monotonic() - self.renewed <= TTL:
                        continue
                    taken = self._taken()   # woken after a freeze: deposed, not stuck
                    if taken:
                        lost(taken)
                        return
                    if not told:
                        log.error("the director's loop is stuck: the lease of room %s is "
                                  "left to run out", self.room)
                        told = True
                    continue
                told = False
                why = self._renew_once()
                if why:
                    lost(why)
                    return

        self._thread = threading.Thread(target=run, name="lease", daemon=True)
        self._thread.start()

    def _taken(self) -> str:
        """'' unless another director holds the lease now (then why this one is out)."""
        try:
            now = self.current()
        except Exception:   # the database is away: nothing is known
            self._drop()
            return ""
        if now is None or (now.term == self.term and now.holder == self.me):
            return ""
        return f"deposed: {now.holder} took term {now.term}"

    def _renew_once(self) -> str:
        """'' while the lease holds; otherwise why this director no longer leads."""
        try:
            if self.renew():
                self.standbys = self.followers()
                return ""
            now = self.current()
            by = f"{now.holder} took term {now.term}" if now else "the lease row is gone"
            return f"deposed: {by}"
        except Exception as exc:   # the database is gone, or unreachable
            self._drop()
            if time.monotonic() - self.renewed > TTL:
                return f"lost the database for {TTL:.0f} s ({one_line(exc)})"
            return ""

    def stop_renewing(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
