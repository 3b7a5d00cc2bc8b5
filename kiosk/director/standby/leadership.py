"""Two directors on one PostgreSQL log, one leader: who leads, the standby's warm fold,
the takeover and the step-down.

A director on PostgreSQL takes the room's lease (kiosk.director.log.lease) before it loads
anything. Without `--standby` it must get it (a live leader elsewhere is a one-line
error: two leaders on one lease); with `--standby` it leads when nobody does, and
otherwise follows the log: every row the leader commits is folded into its own desks a
fraction of a second later, so a takeover costs no replay. When the lease runs out (the
leader died, froze, or lost the database) the standby takes it with the next term, reads
what the leader committed last, republishes every plan and the schedule under a new epoch
(tables follow the newest epoch), and acknowledges from there: the tables' outboxes send
again whatever was not acknowledged, and the fold's report dedup acknowledges what was
already applied without applying it twice.

A leader whose lease is gone (another took it, or it could not renew it in time) stops
publishing and acknowledging at once, writes nothing more (every append checks its term:
kiosk.director.log.pg_store), says so in its log and on its dashboard, and rejoins as a
standby with a fold rebuilt from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from kiosk.base.errors import KioskError
from kiosk.base.texts import M_, Msg
from kiosk.config.database import is_dsn, one_line
from kiosk.core.model import events as ev_
from kiosk.director.centre.room_service import RoomService
from kiosk.director.log.lease import TTL, Holder, Lease
from kiosk.director.log.logstore import ROOM_STREAM, FullRow
from kiosk.director.log.pg_store import PgStore

log = logging.getLogger("kiosk.director")
POLL = 0.2        # seconds between a standby's looks at the log and the lease
STUCK = 10.0      # seconds a leader's loop may not turn before its lease is left to run out


def check_standby(db: str, standby: bool) -> None:
    """A standby shares the leader's log: it needs PostgreSQL (refused before anything
    is opened or written)."""
    if standby and not is_dsn(db):
        raise KioskError(f"--standby needs the log on PostgreSQL ([director] db = "
                         f"\"postgresql://...\"); {db} is a SQLite file only this machine "
                         "can write")


class Door(Protocol):
    """The director's door to the broker, as the lease decides it: the epoch its plans
    carry, and shut quietly once deposed (kiosk.director.mqtt.wire:Wire)."""

    epoch: float

    def silence(self) -> None: ...


class Leadership:
    """This director's role in the room: "leader", "standby" or "stepped down"."""

    def __init__(self, store: PgStore, room: str, url: str, door: Door,
                 health: dict[str, Msg | str], standby: bool) -> None:
        self.store = store
        self.room = room
        self.door = door
        self.health = health              # the dashboard's health lines
        self.standby = standby
        self.service: RoomService | None = None   # the fold, once loaded
        self.lease = Lease(store.dsn, room, url)
        self.role = "starting"
        self.why = ""                      # why it stepped down
        self.leader: Holder | None = None  # the holder last seen (a standby's view)
        self.end = 0                       # the log's end at the last look
        self.looked = 0.0                  # time.monotonic() of that look
        self.standbys: list[dict[str, Any]] = []
        self.lost = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.beat = 0.0                    # time.monotonic() the loop last turned

    # ------------------------------------------------------------------ start
    def claim(self) -> None:
        """Before the state is loaded: lead, or (standby) wait for a room to follow."""
        if self.lease.try_take():
            return self._lead()
        if not self.standby:   # a leader restarted at once waits out its own old lease
            deadline = time.monotonic() + TTL + 0.5
            while time.monotonic() < deadline:
                time.sleep(POLL)
                if self.lease.try_take():
                    return self._lead()
            held = self.lease.current()
            who = f"{held.holder} (term {held.term})" if held else "another director"
            raise KioskError(f"room {self.room} is already led by {who} on "
                             f"{self.store.path}: two leaders on one lease; start this "
                             "one with --standby")
        self.role = "standby"
        told = False
        while self.store.last_of(ROOM_STREAM) == 0:   # nothing to follow yet
            if self.lease.try_take():
                return self._lead()
            if not told:
                log.info("standby: waiting for the leader to create room %s", self.room)
                told = True
            time.sleep(POLL)
            self.store.forget_positions()
        self.store.hold(self.store.end())   # the fold is loaded as of this one position
        self.leader = self.lease.current()
        log.info("standby of room %s, following %s from event %d", self.room,
                 self.leader.holder if self.leader else "nobody yet", self.store.last_seq)
        return None

    def loaded(self, service: RoomService) -> None:
        """The fold is loaded: a standby follows from the position it was loaded at."""
        self.service = service
        self.store.hold(None)

    def _lead(self) -> None:
        self.role = "leader"
        self.leader = None
        self.store.fence = (self.room, self.lease.term)
        self.door.epoch = self.lease.epoch
        self.lease.keep(self._lost_from_thread, self._alive)
        with contextlib.suppress(Exception):
            self.lease.forget_me()

    def _alive(self) -> bool:
        """The loop turns (before it runs, loading counts as alive: the lease thread
        keeps a long replay's lease)."""
        return self.beat == 0.0 or time.monotonic() - self.beat < STUCK

    async def _heartbeat(self) -> None:
        while True:
            self.beat = time.monotonic()
            await asyncio.sleep(0.5)

    @property
    def leading(self) -> bool:
        return self.role == "leader"

    # ------------------------------------------------------------------ serving
    async def serve(self, lead: Callable[[], Awaitable[None]]) -> None:
        """Follow until leading, then lead until the lease is lost (then return: the
        caller rejoins as a standby with a fold rebuilt from the log)."""
        self.loop = asyncio.get_running_loop()
        if self.role == "standby":
            await self._follow()
            await self.take_over()
        if self.role == "stepped down":   # lost while loading
            return
        task = asyncio.ensure_future(lead())
        lost = asyncio.ensure_future(self.lost.wait())
        beat = asyncio.ensure_future(self._heartbeat())
        await asyncio.wait({task, lost}, return_when=asyncio.FIRST_COMPLETED)
        for t in (task, lost, beat):
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await t

    async def _follow(self) -> None:
        """The warm fold: every committed row, folded; the lease taken once it runs out."""
        failing = False
        while True:
            try:
                rows = await asyncio.to_thread(self.fetch)
                self.apply(rows)
                if await asyncio.to_thread(self.look):
                    return
                if failing:
                    log.info("standby: the database answers again")
                    self.health.pop("standby", None)
                failing = False
            except (KioskError, OSError, Exception) as exc:   # the database is away
                if not failing:
                    log.warning("standby: cannot follow the log: %s", one_line(exc))
                self.health["standby"] = M_("health.cannot_follow", "cannot follow the log: "
                                             "{error}", error=one_line(exc))
                failing = True
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.store.reconnect)
            await asyncio.sleep(POLL)

    def fetch(self) -> list[FullRow]:
        self.end = self.store.end()
        rows = next(self.store.all_rows(self.store.last_seq), [])
        self.looked = time.monotonic()
        return rows

    def look(self) -> bool:
        """Report our position, see who leads; take the lease when it has run out."""
        self.lease.report_position(self.store.last_seq, self.lease.url)
        self.leader = self.lease.current()
        if self.leader is not None and self.leader.valid:
            return False
        return self.lease.try_take()

    def apply(self, rows: list[FullRow]) -> None:
        """Fold rows the leader committed into this director's desks (on the loop)."""
        assert self.service is not None, "the fold is loaded before it follows"
        repo = self.service.repo
        for seq, stream, _kind, body, v in rows:
            repo.fold(stream, ev_.decode(body, v))
            self.store.advanced(stream, seq)
        repo.retitle()   # titles of events opened in this batch

    async def take_over(self) -> None:
        """Lease taken: read what the old leader committed last, then lead from there."""
        started = time.monotonic()
        while rows := await asyncio.to_thread(self.fetch):
            self.apply(rows)
        self._lead()
        self.health.pop("standby", None)
        assert self.service is not None
        self.service.open_room(write=True)   # the config's events the log lacks, if any
        log.warning("took over room %s as leader (term %d) at event %d in %.2f s",
                    self.room, self.lease.term, self.store.last_seq,
                    time.monotonic() - started)

    # ------------------------------------------------------------------ stepping down
    def _lost_from_thread(self, why: str) -> None:
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.step_down, why)
        else:   # still loading, nothing is published yet: step down right here
            self.step_down(why)

    def step_down(self, why: str) -> None:
        """Stop leading now: no publish, no ack, no write; visible in log and dashboard."""
        if self.role != "leader":
            return
        self.role, self.why = "stepped down", why
        self.store.fence = (self.room, -1)   # no write can pass any more
        self.lease.stop_renewing()
        log.error("this director no longer leads room %s (term %d): %s; it stops "
                  "publishing and acknowledging and rejoins as a standby",
                  self.room, self.lease.term, why)
        self.health["leader"] = M_("health.stepped_down", "stepped down from term {term}: "
                                    "{why}", term=self.lease.term, why=why)
        self.door.silence()   # quietly: no "offline" status
        self.lost.set()

    def close(self) -> None:
        """A clean stop: the lease is released at once, so a standby need not wait."""
        if self.leading:
            self.lease.release()
        else:
            self.lease.stop_renewing()
            with contextlib.suppress(Exception):
                self.lease.forget_me()

    # ------------------------------------------------------------------ health
    def status(self) -> dict[str, Any]:
        """Who leads and how far behind the standbys are (/api/health, the dashboard)."""
        out: dict[str, Any] = {"role": self.role, "me": self.lease.me, "why": self.why}
        if self.leading:
            out["leader"] = {"holder": self.lease.me, "url": self.lease.url,
                             "term": self.lease.term}
            out["standbys"] = [{**s, "behind": max(0, self.store.last_seq - s["seq"])}
                               for s in self.lease.standbys]
        else:
            held = self.leader
            out["leader"] = ({"holder": held.holder, "url": held.url, "term": held.term}
                             if held is not None and held.valid else None)
            out["behind"] = max(0, self.end - self.store.last_seq)
            out["looked_s"] = round(time.monotonic() - self.looked, 1) if self.looked else None
        return out

    def leader_url(self) -> str | None:
        """Where a standby sends the dashboard: the leader's, when there is one."""
        held = self.leader
        if self.leading or held is None or not held.valid or held.url == self.lease.url:
            return None
        return held.url
