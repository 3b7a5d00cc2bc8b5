"""Clock and levels: the tournament clock, its start, hand-for-hand and the end-of-day draw.

Owns the clock and whether play has started; hand-for-hand lives here because it
pauses the clock and paces the hands of every table together (which tables the round
still waits for: seating says when one's hand ended or it broke, `not_waiting_for`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.calc.clock import Clock
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer

if TYPE_CHECKING:
    from kiosk.core.model.host import SeatingView


@dataclass(eq=False)
class Levels(Component):
    """The clock and the pace of play."""

    clock: Clock = field(init=False)
    started: bool = False
    extra_hands: int | None = None
    h4h_on: bool = False
    h4h_round: int = 0
    h4h_waiting: set[int] = field(default_factory=set)

    seating: SeatingView = peer()

    def __post_init__(self) -> None:
        self.clock = Clock.stopped(self.t.structure)

    def _on_started(self, ev: ev_.Started) -> None:
        self.started = True
        self.changes.schedule_changed()

    def _on_clock_set(self, ev: ev_.ClockSet) -> None:
        self.clock = Clock.from_dict(ev.clock)
        self.changes.schedule_changed()

    def _on_end_of_day(self, ev: ev_.EndOfDay) -> None:
        self.extra_hands = ev.hands
        self.changes.schedule_changed()

    def _do_clock(self, cmd: cmd_.ClockAction, t: float) -> None:
        s, c = self.t.structure, self.clock
        if s.counts_hands:
            raise RuleError(M_("clock.hands_levels", "{structure} counts its levels in hands at "
                               "each table: the clock has no time to run, stop or set",
                               structure=s.name))
        action = cmd.get("action")
        if action == "pause":
            new = c.pause(s, t)
        elif action == "resume":
            new = c.resume(s, t)
        elif action in ("add", "set"):
            secs = cmd.get("seconds")
            if not isinstance(secs, int | float):
                raise RuleError(M_("clock.needs_seconds", "clock add/set needs seconds"))
            new = c.add_time(s, t, secs) if action == "add" else c.set_remaining(s, t, secs)
        elif action == "jump":
            period = cmd.get("period")
            if not isinstance(period, int) or not 0 <= period < len(s.periods):
                raise RuleError(M_("clock.no_period", "no period {period} in the structure",
                                   period=repr(period)))
            new = c.jump(s, t, period)
        else:
            raise RuleError(M_("clock.unknown_action", "unknown clock action {action}",
                               action=repr(action)))
        self.t.emit("clock_set", t, clock=new.to_dict(), why=action, by=cmd.by)

    def _do_end_of_day(self, cmd: cmd_.EndOfDay, t: float) -> None:
        rules = self.t.profile.end_of_day
        if not rules.hands:
            raise RuleError(M_("draw.no_end_of_day", "{profile} has no end-of-day hand draw",
                               profile=self.t.profile.name))
        lo, hi = rules.hands
        rng = self.t.rng("end-of-day", self.extra_hands)
        self.t.emit("end_of_day", t, hands=rng.randint(lo, hi))

    def period(self, t: float) -> int:
        return self.clock.read(self.t.structure, t).period

    def in_break(self, t: float) -> bool:
        return self.t.structure.periods[self.period(t)].is_break

    def _runoff(self) -> int | None:
        """Seconds hand-for-hand runs off per hand, never more than the profile's limit
        (TDA 2024 RP-8B); None: the clock runs as usual."""
        rules = self.t.profile.hand_for_hand
        if rules is None or rules.runoff_seconds is None:
            return None
        cap = rules.runoff_max_seconds
        return rules.runoff_seconds if cap is None else min(rules.runoff_seconds, cap)

    def tick(self, t: float) -> None:
        """A level change re-anchors the clock.

        Under hand-for-hand with a run-off a break runs on the real clock (a break is
        not a hand: TDA RP-8B and the Irish Open's r.74 take time off per hand only, see
        Clock.run_off); once it is over, the next level starts paused and in full, and
        runs off per hand again, however late the tick that sees it comes.
        """
        s, old = self.t.structure, self.clock
        new, why = old.normalized(s, t), "level"
        if self.h4h_on and self._runoff() and not new.paused \
                and not s.periods[new.period].is_break \
                and any(s.periods[i].is_break for i in range(old.period, new.period)):
            new, why = Clock(new.period, new.anchor, s.periods[new.period].seconds), \
                "hand-for-hand"
        if new != old:
            self.t.emit("clock_set", t, clock=new.to_dict(), why=why)

    def _on_h4h(self, ev: ev_.HandForHand) -> None:
        self.h4h_on = ev.on
        if not ev.on:
            self.h4h_waiting.clear()
        self.changes.schedule_changed()
        self.changes.touch_all(tab.id for tab in self.seating.active_tables())

    def _on_h4h_go(self, ev: ev_.HandForHandGo) -> None:
        self.h4h_round = ev.round
        self.h4h_waiting = set(ev.tables)
        self.changes.schedule_changed()
        self.changes.touch_all(tab.id for tab in self.seating.active_tables())

    def not_waiting_for(self, table: int) -> None:
        """The hand-for-hand round no longer waits for `table`: its hand ended, or it
        broke."""
        self.h4h_waiting.discard(table)

    def _do_h4h(self, cmd: cmd_.HandForHand, t: float) -> None:
        self.hand_for_hand(bool(cmd.get("on")), t)

    def hand_for_hand(self, on: bool, t: float) -> None:
        """Start or stop hand-for-hand (the floor's command, or the bubble's own)."""
        rules = self.t.profile.hand_for_hand
        if on and rules is None:
            raise RuleError(M_("h4h.none", "{profile} has no hand-for-hand procedure",
                               profile=self.t.profile.name))
        if on == self.h4h_on:
            raise RuleError(M_("h4h.already_on", "hand-for-hand is already on") if on else
                            M_("h4h.already_off", "hand-for-hand is already off"))
        self.t.emit("h4h", t, on=on)
        if rules and rules.runoff_seconds:
            s = self.t.structure
            if not on:
                clock = self.clock.resume(s, t)
            elif self.in_break(t):
                clock = self.clock   # the break runs on; the level after it waits (tick)
            else:
                clock = self.clock.pause(s, t)
            self.t.emit("clock_set", t, clock=clock.to_dict(), why="hand-for-hand")
        if on:
            self.h4h_next(t)

    def h4h_next(self, t: float, after_hand: bool = False) -> None:
        """Start the next hand-for-hand round once every table has finished its hand."""
        if not self.h4h_on or self.h4h_waiting \
                or any(x.in_hand for x in self.seating.active_tables()):
            return
        tables = [x.id for x in self.seating.active_tables() if x.count >= 2]
        if not tables:
            return   # no table can deal a round; one will once players are seated
        runoff = self._runoff()
        if after_hand and runoff:
            self.tick(t)   # a break over before the director's tick: the level waits in full
            if not self.in_break(t):   # a hand dealt in a break runs nothing off
                # RP-8B: the run-off started with the hand in play at the announcement
                clock = self.clock.run_off(self.t.structure, t, runoff)
                self.t.emit("clock_set", t, clock=clock.to_dict(),
                            why="hand-for-hand run-off")
        self.t.emit("h4h_go", t, round=self.h4h_round + 1, tables=tables)

