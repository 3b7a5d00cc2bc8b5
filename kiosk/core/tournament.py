"""A tournament as the fold of its events, and the decisions that make new events.

`execute(command, t)` decides and returns the events it appended (already applied);
`apply(event)` folds one event and is all a replay needs. Decisions that draw at
random seed their generator from the event's seed and the decision's own identity
(which table breaks, with how many players left), so the same play gives the same
draws whatever else happened in between, and a replayed director carries on alike.
"""

from __future__ import annotations

import bisect
import gc
import math
import random
from collections.abc import Iterable
from typing import Any

from kiosk.core import button as btn
from kiosk.core import commands as cmd_
from kiosk.core import events as ev_
from kiosk.core.balance import Balancer, break_rank
from kiosk.core.clock import Clock
from kiosk.core.money import Money
from kiosk.core.moves import Moves
from kiosk.core.penalties import decide_penalty
from kiosk.core.places import Bust, group_places
from kiosk.core.registration import current_big_blind, late_reg_open, late_stack
from kiosk.core.reports import TableReports
from kiosk.core.state import (
    BUSTED,
    IN_PLAY,
    MOVING,
    OUT,
    SEATED,
    WAITING,
    ClockCall,
    Event,
    FloorCall,
    Player,
    Table,
)
from kiosk.errors import RuleError
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Structure

# table reports that cannot change who sits where: no balancing needed after them
QUIET_REPORTS = frozenset({"hand_started", "all_in", "clock_call", "clock_done", "floor_call",
                           "floor_cancel", "absent", "present", "checkin"})


# events a table's "undo" can take back
UNDOABLE = frozenset({"all_in", "busted", "absent", "floor_call", "clock_call"})


