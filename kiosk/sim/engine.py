"""Whole tournaments played through the core, table by table, hand by hand.

Each virtual table deals hands of about two minutes, posts blinds and antes from real
stacks, and now and then two players get it all in; the shorter stack that loses
busts. Every hand start, bust and hand end goes to the tournament as the same report a
table kiosk would send, so balancing and breaking run exactly as in the director.
"""

from __future__ import annotations

import gc
import heapq
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.core import button as btn
from kiosk.core.state import IN_PLAY, MOVING
from kiosk.core.tournament import Tournament
from kiosk.rules.loader import load_profile
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import load_structure

HAND_SECONDS = 120.0


@dataclass
class SimResult:
    players: int
    profile: str
    seed: int
    hands: int = 0
    levels_reached: int = 1
    tables_max: int = 0
    moves_balance: int = 0
    moves_break: int = 0
    moves_unavoidable: int = 0
    halts: int = 0
    max_spread_at_hand_start: int = 0
    moved_skipped_bb: int = 0
    moved_bb_twice: int = 0
    max_moves_one_player: int = 0
    places: list[str] = field(default_factory=list)
    invariant_violations: int = 0
    violations: list[str] = field(default_factory=list)
    events: int = 0
    sim_hours: float = 0.0
    wall_seconds: float = 0.0
    decision_times: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items() if k != "decision_times"}
        d["violations"] = self.violations[:20]
        return d


