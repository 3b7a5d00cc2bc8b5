"""The room's events: the stream named `room`, folded by kiosk.core.room.room.Room.

The room holds what outlives one event: the pool of tables and which event each serves,
the events' directory and their states, the players known to the room, and the tickets
(seats won in a satellite, or given by the floor) that let a player into an event.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta, Struct

from kiosk.base.texts import M_
from kiosk.core.model.bounds import MAX_TABLES, Ident, Lang, Money, Name, TableNo, Text
from kiosk.core.model.event_base import Event

EventType = Literal["event", "satellite", "flight", "day2"]
EventState = Literal["scheduled", "open", "running", "finished", "archived"]
# as a sentence names each kind and state of event
A_TYPE = {"event": M_("event_kind.event", "an event"),
          "satellite": M_("event_kind.satellite", "a satellite"),
          "flight": M_("event_kind.flight", "a flight"),
          "day2": M_("event_kind.day2", "a Day 2")}
STATE = {"scheduled": M_("event_state.scheduled", "scheduled"),
         "open": M_("event_state.open", "open"),
         "running": M_("event_state.running", "running"),
         "finished": M_("event_state.finished", "finished"),
         "archived": M_("event_state.archived", "archived")}
Tables = Annotated[list[TableNo], Meta(max_length=MAX_TABLES)]
Flights = Annotated[list[Ident], Meta(max_length=100)]


class RoomCreated(Event, tag="room_created", kw_only=True):
    """The first event of the room's stream: its name, its title and its first tables."""

    room: Ident
    title: Name = ""
    tables: Tables = []


class TablesProvisioned(Event, tag="tables_provisioned", kw_only=True):
    """More tables joined the pool (provisioned once, to the room)."""

    tables: Tables
    by: Name | None = None


class EventAdded(Event, tag="event_added", kw_only=True):
    """An event joined the directory. `type` is what the contract calls its kind (a field
    cannot be called `kind`: that is every event's tag). `created` is the body of the
    event's own `created` event, the first of its stream."""

    event: Ident
    title: Name = ""
    type: EventType = "event"
    target: Ident | None = None      # a satellite's target event
    flights: Flights = []            # the flights a Day 2 is made of
    created: dict[str, Any]
    by: Name | None = None


class EventStateSet(Event, tag="event_state_set", kw_only=True):
    event: Ident
    state: EventState
    by: Name | None = None


class TableAssigned(Event, tag="table_assigned", kw_only=True):
    table: TableNo
    event: Ident
    by: Name | None = None


class TableFreed(Event, tag="table_freed", kw_only=True):
    """A table back in the pool, free: `why` says so on the dashboard (broken, event over)."""

    table: TableNo
    event: Ident
    why: Text = ""
    by: Name | None = None


class PlayerAdded(Event, tag="player_added", kw_only=True):
    player: Ident
    name: Name
    card: Ident | None = None
    country: Name = ""
    language: Lang = ""       # the player's own, for their slips ("": the room's)
    by: Name | None = None


class PlayerUpdated(Event, tag="player_updated", kw_only=True):
    """The player's record as it now reads (every field, not only the changed ones)."""

    player: Ident
    name: Name
    card: Ident | None = None
    country: Name = ""
    by: Name | None = None


class TicketIssued(Event, tag="ticket_issued", kw_only=True):
    """A seat in `target` for `player`: won in the satellite `source`, or given by the
    floor (`source` None). `value` is what the seat is worth, for a refund."""

    ticket: Ident
    player: Ident
    source: Ident | None = None
    target: Ident
    value: Money = 0
    by: Name | None = None


class TicketUsed(Event, tag="ticket_used", kw_only=True):
    ticket: Ident
    event: Ident
    by: Name | None = None


class TicketReturned(Event, tag="ticket_returned", kw_only=True):
    ticket: Ident
    by: Name | None = None
    note: Text = ""


class TicketRefunded(Event, tag="ticket_refunded", kw_only=True):
    ticket: Ident
    amount: Money
    by: Name | None = None
    note: Text = ""


class Section(Struct, kw_only=True, forbid_unknown_fields=True):
    """One section of the floor: a name and its tables (a table is in one section)."""

    name: Annotated[str, Meta(min_length=1, max_length=40)]
    tables: Tables


class SectionsSet(Event, tag="sections_set", kw_only=True):
    """The floor's sections, all of them at once (the last set wins; none: one room)."""

    sections: Annotated[list[Section], Meta(max_length=200)]
    by: Name | None = None


ROOM_EVENTS: tuple[type[Event], ...] = (
    RoomCreated, TablesProvisioned, EventAdded, EventStateSet, TableAssigned, TableFreed,
    PlayerAdded, PlayerUpdated, TicketIssued, TicketUsed, TicketReturned, TicketRefunded,
    SectionsSet)
