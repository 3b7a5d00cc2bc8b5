"""Balancing and breaking: who moves where, and when; the final-table draw.

TDA 9, 10 and 11: the player due the big blind moves to the seat that takes it soonest;
tables break in a predetermined order; the final table is redrawn once every hand is
over. Owns the balancer's bookkeeping, pending moves, breaking tables and the final draw;
the decision methods are kept as they were in the mixin they came from.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.core import button as btn
from kiosk.core import commands as cmd_
from kiosk.core import events as ev_
from kiosk.core.balance import (
    Balancer,
    break_now,
    break_order,
    break_rank,
    choose_source,
    choose_target,
)
from kiosk.core.component import Component
from kiosk.core.state import IN_PLAY, Table
from kiosk.errors import RuleError

if TYPE_CHECKING:
    from kiosk.rules.profile import BalanceRules


@dataclass(eq=False)
class Balancing(Component):
    """The balancer's bookkeeping and every decision that moves a player."""

    balancer: Balancer = field(default_factory=Balancer)
    n_breaking: int = 0
    _order: list[tuple[int, int]] = field(default_factory=list)  # (rank, table) in breaking order
    _cursor: int = 0  # first entry of _order that may still break
    _halt_top: tuple[Any, ...] | None = None  # what halts depended on when last checked
    _halted: set[int] = field(default_factory=set)
    _longest_at: int = -1  # event count when _longest_now was taken
    _longest_now: int = 0
    n_pending: int = 0  # balancing moves ordered, not yet made
    final_pending: bool = False
    final_table: int | None = None

    def table_opened(self, tab: Table, reopened: bool = False) -> None:
        """A new table takes its place in the breaking order and in the balancer (a broken
        table opened again leaves its old place first)."""
        if reopened:
            self._order = [e for e in self._order if e[1] != tab.id]
            self._cursor = 0
        rank = break_rank(tab.id, tab.added, self.t.profile.balance.added_tables_break_first)
        at = bisect.bisect(self._order, (rank, tab.id))
        self._order.insert(at, (rank, tab.id))
        self._cursor = min(self._cursor, at)
        self.balancer.set_rank(tab.id, rank)
        self.recount(tab)

    def _rebuild_balancer(self) -> None:
        b = Balancer()
        first = self.t.profile.balance.added_tables_break_first
        self._order = sorted((break_rank(t.id, t.added, first), t.id)
                             for t in self.t.seating.tables.values() if not t.broken)
        self._cursor = 0
        for rank, tid in self._order:
            b.set_rank(tid, rank)
            tab = self.t.seating.tables[tid]
            if not tab.breaking:
                b.set(tid, tab.effective, tab.moved_weight)
        self.balancer = b

    def recount(self, tab: Table) -> None:
        if tab.broken:
            return
        # the breaking order is published with the schedule and follows the counts
        self.t.schedule_dirty = True
        if tab.breaking or (self.final_pending and tab.id != self.final_table):
            self.balancer.remove(tab.id)
        else:
            self.balancer.set(tab.id, tab.effective, tab.moved_weight)

    def next_to_break(self) -> int | None:
        """First table in the breaking order still playing (the last one never breaks)."""
        b = self.balancer
        if self.t.profile.balance.break_order == "fewest":
            return b.fewest_first() if len(b) > 1 else None
        order = self._order
        while self._cursor < len(order) and order[self._cursor][1] not in b:
            self._cursor += 1
        for _, tid in order[self._cursor:]:
            if tid in b:
                return tid if len(b) > 1 else None
        return None

    def break_order(self) -> list[int]:
        """Every open table, next to break first: tables already breaking, then the
        predetermined procedure (TDA 10C) applied to the counts balancing sees now."""
        rules = self.t.profile.balance
        open_tables = self.t.seating.active_tables()
        return sorted(t.id for t in open_tables if t.breaking) + break_order(
            ((t.id, t.added, t.effective, t.moved_weight)
             for t in open_tables if not t.breaking),
            rules.added_tables_break_first, rules.break_order == "fewest")

    def refresh_halts(self) -> None:
        """A halt depends on the longest table anywhere, so when that changes every
        table whose halt flips must republish its plan, touched or not."""
        b = self.balancer
        top = (b.max(), self.n_pending, self._longest() if self.n_pending else None)
        if top == self._halt_top:
            return
        self._halt_top = top
        now = {tid for tid in b.count if self.halted(self.t.seating.tables[tid])}
        for tid in now ^ self._halted:
            self.t.dirty.add(tid)
        self._halted = now

    def halted(self, tab: Table) -> bool:
        """TDA 10D: a table this many players short of the longest halts."""
        short = self.t.profile.balance.halt_short
        b = self.balancer
        counts = b.count   # read twice a hand: the balancer's own table, not its methods
        if short is None or tab.id not in counts or len(counts) < 2:
            return False
        # players ordered away still sit at their tables until their hand ends: while
        # moves are pending the rule counts the players there now
        top = self._longest() if self.n_pending else b.max()
        return top - len(tab.seat_of) >= short

    def _longest(self) -> int:
        """Players at the longest playing table now; counted once per event."""
        if self._longest_at != self.t.n_events:
            self._longest_at = self.t.n_events
            tables = self.t.seating.tables
            self._longest_now = max((tables[tid].count for tid in self.balancer.count),
                                    default=0)
        return self._longest_now

    def holding(self, tab: Table) -> bool:
        """The table must not start a hand now (halted, breaking, final draw, H4H wait)."""
        tour = self.t   # asked twice a hand (by the dealer, then by the hand-start check)
        if tab.broken or tab.breaking or self.final_pending \
                or tour.busts.finished_at is not None \
                or tour.chipcount.day_over:
            return True
        levels = tour.levels
        if levels.h4h_on and tab.id not in levels.h4h_waiting:
            return True
        return self.halted(tab)

    def hold_reason(self, tab: Table) -> str:
        """Why `holding(tab)` is true, in the words a dealer or floor person reads."""
        if tab.broken:
            return "the table is broken"
        if self.t.busts.finished_at is not None:
            return "the tournament is over"
        if tab.breaking:
            return "the table is breaking"
        if self.final_pending:
            return "the final table draw waits for every hand to end"
        if self.t.levels.h4h_on and tab.id not in self.t.levels.h4h_waiting:
            return "hand-for-hand: waiting for the other tables"
        return "halted until the tables are balanced" if self.halted(tab) else ""

    def between_hands(self, tab: Table, t: float) -> None:
        """At a table's hand end: break it, or send the players it owes (nobody once
        the day is over: see `rebalance`)."""
        moving = not self.t.chipcount.day_over
        if moving and tab.breaking:
            if not self.final_pending:  # the final draw seats this table's players
                self._break(tab, t)
        elif moving:
            for dst_id in list(tab.pending_out):
                self._execute_order(tab, dst_id, t)
        # a breaking table's hand may be the last one a H4H round or the final draw awaits
        self.t.levels.h4h_next(t, after_hand=True)
        if self.final_pending and moving:
            self._final_draw(t)

    def _execute_order(self, src: Table, dst_id: int, t: float) -> None:
        """Carry out one ordered move between hands at the source table.

        The order was decided on counts that include every pending move; it is
        cancelled only when, on those same counts, it no longer helps (the source is now
        the shorter), so deciding again never re-orders what was just cancelled. A
        target that is physically full (its own movers have not left yet) keeps the
        order waiting for the source's next hand end.
        """
        dst = self.t.seating.tables[dst_id]
        seat = self.t.seating.due_big_blind(src)
        if dst.broken or dst.breaking or seat is None or src.effective < dst.effective:
            self.t._emit("move_cancelled", t, table=src.id, to_table=dst.id)
            return
        if dst.count >= dst.seats:
            return
        to_seat = btn.worst_open_seat(dst.positions, dst.seat_of, dst.seats,
                                      self.t._rng("balance", src.id, src.hand, dst.id))
        self.t._emit("moved", t, player=src.seat_of[seat], table=src.id, seat=seat,
                     to_table=dst.id, to_seat=to_seat, reason="balance", ordered=True,
                     due_bb=src.positions is not None)

    def _moves_of_due(self, tid: int) -> int:
        tab = self.t.seating.tables[tid]
        seat = btn.next_big_blind(tab.positions, tab.seat_of, tab.seats) \
            if tab.positions and tab.seat_of else None
        return self.t.registry.players[tab.seat_of[seat]].moves if seat else 0

    def _mark_breaking(self, tab: Table, t: float) -> None:
        for dst_id in list(tab.pending_out):
            self.t._emit("move_cancelled", t, table=tab.id, to_table=dst_id)
        if tab.pending_in:
            for src in self.t.seating.active_tables():
                for dst_id in list(src.pending_out):
                    if dst_id == tab.id:
                        self.t._emit("move_cancelled", t, table=src.id, to_table=dst_id)
        self.t._emit("table_breaking", t, table=tab.id)

    def _break(self, tab: Table, t: float) -> None:
        """TDA 9: a 2-step random draw into the open seats of the shortest tables."""
        if self.n_pending:
            # orders decided before this table's players come in are stale: cancel them
            # (balancing decides again right after), or a filled table keeps counting
            # players who can no longer reach it
            for src in self.t.seating.active_tables():
                for dst_id in list(src.pending_out):
                    self.t._emit("move_cancelled", t, table=src.id, to_table=dst_id)
        rng = self.t._rng("break", tab.id, self.t.registry.alive)
        due = self.t.seating.due_seat(tab)
        movers = [tab.seat_of[s] for s in sorted(tab.seat_of)]
        b = self.balancer
        pool: list[tuple[int, int]] = []
        taken: dict[int, set[int]] = {}
        for _ in movers:
            target = self._shortest_with_room(taken)
            if target is None:
                break
            dst = self.t.seating.tables[target]
            free = [s for s in dst.open_seats() if s not in taken.get(target, set())]
            seat = rng.choice(free)
            taken.setdefault(target, set()).add(seat)
            b.add(target, 1)  # provisional, so the next seat card goes elsewhere
            pool.append((target, seat))
        for target, _ in pool:
            b.add(target, -1)
        rng.shuffle(movers)
        arriving: dict[int, int] = {}
        for target, _ in pool:
            arriving[target] = arriving.get(target, 0) + 1
        share = self.t.profile.button.redraw_new_fraction
        redraw = {tid: bool(share and n >= share * (self.t.seating.tables[tid].count + n))
                  for tid, n in arriving.items()}
        for pid, (target, seat) in zip(movers, pool, strict=False):
            from_seat = self.t.registry.players[pid].seat
            self.t._emit("moved", t, player=pid, table=tab.id, seat=from_seat,
                         to_table=target, to_seat=seat, reason="break",
                         redraw_button=redraw[target], due_bb=from_seat == due)
        if not tab.seat_of:
            self.t._emit("table_broken", t, table=tab.id)
            last = self.t.profile.button.high_card_final_tables
            if last and len(self.t.seating.active_tables()) <= last:
                for other in self.t.seating.active_tables():
                    other.redraw_button = True

    def _room(self, tid: int, taken: dict[int, set[int]]) -> bool:
        tab = self.t.seating.tables[tid]
        return tab.count + len(taken.get(tid, ())) < tab.seats

    def _shortest_with_room(self, taken: dict[int, set[int]]) -> int | None:
        """Where the next seat card of a breaking table goes: the shortest table that
        breaks last, sparing the table next to break unless it is far the shortest
        (its players would only move again)."""
        b = self.balancer
        nxt = self.next_to_break()
        tid = self._preferred_target(nxt)
        # the last seat cards: the tables kept for later are full, the next to break or
        # the shortest table has the seat (a heap peek, not a pass over every table)
        for choice in (tid, nxt, b.latest_with(b.min())):
            if choice is not None and self._room(choice, taken):
                return choice
        best: tuple[int, int, int] | None = None
        for tid, c in b.count.items():
            if self._room(tid, taken):
                key = (c, -b.rank.get(tid, 0), tid)
                if best is None or key < best:
                    best = key
        return best[2] if best else None

    def _preferred_target(self, nxt: int | None) -> int | None:
        """The table the seat card should go to, room or not (the next to break is left
        out of the choice, then put back as it was)."""
        b = self.balancer
        spare = self.t.profile.balance.allowed_spread(len(b))
        if nxt is not None:
            nxt_count = b.count[nxt]
            b.remove(nxt)
        try:
            lo = b.min()
            tid = _within_tolerance(b, b.latest_with(lo) if len(b) else None,
                                    range(lo + 1, min(lo + spare, self.t.seats)),
                                    self.t.profile.balance.break_order == "fewest")
            if tid is not None and nxt is not None and nxt_count + spare <= b.count[tid]:
                tid = nxt
        finally:
            if nxt is not None:
                b.set(nxt, nxt_count, self.t.seating.tables[nxt].moved_weight)
        return tid

    def _final_draw(self, t: float) -> None:
        """TDA 11: everyone left is redrawn at the final table once all hands are over."""
        size = self.t.profile.balance.final_table_size(self.t.seats)
        if self.t.registry.alive > size or any(x.in_hand for x in self.t.seating.active_tables()):
            return
        final = self.t.seating.tables[self.final_table or 0]
        rng = self.t._rng("final", self.t.registry.alive)
        players = sorted((p for p in self.t.registry.players.values() if p.status in IN_PLAY),
                         key=lambda p: p.id)
        seats = rng.sample(range(1, size + 1), len(players))
        self.t._emit("final_seated", t, final_table=final.id, seats=size)
        here = {p.id for p in players if p.table == final.id}
        due = {p.id for p in players
               if p.table is not None
               and self.t.seating.due_seat(self.t.seating.tables[p.table]) == p.seat}
        for pid in sorted(here):
            self.t._emit("unseated", t, player=pid)
        for p, seat in zip(players, seats, strict=True):
            if p.id in here:
                self.t._emit("seated", t, player=p.id, table=final.id, seat=seat, reason="final")
            else:
                self.t._emit("moved", t, player=p.id, table=p.table, seat=p.seat,
                             to_table=final.id, to_seat=seat, reason="final",
                             due_bb=p.id in due)
        for x in self.t.seating.active_tables():
            if x.id != final.id:
                self.t._emit("table_broken", t, table=x.id)

    def rebalance(self, t: float) -> None:
        """Decide breaks and balancing moves after any change in the field.

        None once the day is over. The Irish Open's r.73 ends a day's play with the
        last hands drawn ten minutes before its end; when they are played the floor
        ends the day, and every table counts the stacks it holds for the bags. A move
        or a break after that would seat players in counted seats (or empty them), and
        the redraw for the next day seats everyone afresh anyway.
        """
        if self.t.chipcount.day_over:
            return
        rules = self.t.profile.balance
        b = self.balancer
        fits_final = self.t.registry.alive <= rules.final_table_size(self.t.seats)
        if self.final_pending and not fits_final:
            # a bust was taken back: the field no longer fits the final table
            self.t._emit("final_cancelled", t)
        n_active = len(b) + self.n_breaking
        if n_active > 1 and not self.final_pending and fits_final:
            self._order_final(t)
            return
        if self.final_pending or n_active < 2:
            return
        if self.n_breaking:
            self._finish_breaks(t)
        # breaks: once the field fits one table fewer (break_now: a moment later, for a
        # shorter table)
        while len(b) > 1:
            nxt = self.next_to_break()
            if nxt is None or not break_now(b, nxt, rules, self.t.seats,
                                            self.t.registry.alive):
                break
            tab = self.t.seating.tables[nxt]
            self._mark_breaking(tab, t)
            if not tab.in_hand:
                self._break(tab, t)
        # balancing between the tables that play on
        for _ in range(2 * len(b) + 2):
            if len(b) < 2 or not _unbalanced(b, rules):
                return
            src = choose_source(b, self.next_to_break(), b.min(), self._moves_of_due)
            dst = choose_target(b)
            self.t._emit("move_ordered", t, table=src, to_table=dst)
            if not self.t.seating.tables[src].in_hand:
                self._execute_order(self.t.seating.tables[src], dst, t)

    def _finish_breaks(self, t: float) -> None:
        """A breaking table between hands whose players did not all find a seat at its
        last hand end (newcomers took the open seats meanwhile) sends the rest as seats
        open elsewhere: it deals no more hands, so no hand end of its own would."""
        for tab in self.t.seating.active_tables():
            if tab.breaking and tab.seat_of and not tab.in_hand and any(
                    x.count < x.seats for x in self.t.seating.active_tables()
                    if x.id != tab.id and not x.breaking):
                self._break(tab, t)

    def _order_final(self, t: float) -> None:
        """The field fits the final table: cancel every order, then draw it (TDA 11)."""
        active = self.t.seating.active_tables()
        for x in active:
            for dst_id in list(x.pending_out):
                self.t._emit("move_cancelled", t, table=x.id, to_table=dst_id)
        self.t._emit("final_ordered", t, final_table=min(x.id for x in active))
        self._final_draw(t)

    def _on_move_ordered(self, ev: ev_.MoveOrdered) -> None:
        src, dst = self.t.seating.tables[ev.table], self.t.seating.tables[ev.to_table]
        src.pending_out.append(dst.id)
        dst.pending_in += 1
        self.n_pending += 1
        self.recount(src)
        self.recount(dst)

    def _on_move_cancelled(self, ev: ev_.MoveCancelled) -> None:
        src, dst = self.t.seating.tables[ev.table], self.t.seating.tables[ev.to_table]
        src.pending_out.remove(dst.id)
        dst.pending_in -= 1
        self.n_pending -= 1
        self.recount(src)
        self.recount(dst)

    def _on_table_breaking(self, ev: ev_.TableBreaking) -> None:
        tab = self.t.seating.tables[ev.table]
        tab.breaking = True
        self.n_breaking += 1
        self.recount(tab)
        self.t._touch(tab.id)

    def _on_table_broken(self, ev: ev_.TableBroken) -> None:
        tab = self.t.seating.tables[ev.table]
        if tab.breaking:
            self.n_breaking -= 1
        tab.broken, tab.breaking = True, False
        self.balancer.remove(tab.id)
        self.t.schedule_dirty = True
        self.t.levels.h4h_waiting.discard(tab.id)
        self.t._touch(tab.id)
        # players moved off this table to balance would have moved now anyway
        self.t.seating.stats["unavoidable"] += tab.balance_out

    def _on_final_ordered(self, ev: ev_.FinalOrdered) -> None:
        self.final_pending = True
        self.final_table = ev.final_table
        for tab in self.t.seating.active_tables():
            self.t._touch(tab.id)

    def _on_final_cancelled(self, ev: ev_.FinalCancelled) -> None:
        self.final_pending = False
        self.final_table = None
        self._rebuild_balancer()
        for tab in self.t.seating.active_tables():
            self.t._touch(tab.id)

    def redrawn(self) -> None:
        """The next day's redraw seats everyone afresh: a break or a final-table draw
        that waited since the day ended (see `rebalance`) has nothing left to do."""
        if not (self.n_breaking or self.final_pending):
            return
        for tab in self.t.seating.active_tables():
            if tab.breaking:
                tab.breaking = False
                self.n_breaking -= 1
        if self.final_pending:
            self.final_pending, self.final_table = False, None
        self._rebuild_balancer()

    def _on_final_seated(self, ev: ev_.FinalSeated) -> None:
        self.final_pending = False
        tab = self.t.seating.tables[ev.final_table]
        if tab.breaking:   # broken by the floor mid-hand, then drawn as the final table
            tab.breaking = False
            self.n_breaking -= 1
        tab.seats = ev.seats
        tab.redraw_button = True
        tab.positions = None
        self._rebuild_balancer()

    def _do_break_table(self, cmd: cmd_.BreakTable, t: float) -> None:
        tab = self.t.seating.table_in_play(cmd.get("table"))
        if self.t.chipcount.day_over:
            raise RuleError(f"day {self.t.chipcount.day} is over: its tables break at the "
                            "redraw")
        if len(self.t.seating.active_tables()) < 2:
            raise RuleError("the last table cannot break")
        if self.final_pending:
            raise RuleError("the final table draw is under way: every table breaks into it")
        room = sum(x.seats - x.count for x in self.t.seating.active_tables()
                   if x.id != tab.id and not x.breaking)
        if not tab.breaking and not tab.in_hand and room < tab.count:
            # TDA 9 breaks a table into open seats: between hands it breaks now, so the
            # seats must be there (during a hand it breaks at the hand's end, and a
            # player left without a seat moves as soon as one opens: _finish_breaks)
            raise RuleError(f"table {tab.id} cannot break: its {tab.count} players need "
                            f"seats and the other tables have {room} open")
        if not tab.breaking:
            self._mark_breaking(tab, t)
        if not tab.in_hand:
            self._break(tab, t)


def _within_tolerance(b: Balancer, tid: int | None, within: range, fewest: bool) -> int | None:
    """Among tables whose counts lie `within` the tolerance above the shortest (`tid`),
    the one that takes the seat card."""
    if fewest:
        # the longest table within the tolerance takes the seat card: the short
        # ones stay short, so the next break moves fewer players
        for c in reversed(within):
            other = b.latest_with(c)
            if other is not None:
                return other
        return tid
    # within the tolerance, the table that breaks last takes the seat card
    for c in within:
        other = b.latest_with(c)
        if other is not None and (tid is None or b.rank[other] > b.rank[tid]):
            tid = other
    return tid


def _unbalanced(b: Balancer, rules: BalanceRules) -> bool:
    """The longest and shortest tables are further apart than the profile allows (in
    "minimum" mode: a table is below its minimum and another can spare a player)."""
    hi, lo = b.max(), b.min()
    if rules.mode == "minimum":
        return lo < rules.min_players and hi - lo >= 2
    return hi - lo > rules.allowed_spread(len(b))
