"""A bust and its winners: the dealer taps the busted seats (typing starting stacks when
the profile ranks several busts by stack), then who won each pot, then the busts go out.

The usual case stays one tap: the seat that won every pot. SIDE POTS asks bust by bust,
so a player knocked out of a side pot names that pot's winner, not the main pot's.
Until the last step ends the entries live in `to_dict`, stored with every other change,
so a restart in the middle resumes where the dealer was.
"""

from __future__ import annotations

import copy
from typing import Any

from kiosk.lang.active import N_, _, ngettext
from kiosk.table.context import TableContext
from kiosk.table.result import Result
from kiosk.table.view import BustPanel

MAX_STACK_DIGITS = 9
BUST_PROMPT = N_("BUST: tap each busted seat, then OK")
STACK_PROMPT = N_("Two or more out: type each starting stack, then OK")
ONE_STACK_PROMPT = N_("Stack optional with one bust - OK sends")
WINNER_PROMPT = N_("Who won the pot? Tap the seat, or SKIP")
WINNERS_PROMPT = N_("Who won? One seat won all: tap it")
SPLIT_PROMPT = N_("Split pot: tap each winner, then OK")
SIDE_PROMPT = N_("Seat {seat}'s pot: who won it? Tap the seat")
SIDE_SPLIT_PROMPT = N_("Seat {seat}'s pot split: tap each winner, then OK")
STEPS = ("bust", "bust_winner")
WINNER_REFUSAL = N_("The pot's winner must be another player in the hand")
NO_PLAYER = N_("Seat {seat} has no player to bust")
TAP_FIRST = N_("Tap the busted seat first")


