"""The shot clock (TDA RP-19): a set time on each decision, started by the dealer for each
player in turn, extended by the player's time-bank cards, and the rule when it runs out.

The countdown runs here, at the table, and nowhere else: a director restart or failover
changes nothing of it, and nothing of it is reported but what counts later (a card handed
in, a shot clock that ran out and the ruling). Where it runs comes with the plan: the
whole event, from a level on (this table's own level: the hand's), the final table only.

One press a decision: CLOCK starts the shot clock on the next player in turn (after the
big blind at a hand's first press, then clockwise from the last player clocked, past the
players all-in or out); a tap on a seat starts it on that player (the dealer's way past a
player who folded). The kiosk cannot see folds: the dealer taps where CLOCK guesses wrong.
"""

from __future__ import annotations

import math
from typing import Any

from kiosk.core.calc.button import next_seat
from kiosk.lang.active import N_, _
from kiosk.table.calls import ShotRun
from kiosk.table.context import TableContext
from kiosk.table.result import Result
from kiosk.table.view import ShotClockView

NONE_RUNNING = N_("No shot clock running")
RING = 10   # seat numbers wrap at 10, as the hand flow's
RULINGS = {"dead": N_("Seat {seat}: hand dead (facing a bet)"),
           "checked": N_("Seat {seat}: checked (no bet to face)")}


