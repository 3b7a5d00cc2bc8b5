"""The room as the fold of its own stream (`room`), and the decisions that extend it.

A room runs several events at once over one pool of tables. Each event is its own
Tournament with its own stream; the room holds what they share: the tables and which
event each serves, the events' directory (name, title, kind, state, satellite target,
Day 2 flights), the players known across events and the tickets into events. Like the
Tournament, `execute(command, t)` decides, checks everything before it emits, and raises
RuleError with the reason and nothing changed when the room does not allow it; `apply`
folds one event and is all a replay needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_
from kiosk.core.dealers.commands import DealerDecider
from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.dealers.state import RoadmapState
from kiosk.core.model import events as ev_
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as re_
from kiosk.core.model.component import handlers
from kiosk.core.model.event_base import Event
from kiosk.core.room.players import PlayerRecord, RoomPlayers, Ticket
from kiosk.core.room.reservations import Reservations
from kiosk.core.room.sections import RoomSections

ROOM_STREAM = "room"    # the room's own stream: no event may take this name
# names become MQTT topic levels: the rule of kiosk.protocol.topics.check_event_name
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
# the states an event may come from, for each state it may go to
_FROM: dict[str, tuple[str, ...]] = {
    "scheduled": (), "open": ("scheduled",), "running": ("scheduled", "open"),
    "finished": ("running",), "archived": ("scheduled", "finished")}
_WHY = {"scheduled": M_("event.why_scheduled", "an event never goes back to scheduled"),
        "open": M_("event.why_open", "only a scheduled event opens"),
        "running": M_("event.why_running", "only a scheduled or open event starts"),
        "finished": M_("event.why_finished", "only a running event finishes"),
        "archived": M_("event.why_archived", "only a finished or a scheduled event is "
                       "archived; finish it first")}
# what an event that is over takes no more, as a refusal says it
_TAKES = {"tables": M_("event.takes_tables", "tables"),
          "entries": M_("event.takes_entries", "entries"),
          "tickets": M_("event.takes_tickets", "tickets"),
          "reservations": M_("event.takes_reservations", "reservations")}
OVER = ("finished", "archived")   # states of an event that is over
Route = tuple[type, Callable[..., None]]


@dataclass
class EventInfo:
    """One event of the directory, as the room knows it."""

    name: str
    title: str
    kind: str                       # event, satellite, flight, day2
    target: str | None = None       # a satellite's target event
    flights: list[str] = field(default_factory=list)   # a Day 2's flights
    state: str = "scheduled"
    created: dict[str, Any] = field(default_factory=dict)   # its `created` event's body


def next_states(state: str) -> list[str]:
    """The states an event in `state` may be set to, in the order of an event's life
    (the room page offers only these)."""
    return [to for to, came in _FROM.items() if state in came]


def check_name(name: str, what: str = "event") -> str:
    if not NAME_RE.match(name):
        raise RuleError(M_("room.bad_name", "room name '{name}' must be 1-48 chars of a-z, "
                           "0-9, '-' or '_'", name=name) if what == "room" else
                        M_("event.bad_name", "event name '{name}' must be 1-48 chars of a-z, "
                           "0-9, '-' or '_'", name=name))
    return name


class Room:
    """One room: its tables, its events' directory, its players and tickets."""

    FOLDS: ClassVar[dict[type, Route]] = {}
    DECIDES: ClassVar[dict[type, Route]] = {}

    def __init__(self, created: re_.RoomCreated) -> None:
        self.config = created
        self.name: str = created.room
        self.title: str = created.title or created.room
        self.pool: set[int] = set(created.tables)
        self.assigned: dict[int, str] = {}        # table -> the event it serves
        self.events: dict[str, EventInfo] = {}
        self.people = RoomPlayers(self)
        self.bookings = Reservations(self)
        self.parts: dict[type, Any] = {Room: self, RoomPlayers: self.people,
                                       Reservations: self.bookings}
        self.roadmap = Roadmap(host=self)      # the dealers' rotation (kiosk.core.dealers)
        self.parts.update({RoadmapState: self.roadmap, DealerDecider: DealerDecider(self.roadmap)})
        self.floor_sections = RoomSections(self)
        self.parts[RoomSections] = self.floor_sections
        self.n_events = 1
        self._out: list[Event] | None = None

    # ---------------------------------------------------------------- creation
    @classmethod
    def create(cls, room: str, title: str = "", tables: Sequence[int] = (),
               t: float = 0.0) -> Room:
        check_name(room, "room")
        if len(set(tables)) != len(tables):
            raise RuleError(M_("table.named_twice", "a table is named twice"))
        created = re_.RoomCreated(t=t, room=room, title=title, tables=sorted(tables))
        ev_.check(created)
        return cls(created)

    @classmethod
    def replay(cls, events: Iterable[Event]) -> Room:
        it = iter(events)
        first = next(it)
        if not isinstance(first, re_.RoomCreated):
            raise ValueError("the room's stream must start with 'room_created'")
        room = cls(first)
        for ev in it:
            room.apply(ev)
        return room

    # ---------------------------------------------------------------- fold, decide
    def apply(self, ev: Event) -> None:
        """Fold one event; events are trusted (they were decided here)."""
        part, fold = self.FOLDS[type(ev)]
        fold(self.parts[part], ev)
        self.n_events += 1

    def execute(self, cmd: rc.RoomCommand | dict[str, Any], t: float) -> list[Event]:
        """Decide `cmd` at time `t`; returns the events appended (already applied).
        Raises RuleError, with nothing changed, when the room does not allow it."""
        cmd = rc.decode(cmd)
        part, decide = self.DECIDES[type(cmd)]
        self._out = []
        try:
            decide(self.parts[part], cmd, t)
            return self._out
        finally:
            self._out = None

    def emit(self, ev: Event) -> None:
        """Fold an event a decision made and hand it out with the decision's others."""
        self.apply(ev)
        if self._out is not None:
            self._out.append(ev)

    # ---------------------------------------------------------------- queries
    def table_event(self, table: int) -> str | None:
        """The event `table` serves, or None when it is free."""
        return self.assigned.get(table)

    def free_tables(self) -> list[int]:
        return sorted(self.pool - self.assigned.keys())

    def tables_of(self, event: str) -> list[int]:
        return sorted(n for n, e in self.assigned.items() if e == event)

    def find_player(self, card: str | None = None, name: str | None = None
                    ) -> PlayerRecord | list[PlayerRecord] | None:
        """By card, the player holding it (None if nobody); by name, a list (any case)."""
        return self.people.find_player(card=card, name=name)

    def tickets_for(self, event: str) -> list[Ticket]:
        return self.people.tickets_for(event)

    @property
    def players(self) -> dict[str, PlayerRecord]:
        return self.people.players

    @property
    def tickets(self) -> dict[str, Ticket]:
        return self.people.tickets

    def event(self, name: str) -> EventInfo:
        info = self.events.get(name)
        if info is None:
            raise RuleError(M_("event.not_in_room", "no event '{name}' in the room", name=name))
        return info

    def taking(self, name: str, what: str) -> EventInfo:
        """The event, if it can still take `what` (tables, entries, tickets,
        reservations): it is not over."""
        info = self.event(name)
        if info.state in OVER:
            raise RuleError(M_("event.takes_no_more", "event {name} is {state}: it takes no "
                               "more {what}", name=name, state=re_.STATE[info.state],
                               what=_TAKES.get(what, what)))
        return info

    # ---------------------------------------------------------------- folding
    def _on_tables_provisioned(self, ev: re_.TablesProvisioned) -> None:
        self.pool.update(ev.tables)

    def _on_event_added(self, ev: re_.EventAdded) -> None:
        self.events[ev.event] = EventInfo(ev.event, ev.title or ev.event, ev.type, ev.target,
                                          list(ev.flights), created=ev.created)

    def _on_event_state_set(self, ev: re_.EventStateSet) -> None:
        self.events[ev.event].state = ev.state

    def _on_table_assigned(self, ev: re_.TableAssigned) -> None:
        self.assigned[ev.table] = ev.event

    def _on_table_freed(self, ev: re_.TableFreed) -> None:
        del self.assigned[ev.table]

    # ---------------------------------------------------------------- deciding
    def _do_provision_tables(self, cmd: rc.ProvisionTables, t: float) -> None:
        if not cmd.tables:
            raise RuleError(M_("table.name_to_add", "name the tables to add to the room"))
        if len(set(cmd.tables)) != len(cmd.tables):
            raise RuleError(M_("table.named_twice", "a table is named twice"))
        known = sorted(self.pool.intersection(cmd.tables))
        if known:
            raise RuleError(Mn_("table.in_room_already", "table {tables} is already in the room",
                                "tables {tables} are already in the room", len(known),
                                tables=_list(known)))
        self.emit(re_.TablesProvisioned(t=t, tables=sorted(cmd.tables), by=cmd.by))

    def _do_add_event(self, cmd: rc.AddEvent, t: float) -> None:
        _check_new(self, cmd)
        _check_links(self, cmd)
        if len(set(cmd.tables)) != len(cmd.tables):
            raise RuleError(M_("table.named_twice", "a table is named twice"))
        for n in cmd.tables:
            self._check_assignable(n, cmd.event, new=True)
        self.emit(re_.EventAdded(t=t, event=cmd.event, title=cmd.title.strip(),
                                 type=cmd.type, target=cmd.target, flights=cmd.flights,
                                 created=cmd.created, by=cmd.by))
        for n in cmd.tables:
            self.emit(re_.TableAssigned(t=t, table=n, event=cmd.event, by=cmd.by))

    def _do_set_event_state(self, cmd: rc.SetEventState, t: float) -> None:
        info = self.event(cmd.event)
        if info.state == cmd.state:
            raise RuleError(M_("event.state_already", "event {event} is already {state}",
                               event=cmd.event, state=re_.STATE[cmd.state]))
        if info.state == "archived":
            raise RuleError(M_("event.archived", "event {event} is archived: it no longer changes",
                               event=cmd.event))
        if info.state not in _FROM[cmd.state]:
            raise RuleError(M_("event.state_refused", "event {event} is {state}, so it cannot "
                               "become {to}: {why}", event=cmd.event,
                               state=re_.STATE[info.state], to=re_.STATE[cmd.state],
                               why=_WHY[cmd.state]))
        self.emit(re_.EventStateSet(t=t, event=cmd.event, state=cmd.state, by=cmd.by))
        if cmd.state in OVER:    # its tables go back to the pool, free for another event
            for n in self.tables_of(cmd.event):
                self.emit(re_.TableFreed(t=t, table=n, event=cmd.event,
                                         why=f"event {cmd.state}", by=cmd.by))

    def _do_assign_table(self, cmd: rc.AssignTable, t: float) -> None:
        self._check_assignable(cmd.table, cmd.event)
        self.emit(re_.TableAssigned(t=t, table=cmd.table, event=cmd.event, by=cmd.by))

    def _check_assignable(self, table: int, event: str, new: bool = False) -> None:
        self._known_table(table)
        if not new:
            self.taking(event, "tables")
        serving = self.assigned.get(table)
        if serving == event:
            raise RuleError(M_("table.serves_already", "table {table} already serves {event}",
                               table=table, event=event))
        if serving is not None:
            raise RuleError(M_("table.serves_other", "table {table} serves {serving}: free it "
                               "before it can serve {event}", table=table, serving=serving,
                               event=event))

    def _known_table(self, table: int) -> None:
        if table not in self.pool:
            raise RuleError(M_("table.not_in_room", "table {table} is not in the room (its "
                               "tables: {pool})", table=table, pool=_list(sorted(self.pool)))
                            if self.pool else
                            M_("table.room_has_none", "table {table} is not in the room (its "
                               "tables: none)", table=table))

    def _do_free_table(self, cmd: rc.FreeTable, t: float) -> None:
        self._known_table(cmd.table)
        event = self.assigned.get(cmd.table)
        if event is None:
            raise RuleError(M_("table.free_already", "table {table} is already free",
                               table=cmd.table))
        self.emit(re_.TableFreed(t=t, table=cmd.table, event=event, why=cmd.why, by=cmd.by))


