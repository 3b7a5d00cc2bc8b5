"""A hand from NEW HAND to END HAND: button and blinds, all-ins, absent and back."""

from __future__ import annotations

import copy
from typing import Any

from kiosk.core.calc.button import draw_button, first_hand, next_hand
from kiosk.lang.active import N_, _
from kiosk.table.context import TableContext
from kiosk.table.moment import deal_block
from kiosk.table.result import Result

RING = 10              # seat numbers wrap at 10 (the protocol's largest table)
NEEDS_HAND = N_("ALL-IN needs a running hand")
# (the dealer's message, UNDO's label) of a seat marked absent or back
MARKED = {"absent": (N_("Seat {seat} absent"), N_("away {seat}")),
          "present": (N_("Seat {seat} present"), N_("back {seat}"))}


class HandFlow:
    """The running hand's state lives in `ctx.local`, so undo and restarts see it."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx

    def new_hand(self, t: float) -> Result:
        """Start the next hand: button and blinds per the profile, level fixed for the hand
        (the prior level for the first hand after a push a new level overtook: r.23)."""
        ctx = self.ctx
        if r := ctx.debounced("new_hand", t):
            return r
        loc = ctx.local
        if loc.in_hand:
            return ctx.refuse(t, _("Hand {hand} is still running - end it first").format(
                hand=loc.hand))
        if block := deal_block(ctx):
            return ctx.refuse(t, block)
        pos, note = self._positions()
        players = ctx.players()
        own = ctx.next_hand_period()      # levels counted in hands: this table's own
        period = ctx.hand_period(t) if own is None else own   # r.23 reads it
        loc.hand += 1
        loc.in_hand, loc.positions, loc.all_in, loc.draw_note = True, pos, [], note
        for seat in pos.dealt:
            loc.dealt_players[seat] = players.get(seat, "")
        loc.period = period
        hh = ctx.h4h()
        loc.h4h_round = int(hh.get("round", 0)) if hh.get("on") else None
        data: dict[str, Any] = {"hand": loc.hand, "button": pos.button, "sb": pos.sb,
                                "bb": pos.bb, "dealt": list(pos.dealt)}
        if pos.waiting:
            data["waiting"] = list(pos.waiting)
        # short enough for one line in the middle of the table; the badges show the rest
        return ctx.emit(t, "hand_started", data, note or _("Hand {hand}: button {seat}").format(
            hand=loc.hand, seat=pos.button))

    def _positions(self) -> tuple[Any, str]:
        """This hand's button and blinds, drawn for the first hand or after a redraw."""
        ctx, loc = self.ctx, self.ctx.local
        occupied = ctx.occupied()
        if loc.positions is None or loc.redraw_pending:
            button, cards = draw_button(sorted(occupied), ctx.profile.button.start, ctx.rng)
            note = _("Button drawn: seat {seat}").format(seat=button)
            if cards:
                note += f" ({cards[button]})"
            loc.redraw_pending = False
            return first_hand(occupied, button, RING), note
        players = ctx.players()
        newcomers = {s for s in occupied if loc.dealt_players.get(s) != players.get(s)}
        rules = ctx.profile.button
        return next_hand(loc.positions, occupied, RING, dead_button=rules.dead_button,
                         newcomers=newcomers, waits=rules.newcomer_waits), ""

    def end_hand(self, t: float) -> Result:
        ctx = self.ctx
        if r := ctx.debounced("end_hand", t):
            return r
        loc = ctx.local
        if not loc.in_hand:
            return ctx.refuse(t, _("No hand is running"))
        loc.in_hand = False
        if loc.h4h_round is not None:
            loc.h4h_played = loc.h4h_round
        return ctx.emit(t, "hand_ended", {"hand": loc.hand},
                        _("Hand {hand} ended").format(hand=loc.hand))

    def all_in(self, t: float, seat: int) -> Result:
        ctx, loc = self.ctx, self.ctx.local
        if not loc.in_hand:
            return ctx.refuse(t, _(NEEDS_HAND))
        if seat in loc.all_in:
            return ctx.refuse(t, _("Seat {seat} is already all-in").format(seat=seat))
        if loc.positions and seat not in loc.positions.dealt:
            return ctx.refuse(t, _("Seat {seat} is not in this hand").format(seat=seat))
        before = copy.deepcopy(loc)
        loc.all_in = [*loc.all_in, seat]
        return ctx.emit(t, "all_in", {"seat": seat, "hand": loc.hand},
                        _("Seat {seat} all-in").format(seat=seat), before,
                        _("all-in {seat}").format(seat=seat))

    def set_absent(self, t: float, seat: int, absent: bool = True) -> Result:
        ctx = self.ctx
        player = ctx.players().get(seat)
        if player is None:
            return ctx.refuse(t, _("Seat {seat} is empty").format(seat=seat))
        if ctx.is_absent(seat) == absent:
            return ctx.refuse(t, (_("Seat {seat} is already absent") if absent else
                                  _("Seat {seat} is already present")).format(seat=seat))
        before = copy.deepcopy(ctx.local)
        ctx.local.absent[seat] = [player, absent]
        kind = "absent" if absent else "present"
        said, label = MARKED[kind]
        return ctx.emit(t, kind, {"seat": seat}, _(said).format(seat=seat), before,
                        _(label).format(seat=seat))
