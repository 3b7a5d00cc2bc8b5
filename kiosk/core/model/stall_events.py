"""The events of the tools against stalling (TDA RP-19): the shot clock and its time
banks, orbit for orbit. Declared apart and imported by kiosk.core.model.events, whose
decoder reads them with every other event.

The countdown itself runs at the table and is never logged (one a decision would flood
the log, and a table deals on offline); what is logged is what counts later: where the
floor applies the shot clock, each time-bank card a player hands in, each shot clock
that ran out and the rule the dealer gave.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from kiosk.core.model.bounds import MAX_TABLES, Count, HandNo, Ident, Name, SeatNo, TableNo
from kiosk.core.model.event_base import Event, Record

Applies = Literal["event", "level", "final", "off"]   # where the shot clock runs
ShotOutcome = Literal["dead", "checked"]              # facing a bet, or not
Level = Annotated[int, Meta(ge=1, le=500)]
Levels = Annotated[list[Level], Meta(max_length=100)]
Days = Annotated[list[Annotated[int, Meta(ge=2, le=100)]], Meta(max_length=100)]
ShotSeconds = Annotated[int, Meta(ge=1, le=600)]
Cards = Annotated[int, Meta(ge=0, le=50)]


class ShotClockSpec(Record, kw_only=True, forbid_unknown_fields=True):
    """An event's shot clock, as its config set it when it was created: each decision
    gets `seconds`; every player holds `bank_cards` time-bank cards of `bank_seconds`
    each, and as many more at the start of each level of `bank_levels` and each day of
    `bank_days`. `applies` and `from_level` say where it runs until the floor says
    otherwise."""

    seconds: ShotSeconds
    applies: Applies = "event"
    from_level: Level = 1
    bank_cards: Cards = 0
    bank_seconds: Annotated[int, Meta(ge=0, le=600)] = 0
    bank_levels: Levels = []
    bank_days: Days = []


class ShotClockSet(Event, tag="shot_clock_set", kw_only=True):
    """The floor says where the shot clock runs: the whole event, from a level on, the
    final table only, or nowhere."""

    applies: Applies
    from_level: Level = 1
    by: Name | None = None


class TimeBankUsed(Event, tag="time_bank_used", kw_only=True):
    """A player handed in a time-bank card at a table: its seconds were added to the
    running shot clock."""

    player: Ident
    table: TableNo
    seat: SeatNo
    hand: HandNo = 0
    seconds: Count = 0


class ShotClockOut(Event, tag="shot_clock_out", kw_only=True):
    """A player's shot clock ran out: the hand was dead (facing a bet) or checked."""

    player: Ident
    table: TableNo
    seat: SeatNo
    hand: HandNo = 0
    outcome: ShotOutcome


class OrbitForOrbit(Event, tag="orbit", kw_only=True):
    """Orbit for orbit (soft hand-for-hand) on or off."""

    on: bool
    by: Name | None = None


class OrbitGo(Event, tag="orbit_go", kw_only=True):
    """A round of orbit for orbit starts: each of `tables` plays one orbit."""

    round: Count
    tables: Annotated[list[TableNo], Meta(max_length=MAX_TABLES)]


class OrbitDone(Event, tag="orbit_done", kw_only=True):
    """`table` played out its orbit of `round`: it waits for the others."""

    table: TableNo
    round: Count