class Tournament(TableReports, Moves, Money):
    """All state of one event; see the module docstring for how it changes."""

    def __init__(self, created: Event | dict[str, Any], profile: Profile | None = None,
                 structure: Structure | None = None) -> None:
        created = ev_.coerce(created)
        if not isinstance(created, ev_.Created):
            raise ValueError("the first event must be 'created'")
        self.config = created
        self.event: str = created["event"]
        self.profile = profile or load_profile(created["profile"])
        self.structure = structure or Structure.from_dict(created["structure"])
        self.seats: int = created["seats"]
        self.start_stack: int = created.get("start_stack") or self.structure.start_stack
        self.buy_in: int = created.get("buy_in", 0)
        self.seed: int = created.get("seed", 0)
        self.max_entries: int | None = created.get("max_entries")
        self.max_tables: int | None = created.get("max_tables")
        self.payout_percent: float = created.get("payout_percent", 15.0)
        self.players: dict[str, Player] = {}
        self.by_card: dict[str, str] = {}
        self.tables: dict[int, Table] = {}
        self.clock = Clock.stopped(self.structure)
        self.started = False
        self.finished_at: float | None = None
        self.n_events = 1
        self.alive = 0
        self.entries = 0
        self.chips = 0
        self.groups: dict[tuple, list[Bust]] = {}   # insertion order = bust order
        self.seen_reports: set[tuple[int, str]] = set()   # (table, report id) applied
        self.undone: set[tuple[int, str]] = set()         # (table, report id) taken back
        self.report_events: dict[tuple[int, str], list[Event]] = {}
        self.floor_calls: dict[str, FloorCall] = {}
        self.clock_calls: dict[str, ClockCall] = {}
        self.h4h_on = False
        self.h4h_round = 0
        self.h4h_waiting: set[int] = set()
        self.final_pending = False
        self.final_table: int | None = None
        self.extra_hands: int | None = None
        self.balancer = Balancer()
        self.stats = {"moves_balance": 0, "moves_break": 0, "moves_final": 0,
                      "moves_floor": 0, "unavoidable": 0}
        self.n_breaking = 0
        self._order: list[tuple[int, int]] = []   # (rank, table) in breaking order
        self._cursor = 0              # first entry of _order that may still break
        self.dirty: set[int] = set()       # tables whose plan changed
        self.schedule_dirty = True
        self.seating_dirty = True
        self._out: list[Event] | None = None
        self._handlers: dict[type, tuple[Any, bool, bool, bool]] = {}
        self.on_penalty: set[str] = set()   # players with missed hands still to serve
        self.movers_from: dict[int, set[str]] = {}  # table -> players walking away from it
        self.moving: set[str] = set()               # players between two tables
        self._halt_top: tuple | None = None  # what halts depended on when last checked
        self._halted: set[int] = set()
        self._longest_at = -1                       # event count when _longest_now was taken
        self._longest_now = 0
        self.n_pending = 0                          # balancing moves ordered, not yet made
        self._init_money(created)

    # ---------------------------------------------------------------- creation
    @classmethod
    def create(cls, *, event: str, profile: str | Profile = "tda-2017",
               structure: Structure, seats: int = 9, start_stack: int | None = None,
               buy_in: int = 0, seed: int = 0, t: float = 0.0, max_entries: int | None = None,
               max_tables: int | None = None, payout_percent: float = 15.0,
               money: dict[str, Any] | None = None, **extra: Any) -> Tournament:
        prof = profile if isinstance(profile, Profile) else load_profile(profile)
        if not 2 <= seats <= 10:
            raise RuleError("tables seat 2 to 10 players")
        if money is not None:
            extra["money"] = money
        created = ev_.make("created", t, event=event, profile=prof.id,
                           structure=structure.to_dict(), seats=seats,
                           start_stack=start_stack or structure.start_stack, buy_in=buy_in,
                           seed=seed, max_entries=max_entries, max_tables=max_tables,
                           payout_percent=payout_percent, **extra)
        ev_.check(created)
        return cls(created, prof, structure)

    def __getstate__(self) -> dict[str, Any]:
        """For snapshots: the folded state, without caches or work in progress."""
        state = self.__dict__.copy()
        state["_handlers"], state["_out"], state["dirty"] = {}, None, set()
        return state

    @classmethod
    def replay(cls, events: Iterable[Event], profile: Profile | None = None) -> Tournament:
        """The state after `events`. The cyclic garbage collector is paused meanwhile: a
        replay makes millions of objects that all stay alive (events have no cycles),
        and rescanning them over and over would cost a third of the time."""
        paused = gc.isenabled()
        gc.disable()
        try:
            it = iter(events)
            tour = cls(next(it), profile)
            for ev in it:
                tour.apply(ev)
            return tour
        finally:
            if paused:
                gc.enable()

    # ---------------------------------------------------------------- folding
    def apply(self, ev: Event | dict[str, Any]) -> None:
        """Fold one event into the state; events are trusted (they were decided here)."""
        if not isinstance(ev, ev_.Event):
            ev = ev_.coerce(ev)
        self.n_events += 1
        fold = self._handlers.get(type(ev))
        if fold is None:   # once per kind: its handler and what else it feeds
            kind = ev.kind
            fields = type(ev).__struct_fields__
            fold = self._handlers[type(ev)] = (getattr(self, "_on_" + kind), "by" in fields,
                                               "table" in fields, kind in UNDOABLE)
        handler, by, tabled, undoable = fold
        handler(ev)
        if by and ev.by:   # type: ignore[attr-defined]
            self.remember_audit(ev)
        rid = ev.report
        if rid and tabled and ev.table:   # type: ignore[attr-defined]
            key = (ev.table, rid)   # type: ignore[attr-defined]  # ids are per table
            self.seen_reports.add(key)
            if undoable:
                self.report_events.setdefault(key, []).append(ev)

    def _emit(self, kind: str, t: float, **fields: Any) -> Event:
        ev = ev_.make(kind, t, **fields)
        self.apply(ev)
        if self._out is not None:
            self._out.append(ev)
        return ev

    def _rng(self, *what: object) -> random.Random:
        """A generator seeded by the decision itself, not by how many events came before,
        so clock ticks or floor calls in between never change a draw."""
        return random.Random(":".join(map(str, (self.seed, *what))))

    def _touch(self, table: int | None, other: int | None = None) -> None:
        if table is not None:
            self.dirty.add(table)
        if other is not None:
            self.dirty.add(other)

    def _on_registered(self, ev: ev_.Registered) -> None:
        p = Player(ev.player, ev.name, ev.card, chips_bought=ev.stack, country=ev.country)
        self.players[p.id] = p
        if p.card:
            self.by_card[p.card] = p.id
        self.entries += 1
        self.chips += ev.stack
        self.seating_dirty = True

    def _on_table_opened(self, ev: ev_.TableOpened) -> None:
        tab = self.tables[ev.table] = Table(ev.table, ev.seats, ev.added)
        rank = break_rank(tab.id, tab.added, self.profile.balance.added_tables_break_first)
        at = bisect.bisect(self._order, (rank, tab.id))
        self._order.insert(at, (rank, tab.id))
        self._cursor = min(self._cursor, at)
        self.balancer.set_rank(tab.id, rank)
        self._recount(tab)

    def _on_seated(self, ev: ev_.Seated) -> None:
        p = self.players[ev.player]
        if p.status not in IN_PLAY:
            self.alive += 1
        p.status, p.table, p.seat = SEATED, ev.table, ev.seat
        p.from_table = p.from_seat = None
        tab = self.tables[ev.table]
        tab.seat_of[ev.seat] = p.id
        tab.moved_weight += p.moves * p.moves
        if not ev.same_seat:
            tab.new_seats.add(ev.seat)
        self._recount(tab)
        self._touch(tab.id)
        self.seating_dirty = True

    def _on_started(self, ev: ev_.Started) -> None:
        self.started = True
        self.schedule_dirty = True

    def _on_clock_set(self, ev: ev_.ClockSet) -> None:
        self.clock = Clock.from_dict(ev.clock)
        self.schedule_dirty = True

    def _on_hand_started(self, ev: ev_.HandStarted) -> None:
        tab = self.tables[ev.table]
        tab.hand, tab.in_hand, tab.last_hand_at = ev.hand, True, ev.t
        tab.positions = btn.Positions(ev.button, ev.sb, ev.bb, tuple(ev.dealt), tuple(ev.waiting))
        tab.new_seats.clear()
        tab.all_in.clear()
        tab.redraw_button = False
        if self.on_penalty:
            for seat in ev.dealt:
                p = self.players.get(tab.seat_of.get(seat, ""))
                if p and p.penalty_hands:
                    p.penalty_hands -= 1
                    if not p.penalty_hands:
                        self.on_penalty.discard(p.id)
                        if p.penalty_until is None:
                            p.penalty_text = ""
        self.dirty.add(tab.id)

    def _on_hand_ended(self, ev: ev_.HandEnded) -> None:
        tab = self.tables[ev.table]
        tab.in_hand = False
        tab.all_in.clear()
        tab.last_hand_at = ev.t
        self.h4h_waiting.discard(tab.id)
        self._touch(tab.id)

    def _on_all_in(self, ev: ev_.AllIn) -> None:
        self.tables[ev.table].all_in.add(ev.seat)
        self._touch(ev.table)

    def _on_all_in_undone(self, ev: ev_.AllInUndone) -> None:
        self.tables[ev.table].all_in.discard(ev.seat)
        self._touch(ev.table)

    def _unseat(self, p: Player) -> None:
        if p.from_table is not None:
            self.movers_from.get(p.from_table, set()).discard(p.id)
            self.moving.discard(p.id)
        if p.table is not None:
            tab = self.tables[p.table]
            if tab.seat_of.get(p.seat or 0) == p.id:
                del tab.seat_of[p.seat or 0]
                tab.moved_weight -= p.moves * p.moves
                tab.new_seats.discard(p.seat or 0)
            self._recount(tab)
            self._touch(tab.id, p.from_table)
        self.seating_dirty = True

    def _on_busted(self, ev: ev_.Busted) -> None:
        p = self.players[ev.player]
        self._unseat(p)
        p.status = OUT if ev.disqualified else BUSTED
        p.absent = False
        key = tuple(ev.group)
        p.bust_key = key
        p.bust_hand = ev.hand
        self.groups.setdefault(key, []).append(Bust(p.id, ev.table, ev.stack))
        self.alive -= 1

    def _on_unbusted(self, ev: ev_.Unbusted) -> None:
        p = self.players[ev.player]
        self._drop_bust(p)
        p.status = WAITING
        p.table = p.seat = None

    def _drop_bust(self, p: Player) -> None:
        if p.bust_key is not None:
            group = self.groups[p.bust_key]
            group[:] = [b for b in group if b.player != p.id]
            if not group:
                del self.groups[p.bust_key]
            p.bust_key = None

    def _on_rebuy(self, ev: ev_.Rebuy) -> None:
        self._buy_again(ev).rebuys += 1

    def _on_reentered(self, ev: ev_.Reentered) -> None:
        self._buy_again(ev).entries += 1

    def _buy_again(self, ev: ev_.Rebuy | ev_.Reentered) -> Player:
        """A busted player buys a new stack: out of the places, waiting for a seat."""
        p = self.players[ev.player]
        self._drop_bust(p)
        p.chips_bought += ev.stack
        self.chips += ev.stack
        self.entries += 1
        p.status = WAITING
        return p

    def _on_move_ordered(self, ev: ev_.MoveOrdered) -> None:
        src, dst = self.tables[ev.table], self.tables[ev.to_table]
        src.pending_out.append(dst.id)
        dst.pending_in += 1
        self.n_pending += 1
        self._recount(src)
        self._recount(dst)

    def _on_move_cancelled(self, ev: ev_.MoveCancelled) -> None:
        src, dst = self.tables[ev.table], self.tables[ev.to_table]
        src.pending_out.remove(dst.id)
        dst.pending_in -= 1
        self.n_pending -= 1
        self._recount(src)
        self._recount(dst)

    def _on_moved(self, ev: ev_.Moved) -> None:
        p = self.players[ev.player]
        src, dst = self.tables[ev.table], self.tables[ev.to_table]
        if ev.ordered:
            src.pending_out.remove(dst.id)
            dst.pending_in -= 1
            self.n_pending -= 1
        self._unseat(p)
        p.from_table, p.from_seat = src.id, ev.seat
        self.movers_from.setdefault(src.id, set()).add(p.id)
        self.moving.add(p.id)
        p.status, p.table, p.seat = MOVING, dst.id, ev.to_seat
        p.moves += 1
        dst.seat_of[ev.to_seat] = p.id
        dst.moved_weight += p.moves * p.moves
        dst.new_seats.add(ev.to_seat)
        if ev.redraw_button:
            dst.redraw_button = True
        self._recount(dst)
        self._touch(dst.id, src.id)
        self.stats["moves_" + ev.reason] += 1
        if ev.reason in ("break", "final"):
            self.stats["unavoidable"] += 1
        elif ev.reason == "balance":
            src.balance_out += 1

    def _on_arrived(self, ev: ev_.Arrived) -> None:
        p = self.players[ev.player]
        prev = p.from_table
        if prev is not None:
            self.movers_from.get(prev, set()).discard(p.id)
        self.moving.discard(p.id)
        p.status = SEATED
        p.from_table = p.from_seat = None
        self._touch(p.table, prev)

    def _on_checked_in(self, ev: ev_.CheckedIn) -> None:
        pass  # kept in the log for the audit trail only

    def _on_table_breaking(self, ev: ev_.TableBreaking) -> None:
        tab = self.tables[ev.table]
        tab.breaking = True
        self.n_breaking += 1
        self._recount(tab)
        self._touch(tab.id)

    def _on_table_broken(self, ev: ev_.TableBroken) -> None:
        tab = self.tables[ev.table]
        if tab.breaking:
            self.n_breaking -= 1
        tab.broken, tab.breaking = True, False
        self.balancer.remove(tab.id)
        self.schedule_dirty = True
        self.h4h_waiting.discard(tab.id)
        self._touch(tab.id)
        # players moved off this table to balance would have moved now anyway
        self.stats["unavoidable"] += tab.balance_out

    def _on_final_ordered(self, ev: ev_.FinalOrdered) -> None:
        self.final_pending = True
        self.final_table = ev.final_table
        for tab in self.active_tables():
            self._touch(tab.id)

    def _on_final_cancelled(self, ev: ev_.FinalCancelled) -> None:
        self.final_pending = False
        self.final_table = None
        self._rebuild_balancer()
        for tab in self.active_tables():
            self._touch(tab.id)

    def _on_final_seated(self, ev: ev_.FinalSeated) -> None:
        self.final_pending = False
        tab = self.tables[ev.final_table]
        tab.seats = ev.seats
        tab.redraw_button = True
        tab.positions = None
        self._rebuild_balancer()

    def _on_h4h(self, ev: ev_.HandForHand) -> None:
        self.h4h_on = ev.on
        if not ev.on:
            self.h4h_waiting.clear()
        self.schedule_dirty = True
        for tab in self.active_tables():
            self._touch(tab.id)

    def _on_h4h_go(self, ev: ev_.HandForHandGo) -> None:
        self.h4h_round = ev.round
        self.h4h_waiting = set(ev.tables)
        self.schedule_dirty = True
        for tab in self.active_tables():
            self._touch(tab.id)

    def _on_floor_call(self, ev: ev_.FloorCall) -> None:
        self.floor_calls[ev.call] = FloorCall(ev.call, ev.table, ev.seat, ev.t,
                                                 report=ev.report)
        self._touch(ev.table)

    def _on_floor_acked(self, ev: ev_.FloorAcked) -> None:
        c = self.floor_calls[ev.call]
        c.state, c.acked_by, c.acked_at = "acked", ev.by, ev.t
        self._touch(c.table)

    def _on_floor_resolved(self, ev: ev_.FloorResolved) -> None:
        c = self.floor_calls[ev.call]
        c.state, c.resolved_at, c.note = ev.state, ev.t, ev.note
        self._touch(c.table)

    def _on_clock_call(self, ev: ev_.ClockCall) -> None:
        c = ClockCall(ev.call, ev.table, ev.seat, ev.t, ev.seconds, ev.countdown,
                      report=ev.report, hand=self.tables[ev.table].hand)
        if ev.approved:
            c.state, c.approved_at = "approved", ev.t
        self.clock_calls[c.id] = c
        self._touch(c.table)

    def _on_clock_approved(self, ev: ev_.ClockApproved) -> None:
        c = self.clock_calls[ev.call]
        c.state, c.approved_at, c.approved_by = "approved", ev.t, ev.by
        self._touch(c.table)

    def _on_clock_done(self, ev: ev_.ClockDone) -> None:
        c = self.clock_calls[ev.call]
        c.state, c.outcome, c.done_at = "done", ev.outcome, ev.t
        self._touch(c.table)

    def _on_absent(self, ev: ev_.Absent) -> None:
        self.players[ev.player].absent = ev.absent
        self._touch(ev.table)

    def _on_penalty(self, ev: ev_.Penalty) -> None:
        p = self.players[ev.player]
        p.penalty_hands += ev.hands
        if p.penalty_hands:
            self.on_penalty.add(p.id)
        if ev.minutes:
            p.penalty_until = ev.t + 60 * ev.minutes
            p.strikes += 1
        if ev.type == "left_live_hand":
            p.left_live_hand += 1
        p.penalty_text = ev.text
        self._touch(p.table)

    def _on_penalty_served(self, ev: ev_.PenaltyServed) -> None:
        p = self.players[ev.player]
        p.penalty_until = None
        if not p.penalty_hands:
            p.penalty_text = ""
        self._touch(p.table)

    def _on_end_of_day(self, ev: ev_.EndOfDay) -> None:
        self.extra_hands = ev.hands
        self.schedule_dirty = True

    def _on_finished(self, ev: ev_.Finished) -> None:
        self.finished_at = ev.t
        self.schedule_dirty = True
        self.dirty.update(t.id for t in self.active_tables())

    # --------------------------------------------------------------- commands
    def execute(self, cmd: cmd_.Command | dict[str, Any], t: float) -> list[Event]:
        """Decide `cmd` at time `t`; returns the events appended (already applied).

        Raises RuleError, with nothing changed, when the rules do not allow it (and
        CommandError when a command given as a dict does not fit its schema).
        """
        cmd = cmd_.decode(cmd)
        self._out = []
        try:
            _DO[type(cmd)](self, cmd, t)
            quiet = isinstance(cmd, cmd_.Report) and cmd.report.kind in QUIET_REPORTS
            if self.started and self.finished_at is None and not quiet:
                self._rebalance(t)
                self._refresh_halts()
            return self._out
        finally:
            self._out = None

    def _player(self, pid: Any) -> Player:
        p = self.players.get(pid) if isinstance(pid, str) else None
        if p is None:
            raise RuleError(f"unknown player {pid!r}")
        return p

    def _table(self, tid: Any) -> Table:
        tab = self.tables.get(tid) if isinstance(tid, int) else None
        if tab is None or tab.broken:
            raise RuleError(f"table {tid!r} is not in play")
        return tab

    def _do_register(self, cmd: Any, t: float) -> None:
        name = str(cmd.get("name", "")).strip()
        if not name:
            raise RuleError("a player needs a name")
        card = cmd.get("card") or None
        if card and card in self.by_card:
            owner = self.players[self.by_card[card]].name
            raise RuleError(f"card {card} already belongs to {owner}")
        pid = cmd.get("player") or f"p{len(self.players) + 1}"
        if pid in self.players:
            raise RuleError(f"player id {pid} is taken")
        if self.max_entries is not None and self.entries >= self.max_entries:
            raise RuleError(f"no stacks left: all {self.max_entries} entries are sold")
        period = self.clock.read(self.structure, t).period
        rules = self.profile.late_reg
        if not late_reg_open(rules, self.structure, period, self.started):
            raise RuleError("late registration is closed")
        stack = self.start_stack
        if self.started:
            stack = late_stack(rules, self.start_stack, current_big_blind(self.structure, period))
        self._emit("registered", t, player=pid, name=name, card=card, stack=stack,
                   **({"country": str(cmd["country"])[:40]} if cmd.get("country") else {}))
        if self.started:
            self._seat_new(pid, t, "late")

    def _do_start(self, cmd: Any, t: float) -> None:
        if self.started:
            raise RuleError("the tournament has already started")
        waiting = [p.id for p in self.players.values() if p.status == WAITING]
        if len(waiting) < 2:
            raise RuleError("at least two players must be registered to start")
        n_tables = math.ceil(len(waiting) / self.seats)
        rng = self._rng("start")
        pool: list[tuple[int, int]] = []
        for i in range(n_tables):
            size = len(waiting) // n_tables + (1 if i < len(waiting) % n_tables else 0)
            pool += [(i + 1, s) for s in sorted(rng.sample(range(1, self.seats + 1), size))]
        rng.shuffle(waiting)
        for i in range(n_tables):
            self._emit("table_opened", t, table=i + 1, seats=self.seats)
        for pid, (table, seat) in zip(waiting, pool, strict=True):
            self._emit("seated", t, player=pid, table=table, seat=seat, reason="draw")
        self._emit("clock_set", t, clock=self.clock.resume(self.structure, t).to_dict(),
                   why="start")
        self._emit("started", t)

    def _seat_new(self, pid: str, t: float, reason: str) -> None:
        """TDA 7A: a random seat from the seat pool in place (the shortest tables)."""
        b = self.balancer
        candidates = [tid for tid, c in b.count.items() if c == b.min()
                      and self.tables[tid].count < self.tables[tid].seats]
        if not candidates:
            if self.max_tables is not None and len(self.active_tables()) >= self.max_tables:
                return  # an alternate: waits for a seat
            tid = max(self.tables, default=0) + 1
            self._emit("table_opened", t, table=tid, seats=self.seats, added=True)
            candidates = [tid]
        rng = self._rng("seat", pid, self.players[pid].entries, self.players[pid].rebuys)
        tab = self.tables[rng.choice(sorted(candidates))]
        self._emit("seated", t, player=pid, table=tab.id, seat=rng.choice(tab.open_seats()),
                   reason=reason)

    def _do_seat_waiting(self, cmd: Any, t: float) -> None:
        """Seat alternates (players registered but without a seat)."""
        for p in list(self.players.values()):
            if p.status == WAITING and self.started:
                self._seat_new(p.id, t, "alternate")

    # table reports --------------------------------------------------------
    def _on_undone(self, ev: ev_.Undone) -> None:
        self.undone.add((ev.table, ev.target))

    # floor actions ----------------------------------------------------------
    def _do_floor_ack(self, cmd: Any, t: float) -> None:
        c = self.floor_calls.get(cmd.get("call", ""))
        if c is None or c.state != "open":
            raise RuleError(f"floor call {cmd.get('call')!r} is not waiting for the floor")
        self._emit("floor_acked", t, call=c.id, table=c.table, by=cmd.get("by"))

    def _do_floor_resolve(self, cmd: Any, t: float) -> None:
        c = self.floor_calls.get(cmd.get("call", ""))
        if c is None or c.state not in ("open", "acked"):
            raise RuleError(f"floor call {cmd.get('call')!r} is not open")
        self._emit("floor_resolved", t, call=c.id, table=c.table, note=str(cmd.get("note", "")),
                   by=cmd.get("by"))

    def _do_clock_approve(self, cmd: Any, t: float) -> None:
        c = self.clock_calls.get(cmd.get("call", ""))
        if c is None or c.state != "requested":
            raise RuleError(f"clock call {cmd.get('call')!r} is not waiting for approval")
        wait = self.profile.clock_call.min_wait - (t - c.raised_at)
        if wait > 0:
            raise RuleError(f"a clock can be approved only after {self.profile.clock_call.min_wait}"
                            f" s; {math.ceil(wait)} s to go")
        self._emit("clock_approved", t, call=c.id, table=c.table, by=cmd.get("by"))

    def _do_clock_cancel(self, cmd: Any, t: float) -> None:
        c = self.clock_calls.get(cmd.get("call", ""))
        if c is None or c.state == "done":
            raise RuleError(f"clock call {cmd.get('call')!r} is not running")
        self._emit("clock_done", t, call=c.id, table=c.table, outcome="cancelled")

    def _do_move(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(f"{p.name} is not seated")
        dst = self._table(cmd.get("table"))
        seat = cmd.get("seat")
        if seat is None:
            seat = btn.worst_open_seat(dst.positions, dst.seat_of, dst.seats,
                                       self._rng("floor-move", p.id, p.moves)) \
                if dst.count < dst.seats else None
        if not isinstance(seat, int) or not 1 <= seat <= dst.seats or seat in dst.seat_of:
            raise RuleError(f"table {dst.id} seat {seat} is not free")
        src = self.tables[p.table or 0]
        self._emit("moved", t, player=p.id, table=p.table, seat=p.seat, to_table=dst.id,
                   to_seat=seat, reason="floor", due_bb=self._due_seat(src) == p.seat)

    def _do_arrived(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        if p.status != MOVING:
            raise RuleError(f"{p.name} is not moving")
        self._emit("arrived", t, player=p.id, table=p.table, seat=p.seat)

    def _do_bust(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(f"{p.name} is not in play")
        self._bust(p, t, cmd.get("stack"), None, cmd.get("eliminator"), bool(cmd.get("rebuy")))

    def _bust(self, p: Player, t: float, stack: int | None, rid: str | None,
              eliminator: Any = None, rebuy: bool = False) -> None:
        assert p.table is not None
        tab = self.tables[p.table]
        group = ("h4h", self.h4h_round) if self.h4h_on else ("hand", tab.id, tab.hand)
        by = self._bust_extras(p, t, eliminator, rebuy)
        self._emit("busted", t, player=p.id, table=tab.id, seat=p.seat, hand=tab.hand,
                   stack=stack, group=list(group), report=rid)
        self._after_bust(p, t, by, rebuy, rid)
        if self.alive == 1 or self._satellite_done():
            winner = next(q for q in self.players.values() if q.status in IN_PLAY)
            self._emit("finished", t, winner=winner.id)
        else:
            self._bubble_check(t)

    def _do_unbust(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        if p.status != BUSTED:
            raise RuleError(f"{p.name} is not out")
        self._unbust(p, t, None, None)

    def _unbust(self, p: Player, t: float, rid: str | None,
                prefer: tuple[int, int] | None) -> None:
        table, seat = prefer or (None, None)
        self._reverse_knockout(p, t, rid)
        self._emit("unbusted", t, player=p.id, report=rid)
        tab = self.tables.get(table) if table else None
        if tab and not tab.broken and seat not in tab.seat_of:
            self._emit("seated", t, player=p.id, table=tab.id, seat=seat, reason="unbust",
                       report=rid)
        else:
            self._seat_new(p.id, t, "unbust")

    def _do_rebuy(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        e = self.profile.entries
        period = self.clock.read(self.structure, t).period
        if not e.rebuy:
            raise RuleError("this profile has no rebuys")
        if p.status != BUSTED:
            raise RuleError(f"{p.name} still has chips: a rebuy needs an empty stack")
        if period > self.structure.index_of_level(e.rebuy_levels):
            raise RuleError(f"the rebuy period ended after level {e.rebuy_levels}")
        self._emit("rebuy", t, player=p.id, stack=self.start_stack)
        tab = self.tables.get(p.table) if p.table is not None else None
        if e.playing_behind and tab is not None and not (tab.broken or tab.breaking) \
                and p.seat is not None and p.seat not in tab.seat_of \
                and tab.hand == p.bust_hand and not self.final_pending:
            # re-bought before the next deal: the seat is still theirs (playing behind),
            # so they take the blind they were due rather than a fresh random seat
            self._emit("seated", t, player=p.id, table=tab.id, seat=p.seat, reason="rebuy",
                       same_seat=True)
        else:
            self._seat_new(p.id, t, "rebuy")

    def _do_reenter(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        if not self.profile.entries.reentry:
            raise RuleError("this profile has no re-entry")
        if p.status != BUSTED:
            raise RuleError(f"{p.name} is still in play")
        period = self.clock.read(self.structure, t).period
        if not late_reg_open(self.profile.late_reg, self.structure, period, self.started):
            raise RuleError("late registration is closed; no re-entry")
        stack = late_stack(self.profile.late_reg, self.start_stack,
                           current_big_blind(self.structure, period))
        self._emit("reentered", t, player=p.id, stack=stack)
        self._seat_new(p.id, t, "reentry")

    def _do_penalty(self, cmd: Any, t: float) -> None:
        p = self._player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(f"{p.name} is not in play")
        tab = self.tables[p.table or 0]
        amount = cmd.get("amount", 1)
        if not isinstance(amount, int):
            raise RuleError("penalty amount must be a whole number")
        d = decide_penalty(self.profile.penalties, str(cmd.get("type")), amount, tab.count,
                           p.strikes, p.left_live_hand)
        self._emit("penalty", t, player=p.id, table=tab.id, type=cmd.get("type"), hands=d.hands,
                   minutes=d.minutes, text=d.text, by=cmd.get("by"))
        if d.disqualify:
            self._emit("busted", t, player=p.id, table=tab.id, seat=p.seat, hand=tab.hand,
                       stack=None, group=["dq", p.id], disqualified=True)
            if self.alive == 1:
                winner = next(q for q in self.players.values() if q.status in IN_PLAY)
                self._emit("finished", t, winner=winner.id)

    def _do_break_table(self, cmd: Any, t: float) -> None:
        tab = self._table(cmd.get("table"))
        if len(self.active_tables()) < 2:
            raise RuleError("the last table cannot break")
        if not tab.breaking:
            self._mark_breaking(tab, t)
        if not tab.in_hand:
            self._break(tab, t)

    def _do_h4h(self, cmd: Any, t: float) -> None:
        on = bool(cmd.get("on"))
        rules = self.profile.hand_for_hand
        if on and rules is None:
            raise RuleError(f"{self.profile.name} has no hand-for-hand procedure")
        if on == self.h4h_on:
            raise RuleError(f"hand-for-hand is already {'on' if on else 'off'}")
        self._emit("h4h", t, on=on)
        if rules and rules.runoff_seconds:
            clock = self.clock.pause(self.structure, t) if on \
                else self.clock.resume(self.structure, t)
            self._emit("clock_set", t, clock=clock.to_dict(), why="hand-for-hand")
        if on:
            self._h4h_next(t)

    def _h4h_next(self, t: float, after_hand: bool = False) -> None:
        """Start the next hand-for-hand round once every table has finished its hand."""
        if not self.h4h_on or self.h4h_waiting or any(x.in_hand for x in self.active_tables()):
            return
        tables = [x.id for x in self.active_tables() if x.count >= 2]
        rules = self.profile.hand_for_hand
        if after_hand and rules and rules.runoff_seconds:
            # RP-8B: the run-off started with the hand in play at the announcement
            clock = self.clock.run_off(self.structure, t, rules.runoff_seconds)
            self._emit("clock_set", t, clock=clock.to_dict(), why="hand-for-hand run-off")
        self._emit("h4h_go", t, round=self.h4h_round + 1, tables=tables)

    def _do_clock(self, cmd: Any, t: float) -> None:
        s, c = self.structure, self.clock
        action = cmd.get("action")
        if action == "pause":
            new = c.pause(s, t)
        elif action == "resume":
            new = c.resume(s, t)
        elif action in ("add", "set"):
            secs = cmd.get("seconds")
            if not isinstance(secs, int | float):
                raise RuleError("clock add/set needs seconds")
            new = c.add_time(s, t, secs) if action == "add" else c.set_remaining(s, t, secs)
        elif action == "jump":
            period = cmd.get("period")
            if not isinstance(period, int) or not 0 <= period < len(s.periods):
                raise RuleError(f"no period {period!r} in the structure")
            new = c.jump(s, t, period)
        else:
            raise RuleError(f"unknown clock action {action!r}")
        self._emit("clock_set", t, clock=new.to_dict(), why=action)

    def _do_tick(self, cmd: Any, t: float) -> None:
        """Time-driven decisions: a level change re-anchors the clock; timed penalties end."""
        new = self.clock.normalized(self.structure, t)
        if new != self.clock:
            self._emit("clock_set", t, clock=new.to_dict(), why="level")
        for p in self.players.values():
            if p.penalty_until is not None and p.penalty_until <= t:
                self._emit("penalty_served", t, player=p.id)
        self._money_tick(t)
        self._colour_up_tick(t)

    def _do_end_of_day(self, cmd: Any, t: float) -> None:
        rules = self.profile.end_of_day
        if not rules.hands:
            raise RuleError(f"{self.profile.name} has no end-of-day hand draw")
        lo, hi = rules.hands
        rng = self._rng("end-of-day", self.extra_hands)
        self._emit("end_of_day", t, hands=rng.randint(lo, hi))

    def _on_unseated(self, ev: ev_.Unseated) -> None:
        p = self.players[ev.player]
        self._unseat(p)
        p.status, p.table, p.seat = WAITING, None, None
        self.alive -= 1

    # ---------------------------------------------------------------- views
    def places(self) -> dict[str, int]:
        """Finishing place of everyone out (and of the winner once finished)."""
        out: dict[str, int] = {}
        busted = sum(len(g) for g in self.groups.values())
        alive_before = self.alive + busted
        h4h_rules = self.profile.busts
        for key, group in self.groups.items():
            out.update(group_places(group, alive_before, h4h_rules, key[0] == "h4h"))
            alive_before -= len(group)
        if self.finished_at is not None:
            for p in self.players.values():
                if p.status in IN_PLAY:
                    out[p.id] = 1
        return out

    def period(self, t: float) -> int:
        return self.clock.read(self.structure, t).period


# each command's decision, by class: built once, so dispatch is one dict lookup
_DO: dict[type[cmd_.Command], Any] = {
    cls: getattr(Tournament, "_do_" + kind) for kind, cls in cmd_.COMMANDS.items()
}
Tournament.report_handlers = {
    cls: getattr(Tournament, "_report_" + cls.kind) for cls in cmd_.TableReport.__subclasses__()
}
