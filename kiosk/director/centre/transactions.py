"""Commands that cross streams, each one transaction: the room's process manager.

A table broken in one event goes back to the room's pool; an event short of tables takes
free ones from the pool; a satellite's seat winners get tickets, registered at once in their
target when it is open; a Day 2 is opened from its flights' bagged survivors. Each of these
writes to several streams. Every step is decided into one `Batch` and the director writes
the batch in one SQLite transaction; when any step is refused, every stream the batch
touched since the command began is rolled back (rebuilt from the log plus the batch's
earlier events), so a command leaves all of it or none.

It works on the repository's aggregates and nothing else: the service
(kiosk.director.centre.room_service) runs it and writes what it decided.
"""

from __future__ import annotations

import functools
import logging
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from kiosk.base.errors import ConfigError, InternalError, NeedsTable, RuleError
from kiosk.base.texts import M_, Mn_
from kiosk.config.room import RoomEvent
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as rev
from kiosk.core.model.events import Event
from kiosk.core.model.room_events import EventState
from kiosk.core.room.players import PlayerRecord
from kiosk.core.room.room import OVER
from kiosk.core.room.sections import from_file
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.event_aggregate import EventAggregate, created_event
from kiosk.director.centre.repository import Repository
from kiosk.director.centre.room_aggregate import ROOM_STREAM
from kiosk.lang.codes import SHIPPED, UnknownLanguage
from kiosk.lang.codes import check as check_language

log = logging.getLogger("kiosk.director")


def player_language(code: str) -> str:
    """A player's language as the catalogues name it ("zh-CN" is "zh_Hans"; "" the
    room's), or RuleError naming the key and the languages there are."""
    try:
        return check_language(code) if code.strip() else ""
    except UnknownLanguage:
        raise RuleError(M_("language.unknown", "language: unknown language '{code}': one of "
                           "{codes}", code=code, codes=", ".join(SHIPPED))) from None
T = TypeVar("T")
REGISTERING = ("open", "running")      # room states in which an event takes entries


# the house settings of [money] that may change while an event runs: how the event's
# state reads each now, and the command that changes it (the part says when it may)
HOUSE: dict[str, tuple[Callable[[Any], Any], Callable[[Any], dict[str, Any]]]] = {
    "chip_race": (lambda tour: tour.chipcount.chip_race_mode,
                  lambda v: {"kind": "set_chip_race", "chip_race": v}),
    "chip_set": (lambda tour: tour.chipcount.chip_set,
                 lambda v: {"kind": "set_chip_set", "chip_set": v}),
    "h4h_at_bubble": (lambda tour: tour.money.h4h_at_bubble,
                      lambda v: {"kind": "set_h4h_at_bubble", "on": v}),
    "satellite_leftover": (lambda tour: tour.satellites.leftover,
                           lambda v: {"kind": "set_satellite_leftover", "leftover": v}),
}


def _setting(value: Any) -> Any:
    """A setting as compared: a chip set as its sorted denominations."""
    return sorted(set(value)) if isinstance(value, list | tuple) else value


