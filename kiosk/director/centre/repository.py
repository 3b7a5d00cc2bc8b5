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
from kiosk.config.files import EventConfig
from kiosk.config.room import RoomConfig
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events as ev_
from kiosk.core.model.events import Event
from kiosk.core.room.room import Room
from kiosk.director.centre.desk import Desk
from kiosk.director.centre.ports import Clock
from kiosk.director.centre.roomdesk import RoomDesk
from kiosk.director.log.logstore import ROOM_STREAM, StreamLog


class Repository:
    """The room's desk and its events' desks, by name."""

    def __init__(self, config: RoomConfig, streams: Callable[[str], StreamLog],
                 clock: Clock) -> None:
        self.config = config
        self.streams = streams
        self.clock = clock
        self.desks: dict[str, Desk] = {}     # the same dict for the service's whole life
        self.watchers: list[Callable[[Desk], None]] = []
        self.roomdesk: RoomDesk | None = None

    # ------------------------------------------------------------------ loading
    def load_room(self) -> None:
        """The room as logged (created and written now on its first start)."""
        self.roomdesk = RoomDesk.load(self.config, self.streams(ROOM_STREAM), self.clock)

    def load_event(self, name: str, config: EventConfig | None, title: str) -> Desk:
        """An event as its stream has it, its settings checked against `config` when the
        room's file still lists it."""
        return self.hold(Desk.load(name, self.streams(name), config, self.clock, title))

    def new_event(self, name: str, created: ev_.Created, title: str) -> Desk:
        """A desk for an event whose first event, `created`, is not written yet."""
        return self.hold(Desk(name, self.streams(name), Tournament(created), self.clock,
                              title))

    def hold(self, desk: Desk) -> Desk:
        self.desks[desk.name] = desk
        for watch in self.watchers:
            watch(desk)
        return desk

    # ------------------------------------------------------------------ reading
    @property
    def room(self) -> Room:
        assert self.roomdesk is not None, "the room is loaded first"
        return self.roomdesk.room

    def desk(self, event: str | None = None) -> Desk:
        """The event named, or the room's only (first open) event; RuleError if unknown."""
        if event is None:
            live = [d for d in self.desks.values()
                    if self.room.events[d.name].state != "archived"]
            if not live:
                raise RuleError("the room has no event yet: create one first")
            return live[0]
        try:
            return self.desks[event]
        except KeyError:
            raise RuleError(f"no event {event!r} in this room (events: "
                            f"{', '.join(self.desks) or 'none'})") from None

    def table_event(self, table: int) -> str | None:
        """The event table `table` serves now, or None for a free table."""
        if self.config.pool:
            return self.room.table_event(table)
        for desk in self.desks.values():
            if table in desk.tour.tables:
                return desk.name
        return None

    # ------------------------------------------------------------------ folding
    def rebuild(self, stream: str, pending: list[Event]) -> None:
        """A stream back to its log plus `pending` (a refused step's undo); an event
        opened in the refused batch is dropped, as it never was."""
        if stream == ROOM_STREAM:
            assert self.roomdesk is not None
            self.roomdesk.rebuild(pending)
            return
        desk = self.desks[stream]
        if desk.log.last_seq == 0 and not pending:
            del self.desks[stream]
        else:
            desk.rebuild(pending)

    def fold(self, stream: str, ev: Event) -> None:
        """One event another director wrote (a standby's warm fold)."""
        if stream == ROOM_STREAM:
            assert self.roomdesk is not None
            self.roomdesk.room.apply(ev)
        elif stream in self.desks:
            self.desks[stream].tour.apply(ev)
        elif isinstance(ev, ev_.Created):   # an event the leader opened
            info = self.room.events.get(stream)
            self.new_event(stream, ev, info.title if info else stream)

    def retitle(self) -> None:
        """Every desk's title as the room has it now (events opened in a followed batch)."""
        for name, desk in self.desks.items():
            info = self.room.events.get(name)
            if info is not None:
                desk.title = info.title
