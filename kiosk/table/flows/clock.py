"""A clock call on a player: raised, approved by the floor (where the profile asks),
counted down to the buzzer, closed by the dealer or the director."""

from __future__ import annotations

from typing import Any

from kiosk.core.calc.clock import format_clock
from kiosk.lang.active import N_, _
from kiosk.table.calls import ClockCall
from kiosk.table.context import TableContext
from kiosk.table.result import Result
from kiosk.table.view import ClockCallView

OUTCOMES = {"acted": N_("acted"), "dead": N_("hand dead"), "checked": N_("checked"),
            "cancelled": N_("cancelled")}
PHASES = {"approval": N_("Waiting for the floor"), "buzzer": N_("TIME"), "over": N_("TIME")}


def _dealer_only(ctx: TableContext) -> str:
    rule = ctx.rule()
    return (_("Only the dealer calls the clock here (rule {rule})").format(rule=rule) if rule
            else _("Only the dealer calls the clock here"))


class ClockFlow:
    """At most one clock call at a time; `call` is None when none runs."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.call: ClockCall | None = None

    def call_clock(self, t: float, seat: int, by: str = "dealer") -> Result:
        """Raise a clock call on `seat`; it runs per the profile's clock_call rules."""
        ctx, rules = self.ctx, self.ctx.profile.clock_call
        if rules.called_by == "dealer" and by != "dealer":
            return ctx.refuse(t, _dealer_only(ctx))
        if self.call is not None:
            return ctx.refuse(t, _("The clock is already on seat {seat}").format(
                seat=self.call.seat))
        if seat not in ctx.occupied():
            return ctx.refuse(t, _("Seat {seat} has no player").format(seat=seat))
        res = ctx.emit(t, "clock_call", {"seat": seat},
                       _("Clock called on seat {seat}").format(seat=seat), None,
                       _("clock {seat}").format(seat=seat))
        assert res.report is not None
        self.call = ClockCall(res.report["id"], seat, t, rules.seconds, rules.countdown,
                              rules.min_wait, rules.needs_approval)
        return res

    def press_refusal(self, t: float) -> Result | None:
        """Why a player's CLOCK press cannot arm the seat prompt (None when it can)."""
        ctx = self.ctx
        if r := ctx.debounced("clock_button", t):
            return r
        if ctx.profile.clock_call.called_by == "dealer":
            return ctx.refuse(t, _dealer_only(ctx))
        if self.call is not None:
            return ctx.refuse(t, _("The clock is already on seat {seat}").format(
                seat=self.call.seat))
        return None

    def clock_done(self, t: float, outcome: str) -> Result:
        """Close the clock call: the player acted, the hand is dead, checked, or cancelled."""
        call = self.call
        if call is None:
            return self.ctx.refuse(t, _("No clock call running"))
        self.call = None
        self.ctx.closed_calls |= call.ids
        return self.ctx.emit(t, "clock_done", {"call": call.id, "outcome": outcome},
                             _("Clock call: {outcome}").format(
                                 outcome=_(OUTCOMES.get(outcome, outcome))))

    def undone(self, rid: str) -> None:
        """UNDO took back report `rid`: if it raised this call, the call is gone."""
        if self.call is not None and self.call.id == rid:
            self.ctx.closed_calls |= self.call.ids
            self.call = None

    def buzzer_on(self, t: float) -> bool:
        return self.call is not None and self.call.phase(t) == "buzzer"

    def view(self, t: float) -> ClockCallView | None:
        call = self.call
        if call is None:
            return None
        phase = call.phase(t)
        rule = self.ctx.rule()
        times = {"seat": call.seat, "seconds": f"{call.seconds:g}",
                 "countdown": f"{call.countdown:g}"}
        detail = (_("Clock on seat {seat} - {seconds} + {countdown} s ({profile} rule {rule})")
                  .format(profile=self.ctx.profile.name, rule=rule, **times) if rule else
                  _("Clock on seat {seat} - {seconds} + {countdown} s").format(**times))
        text = (_(PHASES[phase]) if phase in PHASES else
                _("Clock can start in {clock}").format(clock=format_clock(call.wait_left(t)))
                if phase == "waiting" else str(int(call.remaining(t) + 0.999)))
        return ClockCallView(call.seat, phase, call.remaining(t), text, detail,
                             buzzer=phase == "buzzer")

    def live(self, t: float) -> dict[str, Any] | None:
        cc = self.call
        return None if cc is None else {
            "id": cc.id, "seat": cc.seat, "phase": cc.phase(t), "started_at": cc.started_at,
            "seconds": cc.seconds, "countdown": cc.countdown}

    # ---------------------------------------------------------------- the plan's calls
    def reconcile(self, calls: dict[str, Any], t: float) -> None:
        """Follow the director: approval, times, and the end of our call; adopt a call
        the floor approved for this table."""
        for key, entry in calls.items():
            if not isinstance(entry, dict):
                continue
            if self.call is not None and self._ours(key, entry):
                self._follow(key, entry, t)
            elif self.call is None:
                self._adopt(key, entry, t)

    def _ours(self, key: str, entry: dict[str, Any]) -> bool:
        call = self.call
        assert call is not None
        return key in call.ids or entry.get("report") == call.id or (
            call.plan_key is None and key not in self.ctx.closed_calls
            and entry.get("seat") == call.seat and entry.get("state") == "approved")

    def _follow(self, key: str, entry: dict[str, Any], t: float) -> None:
        call = self.call
        assert call is not None
        call.plan_key = key
        state = entry.get("state")
        if state == "done":
            self.call = None
            self.ctx.closed_calls |= call.ids
        elif state == "approved" and call.approved_at is None:
            call.approved_at = float(entry.get("approved_at") or t)
            call.seconds = float(entry.get("seconds", call.seconds))
            call.countdown = float(entry.get("countdown", call.countdown))

    def _adopt(self, key: str, entry: dict[str, Any], t: float) -> None:
        if entry.get("state") != "approved" or key in self.ctx.closed_calls \
                or not isinstance(entry.get("seat"), int):
            return
        rules = self.ctx.profile.clock_call
        approved = float(entry.get("approved_at") or t)
        adopted = ClockCall(key, entry["seat"], approved,
                            float(entry.get("seconds", rules.seconds)),
                            float(entry.get("countdown", rules.countdown)),
                            0.0, True, approved)
        if adopted.phase(t) != "over":
            self.call = adopted
