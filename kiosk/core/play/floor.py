"""Floor and clock calls, and penalties: what a table asks of the floor, and its answers.

Owns the calls raised at the tables, the players with a penalty still to serve and each
player's penalty columns (hands and time still to serve, strikes, what the screen says).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Msg
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import IN_PLAY, ClockCall, FloorCall, Table
from kiosk.core.play.penalties import decide_penalty

if TYPE_CHECKING:
    from kiosk.core.model.host import BustsView, RegistryView, SeatingView

Call = TypeVar("Call", FloorCall, ClockCall)


@dataclass(eq=False)
class Floor(Component):
    """The calls from the tables to the floor, and penalties."""

    floor_calls: dict[str, FloorCall] = field(default_factory=dict)
    clock_calls: dict[str, ClockCall] = field(default_factory=dict)
    on_penalty: set[str] = field(default_factory=set)  # players with missed hands still to serve
    notes: dict[int, str] = field(default_factory=dict)  # table -> the floor's note for it

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    busts: BustsView = peer()

    def _on_floor_call(self, ev: ev_.FloorCall) -> None:
        self.floor_calls[ev.call] = FloorCall(ev.call, ev.table, ev.seat, ev.t,
                                              report=ev.report)
        self.changes.touch(ev.table)

    def _update(self, call: FloorCall | ClockCall, **changes: Any) -> None:
        """A call moves on: its new state and times are set, and its table's plan is sent
        again (the records have slots, so a misspelt name fails here)."""
        for name, value in changes.items():
            setattr(call, name, value)
        self.changes.touch(call.table)

    def _on_floor_acked(self, ev: ev_.FloorAcked) -> None:
        self._update(self.floor_calls[ev.call], state="acked", acked_by=ev.by, acked_at=ev.t)

    def _on_floor_resolved(self, ev: ev_.FloorResolved) -> None:
        self._update(self.floor_calls[ev.call], state=ev.state, resolved_at=ev.t, note=ev.note)

    def _on_clock_call(self, ev: ev_.ClockCall) -> None:
        c = ClockCall(ev.call, ev.table, ev.seat, ev.t, ev.seconds, ev.countdown,
                      report=ev.report, hand=self.seating.tables[ev.table].hand)
        if ev.approved:
            c.state, c.approved_at = "approved", ev.t
        self.clock_calls[c.id] = c
        self.changes.touch(c.table)

    def _on_clock_approved(self, ev: ev_.ClockApproved) -> None:
        self._update(self.clock_calls[ev.call], state="approved", approved_at=ev.t,
                     approved_by=ev.by)

    def _on_clock_done(self, ev: ev_.ClockDone) -> None:
        self._update(self.clock_calls[ev.call], state="done", outcome=ev.outcome, done_at=ev.t)

    def _do_floor_ack(self, cmd: cmd_.FloorAck, t: float) -> None:
        c = _named(self.floor_calls, cmd, ("open",), lambda call: M_(
            "floor.not_waiting", "floor call {call} is not waiting for the floor", call=call))
        self.t.emit("floor_acked", t, call=c.id, table=c.table, by=cmd.get("by"))

    def _do_floor_resolve(self, cmd: cmd_.FloorResolve, t: float) -> None:
        c = _named(self.floor_calls, cmd, ("open", "acked"), lambda call: M_(
            "floor.not_open", "floor call {call} is not open", call=call))
        self.t.emit("floor_resolved", t, call=c.id, table=c.table, note=str(cmd.get("note", "")),
                    by=cmd.get("by"))

    def _do_clock_approve(self, cmd: cmd_.ClockApprove, t: float) -> None:
        c = _named(self.clock_calls, cmd, ("requested",), lambda call: M_(
            "clock.not_waiting", "clock call {call} is not waiting for approval", call=call))
        wait = self.t.profile.clock_call.min_wait - (t - c.raised_at)
        if wait > 0:
            raise RuleError(M_("clock.approve_wait", "a clock can be approved only after {wait} "
                               "s; {left} s to go", wait=self.t.profile.clock_call.min_wait,
                               left=math.ceil(wait)))
        self.t.emit("clock_approved", t, call=c.id, table=c.table, by=cmd.get("by"))

    def _do_clock_cancel(self, cmd: cmd_.ClockCancel, t: float) -> None:
        c = _named(self.clock_calls, cmd, ("requested", "approved"), lambda call: M_(
            "clock.not_running", "clock call {call} is not running", call=call))
        self.t.emit("clock_done", t, call=c.id, table=c.table, outcome="cancelled")

    def _on_penalty(self, ev: ev_.Penalty) -> None:
        p = self.registry.players[ev.player]
        p.penalty_hands += ev.hands
        if p.penalty_hands:
            self.on_penalty.add(p.id)
        if ev.minutes:
            p.penalty_until = ev.t + 60 * ev.minutes
            p.strikes += 1
        if ev.type == "left_live_hand":
            p.left_live_hand += 1
        if ev.type == "warning":
            p.warnings += 1
        p.penalty_text, p.penalty_msg = ev.text, ev.msg
        self.changes.touch(p.table)

    def hand_dealt(self, tab: Table, seats: Iterable[int]) -> None:
        """A hand was dealt at `tab` to `seats`: each player there serves one missed hand
        of his penalty."""
        players = self.registry.players
        for seat in seats:
            p = players.get(tab.seat_of.get(seat, ""))
            if p and p.penalty_hands:
                p.penalty_hands -= 1
                if not p.penalty_hands:
                    self.on_penalty.discard(p.id)
                    if p.penalty_until is None:
                        p.penalty_text, p.penalty_msg = "", None

    def _do_table_note(self, cmd: cmd_.TableNote, t: float) -> None:
        """The floor's note for a table in play, told at each dealer push (RP-15A)."""
        tab = self.seating.table_in_play(cmd.table)
        note = " ".join(cmd.note.split())
        if note == self.notes.get(tab.id, ""):
            raise RuleError(M_("note.already", "table {table} already has that note", table=tab.id))
        self.t.emit("table_noted", t, table=tab.id, note=note, by=cmd.by)

    def _on_table_noted(self, ev: ev_.TableNoted) -> None:
        if ev.note:
            self.notes[ev.table] = ev.note
        else:
            self.notes.pop(ev.table, None)
        self.changes.touch(ev.table)

    def _on_penalty_served(self, ev: ev_.PenaltyServed) -> None:
        p = self.registry.players[ev.player]
        p.penalty_until = None
        if not p.penalty_hands:
            p.penalty_text, p.penalty_msg = "", None
        self.changes.touch(p.table)

    def _do_penalty(self, cmd: cmd_.Penalty, t: float) -> None:
        p = self.registry.player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(M_("player.not_in_play", "{name} is not in play", name=p.name))
        tab = self.seating.tables[p.table or 0]
        amount = cmd.get("amount", 1)
        if not isinstance(amount, int):
            raise RuleError(M_("penalty.whole", "penalty amount must be a whole number"))
        d = decide_penalty(self.t.profile.penalties, str(cmd.get("type")), amount, tab.count,
                           p.strikes, p.left_live_hand)
        self.t.emit("penalty", t, player=p.id, table=tab.id, type=cmd.get("type"), hands=d.hands,
                    minutes=d.minutes, text=d.text, msg=d.msg, by=cmd.get("by"))
        if d.disqualify:
            self.t.emit("busted", t, player=p.id, table=tab.id, seat=p.seat, hand=tab.hand,
                        stack=None, group=["dq", p.id], disqualified=True)
            self.busts.finish_if_over(t)


def _named(calls: dict[str, Call], cmd: cmd_.Command, states: tuple[str, ...],
           refusal: Callable[[str], Msg]) -> Call:
    """The call a command names, when it is in one of `states`; otherwise a RuleError that
    says so (`refusal` of the name the command gave, as Python writes it)."""
    c = calls.get(cmd.get("call", ""))
    if c is None or c.state not in states:
        raise RuleError(refusal(repr(cmd.get("call"))))
    return c
