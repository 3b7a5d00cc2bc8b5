"""The armed seat action and where a seat tap goes.

The dealer arms an action (ALL-IN, CLOCK, BUST, ABSENT / BACK, PRESENT) with a button or
the screen; the next seat tap completes it through the flow that owns it. With nothing
armed, a tap confirms an arriving player, picks a race's winner or a counted seat. Busts
waiting for their winners come first: no new hand or other action until they are sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.lang.active import N_, _
from kiosk.table.context import TableContext
from kiosk.table.flows.bust import BustFlow
from kiosk.table.flows.clock import ClockFlow
from kiosk.table.flows.colour_up import ColourUpFlow
from kiosk.table.flows.count import CountFlow
from kiosk.table.flows.hand import NEEDS_HAND, HandFlow
from kiosk.table.flows.moves import MovesFlow
from kiosk.table.flows.shot import ShotFlow
from kiosk.table.result import Result

PENDING_S = 30.0       # a "tap the seat" prompt expires after this
SEAT_ACTIONS = ("all_in", "clock", "bust", "absent", "present")
PROMPTS = {"all_in": N_("ALL-IN: tap the seat"), "clock": N_("CLOCK: tap the seat"),
           "absent": N_("ABSENT / BACK: tap the seat"), "present": N_("PRESENT: tap the seat")}
WINNER_FIRST = N_("Tap the pot's winner, or SKIP")
FREE = N_("This table is free")


@dataclass(frozen=True)
class SeatFlows:
    """The flows a seat tap can complete."""

    hand: HandFlow
    busts: BustFlow
    clock: ClockFlow
    colour: ColourUpFlow
    count: CountFlow
    moves: MovesFlow
    shot: ShotFlow


class PromptFlow:
    """The prompt in `ctx.pending` (who armed it, when) and the presses that arm or
    cancel it."""

    def __init__(self, ctx: TableContext, flows: SeatFlows) -> None:
        self.ctx = ctx
        self.flows = flows

    def new_hand(self, t: float) -> Result:
        """Start the next hand (see `HandFlow.new_hand`); the bust panel starts empty.
        Busts still waiting for their winners come first: they belong to the last hand."""
        if self.ctx.pending == "bust_winner":
            return self.ctx.refuse(t, _(WINNER_FIRST))
        res = self.flows.hand.new_hand(t)
        if not res.refused:
            self.flows.busts.reset()
        return res

    def begin(self, t: float, action: str, by: str = "dealer") -> Result:
        """Arm a seat action; the next seat tap completes it."""
        ctx = self.ctx
        if action not in SEAT_ACTIONS:
            raise ValueError(f"unknown seat action {action!r}")
        if ctx.pending == "bust_winner":      # busts entered, not yet sent: keep them
            return ctx.refuse(t, _(WINNER_FIRST))
        ctx.pending, ctx.pending_by, ctx.pending_at = action, by, t
        if action == "bust":
            self.flows.busts.reset()
            return Result(message=self.flows.busts.prompt())
        return Result(message=_(PROMPTS[action]))

    def cancel_pending(self, t: float) -> Result:
        ctx = self.ctx
        if ctx.pending == "bust_winner":      # the busts are entered: SKIP sends them
            return ctx.refuse(t, _(WINNER_FIRST))
        ctx.pending = None
        self.flows.busts.reset()
        return Result(message=_("Cancelled"))

    def expire(self, t: float) -> str | None:
        """The armed action at `t`, once a lapsed prompt is dropped."""
        ctx = self.ctx
        # the winner step never lapses: the busts it holds are sent by a tap or SKIP
        if ctx.pending not in (None, "bust_winner") and t - ctx.pending_at > PENDING_S:
            ctx.pending = None
        return ctx.pending

    def prompt(self) -> str:
        """What the armed action asks of the dealer ("" when none is armed)."""
        pending = self.ctx.pending
        if pending in ("bust", "bust_winner"):
            return self.flows.busts.prompt()
        return _(PROMPTS[pending]) if pending else ""

    # ---------------------------------------------------------------- seat taps
    def choose_seat(self, t: float, seat: int, stack: int | None = None) -> Result:
        """A seat tap: goes to the active flow (the armed action, the bust panel, the
        race, the count), or with nothing armed confirms an arriving player."""
        ctx, f = self.ctx, self.flows
        action, by = self.expire(t), ctx.pending_by
        if action is None:
            return self._idle_tap(t, seat)
        if action == "bust_winner":
            return f.busts.winner_pick(t, seat)
        if action == "bust":
            if stack is not None:            # a stack given with the tap: bust at once
                ctx.pending = None
                return f.busts.bust(t, seat, stack)
            return f.busts.pick(t, seat)
        ctx.pending = None
        if action == "all_in":
            return f.hand.all_in(t, seat)
        if action == "clock":
            return f.clock.call_clock(t, seat, by=by)
        if action == "absent" and ctx.is_absent(seat):
            return f.hand.set_absent(t, seat, False)
        return f.hand.set_absent(t, seat, action == "absent")

    def _idle_tap(self, t: float, seat: int) -> Result:
        f = self.flows
        if f.moves.arriving(seat):
            return f.moves.confirm_arrival(t, seat)
        if f.colour.racing() is not None:
            return f.colour.race_tap(t, seat)
        if f.count.counting() is not None:
            return f.count.seat(t, seat)
        if self.ctx.local.in_hand and f.shot.applies(t):   # a tap: the shot clock on seat
            return f.shot.start(t, seat)
        return self.ctx.refuse(t, _("Choose an action first"))

    # ---------------------------------------------------------------- buttons
    def free_tap(self, t: float) -> Result:
        """A tap on the free table's screen: nothing to deal, and it says so."""
        return self.ctx.refuse(t, _(FREE))

    def press_allin(self, t: float) -> Result:
        """Physical ALL-IN: the dealer then taps the seat."""
        if r := self.ctx.debounced("allin_button", t):
            return r
        if not self.ctx.local.in_hand:
            return self.ctx.refuse(t, _(NEEDS_HAND))
        return self.begin(t, "all_in")

    def press_clock(self, t: float) -> Result:
        """Physical CLOCK: where the shot clock runs, the shot clock on the next player in
        turn; elsewhere a player asks for the clock (refused where only the dealer may
        call it; the screen's CLOCK still calls it under a shot clock)."""
        shot = self.flows.shot
        if shot.applies(t):
            return self.ctx.debounced("clock_button", t) or shot.next_player(t)
        return self.flows.clock.press_refusal(t) or self.begin(t, "clock", by="player")

    def hold_clock(self, t: float) -> Result:
        """A held CLOCK press stops the shot clock (the player acted), or cancels the
        clock call (or the seat prompt)."""
        if self.flows.shot.current(t) is not None:
            return self.flows.shot.stop(t)
        if self.flows.clock.call is not None:
            return self.flows.clock.clock_done(t, "cancelled")
        if self.ctx.pending == "clock":
            return self.cancel_pending(t)
        return self.ctx.refuse(t, _("No clock call to cancel"))

    def clock_done(self, t: float, outcome: str) -> Result:
        """The clock screen's answer (ACTED, HAND DEAD, CHECKED, CANCEL): it closes the
        clock call, or else it stops the shot clock or gives its ruling."""
        shot = self.flows.shot
        if self.flows.clock.call is not None or shot.current(t) is None:
            return self.flows.clock.clock_done(t, outcome)
        return shot.out(t, outcome) if outcome in ("dead", "checked") else shot.stop(t)

    def hold_allin(self, t: float) -> Result:
        if self.ctx.pending == "all_in":
            return self.cancel_pending(t)
        return self.ctx.refuse(t, _("Nothing to cancel"))
