"""Draws: every decision that gives a player a seat.

The opening draw (at random, or spread by stack for a Day 2), a newcomer's seat (a late
entry, a rebuy, a re-entry, an alternate, a bust taken back) and a floor move. Owns no
state: it reads the tables (seating) and the balancer's counts, and its events are
folded by seating.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.calc import button as btn
from kiosk.core.model import commands as cmd_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.registration import start_refusal
from kiosk.core.model.state import IN_PLAY, WAITING

if TYPE_CHECKING:
    from kiosk.core.model.host import BalancingView, LevelsView, RegistryView, SeatingView


@dataclass(eq=False)
class Draws(Component):
    """Where each player sits: the draws and the seats given."""

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    balancing: BalancingView = peer()
    levels: LevelsView = peer()

    def _do_start(self, cmd: cmd_.Start, t: float) -> None:
        refused = start_refusal(self.levels.started,
                                (p.status for p in self.registry.players.values()),
                                self.registry.alive)
        if refused:
            raise RuleError(refused)
        waiting = [p.id for p in self.registry.players.values() if p.status == WAITING]
        drawn = self.registry.alive   # a Day 2's carried players, seated by its draw
        if drawn:   # the draw is done: newcomers take seats as late entries do
            if waiting:
                self.seating.need_tables(self._tables_short(len(waiting)))
            for pid in waiting:
                self.seat_new(pid, t, "draw")
        else:
            self.random_draw(waiting, t, self.t.rng("start"))
        # TDA 2024 RP-20: the first level waits while the dealers prepare their decks
        lead = 0 if cmd.ready else self.t.profile.dealing.prepare_decks_seconds
        clock = self.levels.clock.resume(self.t.structure, t).delayed(lead)
        self.t.emit("clock_set", t, clock=clock.to_dict(), why="start")
        self.t.emit("started", t)

    def open_tables(self, n_players: int, t: float) -> list[int]:
        """Open the tables an opening draw of `n_players` needs (all refused at once in
        pool mode when the room has not granted that many)."""
        seats = self.t.seats
        n_tables = math.ceil(n_players / seats)
        self.seating.need_tables(n_tables)
        opened = []
        for _ in range(n_tables):
            tid = self.seating.next_table_id()
            self.t.emit("table_opened", t, table=tid, seats=seats)
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
            self.t.emit("seated", t, player=pid, table=table, seat=seat, reason="draw")

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
                self.t.emit("seated", t, player=pid, table=tid, seat=seat, reason="draw")

    def _tables_short(self, newcomers: int) -> int:
        """New tables `newcomers` need beyond the open seats (`seat_new` opens one only
        when every table is full)."""
        free = sum(tab.seats - tab.count for tab in self.seating.active_tables())
        return max(0, math.ceil((newcomers - free) / self.t.seats))

    def seat_new(self, pid: str, t: float, reason: str) -> None:
        """TDA 7A: a random seat from the seat pool in place (the shortest tables)."""
        b = self.balancing.balancer
        tables = self.seating.tables
        candidates = [tid for tid, c in b.count.items() if c == b.min()
                      and tables[tid].count < tables[tid].seats]
        host = self.t
        if not candidates:
            if host.max_tables is not None and \
                    len(self.seating.active_tables()) >= host.max_tables:
                return  # an alternate: waits for a seat
            tid = self.seating.next_table_id()   # pool mode: NeedsTable when none is idle
            host.emit("table_opened", t, table=tid, seats=host.seats, added=True)
            candidates = [tid]
        p = self.registry.players[pid]
        rng = host.rng("seat", pid, p.entries, p.rebuys)
        tab = tables[rng.choice(sorted(candidates))]
        host.emit("seated", t, player=pid, table=tab.id, seat=rng.choice(tab.open_seats()),
                  reason=reason)

    def _do_move(self, cmd: cmd_.Move, t: float) -> None:
        p = self.registry.player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(M_("player.not_seated", "{name} is not seated", name=p.name))
        dst = self.seating.table_in_play(cmd.get("table"))
        seat = cmd.get("seat")
        if seat is None:
            seat = btn.worst_open_seat(dst.positions, dst.seat_of, dst.seats,
                                       self.t.rng("floor-move", p.id, p.moves)) \
                if dst.count < dst.seats else None
        if not isinstance(seat, int) or not 1 <= seat <= dst.seats or seat in dst.seat_of:
            raise RuleError(M_("seat.not_free", "table {table} seat {seat} is not free",
                               table=dst.id, seat=seat))
        src = self.seating.tables[p.table or 0]
        self.t.emit("moved", t, player=p.id, table=p.table, seat=p.seat, to_table=dst.id,
                    to_seat=seat, reason="floor", due_bb=src.due_seat() == p.seat)