def _check_new(room: Room, cmd: rc.AddEvent) -> None:
    """A new name, and the body of a `created` event that names it."""
    check_name(cmd.event)
    if cmd.event == ROOM_STREAM:
        raise RuleError(M_("event.room_name", "an event cannot be called '{name}': that name is "
                           "the room's own log", name=ROOM_STREAM))
    if cmd.event in room.events:
        raise RuleError(M_("event.exists", "an event called {event} already exists ({state})",
                           event=cmd.event, state=re_.STATE[room.events[cmd.event].state]))
    try:
        created = ev_.upcast({"t": 0, **cmd.created, "kind": "created"})
    except ev_.EventError as exc:
        raise RuleError(M_("event.settings_misfit", "event {event}: its settings do not fit: {why}",
                           event=cmd.event, why=exc)) from None
    assert isinstance(created, ev_.Created)
    if created.event != cmd.event:
        raise RuleError(M_("event.settings_name", "event {event}: its settings name the event "
                           "'{named}'", event=cmd.event, named=created.event))


def _check_links(room: Room, cmd: rc.AddEvent) -> None:
    """A satellite's target, and a Day 2's flights, are events of this room."""
    if (cmd.type == "satellite") != (cmd.target is not None):
        raise RuleError(M_("satellite.target_only", "{event}: a satellite names its target event, "
                           "and only a satellite does", event=cmd.event))
    if (cmd.type == "day2") != bool(cmd.flights):
        raise RuleError(M_("day2.flights_only", "{event}: a Day 2 names the flights it is made "
                           "of, and only a Day 2 does", event=cmd.event))
    if cmd.target is not None:
        if cmd.target == cmd.event:
            raise RuleError(M_("satellite.self", "satellite {event} cannot feed itself",
                               event=cmd.event))
        target = room.events.get(cmd.target)
        if target is None:
            raise RuleError(M_("satellite.no_target", "satellite {event}: no target event "
                               "'{target}' in the room", event=cmd.event, target=cmd.target))
        if target.state in OVER:
            raise RuleError(M_("satellite.target_over", "satellite {event}: its target "
                               "{target} is {state}", event=cmd.event, target=cmd.target,
                               state=re_.STATE[target.state]))
    if len(set(cmd.flights)) != len(cmd.flights):
        raise RuleError(M_("day2.flight_twice", "{event}: a flight is named twice",
                           event=cmd.event))
    for name in cmd.flights:
        _check_flight(room, cmd.event, name)


