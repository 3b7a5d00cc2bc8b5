"""Each table's own pace: orbit for orbit, and levels counted in hands (TDA RP-19).

Owns orbit for orbit (on or off, its round, which tables still play their orbit and how
far each one's big blind has gone round) and, in a structure counted in hands, each
table's level and the hands dealt at it. Seating tells it of each hand dealt, each table
opened and each table broken (`hand_dealt`, `table_opened`, `table_gone`); the report
handlers ask it to decide at a hand's start and end.

Orbit for orbit (soft hand-for-hand): each table plays one orbit, then waits until every
table has played its own. An orbit is the big blind going once round the table: it ends
when the next hand's big blind would come back to, or pass, the seat of the orbit's first
(the button follows the blinds). A table that gains players so deals more hands, one that
loses players fewer; a table that breaks, or is left with fewer than two players, no longer
holds the round; a table opened during a round plays its orbit in it. The director never
refuses a hand for it: the plan tells each table to wait, and hand-for-hand, stricter,
comes first at the table.

Levels counted in hands: each table's level is its own, changing after the level's hands
at that table (the next hand opens the next level: TDA 23). A table that opens takes the
level of the slowest table, from its first hand. The event's level (what late
registration, the time banks and the TV read) is the lowest a table plays: the clock,
paused, shows it (`clock_set`, why "hands").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.calc import pace as pace_
from kiosk.core.calc.clock import Clock
from kiosk.core.model import commands as cmd_
from kiosk.core.model import stall_events as st_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import Table

if TYPE_CHECKING:
    from kiosk.core.model.host import LevelsView, SeatingView


@dataclass(eq=False)
class Pace(Component):
    """Orbit for orbit, and each table's level in a structure counted in hands."""

    orbit_on: bool = False
    orbit_round: int = 0
    orbit_waiting: set[int] = field(default_factory=set)
    # table -> [first big blind of its orbit, last big blind, seats the big blind moved]
    orbit_track: dict[int, list[int]] = field(default_factory=dict)
    # structures counted in hands: table -> [period, hands of it dealt there]
    table_levels: dict[int, list[int]] = field(default_factory=dict)

    seating: SeatingView = peer()
    levels: LevelsView = peer()

    # ---------------------------------------------------------------- seating's word
    def hand_dealt(self, tab: Table) -> None:
        """`tab` dealt a hand (its positions are the hand's): count it."""
        if self.t.structure.counts_hands:
            period, played = pace_.hand_level(self.t.structure, *self._at(tab.id))
            self.table_levels[tab.id] = [period, played + 1]
        if self.orbit_on and tab.id in self.orbit_waiting and tab.positions is not None:
            bb, track = tab.positions.bb, self.orbit_track.get(tab.id)
            if track is None:
                self.orbit_track[tab.id] = [bb, bb, 0]
            else:
                track[2] += pace_.bb_step(track[1], bb, _ring(tab))
                track[1] = bb

    def table_opened(self, tab: Table) -> None:
        """A table opened (or opened again): it takes the slowest table's level and plays
        its orbit in the round running."""
        if self.t.structure.counts_hands:
            self.table_levels[tab.id] = [self.slowest(exclude=tab.id), 0]
        self.orbit_track.pop(tab.id, None)
        if self.orbit_on and self.orbit_round:
            self.orbit_waiting.add(tab.id)

    def table_gone(self, tab: Table) -> None:
        """`tab` broke: it holds no round and has no level any more."""
        self.orbit_waiting.discard(tab.id)
        self.orbit_track.pop(tab.id, None)
        self.table_levels.pop(tab.id, None)

    # ---------------------------------------------------------------- levels in hands
    def _at(self, table: int) -> tuple[int, int]:
        level = self.table_levels.get(table)
        return (level[0], level[1]) if level else (self.levels.clock.period, 0)

    def next_level(self, table: int) -> tuple[int, int]:
        """(period, hands of it dealt) for `table`'s next hand."""
        return pace_.hand_level(self.t.structure, *self._at(table))

    def table_level(self, table: int) -> tuple[int, int] | None:
        """(period, hands of it dealt there) after `table`'s last hand, in a structure
        counted in hands; None otherwise."""
        level = self.table_levels.get(table)
        return (level[0], level[1]) if level and self.t.structure.counts_hands else None

    def slowest(self, exclude: int | None = None) -> int:
        """The lowest level a table in play deals its next hand at."""
        periods = [self.next_level(x.id)[0] for x in self.seating.active_tables()
                   if x.id != exclude and x.id in self.table_levels]
        return min(periods, default=self.levels.clock.period)

    def _follow_level(self, t: float) -> None:
        """The event's clock shows the lowest level a table plays (counted in hands)."""
        if not self.t.structure.counts_hands or not self.levels.started:
            return
        period = self.slowest()
        clock = self.levels.clock
        if period != clock.period:
            self.t.emit("clock_set", t, clock=Clock(period, 0.0, 0.0).to_dict(), why="hands")

    # ---------------------------------------------------------------- the tables' hands
    def hand_started(self, tab: Table, t: float) -> None:
        """After a hand's start: the event's level may have moved."""
        self._follow_level(t)

    def hand_over(self, tab: Table, t: float) -> None:
        """After a hand's end (and the moves it set off): has `tab` played its orbit?"""
        if self.orbit_on and tab.id in self.orbit_waiting and self._orbit_over(tab):
            self.t.emit("orbit_done", t, table=tab.id, round=self.orbit_round)
        self.settle(t)

    def _orbit_over(self, tab: Table) -> bool:
        """Whether `tab` played out its orbit: no hand of it is left (the very count its
        plan gives the table), or it can no longer deal."""
        if tab.count < 2:
            return not tab.in_hand
        return not tab.in_hand and self.orbit_left(tab) == 0

    def orbit_left(self, tab: Table) -> int | None:
        """Hands `tab` still deals in its orbit with the players seated now (None before
        its first hand of the round)."""
        track = self.orbit_track.get(tab.id)
        if not self.orbit_on or tab.id not in self.orbit_waiting or track is None:
            return None
        return pace_.orbit_hands_left(track[2], track[1], tab.seat_of, _ring(tab))

    def settle(self, t: float) -> None:
        """After any decision: tables that can no longer deal leave the round, the next
        round starts once none is left, and the event's level follows the tables."""
        if self.orbit_on:
            for tid in sorted(self.orbit_waiting):
                tab = self.seating.tables.get(tid)
                if tab is not None and tab.count < 2 and not tab.in_hand:
                    self.t.emit("orbit_done", t, table=tid, round=self.orbit_round)
            self.orbit_next(t)
        self._follow_level(t)

    # ---------------------------------------------------------------- orbit for orbit
    def _do_orbit(self, cmd: cmd_.OrbitForOrbit, t: float) -> None:
        stalling = self.t.profile.stalling
        if cmd.on and not stalling.orbit_for_orbit:
            raise RuleError(M_("orbit.not_in_profile", "{profile} has no orbit for "
                               "orbit{rule}", profile=self.t.profile.name,
                               rule=M_("rule.cited", " (rule {rule})", rule=stalling.rule)
                               if stalling.rule else ""))
        if cmd.on == self.orbit_on:
            raise RuleError(M_("orbit.already_on", "orbit for orbit is already on") if cmd.on
                            else M_("orbit.already_off", "orbit for orbit is already off"))
        if cmd.on and not self.levels.started:
            raise RuleError(M_("orbit.not_started", "orbit for orbit paces play: start the event "
                               "first"))
        self.t.emit("orbit", t, on=cmd.on, by=cmd.get("by"))
        if cmd.on:
            self.orbit_next(t)

    def orbit_next(self, t: float) -> None:
        """Start the next round once every table has played its orbit."""
        if not self.orbit_on or self.orbit_waiting:
            return
        tables = [x.id for x in self.seating.active_tables() if x.count >= 2]
        if tables:
            self.t.emit("orbit_go", t, round=self.orbit_round + 1, tables=tables)

    def _on_orbit(self, ev: st_.OrbitForOrbit) -> None:
        self.orbit_on = ev.on
        self.orbit_waiting.clear()
        self.orbit_track.clear()
        self._all_changed()

    def _on_orbit_go(self, ev: st_.OrbitGo) -> None:
        self.orbit_round = ev.round
        self.orbit_waiting = set(ev.tables)
        self.orbit_track.clear()
        self._all_changed()

    def _on_orbit_done(self, ev: st_.OrbitDone) -> None:
        self.orbit_waiting.discard(ev.table)
        self.orbit_track.pop(ev.table, None)
        self.changes.touch(ev.table)
        self.changes.schedule_changed()

    def _all_changed(self) -> None:
        self.changes.schedule_changed()
        self.changes.touch_all(tab.id for tab in self.seating.active_tables())


def _ring(tab: Table) -> int:
    """Seats round `tab` (its seat numbers never pass its size)."""
    return max(tab.seats, *tab.seat_of) if tab.seat_of else tab.seats
