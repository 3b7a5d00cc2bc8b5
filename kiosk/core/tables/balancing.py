"""Balancing and breaking: who moves where, and when.

TDA 9 and 10: the player due the big blind moves to the seat that takes it soonest;
tables break in a predetermined order. Owns the balancer's bookkeeping, the moves
ordered and not yet made (and each table's columns for them: `pending_out`,
`pending_in`), the breaking tables and the halts. The final-table draw (TDA 11) is
kiosk.core.tables.final_table's; the seat cards of a breaking table are drawn by
kiosk.core.calc.balance.seat_card_target.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_, Msg
from kiosk.core.calc import button as btn
from kiosk.core.calc.balance import (
    MAX_ORDERED_SECTIONS,
    Balancer,
    break_now,
    break_order_ranked,
    break_rank,
    choose_source,
    choose_target,
    seat_card_target,
    section_bias,
    unbalanced,
)
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import Table

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        BustsView,
        ChipCountsView,
        FinalView,
        LevelsView,
        RegistryView,
        SeatingView,
    )


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
    sections: list[tuple[str, list[int]]] = field(default_factory=list)  # break order
    _bias: dict[int, int] = field(default_factory=dict)  # table -> its section's head start

    seating: SeatingView = peer()
    registry: RegistryView = peer()
    levels: LevelsView = peer()
    busts: BustsView = peer()
    chipcount: ChipCountsView = peer()
    final: FinalView = peer()

    # ------------------------------------------------------ what seating tells it
    def table_opened(self, tab: Table, reopened: bool = False) -> None:
        """A new table takes its place in the breaking order and in the balancer (a broken
        table opened again leaves its old place first)."""
        if reopened:
            self._order = [e for e in self._order if e[1] != tab.id]
            self._cursor = 0
        rank = self._rank(tab)
        at = bisect.bisect(self._order, (rank, tab.id))
        self._order.insert(at, (rank, tab.id))
        self._cursor = min(self._cursor, at)
        self.balancer.set_rank(tab.id, rank)
        self.recount(tab)

    def table_broken(self, tab: Table) -> None:
        """`tab` left play: it breaks no more and the balancer forgets it."""
        self.stop_breaking(tab)
        self.balancer.remove(tab.id)

    def stop_breaking(self, tab: Table) -> None:
        """`tab` breaks no more (broken, drawn as the final table, or the next day's
        redraw seats everyone afresh)."""
        if tab.breaking:
            tab.breaking = False
            self.n_breaking -= 1

    def order_done(self, src: Table, dst: Table) -> None:
        """An ordered move from `src` to `dst` was made: no longer pending."""
        src.pending_out.remove(dst.id)
        dst.pending_in -= 1
        self.n_pending -= 1

    def recount(self, tab: Table) -> None:
        if tab.broken:
            return
        # the breaking order is published with the schedule and follows the counts
        self.changes.schedule_changed()
        final = self.final
        if tab.breaking or (final.pending and tab.id != final.table):
            self.balancer.remove(tab.id)
        else:
            self.balancer.set(tab.id, tab.effective, tab.moved_weight)

    def rebuild(self) -> None:
        """The balancer and the breaking order afresh from the tables in play (after the
        final draw, or when it is called off)."""
        b = Balancer()
        tables = self.seating.tables
        self._order = sorted((self._rank(t), t.id) for t in tables.values() if not t.broken)
        self._cursor = 0
        for rank, tid in self._order:
            b.set_rank(tid, rank)
            tab = tables[tid]
            if not tab.breaking:
                b.set(tid, tab.effective, tab.moved_weight)
        self.balancer = b

    def _rank(self, tab: Table) -> int:
        """`tab`'s place in the breaking order: the profile's, moved ahead by its
        section's place in the floor's break order."""
        first = self.t.profile.balance.added_tables_break_first
        return break_rank(tab.id, tab.added, first) - self._bias.get(tab.id, 0)

    def redrawn(self) -> None:
        """The next day's redraw seats everyone afresh: a break or a final-table draw
        that waited since the day ended (see `rebalance`) has nothing left to do."""
        if not (self.n_breaking or self.final.pending):
            return
        for tab in self.seating.active_tables():
            self.stop_breaking(tab)
        if self.final.pending:
            self.final.called_off()
        self.rebuild()

    # ------------------------------------------------------------------- reading
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
        open_tables = self.seating.active_tables()
        return sorted(t.id for t in open_tables if t.breaking) + break_order_ranked(
            ((t.id, self._rank(t), t.effective, t.moved_weight)
             for t in open_tables if not t.breaking), rules.break_order == "fewest")

    def refresh_halts(self) -> None:
        """A halt depends on the longest table anywhere, so when that changes every
        table that falls short or stops being short must republish its plan, touched or
        not (whether a short table's blinds are affected changes only with its own hands
        and seats, which touch it)."""
        b = self.balancer
        top = (b.max(), self.n_pending, self._longest() if self.n_pending else None)
        if top == self._halt_top:
            return
        self._halt_top = top
        tables = self.seating.tables
        now = {tid for tid in b.count if self._short(tables[tid])}
        self.changes.touch_all(now ^ self._halted)
        self._halted = now

    def halted(self, tab: Table) -> bool:
        """TDA 2017 r.10D: a table this many players short of the longest halts; under
        TDA 2024 r.11D (`halt_on_blinds`) once its empty seats reach its blinds."""
        if not self._short(tab):
            return False
        return not self.t.profile.balance.halt_on_blinds or \
            btn.blinds_reach_empty_seat(tab.positions, tab.seat_of, tab.seats)

    def _short(self, tab: Table) -> bool:
        """`tab` is `halt_short` players or more short of the longest table."""
        short = self.t.profile.balance.halt_short
        if short is None:
            return False
        b = self.balancer
        counts = b.count   # read twice a hand: the balancer's own table, not its methods
        if tab.id not in counts or len(counts) < 2:
            return False
        # players ordered away still sit at their tables until their hand ends: while
        # moves are pending the rule counts the players there now
        top = self._longest() if self.n_pending else b.max()
        return top - len(tab.seat_of) >= short

    def _longest(self) -> int:
        """Players at the longest playing table now; counted once per event."""
        if self._longest_at != self.t.n_events:
            self._longest_at = self.t.n_events
            tables = self.seating.tables
            self._longest_now = max((tables[tid].count for tid in self.balancer.count),
                                    default=0)
        return self._longest_now

    def holding(self, tab: Table) -> bool:
        """The table must not start a hand now (halted, breaking, final draw, H4H wait)."""
        # asked twice a hand (by the dealer, then by the hand-start check)
        if tab.broken or tab.breaking or self.final.pending \
                or self.busts.finished_at is not None or self.chipcount.day_over:
            return True
        levels = self.levels
        if levels.h4h_on and tab.id not in levels.h4h_waiting:
            return True
        return self.halted(tab)

    def hold_reason(self, tab: Table) -> Msg | None:
        """Why `holding(tab)` is true, as the message a dealer or floor person reads
        (None when it is not)."""
        if tab.broken:
            return M_("hold.broken", "the table is broken")
        if self.busts.finished_at is not None:
            return M_("hold.over", "the tournament is over")
        if tab.breaking:
            return M_("hold.breaking", "the table is breaking")
        if self.final.pending:
            return M_("hold.final_draw", "the final table draw waits for every hand to end")
        if self.levels.h4h_on and tab.id not in self.levels.h4h_waiting:
            return M_("hold.h4h", "hand-for-hand: waiting for the other tables")
        return M_("hold.halted", "halted until the tables are balanced") \
            if self.halted(tab) else None

    # ----------------------------------------------------------------- deciding
    def between_hands(self, tab: Table, t: float) -> None:
        """At a table's hand end: break it, or send the players it owes (nobody once
        the day is over: see `rebalance`)."""
        moving = not self.chipcount.day_over
        final = self.final
        if moving and tab.breaking:
            if not final.pending:  # the final draw seats this table's players
                self._break(tab, t)
        elif moving and tab.pending_out:
            for dst_id in list(tab.pending_out):
                self._execute_order(tab, dst_id, t)
        # a breaking table's hand may be the last one the final draw or a H4H round
        # awaits; the draw first, so the next round deals at the final table
        if final.pending and moving:
            final.draw(t)
        if self.levels.h4h_on:
            self.levels.h4h_next(t, after_hand=True)

    def _execute_order(self, src: Table, dst_id: int, t: float) -> None:
        """Carry out one ordered move between hands at the source table.

        The order was decided on counts that include every pending move; it is
        cancelled only when, on those same counts, it no longer helps (the source is now
        the shorter), so deciding again never re-orders what was just cancelled. A
        target that is physically full (its own movers have not left yet) keeps the
        order waiting for the source's next hand end.
        """
        dst = self.seating.tables[dst_id]
        seat = self.seating.due_big_blind(src)
        if dst.broken or dst.breaking or seat is None or src.effective < dst.effective:
            self.t.emit("move_cancelled", t, table=src.id, to_table=dst.id)
            return
        if dst.count >= dst.seats:
            return
        to_seat = btn.worst_open_seat(dst.positions, dst.seat_of, dst.seats,
                                      self.t.rng("balance", src.id, src.hand, dst.id))
        self.t.emit("moved", t, player=src.seat_of[seat], table=src.id, seat=seat,
                    to_table=dst.id, to_seat=to_seat, reason="balance", ordered=True,
                    due_bb=src.positions is not None)

    def _moves_of_due(self, tid: int) -> int:
        tab = self.seating.tables[tid]
        seat = btn.next_big_blind(tab.positions, tab.seat_of, tab.seats) \
            if tab.positions and tab.seat_of else None
        return self.registry.players[tab.seat_of[seat]].moves if seat else 0

    def cancel_orders(self, t: float, tables: list[Table] | None = None) -> None:
        """Cancel every move ordered from `tables` (all tables in play by default)."""
        for src in self.seating.active_tables() if tables is None else tables:
            for dst_id in list(src.pending_out):
                self.t.emit("move_cancelled", t, table=src.id, to_table=dst_id)

    def _mark_breaking(self, tab: Table, t: float) -> None:
        self.cancel_orders(t, [tab])
        if tab.pending_in:
            for src in self.seating.active_tables():
                for dst_id in list(src.pending_out):
                    if dst_id == tab.id:
                        self.t.emit("move_cancelled", t, table=src.id, to_table=dst_id)
        self.t.emit("table_breaking", t, table=tab.id)

    def _break(self, tab: Table, t: float) -> None:
        """TDA 9: a 2-step random draw into the open seats of the shortest tables."""
        if self.n_pending:
            # orders decided before this table's players come in are stale: cancel them
            # (balancing decides again right after), or a filled table keeps counting
            # players who can no longer reach it
            self.cancel_orders(t)
        seating, rules = self.seating, self.t.profile
        tables = seating.tables
        rng = self.t.rng("break", tab.id, self.registry.alive)
        due = tab.due_seat()
        movers = [tab.seat_of[s] for s in sorted(tab.seat_of)]
        b = self.balancer
        pool: list[tuple[int, int]] = []
        taken: dict[int, set[int]] = {}

        def has_room(tid: int) -> bool:
            other = tables[tid]
            return other.count + len(taken.get(tid, ())) < other.seats

        for _ in movers:
            nxt = self.next_to_break()
            target = seat_card_target(b, nxt, has_room, rules.balance, self.t.seats,
                                      tables[nxt].moved_weight if nxt is not None else 0)
            if target is None:
                break
            free = [s for s in tables[target].open_seats() if s not in taken.get(target, set())]
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
        share = rules.button.redraw_new_fraction
        redraw = {tid: bool(share and n >= share * (tables[tid].count + n))
                  for tid, n in arriving.items()}
        players = self.registry.players
        for pid, (target, seat) in zip(movers, pool, strict=False):
            from_seat = players[pid].seat
            self.t.emit("moved", t, player=pid, table=tab.id, seat=from_seat,
                        to_table=target, to_seat=seat, reason="break",
                        redraw_button=redraw[target], due_bb=from_seat == due)
        if not tab.seat_of:
            self.t.emit("table_broken", t, table=tab.id)
            last = rules.button.high_card_final_tables
            if last and len(seating.active_tables()) <= last:
                for other in seating.active_tables():
                    seating.high_card_button(other)

    def rebalance(self, t: float) -> None:
        """Decide breaks and balancing moves after any change in the field.

        None once the day is over. The Irish Open's r.73 ends a day's play with the
        last hands drawn ten minutes before its end; when they are played the floor
        ends the day, and every table counts the stacks it holds for the bags. A move
        or a break after that would seat players in counted seats (or empty them), and
        the redraw for the next day seats everyone afresh anyway.
        """
        if self.chipcount.day_over:
            return
        rules = self.t.profile.balance
        b = self.balancer
        final = self.final
        alive = self.registry.alive
        fits_final = alive <= rules.final_table_size(self.t.seats)
        if final.pending and not fits_final:
            # a bust was taken back: the field no longer fits the final table
            self.t.emit("final_cancelled", t)
        n_active = len(b) + self.n_breaking
        if n_active > 1 and not final.pending and fits_final:
            final.order(t)
            return
        if final.pending or n_active < 2:
            return
        if self.n_breaking:
            self._finish_breaks(t)
        # breaks: once the field fits one table fewer (break_now: a moment later, for a
        # shorter table)
        tables = self.seating.tables
        while len(b) > 1:
            nxt = self.next_to_break()
            if nxt is None or not break_now(b, nxt, rules, self.t.seats, alive):
                break
            tab = tables[nxt]
            self._mark_breaking(tab, t)
            if not tab.in_hand:
                self._break(tab, t)
        # balancing between the tables that play on
        for _ in range(2 * len(b) + 2):
            if len(b) < 2 or not unbalanced(b, rules):
                return
            src = choose_source(b, self.next_to_break(), b.min(), self._moves_of_due)
            dst = choose_target(b)
            self.t.emit("move_ordered", t, table=src, to_table=dst)
            if not tables[src].in_hand:
                self._execute_order(tables[src], dst, t)

    def _finish_breaks(self, t: float) -> None:
        """A breaking table between hands whose players did not all find a seat at its
        last hand end (newcomers took the open seats meanwhile) sends the rest as seats
        open elsewhere: it deals no more hands, so no hand end of its own would."""
        active = self.seating.active_tables()
        for tab in active:
            if tab.breaking and tab.seat_of and not tab.in_hand and any(
                    x.count < x.seats for x in active if x.id != tab.id and not x.breaking):
                self._break(tab, t)

    def _do_break_table(self, cmd: cmd_.BreakTable, t: float) -> None:
        tab = self.seating.table_in_play(cmd.get("table"))
        if self.chipcount.day_over:
            raise RuleError(M_("break.day_over", "day {day} is over: its tables break at the "
                               "redraw", day=self.chipcount.day))
        active = self.seating.active_tables()
        if len(active) < 2:
            raise RuleError(M_("break.last_table", "the last table cannot break"))
        if self.final.pending:
            raise RuleError(M_("break.final_draw", "the final table draw is under way: every "
                               "table breaks into it"))
        room = sum(x.seats - x.count for x in active if x.id != tab.id and not x.breaking)
        if not tab.breaking and room < tab.count:
            # TDA 9 breaks a table into open seats: with too few, its players would wait
            # at a table that can never deal again (newcomers seated while it finishes its
            # hand may still take some: those players move as seats open, _finish_breaks)
            raise RuleError(Mn_("break.no_room", "table {table} cannot break: its {n} player "
                                "needs a seat and the other tables have {open} open",
                                "table {table} cannot break: its {n} players need seats and "
                                "the other tables have {open} open", tab.count, table=tab.id,
                                open=room))
        if not tab.breaking:
            self._mark_breaking(tab, t)
        if not tab.in_hand:
            self._break(tab, t)

    def _do_set_break_order(self, cmd: cmd_.SetBreakOrder, t: float) -> None:
        """The floor's break order of sections: each table in one section at most."""
        if self.final.pending:
            raise RuleError(M_("break.final_draw", "the final table draw is under way: every "
                               "table breaks into it"))
        if len(cmd.sections) > MAX_ORDERED_SECTIONS:
            raise RuleError(M_("break.order_long", "a break order names at most {most} sections",
                               most=MAX_ORDERED_SECTIONS))
        seen: dict[int, str] = {}
        for sec in cmd.sections:
            twice = [n for n in sec.tables if n in seen]
            if twice:
                raise RuleError(M_("break.section_twice", "table {table} is in section "
                                   "'{section}' and '{other}': a table breaks with one section",
                                   table=twice[0], section=seen[twice[0]], other=sec.name))
            seen.update((n, sec.name) for n in sec.tables)
        now = [(s.name, sorted(s.tables)) for s in cmd.sections]
        if now == self.sections:
            raise RuleError(M_("break.order_unchanged", "the break order is already so"))
        self.t.emit("break_order_set", t, sections=[
            ev_.room_events.Section(name=n, tables=ts) for n, ts in now], by=cmd.by)

    # -------------------------------------------------------------------- folds
    def _on_break_order_set(self, ev: ev_.BreakOrderSet) -> None:
        self.sections = [(s.name, list(s.tables)) for s in ev.sections]
        n = len(self.sections)
        self._bias = {tid: section_bias(i, n) for i, (_, ts) in enumerate(self.sections)
                      for tid in ts}
        self.rebuild()
        self.changes.schedule_changed()

    def _on_move_ordered(self, ev: ev_.MoveOrdered) -> None:
        src, dst = self.seating.tables[ev.table], self.seating.tables[ev.to_table]
        src.pending_out.append(dst.id)
        dst.pending_in += 1
        self.n_pending += 1
        self.recount(src)
        self.recount(dst)

    def _on_move_cancelled(self, ev: ev_.MoveCancelled) -> None:
        src, dst = self.seating.tables[ev.table], self.seating.tables[ev.to_table]
        src.pending_out.remove(dst.id)
        dst.pending_in -= 1
        self.n_pending -= 1
        self.recount(src)
        self.recount(dst)

    def _on_table_breaking(self, ev: ev_.TableBreaking) -> None:
        tab = self.seating.tables[ev.table]
        tab.breaking = True
        self.n_breaking += 1
        self.recount(tab)
        self.changes.touch(tab.id)