class ShotFlow:
    """At most one shot clock at a time: `run`, on the hand it started in."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.run: ShotRun | None = None

    # ---------------------------------------------------------------- where it runs
    def settings(self) -> dict[str, Any] | None:
        """The plan's shot clock, when the event has one."""
        shot = self.ctx.plan.get("shot_clock")
        return shot if isinstance(shot, dict) and shot.get("seconds") else None

    def applies(self, t: float) -> bool:
        """Whether the shot clock runs at this table now (for the hand running, or the
        next one between hands)."""
        shot = self.settings()
        if shot is None:
            return False
        where = shot.get("applies", "event")
        if where == "event":
            return True
        if where == "final":
            return bool(self.ctx.plan.get("final_table"))
        period, s = self.ctx.period_now(t), self.ctx.structure
        if where != "level" or period is None or s is None:
            return False
        level = next((s.level_number(i) for i in range(period, -1, -1)
                      if s.level_number(i) is not None), 1)
        return int(level or 1) >= int(shot.get("from_level", 1))

    def current(self, t: float) -> ShotRun | None:
        """The running shot clock; none once its hand is over."""
        run, loc = self.run, self.ctx.local
        if run is not None and (not loc.in_hand or run.hand != loc.hand):
            self.run = run = None
        return run

    # ---------------------------------------------------------------- the dealer
    def refusal(self, t: float) -> Result | None:
        """Why no shot clock can start now (None when one can)."""
        if not self.ctx.local.in_hand:
            return self.ctx.refuse(t, _("The shot clock runs in a hand: deal first"))
        if not self.applies(t):
            return self.ctx.refuse(t, _("No shot clock at this table now"))
        return None

    def start(self, t: float, seat: int) -> Result:
        """Start the shot clock on the player at `seat` (the one before acted)."""
        ctx = self.ctx
        if r := self.refusal(t):
            return r
        if seat not in self._in_hand():
            return ctx.refuse(t, _("Seat {seat} is not in this hand").format(seat=seat))
        shot = self.settings()
        assert shot is not None
        self.run = ShotRun(seat, ctx.players().get(seat, ""), ctx.local.hand, t,
                           float(shot["seconds"]))
        ctx.local.shot_last = seat
        said = _("Shot clock: seat {seat}").format(seat=seat)
        ctx.message = (said, t, False)
        return Result(message=said)

    def next_player(self, t: float) -> Result:
        """CLOCK: the shot clock on the next player in turn."""
        if r := self.refusal(t):
            return r
        seats = self._in_hand()
        if not seats:
            return self.ctx.refuse(t, _("Nobody in this hand can act"))
        return self.start(t, next_seat(seats, self._after(), RING))

    def _after(self) -> int:
        """The seat the next player in turn comes after: the last clocked this hand, or
        the big blind at the hand's first press."""
        loc = self.ctx.local
        if loc.shot_hand == loc.hand and loc.shot_last:
            return loc.shot_last
        loc.shot_hand, loc.shot_last = loc.hand, 0
        return loc.positions.bb if loc.positions else 0

    def _in_hand(self) -> set[int]:
        """Seats that may still act: dealt in, not all-in, not out."""
        loc = self.ctx.local
        dealt = set(loc.positions.dealt) if loc.positions else set()
        return {s for s in dealt if s not in loc.all_in and s not in loc.busted}

    def stop(self, t: float) -> Result:
        """The player acted: the shot clock stops (a long CLOCK press, or the screen)."""
        run = self.current(t)
        if run is None:
            return self.ctx.refuse(t, _(NONE_RUNNING))
        self.run = None
        return Result(message=_("Seat {seat} acted").format(seat=run.seat))

    def bank(self, t: float) -> Result:
        """The player hands in a time-bank card: its seconds go on the running clock."""
        ctx, run, shot = self.ctx, self.current(t), self.settings()
        if run is None or shot is None:
            return ctx.refuse(t, _(NONE_RUNNING))
        if run.left(t) <= 0:
            return ctx.refuse(t, _("Time is up: a card is handed in before it runs out"))
        cards = self.ctx.bank(run.seat)
        if cards is None:
            return ctx.refuse(t, _("This event has no time bank"))
        if not cards:
            return ctx.refuse(t, _("Seat {seat} has no time-bank card left").format(
                seat=run.seat))
        run.extra += float(shot.get("bank_seconds", 0))
        run.cards += 1
        self._pending(run.player)
        return ctx.emit(t, "time_bank", {"seat": run.seat, "player": run.player,
                                         "hand": run.hand},
                        _("Seat {seat}: time bank, +{seconds} s").format(
                            seat=run.seat, seconds=int(shot.get("bank_seconds", 0))))

    def _pending(self, player: str) -> None:
        """One more card the plan does not count yet (kept across a restart)."""
        pending = self.ctx.local.bank_pending
        who = next((w for w in self.ctx.plan_seats().values()
                    if w.get("player") == player), {})
        seen, n = pending.get(player, [int(who.get("bank_used") or 0), 0])
        pending[player] = [seen, n + 1]

    def out(self, t: float, outcome: str) -> Result:
        """Time ran out: the dealer gives the ruling, the hand dead facing a bet, checked
        otherwise; it is reported, and the shot clock is over."""
        ctx, run = self.ctx, self.current(t)
        if outcome not in RULINGS:
            raise ValueError(f"unknown shot clock ruling {outcome!r}")
        if run is None:
            return ctx.refuse(t, _(NONE_RUNNING))
        if run.left(t) > 0:
            return ctx.refuse(t, _("Seat {seat} still has {seconds} s").format(
                seat=run.seat, seconds=math.ceil(run.left(t))))
        self.run = None
        return ctx.emit(t, "shot_clock_out", {"seat": run.seat, "player": run.player,
                                              "hand": run.hand, "outcome": outcome},
                        _(RULINGS[outcome]).format(seat=run.seat))

    # ---------------------------------------------------------------- read
    def sound(self, t: float) -> str:
        """The buzzer: "beep" in the last seconds, "on" when time is up, else ""."""
        run = self.current(t)
        phase = run.phase(t) if run else ""
        return {"countdown": "beep", "buzzer": "on"}.get(phase, "")

    def view(self, t: float) -> ShotClockView | None:
        run, shot = self.current(t), self.settings()
        if run is None or shot is None:
            return None
        left = max(0.0, run.left(t))
        cards = self.ctx.bank(run.seat) or 0
        name = str((self.ctx.plan_seats().get(run.seat) or {}).get("name", ""))
        return ShotClockView(run.seat, name, run.phase(t), left, math.ceil(left),
                             run.seconds + run.extra, cards,
                             int(shot.get("bank_seconds", 0)), run.cards,
                             can_bank=left > 0 and cards > 0, ruling=left <= 0)
