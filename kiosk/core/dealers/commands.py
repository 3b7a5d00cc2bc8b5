"""The dealers' commands, as the room takes them (kiosk.core.room.room.Room.execute): the
floor's (clock in and out, the EO list and a release, clearing a PIN lockout), the
director's (tables opening and closing, an event's break, the hold before its level
change, a push at a hand's end, a dealer back from break, a wrong PIN). Each is a declared
room command; `DealerDecider` hands it to the roadmap, which checks it whole before it emits.
"""

from __future__ import annotations

from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.model import room_commands as rc
from kiosk.core.model.bounds import Count, Ident, Name, PeriodNo, TableNo, Time
from kiosk.core.model.dealer_events import Dealer


class ClockIn(rc.RoomCommand, tag="dealer_clock_in", kw_only=True):
    """`at`: the table the dealer badged in at (dealt at once if it has no dealer)."""

    dealer: Dealer
    at: TableNo | None = None


class ClockOut(rc.RoomCommand, tag="dealer_clock_out", kw_only=True):
    dealer: Dealer
    why: Name = ""


class SignEarlyOut(rc.RoomCommand, tag="dealer_sign_early_out", kw_only=True):
    dealer: Dealer


class ReleaseEarlyOut(rc.RoomCommand, tag="dealer_release", kw_only=True):
    dealer: Dealer


class OpenDealTable(rc.RoomCommand, tag="dealer_table_open", kw_only=True):
    table: TableNo
    event: Ident
    final: bool = False


class MarkFinal(rc.RoomCommand, tag="dealer_table_final", kw_only=True):
    table: TableNo
    final: bool = True


class CloseDealTable(rc.RoomCommand, tag="dealer_table_close", kw_only=True):
    table: TableNo


class HoldClock(rc.RoomCommand, tag="dealer_hold", kw_only=True):
    event: Ident
    held: bool = True


class Push(rc.RoomCommand, tag="dealer_push", kw_only=True):
    """`dealer` takes `table`; `in_hand`: the table's hand is still on (refused); `hand`:
    the table's hand count now (the hands of the down closing are counted from it)."""

    table: TableNo
    dealer: Dealer
    hands: Count = 0
    in_hand: bool = False
    hand: Count | None = None
    period: PeriodNo | None = None   # the event's clock's when the push fell due


class HoldPushes(rc.RoomCommand, tag="dealer_hold_pushes", kw_only=True):
    """The director's: no push at the event's tables from `start` until `until`, its next
    level change or break (RP-7)."""

    event: Ident
    start: Time
    until: Time


class BackFromBreak(rc.RoomCommand, tag="dealer_back", kw_only=True):
    dealer: Dealer


class PinFailure(rc.RoomCommand, tag="dealer_pin_failed", kw_only=True):
    dealer: Dealer
    table: TableNo


class ClearPin(rc.RoomCommand, tag="dealer_pin_clear", kw_only=True):
    dealer: Dealer


rc.declare(ClockIn, ClockOut, SignEarlyOut, ReleaseEarlyOut, OpenDealTable, MarkFinal,
           CloseDealTable,
           HoldClock, HoldPushes, Push, BackFromBreak, PinFailure, ClearPin)


class DealerDecider:
    """The room's part that decides the dealers' commands on its roadmap."""

    def __init__(self, roadmap: Roadmap) -> None:
        self.road = roadmap

    def _do_clock_in(self, cmd: ClockIn, t: float) -> None:
        self.road.clock_in(cmd.dealer, t, cmd.by, cmd.at)

    def _do_clock_out(self, cmd: ClockOut, t: float) -> None:
        self.road.clock_out(cmd.dealer, t, cmd.why, cmd.by)

    def _do_sign(self, cmd: SignEarlyOut, t: float) -> None:
        self.road.sign_early_out(cmd.dealer, t)

    def _do_release(self, cmd: ReleaseEarlyOut, t: float) -> None:
        self.road.release(cmd.dealer, t, cmd.by)

    def _do_open(self, cmd: OpenDealTable, t: float) -> None:
        self.road.open_table(cmd.table, cmd.event, t, cmd.final)

    def _do_final(self, cmd: MarkFinal, t: float) -> None:
        self.road.mark_final(cmd.table, cmd.final, t)

    def _do_close(self, cmd: CloseDealTable, t: float) -> None:
        self.road.close_table(cmd.table, t)

    def _do_hold(self, cmd: HoldClock, t: float) -> None:
        self.road.hold(cmd.event, cmd.held, t)

    def _do_hold_pushes(self, cmd: HoldPushes, t: float) -> None:
        self.road.hold_pushes(cmd.event, cmd.start, cmd.until, t)

    def _do_push(self, cmd: Push, t: float) -> None:
        self.road.push(cmd.table, cmd.dealer, t, cmd.hands, cmd.in_hand, cmd.hand, cmd.period)

    def _do_back(self, cmd: BackFromBreak, t: float) -> None:
        self.road.back(cmd.dealer, t)

    def _do_pin_failed(self, cmd: PinFailure, t: float) -> None:
        self.road.pin_failed(cmd.dealer, cmd.table, t)

    def _do_pin_clear(self, cmd: ClearPin, t: float) -> None:
        self.road.pin_clear(cmd.dealer, t, cmd.by)
