"""The dealers' events: the stream named `dealers`, folded by kiosk.core.dealers.roadmap.

Each decision of the roadmap is logged with its outcome (which dealer goes where, until
when), so a replay folds the same roadmap without deciding anything again. No event
carries a badge or a PIN: a wrong PIN is logged as the dealer's failed try only.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from kiosk.core.model.bounds import MAX_TABLES, Count, Ident, Name, PeriodNo, TableNo, Time
from kiosk.core.model.event_base import Event

Dealer = Annotated[str, Meta(min_length=1, max_length=32)]
Strings = Annotated[list[Annotated[list[TableNo], Meta(max_length=MAX_TABLES)]],
                    Meta(max_length=MAX_TABLES)]
Next = Literal["table", "relief", "break", "waiting", "home"]


class DealerClockedIn(Event, tag="dealer_clocked_in", kw_only=True):
    dealer: Dealer
    by: Name | None = None


class DealerClockedOut(Event, tag="dealer_clocked_out", kw_only=True):
    """Gone home: the end of the shift, or released early (`why` says so)."""

    dealer: Dealer
    why: Name = ""
    by: Name | None = None


class EarlyOutSigned(Event, tag="early_out_signed", kw_only=True):
    dealer: Dealer


class EarlyOutReleased(Event, tag="early_out_released", kw_only=True):
    """The floor let a dealer go early: home now, or at the push when dealing."""

    dealer: Dealer
    by: Name | None = None


class DealTableOpened(Event, tag="deal_table_opened", kw_only=True):
    """A table in play needs a dealer; `final`: it keeps its dealers longer."""

    table: TableNo
    event: Ident
    final: bool = False


class DealTableFinal(Event, tag="deal_table_final", kw_only=True):
    """The table became its event's final table (or no longer is): its downs' length."""

    table: TableNo
    final: bool = True


class DealTableClosed(Event, tag="deal_table_closed", kw_only=True):
    """The table left play; its dealer goes on break until `until` when set."""

    table: TableNo
    until: Time = 0.0


class StringsFormed(Event, tag="strings_formed", kw_only=True):
    """The tables in play cut into strings, each pushed in turn by its relief."""

    strings: Strings


class ReliefSet(Event, tag="relief_set", kw_only=True):
    string: Annotated[int, Meta(ge=0, le=MAX_TABLES)]
    dealer: Dealer


class DealerSeated(Event, tag="dealer_seated", kw_only=True):
    """A dealer sat down at a table that had none: a down starts."""

    table: TableNo
    dealer: Dealer
    push_at: Time
    hand: Count = 0         # the table's hand count as the down begins


class PushDone(Event, tag="push_done", kw_only=True):
    """The incoming dealer took the table at a hand's end; the outgoing's down closed
    with `hands` dealt, and `next` says where the outgoing goes."""

    table: TableNo
    incoming: Dealer
    outgoing: Dealer
    hands: Count = 0
    push_at: Time
    next: Next
    to: Annotated[int, Meta(ge=0, le=MAX_TABLES)] = 0   # next == "table": the table
    until: Time = 0.0                                    # next == "break": due back
    hand: Count = 0                                      # the table's hand count now
    # the event's clock period at the push: a level starting before the next hand
    # leaves that hand at this level (TDA 2024 r.23); None: not known
    period: PeriodNo | None = None


class BreakEnded(Event, tag="break_ended", kw_only=True):
    dealer: Dealer


class ClockHeld(Event, tag="clock_held", kw_only=True):
    """An event's break: the push clock of its tables waits (`held` False: it goes on)."""

    event: Ident
    held: bool = True


class PushesHeld(Event, tag="pushes_held", kw_only=True):
    """No push at the event's tables from `start` until `until`, the event's next level
    change or break (TDA RP-7); a push due meanwhile waits for `until`."""

    event: Ident
    start: Time
    until: Time


class PinFailed(Event, tag="pin_failed", kw_only=True):
    dealer: Dealer
    table: TableNo


class PinCleared(Event, tag="pin_cleared", kw_only=True):
    dealer: Dealer
    by: Name | None = None


DEALER_EVENTS: tuple[type[Event], ...] = (
    DealerClockedIn, DealerClockedOut, EarlyOutSigned, EarlyOutReleased, DealTableOpened,
    DealTableFinal, DealTableClosed, StringsFormed, ReliefSet, DealerSeated, PushDone,
    BreakEnded, ClockHeld, PushesHeld, PinFailed, PinCleared)