class BustFlow:
    """The bust panel's entries: seats out with stacks, then the winner of each pot."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.stacks: dict[int, str] = {}     # seats picked on the bust panel -> digits
        self.focus: int | None = None
        self.winners: dict[int, list[int]] = {}   # busted seat -> who won its pot
        self.picked: list[int] = []          # winner step: seats tapped for the current pot
        self.split = False                   # SPLIT POT armed: seat taps pick several
        self.side = False                    # SIDE POTS: each bust names its own winner

    # ---------------------------------------------------------------- one bust, sent now
    def bust(self, t: float, seat: int, stack: int | None = None,
             eliminator: int | list[int] | None = None) -> Result:
        """Mark a seat busted; `stack` is the hand's starting stack when the dealer knows it,
        `eliminator` the seat (or seats, split pot) that won the pot when tapped."""
        ctx = self.ctx
        player = ctx.players().get(seat)
        if player is None or seat not in ctx.occupied():
            return ctx.refuse(t, _(NO_PLAYER).format(seat=seat))
        winners = eliminator if isinstance(eliminator, list) else \
            [] if eliminator is None else [eliminator]
        if any(w == seat or w not in ctx.occupied() for w in winners):
            return ctx.refuse(t, _(WINNER_REFUSAL))
        before = copy.deepcopy(ctx.local)
        ctx.local.busted[seat] = player
        data: dict[str, Any] = {"seat": seat, "player": player}
        if stack is not None:
            data["stack"] = int(stack)
        if winners:
            data["eliminator"] = winners[0] if len(winners) == 1 else winners
        return ctx.emit(t, "bust", data, _("Seat {seat} busted").format(seat=seat), before,
                        _("bust {seat}").format(seat=seat))

    # ---------------------------------------------------------------- the panel
    def reset(self) -> None:
        self.stacks, self.focus, self.winners, self.picked = {}, None, {}, []
        self.split = self.side = False

    def pick(self, t: float, seat: int) -> Result:
        """Pick (or with a second tap on the focused seat, drop) a busted seat; typing
        goes to the seat picked last."""
        ctx = self.ctx
        if seat not in ctx.occupied():
            return ctx.refuse(t, _(NO_PLAYER).format(seat=seat))
        ctx.pending_at = t
        if seat in self.stacks and self.focus == seat:
            del self.stacks[seat]
            self.focus = max(self.stacks) if self.stacks else None
            return Result(message=_("Seat {seat} not out").format(seat=seat))
        self.stacks.setdefault(seat, "")
        self.focus = seat
        return Result(message=_("Seat {seat} out").format(seat=seat))

    def key(self, t: float, key: str) -> Result:
        """The on-screen keypad: digits, "000" and "<" (delete) into the focused stack."""
        seat = self.focus
        if self.ctx.pending != "bust" or seat is None:
            return self.ctx.refuse(t, _(TAP_FIRST))
        self.ctx.pending_at = t
        text = self.stacks.get(seat, "")
        if key == "<":
            text = text[:-1]
        elif key.isdigit() and len(text + key) <= MAX_STACK_DIGITS:
            text = (text + key).lstrip("0")
        self.stacks[seat] = text
        return Result()

    def stacks_needed(self) -> bool:
        """Several busts on one hand are ranked by starting stack under this profile."""
        rules = self.ctx.profile.busts
        rule = rules.hand_for_hand_same_table if self.ctx.h4h().get("on") else rules.same_table
        return len(self.stacks) >= 2 and rule == "stack"

    def confirm(self, t: float) -> Result:
        """OK on the bust panel: on to the one optional step, who won the pot(s)."""
        ctx = self.ctx
        if ctx.pending != "bust" or not self.stacks:
            return ctx.refuse(t, _(TAP_FIRST))
        if self.stacks_needed() and not all(self.stacks.values()):
            missing = [s for s, v in sorted(self.stacks.items()) if not v]
            return ctx.refuse(t, _("Type the starting stack of seat {seat}").format(
                seat=missing[0]))
        ctx.pending, self.focus = "bust_winner", None
        self.winners, self.picked, self.split, self.side = {}, [], False, False
        return Result(message=self._winner_prompt())

    # ---------------------------------------------------------------- who won each pot
    def current(self) -> int | None:
        """On SIDE POTS, the busted seat whose pot is being named; else None."""
        if not self.side:
            return None
        return next((s for s in sorted(self.stacks) if s not in self.winners), None)

    def winner_pick(self, t: float, seat: int) -> Result:
        """A seat tap on the winner step. Without SPLIT POT it names the winner at once
        (of every pot, or on SIDE POTS of this bust's pot); with it, picks or drops one of
        several winners."""
        ctx = self.ctx
        if ctx.pending != "bust_winner":
            return ctx.refuse(t, _(TAP_FIRST))
        if seat in self.stacks or seat not in ctx.occupied():
            return ctx.refuse(t, _(WINNER_REFUSAL))
        if self.split:
            p = self.picked
            self.picked = [s for s in p if s != seat] if seat in p else sorted([*p, seat])
            return Result()
        self.picked = [seat]
        return self.send(t)

    def split_pot(self, t: float) -> Result:
        """SPLIT POT on the winner step: seat taps now pick several winners, then OK."""
        if self.ctx.pending != "bust_winner":
            return self.ctx.refuse(t, _(TAP_FIRST))
        self.split, self.picked = not self.split, []
        return Result()

    def side_pots(self, t: float) -> Result:
        """SIDE POTS: the busts were won by different players; ask bust by bust."""
        if self.ctx.pending != "bust_winner" or len(self.stacks) < 2:
            return self.ctx.refuse(t, _("Side pots need two or more busts"))
        self.side, self.split, self.picked, self.winners = not self.side, False, [], {}
        return Result(message=self._winner_prompt())

    def send(self, t: float) -> Result:
        """SKIP / OK (or a winner's tap) on the winner step. On SIDE POTS this names the
        current pot and moves to the next; the last one, or a winner of all, sends one
        bust report per seat with its stack and its own pot's winner(s)."""
        ctx = self.ctx
        if ctx.pending != "bust_winner" or not self.stacks:
            return ctx.refuse(t, _(TAP_FIRST))
        now = self.current()
        if now is not None:
            self.winners[now], self.picked, self.split = self.picked, [], False
            if self.current() is not None:
                return Result(message=self._winner_prompt())
        else:
            self.winners = {s: self.picked for s in self.stacks}
        return self._send_all(t)

    def _send_all(self, t: float) -> Result:
        picked, winners = sorted(self.stacks.items()), self.winners
        self.ctx.pending = None
        self.reset()
        results = [self.bust(t, seat, int(v) if v else None, _eliminator(winners.get(seat)))
                   for seat, v in picked]
        reports = [r.report for r in results if r.report]
        if not reports:
            return results[0]
        seats = ", ".join(str(s) for s, _v in picked)
        msg = ngettext("Seat {seats} busted", "Seats {seats} busted", len(picked)).format(
            seats=seats)
        self.ctx.message = (msg, t, False)
        return Result(reports[0], msg, more=tuple(reports[1:]))

    # ---------------------------------------------------------------- shown and stored
    def _winner_prompt(self) -> str:
        now = self.current()
        if now is not None:
            return _(SIDE_SPLIT_PROMPT if self.split else SIDE_PROMPT).format(seat=now)
        if self.split:
            return _(SPLIT_PROMPT)
        return _(WINNERS_PROMPT if len(self.stacks) > 1 else WINNER_PROMPT)

    def prompt(self) -> str:
        if self.ctx.pending == "bust_winner":
            return self._winner_prompt()
        return _(BUST_PROMPT)

    def panel(self) -> BustPanel | None:
        """The bust panel while a bust step is armed."""
        ctx = self.ctx
        seats = ctx.plan_seats()
        if ctx.pending == "bust_winner":
            others = tuple((n, str(seats[n].get("name", "")))
                           for n in sorted(ctx.occupied() - set(self.stacks)))
            return BustPanel(others, tuple((n, "") for n in self.picked), None, False,
                             True, self._winner_prompt(), mode="winner",
                             ok_text=N_("OK") if self.picked else N_("SKIP"), split=self.split,
                             side=self.side, sides=len(self.stacks) > 1,
                             done=tuple(sorted((s, tuple(w)) for s, w in self.winners.items())))
        if ctx.pending != "bust":
            return None
        dealt = tuple((n, str(seats[n].get("name", ""))) for n in sorted(ctx.occupied()))
        picked = tuple(sorted(self.stacks.items()))
        need = self.stacks_needed()
        ok = bool(picked) and (not need or all(v for _, v in picked))
        prompt = STACK_PROMPT if need else BUST_PROMPT if not picked else ONE_STACK_PROMPT
        return BustPanel(dealt, picked, self.focus, need, ok, _(prompt))

    def to_dict(self) -> dict[str, Any]:
        """The entries not sent yet, for the store; empty when no bust step is armed."""
        if self.ctx.pending not in STEPS:
            return {}
        return {"step": self.ctx.pending, "at": self.ctx.pending_at,
                "stacks": {str(s): v for s, v in self.stacks.items()}, "focus": self.focus,
                "winners": {str(s): w for s, w in self.winners.items()},
                "picked": self.picked, "split": self.split, "side": self.side}

    def restore(self, d: dict[str, Any]) -> None:
        """Resume a bust step a restart interrupted."""
        if d.get("step") not in STEPS:
            return
        self.ctx.pending, self.ctx.pending_at = d["step"], float(d.get("at", 0.0))
        self.stacks = {int(s): str(v) for s, v in d.get("stacks", {}).items()}
        self.focus = d.get("focus")
        self.winners = {int(s): [int(x) for x in w] for s, w in d.get("winners", {}).items()}
        self.picked = [int(x) for x in d.get("picked", [])]
        self.split, self.side = bool(d.get("split")), bool(d.get("side"))


def _eliminator(winners: list[int] | None) -> int | list[int] | None:
    if not winners:
        return None
    return winners[0] if len(winners) == 1 else list(winners)
