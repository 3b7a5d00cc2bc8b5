"""The aggregates the room's service holds: the room itself and one desk per event.

Like eventsourcing's repository, it loads each aggregate from its stream of the log and
hands it out by name (or by the table it serves); it decides nothing and writes nothing
but a new room's first event. Every desk it comes to hold (loaded at start, opened by a
command, or followed from another director's log) is announced to whoever watches, so the
adapters that publish an event's plans have a place for it before its first change.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.config.files import EventConfig
from kiosk.config.room import RoomConfig
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events as ev_
from kiosk.core.model.events import Event
from kiosk.core.room.room import Room
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.ports import Clock
from kiosk.director.centre.room_aggregate import RoomAggregate
from kiosk.director.log.logstore import ROOM_STREAM, StreamLog


class Repository:
    """The room's desk and its events' desks, by name."""

    def __init__(self, config: RoomConfig, streams: Callable[[str], StreamLog],
                 clock: Clock) -> None:
        self.config = config
        self.streams = streams
        self.clock = clock
        self.events: dict[str, EventAggregate] = {}     # the same dict for the service's whole life
        self.watchers: list[Callable[[EventAggregate], None]] = []
        self.room_aggregate: RoomAggregate | None = None

    # ------------------------------------------------------------------ loading
    def load_room(self) -> None:
        """The room as logged (created and written now on its first start)."""
        self.room_aggregate = RoomAggregate.load(self.config, self.streams(ROOM_STREAM), self.clock)

    def load_event(self, name: str, config: EventConfig | None, title: str) -> EventAggregate:
        """An event as its stream has it, its settings checked against `config` when the
        room's file still lists it."""
        return self.hold(EventAggregate.load(name, self.streams(name), config, self.clock, title))

    def new_event(self, name: str, created: ev_.Created, title: str) -> EventAggregate:
        """A desk for an event whose first event, `created`, is not written yet."""
        return self.hold(EventAggregate(name, self.streams(name), Tournament(created), self.clock,
                              title))

    def hold(self, desk: EventAggregate) -> EventAggregate:
        self.events[desk.name] = desk
        for watch in self.watchers:
            watch(desk)
        return desk

    # ------------------------------------------------------------------ reading
    @property
    def room(self) -> Room:
        assert self.room_aggregate is not None, "the room is loaded first"
        return self.room_aggregate.room

    def event(self, event: str | None = None) -> EventAggregate:
        """The event named, or the room's only (first open) event; RuleError if unknown."""
        if event is None:
            live = [d for d in self.events.values()
                    if self.room.events[d.name].state != "archived"]
            if not live:
                raise RuleError(M_("event.none_yet", "the room has no event yet: create one "
                                   "first"))
            return live[0]
        try:
            return self.events[event]
        except KeyError:
            raise RuleError(M_("event.not_here", "no event '{event}' in this room (events: "
                               "{events})", event=event, events=", ".join(self.events))
                            if self.events else
                            M_("event.not_here_none", "no event '{event}' in this room "
                               "(events: none)", event=event)) from None

    def table_event(self, table: int) -> str | None:
        """The event table `table` serves now, or None for a free table."""
        if self.config.pool:
            return self.room.table_event(table)
        for desk in self.events.values():
            if table in desk.tour.tables:
                return desk.name
        return None

    # ------------------------------------------------------------------ folding
    def rebuild(self, stream: str, pending: list[Event]) -> None:
        """A stream back to its log plus `pending` (a refused step's undo); an event
        opened in the refused batch is dropped, as it never was."""
        if stream == ROOM_STREAM:
            assert self.room_aggregate is not None
            self.room_aggregate.rebuild(pending)
            return
        desk = self.events[stream]
        if desk.log.last_seq == 0 and not pending:
            del self.events[stream]
        else:
            desk.rebuild(pending)

    def fold(self, stream: str, ev: Event) -> None:
        """One event another director wrote (a standby's warm fold)."""
        if stream == ROOM_STREAM:
            assert self.room_aggregate is not None
            self.room_aggregate.room.apply(ev)
        elif stream in self.events:
            self.events[stream].tour.apply(ev)
        elif isinstance(ev, ev_.Created):   # an event the leader opened
            info = self.room.events.get(stream)
            self.new_event(stream, ev, info.title if info else stream)

    def retitle(self) -> None:
        """Every desk's title as the room has it now (events opened in a followed batch)."""
        for name, desk in self.events.items():
            info = self.room.events.get(name)
            if info is not None:
                desk.title = info.title
