"""What each kind of table report carries: the payload shapes, declared once.

The core reads these when it decides a report; the protocol's wire envelope (version,
sequence, time) wraps them. Bounded like every other field that crosses a boundary.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from kiosk.core.bounds import Chips, HandNo, Ident, SeatNo, Seats
from kiosk.core.events import Record

CLOCK_OUTCOMES = ("acted", "dead", "checked", "cancelled")
Outcome = Literal["acted", "dead", "checked", "cancelled"]


class Part(Record, omit_defaults=False):
    """A part of a message: every field is sent, so receivers never guess a default."""


class HandStartedData(Part, forbid_unknown_fields=True, kw_only=True):
    hand: Annotated[int, Meta(ge=1, le=10**9)]
    button: SeatNo
    sb: SeatNo
    bb: SeatNo
    dealt: Seats
    waiting: Seats = []

    def __post_init__(self) -> None:
        if len(set(self.dealt)) != len(self.dealt) or len(set(self.waiting)) != len(self.waiting):
            raise ValueError("dealt and waiting list each seat once")
        if set(self.dealt) & set(self.waiting):
            raise ValueError("a seat cannot be both dealt and waiting")


class HandEndedData(Part, forbid_unknown_fields=True, kw_only=True):
    hand: HandNo


class AllInData(Part, forbid_unknown_fields=True, kw_only=True):
    seat: SeatNo
    hand: HandNo


class BustData(Part, forbid_unknown_fields=True, kw_only=True):
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


class ChipCountData(Part, forbid_unknown_fields=True, kw_only=True):
    stacks: Annotated[dict[SeatNo, Chips], Meta(min_length=1, max_length=10)]
    round: Annotated[int, Meta(ge=1, le=10**9)] | None = None


class AddonData(Part, forbid_unknown_fields=True, kw_only=True):
    seat: SeatNo
    player: Ident


class SeatData(Part, forbid_unknown_fields=True, kw_only=True):
    seat: SeatNo


class ClockDoneData(Part, forbid_unknown_fields=True, kw_only=True):
    call: Ident
    outcome: Outcome


class FloorCallData(Part, forbid_unknown_fields=True, kw_only=True):
    seat: SeatNo | None = None


class CallData(Part, forbid_unknown_fields=True, kw_only=True):
    call: Ident


class CheckinData(Part, forbid_unknown_fields=True, kw_only=True):
    card: Ident
    seat: SeatNo | None = None


class UndoData(Part, forbid_unknown_fields=True, kw_only=True):
    report: Ident