def _shown(value: Any) -> str:
    """A setting as the config file spells it."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


class Transactions:
    """The steps of cross-stream commands; the service owns the batch and the write."""

    def __init__(self, repo: Repository, event_streams: Callable[[], list[str]]) -> None:
        self.repo = repo
        self.event_streams = event_streams   # every event stream of the log (adoption)
        self.internal_errors = 0             # bugs met deciding, or after the write
        self.bugs: deque[str] = deque(maxlen=100)   # the newest, "what: error", for tools
        # a desk registration into a full event may go elsewhere (the alternates list):
        # the events it decided, or None when the event takes it as usual
        self.divert: Callable[[EventAggregate, cmd_.Register | cmd_.Reenter, Batch],
                              list[Event] | None] | None = None

    # ------------------------------------------------------------- start
    def open_room(self, write: bool = True) -> Batch:
        """Every event of the log at its desk (those not at one yet); an old single-event
        log adopted as the room's event; the events the config lists and the room lacks,
        opened: the batch to write. A standby (`write=False`) only loads: the leader
        writes the rest."""
        repo = self.repo
        specs = {e.name: e for e in repo.config.events}
        batch = Batch()
        for name in self.event_streams() if write else ():
            if name not in repo.room.events:
                self.adopt(name, batch)
        for name, info in repo.room.events.items():
            spec = specs.get(name)
            if name not in repo.events:
                repo.load_event(name, spec.config if spec else None, info.title)
            if write:
                self.sync_state(repo.events[name], batch)
                self.sync_settings(repo.events[name], spec, batch)
        for spec in repo.config.events if write else ():
            if spec.name not in repo.room.events:
                self.atomic(batch, functools.partial(self.open_event, spec, batch),
                            f"room: opening {spec.name}")
        sections = from_file(repo.room.floor_sections, repo.config.sections) if write else None
        if sections is not None:
            self.atomic(batch, functools.partial(self.room_only, sections, batch),
                        "room: the sections of the room file")
        return batch

    def sync_state(self, desk: EventAggregate, batch: Batch) -> None:
        """An adopted event's room state as its own log has it (started, finished)."""
        state = self.repo.room.events[desk.name].state
        if desk.tour.finished_at is not None and state in ("open", "running"):
            self.set_state(desk.name, "finished", batch)
        elif desk.tour.started and state == "open":
            self.set_state(desk.name, "running", batch)

    def sync_settings(self, desk: EventAggregate, spec: RoomEvent | None, batch: Batch) -> None:
        """The house settings the config changed since the event began (who runs the
        colour-up races, the chips in play, hand-for-hand at the bubble, a satellite's
        leftover cash), each applied as a logged event when the event can take it now,
        else refused like a fixed setting (the director does not start, and says why).
        An event that is over keeps what it ran with."""
        if spec is None or desk.tour.finished_at is not None \
                or self.repo.room.events[desk.name].state in OVER:
            return
        source = spec.config.source or "the room's config"
        for key, (now_of, command) in HOUSE.items():
            wanted, now = _setting(getattr(spec.config, key)), _setting(now_of(desk.tour))
            if wanted == now:
                continue
            cmd = cmd_.decode({**command(wanted), "source": Path(source).name})
            try:
                self.atomic(batch, functools.partial(self.event, desk, cmd, batch))
            except RuleError as exc:
                raise ConfigError(source, f"money.{key}", (
                    f"event {desk.name}: {_shown(wanted)} differs from {_shown(now)} in its "
                    f"log and cannot apply now: {exc}. Put it back for now")) from None
            log.info("%s: %s is %s from now on (%s)", desk.name, key, _shown(wanted), source)

    def adopt(self, name: str, batch: Batch) -> None:
        """A stream the room does not list (a single-event log from before rooms)."""
        created = next(iter(self.repo.streams(name).read()))
        title = next((e.title for e in self.repo.config.events if e.name == name), name)
        self.room_only(rc.AddEvent(event=name, title=title, type="event",
                                   created=msgspec.to_builtins(created)), batch)
        self.room_only(rc.SetEventState(event=name, state="open"), batch)
        log.info("the event log of %s is now the room's event %s", name, name)

    # ------------------------------------------------------------ the frame
    def atomic(self, batch: Batch, step: Callable[[], T], what: str = "a command") -> T:
        """Run `step`; when it is refused, undo everything it added to the batch. Anything
        else it raises is a bug: undone the same way, then reported (`internal`) and
        refused as an InternalError, so the caller's refusal path carries it."""
        mark = batch.mark()
        freed, assigned = set(batch.freed), set(batch.assigned)
        try:
            return step()
        except Exception as exc:
            for stream in batch.undo_to(mark):
                self.repo.rebuild(stream, batch.pending(stream))
            batch.freed, batch.assigned = freed, assigned
            if isinstance(exc, RuleError):
                raise
            raise self.internal(what, exc) from exc

    def internal(self, what: str, exc: BaseException) -> InternalError:
        """A bug: logged with its traceback and counted for /api/health; the error that
        refuses the command in its place."""
        self._count(what, exc)
        log.error("internal error in %s (refused; nothing of it written): %s: %s", what,
                  type(exc).__name__, exc, exc_info=exc)
        return InternalError()

    def after_write(self, what: str, exc: BaseException) -> None:
        """A bug met once the batch is written (publishing it, printing it): what was
        decided stands, and the bug is counted and logged like any other."""
        self._count(what, exc)
        log.error("internal error in %s (after the write: what was decided stands): "
                  "%s: %s", what, type(exc).__name__, exc, exc_info=exc)

    def _count(self, what: str, exc: BaseException) -> None:
        self.internal_errors += 1
        self.bugs.append(f"{what}: {type(exc).__name__}: {exc}")

    def event(self, desk: EventAggregate, cmd: cmd_.Command, batch: Batch) -> list[Event]:
        """One command of one event, with the tables it needs from the pool and whatever
        its events set off in the room. In a room, an entry goes through the room's
        player records first."""
        if isinstance(cmd, cmd_.Register) and self.repo.config.pool \
                and cmd.player not in self.repo.room.players:
            return self.register(desk, cmd, batch)
        if isinstance(cmd, cmd_.Reenter) and self.divert is not None:
            diverted = self.divert(desk, cmd, batch)
            if diverted is not None:     # a full event: behind the alternates waiting
                return diverted
        if isinstance(cmd, cmd_.Start) and desk.name in self.repo.room.events \
                and self.repo.room.events[desk.name].state == "scheduled":
            self.set_state(desk.name, "open", batch, cmd.get("by"))   # its held entries
            self.redeem_held(desk.name, batch)                        # come to the draw
        for _ in range(3):
            try:
                events, rows = desk.decide(cmd, batch.pending(desk.name))
            except NeedsTable as need:
                self.grant(desk, need.count, batch)
                continue
            batch.add(desk.name, events, rows)
            self.follow(desk, events, batch)
            return events
        raise RuleError(M_("pool.still_short", "{event}: still short of tables after "
                           "granting them", event=desk.name))

    def room(self, cmd: rc.RoomCommand, batch: Batch) -> list[Event]:
        """A room command: the room decides; moves and openings carry into the events."""
        if isinstance(cmd, rc.AssignTable):
            return self.assign(cmd.table, self.repo.event(cmd.event), batch, cmd.by)
        if isinstance(cmd, rc.FreeTable):
            return self.free(cmd.table, batch, cmd.by, why="freed by the floor")
        events = self.room_only(cmd, batch)
        if isinstance(cmd, rc.SetEventState) and cmd.state == "open":
            self.redeem_held(cmd.event, batch)
        return events

    def room_only(self, cmd: rc.RoomCommand, batch: Batch) -> list[Event]:
        assert self.repo.room_aggregate is not None
        events, rows = self.repo.room_aggregate.decide(cmd, batch.pending(ROOM_STREAM))
        batch.add(ROOM_STREAM, events, rows)
        return events

    # --------------------------------------------------------------- tables
    def grant(self, desk: EventAggregate, count: int, batch: Batch) -> None:
        """`count` free tables of the pool to `desk`, lowest numbers first."""
        free = self.repo.room.free_tables()
        if len(free) < count:
            raise RuleError(Mn_("pool.too_few", "{event} needs {n} more table but the room "
                                "has {free} free: free a table or provision more",
                                "{event} needs {n} more tables but the room has {free} free: "
                                "free a table or provision more", count, event=desk.name,
                                free=len(free)))
        for table in free[:count]:
            self.assign(table, desk, batch, None)

    def assign(self, table: int, desk: EventAggregate, batch: Batch, by: str | None) -> list[Event]:
        """A free table of the room starts serving `desk`'s event."""
        events = self.room_only(rc.AssignTable(table=table, event=desk.name, by=by), batch)
        evs, rows = desk.decide(cmd_.GrantTables(tables=[table]), batch.pending(desk.name))
        batch.add(desk.name, evs, rows)
        batch.freed.discard(table)
        batch.assigned.add(table)
        return events + evs

    def free(self, table: int, batch: Batch, by: str | None, why: str) -> list[Event]:
        """A table goes back to the pool; refused (by its event) while players sit there."""
        event = self.repo.room.table_event(table)
        if event is None:
            raise RuleError(M_("table.free_already", "table {table} is already free",
                               table=table))
        desk = self.repo.events[event]
        evs, rows = desk.decide(cmd_.ReleaseTable(table=table, by=by),
                                batch.pending(desk.name))
        batch.add(desk.name, evs, rows)
        events = self.room_only(rc.FreeTable(table=table, why=why, by=by), batch)
        batch.freed.add(table)
        batch.assigned.discard(table)
        return evs + events

    # ----------------------------------------------- what an event sets off
    def follow(self, desk: EventAggregate, events: list[Event], batch: Batch) -> None:
        """The room's part in an event's decision."""
        name = desk.name
        for ev in events:
            if isinstance(ev, ev_.TableBroken) and self.repo.config.pool:
                if self.repo.room.table_event(ev.table) == name:
                    self.free(ev.table, batch, None, why="broken")
            elif isinstance(ev, ev_.Started):
                self.set_state(name, "running", batch)
            elif isinstance(ev, ev_.SeatsWon):
                self.seats_won(desk, ev, batch)
            elif isinstance(ev, ev_.Finished):
                self.finished(desk, batch)

    def set_state(self, event: str, state: EventState, batch: Batch,
                  by: str | None = None) -> None:
        if self.repo.room.events[event].state != state:
            self.room_only(rc.SetEventState(event=event, state=state, by=by), batch)

    def finished(self, desk: EventAggregate, batch: Batch) -> None:
        """A finished event gives every table back to the pool (the room frees them as
        it marks the event finished; the winner's seat needs no release)."""
        tables = self.repo.room.tables_of(desk.name)
        self.set_state(desk.name, "finished", batch)
        batch.freed.update(tables)

    # ----------------------------------------------------------- players
    def room_player(self, name: str, card: str | None, country: str, batch: Batch,
                    player: str | None = None, language: str = "") -> str:
        """The room's id of this person: the one named, the card's holder, or a new one
        (who keeps `language` for the slips of every event they play)."""
        room = self.repo.room
        if player and player in room.players:
            return player
        if card:
            found = room.find_player(card=card)
            if isinstance(found, PlayerRecord):
                return found.id
        events = self.room_only(rc.AddPlayer(name=name, card=card, country=country,
                                             language=language), batch)
        return next(e.player for e in events if isinstance(e, rev.PlayerAdded))

    def register(self, desk: EventAggregate, cmd: cmd_.Register, batch: Batch) -> list[Event]:
        """An entry through the room: one player record across every event."""
        if self.repo.room.events[desk.name].state == "scheduled":
            raise RuleError(M_("event.scheduled_entries", "{event} is scheduled: it takes "
                               "entries once the floor opens it", event=desk.name))
        diverted = self.divert(desk, cmd, batch) if self.divert is not None else None
        if diverted is not None:     # a full event: on its alternates list
            return diverted
        language = player_language(cmd.language)
        rid = self.room_player(cmd.name, cmd.card, cmd.country, batch, cmd.player, language)
        p = self.repo.room.players[rid]
        reg = cmd_.Register(name=p.name, card=p.card, country=p.country, player=rid,
                            by=cmd.by, language=language or p.language)
        return self.event(desk, reg, batch)

    # ----------------------------------------------------------- tickets
    def seats_won(self, desk: EventAggregate, ev: Any, batch: Batch) -> None:
        """A satellite's seat winners: a ticket each, used at once where the target is
        open (held otherwise, and used when it opens)."""
        target = self.repo.room.events[desk.name].target or desk.tour.prize.target_event
        if target not in self.repo.room.events:   # a target outside this room: the CSV export
            log.info("%s: %d seats won for %s, which is not an event of this room",
                     desk.name, len(ev.players), target or "(no target)")
            return
        for pid in ev.players:
            p = desk.tour.players[pid]
            rid = self.room_player(p.name, p.card, getattr(p, "country", ""), batch, pid,
                                   getattr(p, "language", ""))
            issued = self.room_only(rc.IssueTicket(player=rid, source=desk.name,
                                                   target=target, value=ev.value), batch)
            ticket = next(e.ticket for e in issued if isinstance(e, rev.TicketIssued))
            self.try_redeem(ticket, batch)

    def try_redeem(self, ticket: str, batch: Batch) -> bool:
        """Use a held ticket in its target if the target takes entries now; a refusal
        (registration closed, the player already in) keeps the ticket held."""
        t = self.repo.room.tickets[ticket]
        info = self.repo.room.events.get(t.target)
        if info is None or info.state not in REGISTERING or t.target not in self.repo.events:
            return False
        try:
            self.atomic(batch, lambda: self.redeem(ticket, batch), f"room: ticket {ticket}")
        except RuleError as exc:
            log.info("ticket %s stays held: %s", ticket, exc)
            return False
        return True

    def redeem(self, ticket: str, batch: Batch) -> None:
        t = self.repo.room.tickets[ticket]
        p = self.repo.room.players[t.player]
        self.room_only(rc.UseTicket(ticket=ticket, event=t.target), batch)
        self.event(self.repo.events[t.target],
                   cmd_.Register(name=p.name, card=p.card, country=p.country,
                                 player=t.player, language=p.language), batch)

    # ------------------------------------------------------------ events
    def open_event(self, spec: RoomEvent, batch: Batch, by: str | None = None) -> EventAggregate:
        """A new event: its stream, its place in the room, its tables, then what it is
        made of (a Day 2's carried stacks) and the tickets held for it."""
        repo = self.repo
        created = created_event(spec.config, repo.clock(), repo.config.pool)
        self.room_only(rc.AddEvent(event=spec.name, title=spec.title, type=spec.kind,
                                   target=spec.target or None, flights=list(spec.flights),
                                   created=msgspec.to_builtins(created), by=by), batch)
        desk = repo.new_event(spec.name, created, spec.title)
        batch.add(spec.name, [created], [(created.kind, ev_.check(created))])
        if spec.scheduled:
            return desk
        self.set_state(spec.name, "open", batch, by)
        if spec.tables and repo.config.pool:
            self.grant(desk, spec.tables, batch)
        if spec.kind == "day2":
            self.carry_in(desk, spec, batch)
        self.redeem_held(spec.name, batch)
        return desk

    def redeem_held(self, event: str, batch: Batch) -> None:
        """The tickets held for an event that now takes entries."""
        for ticket in self.repo.room.tickets_for(event):
            if ticket.state == "issued":
                self.try_redeem(ticket.id, batch)

    def carry_in(self, desk: EventAggregate, spec: RoomEvent, batch: Batch) -> None:
        """A Day 2 from its flights: every bagged survivor's stack, the pools summed."""
        entrants: list[cmd_.CarryEntrant] = []
        pools = []
        for flight in spec.flights:
            tour = self.repo.event(flight).tour
            entrants += [cmd_.CarryEntrant(player=s.player, name=s.name, card=s.card,
                                           country=s.country, stack=s.stack, flight=flight,
                                           language=s.language)
                         for s in tour.survivors()]
            pools.append(cmd_.CarryPool(flight=flight, entries=tour.registry.entries,
                                        amount=tour.money.money_pool().prize_pool))
        self.event(desk, cmd_.CarryIn(entrants=entrants, pools=pools, keep=spec.keep,
                                      draw=spec.draw), batch)
