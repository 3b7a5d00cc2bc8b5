"""The handover (TDA 2024 RP-15A): while the push is due, and for a while after it, the
incoming dealer reads what the outgoing dealer must tell: the next hand's blinds, the
players warned or on a penalty at the table, the floor's note for it.

Its panel is up between hands: before the push, for both dealers (put away, it comes
back after the next hand while the push is still due); once pushed, until the incoming
dealer deals the first hand or puts it away. During a hand the seats matter more: the
warned and penalised players keep their marks on the seat ring.
"""

from __future__ import annotations

from typing import Any

from kiosk.lang.active import _
from kiosk.table.context import TableContext
from kiosk.table.dealer_view import (
    Hold,
    handover_due,
    handover_key,
    handover_names,
    handover_pushed,
)
from kiosk.table.result import Result
from kiosk.table.view import HandoverSeat, HandoverView, SeatView


class HandoverFlow:
    """Which handover the table is at (`Local.handover`) and whether its panel is up."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx

    def follow(self) -> None:
        """A new handover (a push done, another dealer): note the hand it met."""
        loc, key = self.ctx.local, handover_key(self.ctx.plan)
        if loc.handover[0] != key:
            loc.handover = [key, loc.hand, -1]

    def put_away(self, t: float) -> Result:
        """TABLE on the panel: the seats again, until the next hand is over."""
        self.follow()
        self.ctx.local.handover[2] = self.ctx.local.hand
        return Result()

    def view(self, t: float, clock: dict[str, Any], seats: tuple[SeatView, ...],
             hold: Hold = None) -> HandoverView | None:
        """What the outgoing dealer tells now (None: no handover due), from the screen's
        own `clock` fields (the next hand's level; r.23's prior level when it applies) and
        `seats` (who is warned or on a penalty, by seat and name)."""
        plan = self.ctx.plan
        if not handover_due(plan, t, hold):
            return None
        self.follow()
        told = plan["dealer"]["handover"]
        marked = set(told.get("warnings") or ()) | set(told.get("penalties") or ())
        players = tuple(HandoverSeat(s.seat, s.name, s.warned, s.penalty) for s in seats
                        if s.seat in marked and s.name)
        outgoing, incoming = handover_names(plan, t, hold)
        return HandoverView(
            outgoing, incoming, str(clock.get("level") or ""), str(clock.get("blinds") or ""),
            str(clock.get("ante") or ""), self._first_hand(t), players,
            str(told.get("note") or ""), self._shown(t, hold))

    def _shown(self, t: float, hold: Hold) -> bool:
        """The panel is up between hands, unless put away at this hand; once pushed, only
        until the incoming dealer's first hand."""
        loc = self.ctx.local
        _key, met, away = loc.handover
        return not loc.in_hand and away != loc.hand and (
            not handover_pushed(self.ctx.plan, t, hold) or loc.hand == met)

    def _first_hand(self, t: float) -> str:
        """r.23: the next hand is the one dealt at the prior level; then the clock's."""
        ctx = self.ctx
        reading, nxt = ctx.reading(t), ctx.hand_period(t)
        if ctx.local.in_hand or reading is None or ctx.structure is None \
                or nxt in (None, reading.period):
            return ""
        n = ctx.structure.level_number(reading.period)
        return "" if n is None else _("One hand, then level {n}").format(n=n)
