"""Tables and seating: which tables are open, who sits where, who is walking between two.

Owns the tables and the players in transit; decides the opening draw, seats for newcomers
(`seat_new`, which asks `next_table_id` where a new table opens) and floor moves.

An event of a room (`Created.pool`) numbers no tables of its own: it opens only tables the
room granted it (`TablesGranted`), lowest first, and gives idle ones back
(`TableReleased`). A broken table is idle: it may be given back, or opened again by this
event. When a decision needs more tables than are idle it raises `NeedsTable` with how
many, before anything is decided, so the director can grant them and decide again.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from kiosk.core import button as btn
from kiosk.core import commands as cmd_
from kiosk.core import events as ev_
from kiosk.core.component import Component
from kiosk.core.state import IN_PLAY, MOVING, SEATED, WAITING, Player, Table
from kiosk.errors import NeedsTable, RuleError


@dataclass(eq=False)
class Seating(Component):
    """The tables of one event and who sits at each."""

    tables: dict[int, Table] = field(default_factory=dict)
    # table -> players walking away from it
    movers_from: dict[int, set[str]] = field(default_factory=dict)
    moving: set[str] = field(default_factory=set)  # players between two tables
    granted: set[int] = field(default_factory=set)  # pool mode: the room's tables lent here
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("moves_balance", "moves_break", "moves_final", "moves_floor", "unavoidable"), 0))

    def table_in_play(self, tid: Any) -> Table:
        tab = self.tables.get(tid) if isinstance(tid, int) else None
        if tab is None or tab.broken:
            raise RuleError(f"table {tid!r} is not in play")
        return tab

    def _on_table_opened(self, ev: ev_.TableOpened) -> None:
        reopened = ev.table in self.tables   # a broken table opened again (pool mode)
        tab = self.tables[ev.table] = Table(ev.table, ev.seats, ev.added)
        self.t.balancing.table_opened(tab, reopened)

    def _on_tables_granted(self, ev: ev_.TablesGranted) -> None:
        self.granted.update(ev.tables)
        self.t.schedule_dirty = True

    def _on_table_released(self, ev: ev_.TableReleased) -> None:
        self.granted.discard(ev.table)
        self.t.schedule_dirty = True

    def idle_tables(self) -> list[int]:
        """Tables granted to this event that nobody plays at: never opened, or broken."""
        return sorted(n for n in self.granted
                      if n not in self.tables or self.tables[n].broken)

    def players_at(self, table: int) -> int:
        """Players seated at (or walking to) `table`; 0 for a table not in play."""
        tab = self.tables.get(table)
        return 0 if tab is None or tab.broken else tab.count

    def need_tables(self, n: int) -> None:
        """Refuse, before anything is decided, a decision that opens `n` tables when the
        room has not granted that many idle ones (pool mode; otherwise numbers are free)."""
        if self.t.pool and n > 0:
            short = n - len(self.idle_tables())
            if short > 0:
                raise NeedsTable(self.t.event, short)

    def _do_grant_tables(self, cmd: cmd_.GrantTables, t: float) -> None:
        if not self.t.pool:
            raise RuleError(f"{self.t.event} numbers its own tables: it takes none from a pool")
        again = sorted(set(cmd.tables) & self.granted)
        if again:
            raise RuleError(f"table {again[0]} is already granted to {self.t.event}")
        self.t._emit("tables_granted", t, tables=sorted(set(cmd.tables)))

    def _do_release_table(self, cmd: cmd_.ReleaseTable, t: float) -> None:
        n = cmd.table
        if n not in self.granted:
            raise RuleError(f"table {n} is not granted to {self.t.event}")
        tab = self.tables.get(n)
        # once the event is over nobody plays on: its tables go back as they are
        if tab is not None and not tab.broken and self.t.busts.finished_at is None:
            if tab.count:
                who = "1 player sits" if tab.count == 1 else f"{tab.count} players sit"
                raise RuleError(f"table {n} cannot go back to the pool: {who} there "
                                "(break the table first)")
            if self.movers_from.get(n):
                raise RuleError(f"table {n} cannot go back to the pool: players moving "
                                "from it have not arrived yet")
            self.t._emit("table_broken", t, table=n)
        self.t._emit("table_released", t, table=n)

    def _on_seated(self, ev: ev_.Seated) -> None:
        p = self.t.registry.players[ev.player]
        if p.status not in IN_PLAY:
            self.t.registry.alive += 1
        p.status, p.table, p.seat = SEATED, ev.table, ev.seat
        p.from_table = p.from_seat = None
        tab = self.tables[ev.table]
        tab.seat_of[ev.seat] = p.id
        tab.moved_weight += p.moves * p.moves
        if not ev.same_seat:
            tab.new_seats.add(ev.seat)
        self.t.balancing.recount(tab)
        self.t._touch(tab.id)
        self.t.seating_dirty = True

    def _on_hand_started(self, ev: ev_.HandStarted) -> None:
        tab = self.tables[ev.table]
        tab.hand, tab.in_hand, tab.last_hand_at = ev.hand, True, ev.t
        tab.positions = btn.Positions(ev.button, ev.sb, ev.bb, tuple(ev.dealt), tuple(ev.waiting))
        tab.new_seats.clear()
        tab.all_in.clear()
        tab.redraw_button = False
        if self.t.floor.on_penalty:
            for seat in ev.dealt:
                p = self.t.registry.players.get(tab.seat_of.get(seat, ""))
                if p and p.penalty_hands:
                    p.penalty_hands -= 1
                    if not p.penalty_hands:
                        self.t.floor.on_penalty.discard(p.id)
                        if p.penalty_until is None:
                            p.penalty_text = ""
        self.t.dirty.add(tab.id)

    def _on_hand_ended(self, ev: ev_.HandEnded) -> None:
        tab = self.tables[ev.table]
        tab.in_hand = False
        tab.all_in.clear()
        tab.last_hand_at = ev.t
        self.t.levels.h4h_waiting.discard(tab.id)
        self.t._touch(tab.id)

    def _on_all_in(self, ev: ev_.AllIn) -> None:
        self.tables[ev.table].all_in.add(ev.seat)
        self.t._touch(ev.table)

    def _on_all_in_undone(self, ev: ev_.AllInUndone) -> None:
        self.tables[ev.table].all_in.discard(ev.seat)
        self.t._touch(ev.table)

    def unseat(self, p: Player) -> None:
        if p.from_table is not None:
            self.movers_from.get(p.from_table, set()).discard(p.id)
            self.moving.discard(p.id)
        if p.table is not None:
            tab = self.tables[p.table]
            if tab.seat_of.get(p.seat or 0) == p.id:
                del tab.seat_of[p.seat or 0]
                tab.moved_weight -= p.moves * p.moves
                tab.new_seats.discard(p.seat or 0)
            self.t.balancing.recount(tab)
            self.t._touch(tab.id, p.from_table)
        self.t.seating_dirty = True

    def _on_moved(self, ev: ev_.Moved) -> None:
        p = self.t.registry.players[ev.player]
        src, dst = self.tables[ev.table], self.tables[ev.to_table]
        if ev.ordered:
            src.pending_out.remove(dst.id)
            dst.pending_in -= 1
            self.t.balancing.n_pending -= 1
        self.unseat(p)
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
        self.t.balancing.recount(dst)
        self.t._touch(dst.id, src.id)
        self.stats["moves_" + ev.reason] += 1
        if ev.reason in ("break", "final"):
            self.stats["unavoidable"] += 1
        elif ev.reason == "balance":
            src.balance_out += 1

    def _on_arrived(self, ev: ev_.Arrived) -> None:
        p = self.t.registry.players[ev.player]
        prev = p.from_table
        if prev is not None:
            self.movers_from.get(prev, set()).discard(p.id)
        self.moving.discard(p.id)
        p.status = SEATED
        p.from_table = p.from_seat = None
        self.t._touch(p.table, prev)

    def _on_unseated(self, ev: ev_.Unseated) -> None:
        p = self.t.registry.players[ev.player]
        self.unseat(p)
        p.status, p.table, p.seat = WAITING, None, None
        self.t.registry.alive -= 1

    def _do_start(self, cmd: cmd_.Start, t: float) -> None:
        refused = start_refusal(self)
        if refused:
            raise RuleError(refused)
        waiting = [p.id for p in self.t.registry.players.values() if p.status == WAITING]
        drawn = self.t.registry.alive   # a Day 2's carried players, seated by its draw
        if drawn:   # the draw is done: newcomers take seats as late entries do
            if waiting:
                self.need_tables(self._tables_short(len(waiting)))
            for pid in waiting:
                self.seat_new(pid, t, "draw")
        else:
            self.random_draw(waiting, t, self.t._rng("start"))
        clock = self.t.levels.clock.resume(self.t.structure, t)
        self.t._emit("clock_set", t, clock=clock.to_dict(), why="start")
        self.t._emit("started", t)

    def open_tables(self, n_players: int, t: float) -> list[int]:
        """Open the tables an opening draw of `n_players` needs (all refused at once in
        pool mode when the room has not granted that many)."""
        n_tables = math.ceil(n_players / self.t.seats)
        self.need_tables(n_tables)
        opened = []
        for _ in range(n_tables):
            tid = self.next_table_id()
            self.t._emit("table_opened", t, table=tid, seats=self.t.seats)
            opened.append(tid)
        return opened

    def random_draw(self, players: list[str], t: float, rng: random.Random) -> None:
        """TDA: the opening draw, a random seat for each, the tables' counts balanced."""
        opened = self.open_tables(len(players), t)
        n_tables = len(opened)
        pool: list[tuple[int, int]] = []
        for i, tid in enumerate(opened):
            size = len(players) // n_tables + (1 if i < len(players) % n_tables else 0)
            pool += [(tid, s) for s in sorted(rng.sample(range(1, self.t.seats + 1), size))]
        rng.shuffle(players)
        for pid, (table, seat) in zip(players, pool, strict=True):
            self.t._emit("seated", t, player=pid, table=table, seat=seat, reason="draw")

    def stack_draw(self, players: list[str], t: float, rng: random.Random) -> None:
        """A draw balanced by stack: biggest first, dealt to the tables in snake order
        (1..n, n..1, ...) so every table gets its share of the big stacks, each player
        then at a random seat of his table. `players` come biggest stack first."""
        opened = self.open_tables(len(players), t)
        n = len(opened)
        at: dict[int, list[str]] = {tid: [] for tid in opened}
        for i, pid in enumerate(players):
            lap, pos = divmod(i, n)
            at[opened[pos if lap % 2 == 0 else n - 1 - pos]].append(pid)
        for tid in opened:
            seats = rng.sample(range(1, self.t.seats + 1), len(at[tid]))
            for pid, seat in sorted(zip(at[tid], seats, strict=True), key=lambda x: x[1]):
                self.t._emit("seated", t, player=pid, table=tid, seat=seat, reason="draw")

    def _tables_short(self, newcomers: int) -> int:
        """New tables `newcomers` need beyond the open seats (`seat_new` opens one only
        when every table is full)."""
        free = sum(tab.seats - tab.count for tab in self.active_tables())
        return max(0, math.ceil((newcomers - free) / self.t.seats))

    def next_table_id(self) -> int:
        """The number of the next table to open: the next after the highest, or in pool
        mode the lowest idle table the room granted (NeedsTable when there is none)."""
        if self.t.pool:
            idle = self.idle_tables()
            if not idle:
                raise NeedsTable(self.t.event, 1)
            return idle[0]
        return max(self.tables, default=0) + 1

    def seat_new(self, pid: str, t: float, reason: str) -> None:
        """TDA 7A: a random seat from the seat pool in place (the shortest tables)."""
        b = self.t.balancing.balancer
        candidates = [tid for tid, c in b.count.items() if c == b.min()
                      and self.tables[tid].count < self.tables[tid].seats]
        if not candidates:
            if self.t.max_tables is not None and len(self.active_tables()) >= self.t.max_tables:
                return  # an alternate: waits for a seat
            tid = self.next_table_id()   # pool mode: NeedsTable when none is idle
            self.t._emit("table_opened", t, table=tid, seats=self.t.seats, added=True)
            candidates = [tid]
        p = self.t.registry.players[pid]
        rng = self.t._rng("seat", pid, p.entries, p.rebuys)
        tab = self.tables[rng.choice(sorted(candidates))]
        self.t._emit("seated", t, player=pid, table=tab.id, seat=rng.choice(tab.open_seats()),
                     reason=reason)

    def _do_move(self, cmd: cmd_.Move, t: float) -> None:
        p = self.t.registry.player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(f"{p.name} is not seated")
        dst = self.table_in_play(cmd.get("table"))
        seat = cmd.get("seat")
        if seat is None:
            seat = btn.worst_open_seat(dst.positions, dst.seat_of, dst.seats,
                                       self.t._rng("floor-move", p.id, p.moves)) \
                if dst.count < dst.seats else None
        if not isinstance(seat, int) or not 1 <= seat <= dst.seats or seat in dst.seat_of:
            raise RuleError(f"table {dst.id} seat {seat} is not free")
        src = self.tables[p.table or 0]
        self.t._emit("moved", t, player=p.id, table=p.table, seat=p.seat, to_table=dst.id,
                     to_seat=seat, reason="floor", due_bb=self.due_seat(src) == p.seat)

    def _do_arrived(self, cmd: cmd_.Arrived, t: float) -> None:
        p = self.t.registry.player(cmd.get("player"))
        if p.status != MOVING:
            raise RuleError(f"{p.name} is not moving")
        self.t._emit("arrived", t, player=p.id, table=p.table, seat=p.seat)

    def active_tables(self) -> list[Table]:
        return [t for t in self.tables.values() if not t.broken]

    def due_big_blind(self, tab: Table) -> int | None:
        """TDA 10A: the seat of the player due the big blind next (random before hand 1)."""
        if not tab.seat_of:
            return None
        if tab.positions is None:
            return self.t._rng("due", tab.id, tab.hand, tab.count).choice(sorted(tab.seat_of))
        return btn.next_big_blind(tab.positions, tab.seat_of, tab.seats)

    def due_seat(self, tab: Table) -> int | None:
        """The seat due the big blind next, or None before the table's first hand."""
        if tab.positions is None or not tab.seat_of:
            return None
        return btn.next_big_blind(tab.positions, tab.seat_of, tab.seats)



def start_refusal(seating: Seating) -> str | None:
    """Why the event cannot start now, or None when it can: `start` refuses with this,
    and the room page offers Start only when it is None."""
    t = seating.t
    if t.levels.started:
        return "the tournament has already started"
    waiting = sum(1 for p in t.registry.players.values() if p.status == WAITING)
    if waiting + t.registry.alive < 2:   # alive: a Day 2's carried players
        return "at least two players must be registered to start"
    return None
