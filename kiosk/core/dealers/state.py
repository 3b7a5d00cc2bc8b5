"""The roadmap's state and its fold: the dealers, the tables in play, the strings with
their reliefs, the EO list, the downs. `apply` folds one event of the `dealers` stream
(kiosk.core.model.dealer_events) and is all a replay needs; the decisions that emit those
events are kiosk.core.dealers.roadmap.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar, Self

from kiosk.core.model import dealer_events as de
from kiosk.core.model.component import handlers
from kiosk.core.model.event_base import Event

PIN_TRIES = 5          # wrong PINs before the dealer is locked out


@dataclass(frozen=True)
class Rotation:
    """The room's rotation settings, in seconds (kiosk.config.dealers reads them)."""

    down: float = 1800.0
    brk: float = 900.0
    downs_between_breaks: int = 4
    string_size: int = 4            # 0: one round robin over every table
    final_table_down: float = 0.0   # 0: as any table's


@dataclass
class Dealer:
    name: str
    seq: int                        # clock-in order: who waited longest goes first
    status: str = "waiting"         # waiting, dealing, relief, break, out
    table: int = 0                  # dealing: the table
    string: int = -1                # relief: the string
    until: float = 0.0              # break: due back
    downs: int = 0                  # downs begun since the last break
    free_since: float = 0.0
    leaving: bool = False           # released early: goes home at the next push
    pin_fails: int = 0


@dataclass
class Table:
    table: int
    event: str
    final: bool = False
    dealer: str | None = None
    since: float = 0.0              # the down's start
    push_at: float | None = None    # None while the event's clock is held
    remaining: float = 0.0          # held: what was left of the down (< 0: overdue)
    string: int = -1


@dataclass
class Down:
    dealer: str
    table: int
    event: str
    start: float
    end: float | None = None
    hands: int = 0
    hand0: int = 0                  # the table's hand count as the down began


