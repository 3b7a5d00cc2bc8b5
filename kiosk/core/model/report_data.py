"""What each kind of table report carries: the payload shapes, declared once.

The core reads these when it decides a report; the protocol's wire envelope (version,
sequence, time) wraps them. Bounded like every other field that crosses a boundary.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from kiosk.core.model.bounds import Chips, Count, HandNo, Ident, SeatNo, Seats
from kiosk.core.model.events import Record

CLOCK_OUTCOMES = ("acted", "dead", "checked", "cancelled")
Outcome = Literal["acted", "dead", "checked", "cancelled"]


RaceWinners = Annotated[list[SeatNo], Meta(max_length=1000)]   # one per chip a race gives


class Part(Record, omit_defaults=False):
    """A part of a message: every field is sent, so receivers never guess a default."""


class ReportData(Part, forbid_unknown_fields=True, kw_only=True):
    """The `data` of a table's report: nothing but the kind's own fields."""


class HandStartedData(ReportData):
    hand: Annotated[int, Meta(ge=1, le=10**9)]
    button: SeatNo
    sb: SeatNo
    bb: SeatNo
    dealt: Seats
    waiting: Seats = []

    def __post_init__(self) -> None:
        # built for every hand: each list made a set once, and no set at all when empty
        dealt, waiting = self.dealt, self.waiting
        seats = set(dealt)
        if len(seats) != len(dealt):
            raise ValueError("dealt and waiting list each seat once")
        if waiting:
            if len(set(waiting)) != len(waiting):
                raise ValueError("dealt and waiting list each seat once")
            if not seats.isdisjoint(waiting):
                raise ValueError("a seat cannot be both dealt and waiting")


class HandEndedData(ReportData):
    hand: HandNo


class AllInData(ReportData):
    seat: SeatNo
    hand: HandNo


class BustData(ReportData):
    seat: SeatNo
    player: Ident
    stack: Chips | None = None
    eliminator: SeatNo | Annotated[list[SeatNo], Meta(min_length=1, max_length=9)] | None = None
    rebuy: bool = False      # the player rebuys at once and keeps the seat

    def __post_init__(self) -> None:
        e = self.eliminator
        seats = e if isinstance(e, list) else [] if e is None else [e]
        if len(set(seats)) != len(seats) or self.seat in seats:
            raise ValueError("eliminator must name other seats, each once")


class ChipCountData(ReportData):
    stacks: Annotated[dict[SeatNo, Chips], Meta(min_length=1, max_length=10)]
    round: Annotated[int, Meta(ge=1, le=10**9)] | None = None


class ChipRaceData(ReportData):
    round: Count
    winners: RaceWinners               # highest card first, one entry per chip given


class AddonData(ReportData):
    seat: SeatNo
    player: Ident


class SeatData(ReportData):
    seat: SeatNo


class ClockDoneData(ReportData):
    call: Ident
    outcome: Outcome


class FloorCallData(ReportData):
    seat: SeatNo | None = None


class CallData(ReportData):
    call: Ident


class CheckinData(ReportData):
    card: Ident
    seat: SeatNo | None = None


class UndoData(ReportData):
    report: Ident


class TimeBankData(ReportData):
    """A player at `seat` handed in a time-bank card on hand `hand`."""

    seat: SeatNo
    player: Ident
    hand: HandNo = 0


class ShotClockOutData(ReportData):
    """The shot clock of the player at `seat` ran out: the hand is dead (facing a bet) or
    checked (not), as the dealer said."""

    seat: SeatNo
    player: Ident
    outcome: Literal["dead", "checked"]
    hand: HandNo = 0