def _check_flight(room: Room, day2: str, name: str) -> None:
    info = room.events.get(name)
    if info is None:
        raise RuleError(M_("day2.no_flight", "Day 2 {day2}: no flight '{flight}' in the room",
                           day2=day2, flight=name))
    # a Day 3 is made of Day 2s (festivals merge in two steps): any day that bags
    if info.kind not in ("flight", "day2"):
        raise RuleError(M_("day2.not_a_flight", "Day 2 {day2}: {name} is {kind}, not a flight "
                           "nor a Day 2", day2=day2, name=name, kind=re_.A_TYPE[info.kind]))
    fed = next((e.name for e in room.events.values() if name in e.flights), None)
    if fed is not None:
        raise RuleError(M_("day2.flight_feeds", "Day 2 {day2}: flight {flight} already feeds {fed}",
                           day2=day2, flight=name, fed=fed))


def _list(tables: list[int]) -> str:
    """Table numbers as a person reads them: runs joined (1-4, 7, 9-10)."""
    runs: list[list[int]] = []
    for n in tables:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _routes() -> None:
    for part in (Room, RoomPlayers, Reservations, RoadmapState, DealerDecider, RoomSections):
        for ev, fn in handlers(part, "_on_", Event).items():
            Room.FOLDS[ev] = (part, fn)
        for cmd, fn in handlers(part, "_do_", rc.RoomCommand).items():
            Room.DECIDES[cmd] = (part, fn)


_routes()