@dataclass
class RoadmapState:
    rotation: Rotation = field(default_factory=Rotation)
    dealers: dict[str, Dealer] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)
    strings: list[list[int]] = field(default_factory=list)
    reliefs: dict[int, str] = field(default_factory=dict)       # string -> its relief
    nexts: dict[int, int] = field(default_factory=dict)         # string -> the table due next
    eo: list[str] = field(default_factory=list)
    held: set[str] = field(default_factory=set)
    # event -> (start, until): no push at its tables then (RP-7: before a level change)
    push_holds: dict[str, tuple[float, float]] = field(default_factory=dict)
    downs: list[Down] = field(default_factory=list)
    open_downs: dict[int, int] = field(default_factory=dict)    # table -> index in downs
    last_push: dict[int, de.PushDone] = field(default_factory=dict)   # table -> its last
    n_events: int = 0

    FOLDS: ClassVar[dict[type, object]] = {}

    # ------------------------------------------------------------------ replay, emit
    @classmethod
    def replay(cls, events: Iterable[Event], rotation: Rotation | None = None) -> Self:
        road = cls(rotation or Rotation())
        for ev in events:
            road.apply(ev)
        return road

    def apply(self, ev: Event) -> None:
        fold = self.FOLDS[type(ev)]
        fold(self, ev)  # type: ignore[operator]
        self.n_events += 1

    def down_of(self, tb: Table) -> float:
        return (self.rotation.final_table_down or self.rotation.down) if tb.final \
            else self.rotation.down

    # ------------------------------------------------------------------ folding
    def _on_clocked_in(self, ev: de.DealerClockedIn) -> None:
        old = self.dealers.get(ev.dealer)
        self.dealers[ev.dealer] = Dealer(ev.dealer, seq=len(self.dealers) if old is None
                                         else old.seq, free_since=ev.t,
                                         pin_fails=old.pin_fails if old else 0)

    def _on_clocked_out(self, ev: de.DealerClockedOut) -> None:
        d = self.dealers[ev.dealer]
        self._unrelief(d)
        d.status, d.leaving = "out", False
        if ev.dealer in self.eo:
            self.eo.remove(ev.dealer)

    def _on_early_out(self, ev: de.EarlyOutSigned) -> None:
        self.eo.append(ev.dealer)

    def _on_released(self, ev: de.EarlyOutReleased) -> None:
        self.dealers[ev.dealer].leaving = True

    def _on_table_opened(self, ev: de.DealTableOpened) -> None:
        self.tables[ev.table] = Table(ev.table, ev.event, ev.final)

    def _on_table_final(self, ev: de.DealTableFinal) -> None:
        self.tables[ev.table].final = ev.final

    def _on_table_closed(self, ev: de.DealTableClosed) -> None:
        tb = self.tables.pop(ev.table)
        self.last_push.pop(ev.table, None)
        if tb.dealer is not None:
            self._close_down(ev.table, ev.t, 0)
            d = self.dealers[tb.dealer]
            self._free(d, ev.t)
            if ev.until:
                d.status, d.until, d.downs = "break", ev.until, 0

    def _on_strings_formed(self, ev: de.StringsFormed) -> None:
        for name in list(self.reliefs.values()):
            self._free(self.dealers[name], ev.t)
        self.reliefs.clear()
        self.strings = [list(s) for s in ev.strings]
        self.nexts = {}
        for i, s in enumerate(self.strings):
            for n in s:
                self.tables[n].string = i
            self.nexts[i] = self.next_due(i)

    def _on_relief_set(self, ev: de.ReliefSet) -> None:
        d = self.dealers[ev.dealer]
        d.status, d.string = "relief", ev.string
        self.reliefs[ev.string] = ev.dealer

    def _on_seated(self, ev: de.DealerSeated) -> None:
        tb = self.tables[ev.table]
        d = self.dealers[ev.dealer]
        self._unrelief(d)
        d.status, d.table, d.downs = "dealing", ev.table, d.downs + 1
        tb.dealer, tb.since = ev.dealer, ev.t
        self._set_push(tb, ev.push_at, ev.t)
        self.open_downs[ev.table] = len(self.downs)
        self.downs.append(Down(ev.dealer, ev.table, tb.event, ev.t, hand0=ev.hand))

    def _on_push_done(self, ev: de.PushDone) -> None:
        tb = self.tables[ev.table]
        self.last_push[ev.table] = ev
        self._close_down(ev.table, ev.t, ev.hands)
        self._on_seated(de.DealerSeated(t=ev.t, table=ev.table, dealer=ev.incoming,
                                        push_at=ev.push_at, hand=ev.hand))
        gone = self.dealers[ev.outgoing]
        gone.table = 0
        if ev.next == "relief":
            gone.status, gone.string = "relief", tb.string
            self.reliefs[tb.string] = ev.outgoing
        elif ev.next == "break":
            gone.status, gone.until, gone.downs = "break", ev.until, 0
        elif ev.next == "home":
            gone.status, gone.leaving = "out", False
            if ev.outgoing in self.eo:
                self.eo.remove(ev.outgoing)
        else:
            self._free(gone, ev.t)
        self.nexts[tb.string] = self.next_due(tb.string)

    def _on_break_ended(self, ev: de.BreakEnded) -> None:
        self._free(self.dealers[ev.dealer], ev.t)

    def _on_clock_held(self, ev: de.ClockHeld) -> None:
        tables = [tb for tb in self.tables.values() if tb.event == ev.event]
        if ev.held:
            self.held.add(ev.event)
            for tb in tables:
                if tb.push_at is not None:   # an overdue push stays overdue after
                    tb.remaining, tb.push_at = tb.push_at - ev.t, None
        else:
            self.held.discard(ev.event)
            for tb in tables:
                if tb.push_at is None and tb.dealer is not None:
                    tb.push_at = ev.t + tb.remaining

    def _on_pushes_held(self, ev: de.PushesHeld) -> None:
        self.push_holds[ev.event] = (ev.start, ev.until)

    def held_until(self, table: int, t: float) -> float | None:
        """When pushes at `table` may go on again, if they wait at `t` for the level
        change or break of its event (RP-7); None when they need not."""
        tb = self.tables.get(table)
        window = self.push_holds.get(tb.event) if tb is not None else None
        if window is None or not window[0] <= t < window[1]:
            return None
        return window[1]

    def _on_pin_failed(self, ev: de.PinFailed) -> None:
        self.dealers[ev.dealer].pin_fails += 1

    def _on_pin_cleared(self, ev: de.PinCleared) -> None:
        self.dealers[ev.dealer].pin_fails = 0

    # ------------------------------------------------------------------ fold helpers
    def next_due(self, string: int) -> int:
        """The string's table due first: where its relief goes next."""
        return min((self.tables[n].push_at or math.inf, n) for n in self.strings[string])[1]

    def _set_push(self, tb: Table, push_at: float, t: float) -> None:
        if tb.event in self.held:
            tb.push_at, tb.remaining = None, push_at - t
        else:
            tb.push_at = push_at

    def _close_down(self, table: int, t: float, hands: int) -> None:
        i = self.open_downs.pop(table, None)
        if i is not None:
            self.downs[i].end, self.downs[i].hands = t, hands

    def _free(self, d: Dealer, t: float) -> None:
        self._unrelief(d)
        d.status, d.table, d.free_since = "waiting", 0, t

    def _unrelief(self, d: Dealer) -> None:
        if d.status == "relief" and self.reliefs.get(d.string) == d.name:
            del self.reliefs[d.string]
        d.string = -1



def _routes() -> None:
    for ev, fn in handlers(RoadmapState, "_on_", Event).items():
        RoadmapState.FOLDS[ev] = fn


_routes()