class Simulator:
    """Plays one tournament to a winner. `timer` is injectable for benchmarks."""

    def __init__(self, players: int, seats: int = 9, profile: str = "tda-2017", seed: int = 1,
                 structure: str | Structure = "standard", check_every: int = 2000,
                 timer: Callable[[], float] = time.perf_counter) -> None:
        self.rng = random.Random(seed)
        prof = load_profile(profile)
        st = structure if isinstance(structure, Structure) else load_structure(structure)
        self.tour = Tournament.create(event="sim", profile=prof, structure=st, seats=seats,
                                      seed=seed, t=0.0)
        self.n = players
        self.res = SimResult(players, prof.id, seed)
        self.check_every = max(check_every, players)  # a full check costs O(players)
        self.timer = timer
        self.chips: dict[str, int] = {}
        self.queue: list[tuple[float, int, int]] = []   # (time, seq, table): hand ends
        self.waiting: set[int] = set()                  # tables that could not start
        self.prev: dict[int, btn.Positions] = {}
        self.seq = 0
        self.rid = 0
        self.posted_bb_last: dict[str, bool] = {}
        self.first_hand: dict[str, bool] = {}           # moved: due BB at the source?
        self.halted_now: set[int] = set()
        self.in_hand_stack: dict[int, dict[int, int]] = {}
        self.pots: dict[int, int] = {}

    # ------------------------------------------------------------------ driving
    def _exec(self, cmd: dict[str, Any], t: float) -> list[dict[str, Any]]:
        start = self.timer()
        evs = self.tour.execute(cmd, t)
        elapsed = self.timer() - start
        if any(e["kind"] in ("moved", "move_ordered", "table_breaking") for e in evs):
            self.res.decision_times.append(elapsed)
        self.res.events += len(evs)
        for ev in evs:
            if ev["kind"] == "moved":
                self._on_moved(ev, t)
        return evs

    def _report(self, table: int, t: float, kind: str, **data: Any) -> list[dict[str, Any]]:
        self.rid += 1
        rep = {"table": table, "id": f"s{self.rid}", "seq": self.rid, "ts": t, "kind": kind,
               "data": data}
        return self._exec({"kind": "report", "table": table, "report": rep}, t)

    def _on_moved(self, ev: dict[str, Any], t: float) -> None:
        tour = self.tour
        pid = ev["player"]
        self.first_hand[pid] = bool(ev.get("due_bb"))
        p = tour.players[pid]
        if p.moves > self.res.max_moves_one_player:
            self.res.max_moves_one_player = p.moves
        if p.status == MOVING:
            tour.execute({"kind": "arrived", "player": pid}, t)
        self.waiting.add(ev["to_table"])

    def run(self, progress: Callable[[int, int], None] | None = None) -> SimResult:
        # the tournament holds many long-lived objects and makes no reference cycles worth
        # collecting mid-run; the cyclic collector would rescan them all again and again
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._run(progress)
        finally:
            if enabled:
                gc.enable()

    def _run(self, progress: Callable[[int, int], None] | None) -> SimResult:
        wall = time.perf_counter()
        tour, t = self.tour, 0.0
        for i in range(self.n):
            tour.execute({"kind": "register", "name": f"Player {i + 1}"}, t)
        for pid in tour.players:
            self.chips[pid] = tour.start_stack
        self._exec({"kind": "start"}, t)
        self.res.tables_max = len(tour.tables)
        for tid in sorted(tour.tables):
            self._try_start(tid, t)
        steps = 0
        last_busts = -1
        while self.queue and tour.finished_at is None:
            t, _, tid = heapq.heappop(self.queue)
            self._end_hand(tid, t)
            steps += 1
            for w in sorted(self.waiting):
                self._try_start(w, t)
            if steps % self.check_every == 0:
                self._check(full=True)
                busts = self.n - tour.alive
                if progress and busts != last_busts:
                    progress(busts, self.n)
                    last_busts = busts
        if tour.finished_at is None:
            self._violation("tournament ended without a winner")
        self._check(full=True)
        places = tour.places()
        self.res.places = sorted(places, key=lambda pid: (places[pid], pid))
        self._check_places(places)
        st = tour.stats
        self.res.moves_balance = st["moves_balance"]
        self.res.moves_break = st["moves_break"] + st["moves_final"]
        self.res.moves_unavoidable = st["unavoidable"]
        self.res.sim_hours = round(t / 3600, 2)
        self.res.wall_seconds = round(time.perf_counter() - wall, 3)
        if progress:
            progress(self.n, self.n)
        return self.res

    # ------------------------------------------------------------------ hands
    def _try_start(self, tid: int, t: float) -> None:
        tour = self.tour
        tab = tour.tables.get(tid)
        if tab is None or tab.broken or tab.in_hand:
            self.waiting.discard(tid)
            return
        if tour.holding(tab) or tab.count < 2:
            if tour.halted(tab) and tid not in self.halted_now:
                self.halted_now.add(tid)
                self.res.halts += 1
            self.waiting.add(tid)
            return
        self.halted_now.discard(tid)
        reading = tour.clock.read(tour.structure, t)
        if reading.period != tour.clock.period:  # the level changed: re-anchor, as the
            self._exec({"kind": "tick"}, t)      # director's clock does
        period = tour.structure.periods[reading.period]
        if period.is_break:  # play resumes when the break is over
            heapq.heappush(self.queue, (t + reading.remaining + 0.001, self._next(), -tid))
            self.waiting.discard(tid)
            return
        self.waiting.discard(tid)
        occupied = set(tab.seat_of)
        prev = self.prev.get(tid) if not tab.redraw_button else None
        if prev is None:
            button, _ = btn.draw_button(sorted(occupied), tour.profile.button.start, self.rng)
            pos = btn.first_hand(occupied, button, tab.seats)
        else:
            pos = btn.next_hand(prev, occupied, tab.seats,
                                dead_button=tour.profile.button.dead_button,
                                newcomers=tab.new_seats)
        self.prev[tid] = pos
        level = tour.structure.level_number(reading.period) or 1
        self.res.levels_reached = max(self.res.levels_reached, level)
        b = tour.balancer
        if len(b) > 1:
            self.res.max_spread_at_hand_start = max(self.res.max_spread_at_hand_start,
                                                    b.max() - b.min())
        self._post_blinds(tab.id, tab.seat_of, pos, period)
        self._report(tid, t, "hand_started", hand=tab.hand + 1, button=pos.button, sb=pos.sb,
                     bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting))
        self.res.hands += 1
        length = HAND_SECONDS * self.rng.uniform(0.6, 1.4)
        heapq.heappush(self.queue, (t + length, self._next(), tid))

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def _post_blinds(self, tid: int, seat_of: dict[int, str], pos: btn.Positions,
                     period: Any) -> None:
        chips = self.chips
        start: dict[int, int] = {}
        for seat in pos.dealt:
            pid = seat_of[seat]
            start[seat] = chips[pid]
            is_bb = seat == pos.bb
            if pid in self.first_hand:
                due = self.first_hand.pop(pid)
                if is_bb and self.posted_bb_last.get(pid):
                    self.res.moved_bb_twice += 1
                elif due and not is_bb:
                    self.res.moved_skipped_bb += 1
            self.posted_bb_last[pid] = is_bb
        self.in_hand_stack[tid] = start
        pot = 0
        for seat, amount in ((pos.sb, period.sb), (pos.bb, period.bb + period.bb_ante)):
            if seat in start and not (seat == pos.sb and pos.dead_sb):
                pid = seat_of[seat]
                paid = min(amount, chips[pid])
                chips[pid] -= paid
                pot += paid
        if period.ante:
            for seat in pos.dealt:
                pid = seat_of[seat]
                paid = min(period.ante, chips[pid])
                chips[pid] -= paid
                pot += paid
        self.pots[tid] = pot

    def _end_hand(self, tid: int, t: float) -> None:
        if tid < 0:  # a break ended: deal again
            self._try_start(-tid, t)
            return
        tour, rng, chips = self.tour, self.rng, self.chips
        tab = tour.tables[tid]
        start = self.in_hand_stack.pop(tid, {})
        dealt = [s for s in start if s in tab.seat_of]
        pot = self.pots.pop(tid, 0)
        busted: list[int] = []
        if len(dealt) >= 2:
            stacks = [start[s] for s in dealt]
            bb = max(1, tour.clock.current(tour.structure, t).bb)
            avg_bbs = sum(stacks) / len(stacks) / bb
            broke = [s for s in dealt if chips[tab.seat_of[s]] == 0]
            p_allin = min(0.6, 0.05 + 3.0 / max(avg_bbs, 1.0))
            if broke or rng.random() < p_allin:
                a = broke[0] if broke else rng.choice(dealt)
                b = rng.choice([s for s in dealt if s != a])
                pa, pb = tab.seat_of[a], tab.seat_of[b]
                self._report(tid, t, "all_in", seat=a)
                risk = min(chips[pa], chips[pb])
                winner, loser = (pa, pb) if rng.random() < 0.5 else (pb, pa)
                chips[winner] += risk + pot
                chips[loser] -= risk
                pot = 0
                if chips[loser] == 0:
                    busted.append(a if loser == pa else b)
            if pot:
                chips[tab.seat_of[rng.choice(dealt)]] += pot
            for seat in dealt:  # a player blinded to nothing is out too
                if chips[tab.seat_of[seat]] == 0 and seat not in busted:
                    busted.append(seat)
        for seat in busted:
            pid = tab.seat_of[seat]
            self._report(tid, t, "bust", seat=seat, player=pid, stack=start.get(seat))
            if tour.finished_at is not None:
                return
        self._report(tid, t, "hand_ended", hand=tab.hand)
        self._try_start(tid, t)

    # ------------------------------------------------------------------ checks
    def _violation(self, text: str) -> None:
        self.res.invariant_violations += 1
        if len(self.res.violations) < 50:
            self.res.violations.append(text)

    def _check(self, full: bool) -> None:
        tour = self.tour
        b = tour.balancer
        rules = tour.profile.balance
        if len(b) > 1 and rules.mode == "tda" and not tour.final_pending \
                and b.max() - b.min() > rules.allowed_spread(len(b)):
            self._violation(f"tables out of tolerance: {b.min()}..{b.max()}")
        if not full:
            return
        seen: dict[tuple[int, int], str] = {}
        alive = 0
        for p in tour.players.values():
            if p.status in IN_PLAY:
                alive += 1
                key = (p.table or 0, p.seat or 0)
                if key in seen:
                    self._violation(f"{p.id} and {seen[key]} share table {key[0]} seat {key[1]}")
                seen[key] = p.id
                tab = tour.tables.get(p.table or 0)
                if tab is None or tab.broken or tab.seat_of.get(p.seat or 0) != p.id:
                    self._violation(f"{p.id} thinks it sits at {key} but the table disagrees")
        held = sum(t.count for t in tour.tables.values() if not t.broken)
        if held != alive or alive != tour.alive:
            self._violation(f"{alive} players alive, tables hold {held}, count says {tour.alive}")
        total = sum(self.chips.values()) + sum(self.pots.values())
        if total != self.n * tour.start_stack:
            self._violation(f"chips not conserved: {total}")

    def _check_places(self, places: dict[str, int]) -> None:
        if len(places) != self.n:
            self._violation(f"{len(places)} places for {self.n} players")
            return
        ordered = sorted(places.values())
        for i, place in enumerate(ordered):
            if place != i + 1 and place != ordered[i - 1]:
                self._violation(f"places are not 1..N with ties: {place} at position {i + 1}")
                break
        if ordered.count(1) != 1:
            self._violation("there must be exactly one winner")


def simulate(players: int, seats: int = 9, profile: str = "tda-2017", seed: int = 1,
             structure: str = "standard") -> SimResult:
    return Simulator(players, seats, profile, seed, structure).run()
