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
from typing import Any, Protocol

from kiosk.core import button as btn
from kiosk.core.clock import Clock
from kiosk.core.events import Event
from kiosk.core.state import IN_PLAY
from kiosk.core.tournament import Tournament
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import load_structure

HAND_SECONDS = 120.0


class Field(Protocol):
    """What the virtual dealers see and how they report: the tables' plans and the
    director. The in-process field reads the Tournament; the MQTT field reads the
    retained plans the director publishes, so both drive identical play."""

    def seats(self, table: int) -> dict[int, str]: ...
    def newcomers(self, table: int) -> set[int]: ...
    def redraw(self, table: int) -> bool: ...
    def holding(self, table: int) -> bool: ...
    def halted(self, table: int) -> bool: ...
    def broken(self, table: int) -> bool: ...
    def seat_count(self, table: int) -> int: ...
    def tables(self) -> list[int]: ...
    def spread(self) -> int: ...
    def finished(self) -> bool: ...
    def arriving(self) -> list[tuple[int, int, str]]: ...
    def report(self, rep: dict[str, Any], t: float) -> bool | None: ...
    def count_request(self, table: int) -> dict[str, Any] | None: ...
    def colour_up(self, table: int) -> dict[str, Any] | None: ...
    def idle(self) -> bool: ...


class LocalField:
    """The tournament in this process: reports go straight to `execute`."""

    def __init__(self, tour: Tournament, sim: Simulator) -> None:
        self.tour, self.sim = tour, sim

    def seats(self, table: int) -> dict[int, str]:
        return self.tour.tables[table].seat_of

    def newcomers(self, table: int) -> set[int]:
        return self.tour.tables[table].new_seats

    def redraw(self, table: int) -> bool:
        return self.tour.tables[table].redraw_button

    def holding(self, table: int) -> bool:
        return self.tour.holding(self.tour.tables[table])

    def halted(self, table: int) -> bool:
        return self.tour.halted(self.tour.tables[table])

    def broken(self, table: int) -> bool:
        tab = self.tour.tables.get(table)
        return tab is None or tab.broken

    def seat_count(self, table: int) -> int:
        return self.tour.tables[table].seats

    def tables(self) -> list[int]:
        return sorted(t.id for t in self.tour.tables.values() if not t.broken)

    def spread(self) -> int:
        b = self.tour.balancer
        return b.max() - b.min() if len(b) > 1 else 0

    def finished(self) -> bool:
        return self.tour.finished_at is not None

    def arriving(self) -> list[tuple[int, int, str]]:
        if not self.tour.moving:
            return []
        players = self.tour.players
        return sorted((players[pid].table or 0, players[pid].seat or 0, pid)
                      for pid in self.tour.moving)

    def report(self, rep: dict[str, Any], t: float) -> None:
        self.sim.execute({"kind": "report", "table": rep["table"], "report": rep}, t)

    def count_request(self, table: int) -> dict[str, Any] | None:
        r = self.tour.count_round
        if r is None or table not in r["tables"] or table in self.tour.counts:
            return None
        return {"round": r["round"], "purpose": r["purpose"]}

    def colour_up(self, table: int) -> dict[str, Any] | None:
        ev = self.tour.colour_ups.get(table)
        return None if ev is None else {"after": ev["after"], "before": ev["before"]}

    def idle(self) -> bool:
        return False   # nothing outside this process can release a holding table


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
    moved_3plus: int = 0
    places: list[str] = field(default_factory=list)
    invariant_violations: int = 0
    violations: list[str] = field(default_factory=list)
    events: int = 0
    sim_hours: float = 0.0
    wall_seconds: float = 0.0
    decision_times: list[float] = field(default_factory=list)
    decision_tables: list[int] = field(default_factory=list)  # tables open at each decision
    rebuys: int = 0
    addons: int = 0
    chips_removed: int = 0
    prize_pool: int = 0
    bounty_pool: int = 0
    winner_keeps: int = 0      # the bounty on the winner's own head, his to keep
    results: list[dict[str, Any]] = field(default_factory=list)
    knockouts: list[tuple[str, list[str], bool]] = field(default_factory=list)  # rebought?

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items()
             if k not in ("decision_times", "decision_tables", "knockouts")}
        d["violations"] = self.violations[:20]
        return d


class Simulator:
    """Plays one tournament to a winner through a Field.

    Without a field it runs the tournament in this process (registering and starting
    it); with one, the tournament lives in a director and only reports cross over.
    """

    def __init__(self, players: int, seats: int = 9, profile: str | Profile = "tda-2017",
                 seed: int = 1,
                 structure: str | Structure = "standard", check_every: int = 2000,
                 timer: Callable[[], float] = time.perf_counter,
                 field: Field | None = None, hand_seconds: float = HAND_SECONDS,
                 pace: Callable[[float], None] | None = None,
                 skip: frozenset[int] = frozenset(), money: dict[str, Any] | None = None,
                 idle_timeout: float = 120.0, addons: bool = True,
                 chip_set: list[int] | None = None, buttons: Any = None) -> None:
        self.rng = random.Random(seed)
        prof = profile if isinstance(profile, Profile) else load_profile(profile)
        self.profile = prof
        self.structure = st = structure if isinstance(structure, Structure) \
            else load_structure(structure)
        self.clock = Clock.start(0.0)
        self.tour: Tournament | None = None
        if field is None:
            self.tour = Tournament.create(event="sim", profile=prof, structure=st, seats=seats,
                                          seed=seed, t=0.0, money=money, chip_set=chip_set)
            field = LocalField(self.tour, self)
        self.field = field
        self.n = players
        self.hand_seconds = hand_seconds
        self.pace = pace          # called with each event's time before it happens (demo)
        self.skip = skip          # tables a real kiosk deals (demo): never dealt here
        self.buttons = buttons    # a ButtonPresser (demo): ALL-IN, CLOCK, FLOOR presses
        self.res = SimResult(players, prof.id, seed)
        self.check_every = max(check_every, players)  # a full check costs O(players)
        self.timer = timer
        self.chips: dict[str, int] = {f"p{i + 1}": st.start_stack for i in range(players)}
        self.queue: list[tuple[float, int, int]] = []   # (time, seq, table): hand ends
        self.waiting: set[int] = set()                  # tables that could not start
        self.prev: dict[int, btn.Positions] = {}
        self.hand: dict[int, int] = {}                  # last hand number dealt per table
        self.in_hand: set[int] = set()
        self.seq = 0
        self.rid = 0
        self.posted_bb_last: dict[str, bool] = {}
        self.first_hand: dict[str, bool] = {}           # moved: due BB at the source?
        self.halted_now: set[int] = set()
        self.in_hand_stack: dict[int, dict[int, int]] = {}
        self.pots: dict[int, int] = {}
        self.now = 0.0
        self.bought = players * st.start_stack        # chips sold: entries, rebuys, add-ons
        self.counted: set[tuple[int, int]] = set()     # (table, round) counts reported
        self.idle_timeout = idle_timeout
        e = prof.entries
        self.rebuy_until = st.index_of_level(e.rebuy_levels) if e.rebuy else -1
        self.addon_from = self.rebuy_until + 1 if e.addon and addons else None
        self.addon_done: set[int] = set()              # tables that sold their add-ons
        self.addon_players: set[str] = set()

    # ------------------------------------------------------------------ driving
    def execute(self, cmd: dict[str, Any], t: float) -> list[Event]:
        """In-process only: one command to the tournament, timed and observed."""
        assert self.tour is not None
        start = self.timer()
        evs = self.tour.execute(cmd, t)
        elapsed = self.timer() - start
        if any(e["kind"] in ("moved", "move_ordered", "table_breaking") for e in evs):
            self.res.decision_times.append(elapsed)
            self.res.decision_tables.append(len(self.tour.balancer) + self.tour.n_breaking)
        self.res.events += len(evs)
        for ev in evs:
            if ev["kind"] == "moved":
                self.moved(ev["player"], bool(ev.get("due_bb")), ev["to_table"])
        return evs

    def moved(self, pid: str, due_bb: bool, to_table: int) -> None:
        """A player changed tables: watch their first hand at the new one."""
        self.first_hand[pid] = due_bb
        self.waiting.add(to_table)
        if self.tour is not None:
            moves = self.tour.players[pid].moves
            if moves > self.res.max_moves_one_player:
                self.res.max_moves_one_player = moves

    def _report(self, table: int, t: float, kind: str, **data: Any) -> bool:
        """Send a report; False when the director refused it."""
        self.rid += 1
        rep = {"v": 1, "table": table, "id": f"s{self.rid}", "seq": self.rid, "ts": t,
               "kind": kind, "data": data}
        accepted = self.field.report(rep, t) is not False
        for tid, seat, _pid in self.field.arriving():  # moved players sit down at once
            if tid in self.skip:
                continue
            self.rid += 1
            self.field.report({"v": 1, "table": tid, "id": f"s{self.rid}", "seq": self.rid,
                               "ts": t, "kind": "present", "data": {"seat": seat}}, t)
            self.waiting.add(tid)
        return accepted

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

    def setup(self) -> None:
        """Register everyone and draw seats (in-process only; a director does its own)."""
        tour = self.tour
        assert tour is not None
        for i in range(self.n):
            tour.execute({"kind": "register", "name": f"Player {i + 1}"}, 0.0)
        self.execute({"kind": "start"}, 0.0)

    def _run(self, progress: Callable[[int, int], None] | None) -> SimResult:
        wall = time.perf_counter()
        if self.tour is not None:
            self.setup()
        t = 0.0
        tables = self.field.tables()
        self.res.tables_max = len(tables)
        for tid in tables:
            self._try_start(tid, t)
        steps = 0
        last_busts = -1
        while not self.field.finished():
            if not self.queue:
                if not self.waiting or not self._wait_for_floor(t):
                    break
                continue
            t, _, tid = heapq.heappop(self.queue)
            if self.pace is not None:
                self.pace(t)
            self.now = t
            self._end_hand(tid, t)
            steps += 1
            for w in sorted(self.waiting):
                self._try_start(w, t)
            if steps % self.check_every == 0:
                self._check(full=True)
                busts = sum(1 for c in self.chips.values() if c == 0)
                if progress and busts != last_busts:
                    progress(busts, self.n)
                    last_busts = busts
        if not self.field.finished():
            self._violation("tournament ended without a winner")
        self._check(full=True)
        if self.tour is not None:
            from kiosk.core.results import results, totals

            self.res.results = results(self.tour)
            self.res.winner_keeps = totals(self.tour)["winner_keeps"]
            pool = self.tour.money_pool()
            self.res.prize_pool, self.res.bounty_pool = pool.prize_pool, pool.bounty_pool
            places = self.tour.places()
            self.res.places = sorted(places, key=lambda pid: (places[pid], pid))
            self._check_places(places)
            st = self.tour.stats
            self.res.moves_balance = st["moves_balance"]
            self.res.moves_break = st["moves_break"] + st["moves_final"]
            self.res.moves_unavoidable = st["unavoidable"]
            self.res.moved_3plus = sum(1 for p in self.tour.players.values() if p.moves >= 3)
        self.res.sim_hours = round(t / 3600, 2)
        self.res.wall_seconds = round(time.perf_counter() - wall, 3)
        if progress:
            progress(self.n, self.n)
        return self.res

    def _wait_for_floor(self, t: float) -> bool:
        """Every table holds (a day ended): wait for the floor to release them."""
        deadline = time.monotonic() + self.idle_timeout
        while time.monotonic() < deadline:
            if not self.field.idle():
                return False
            for w in sorted(self.waiting):
                self._try_start(w, t)
            if self.queue or self.field.finished():
                return True
        self._violation("tables held longer than the idle timeout")
        return False

    # ------------------------------------------------------------------ chips
    def _count(self, tid: int, t: float) -> None:
        """A chip count asked for: enter every seat's stack; take a colour-up's result."""
        req = self.field.count_request(tid)
        if req is None or (tid, req["round"]) in self.counted:
            return
        self.counted.add((tid, req["round"]))
        seat_of = self.field.seats(tid)
        stacks = {str(s): self.chips[pid] for s, pid in sorted(seat_of.items())}
        self._report(tid, t, "chip_count", round=req["round"], stacks=stacks)
        cu = self.field.colour_up(tid) if req["purpose"] == "colour_up" else None
        if cu is not None:
            for s, after in cu["after"].items():
                pid = seat_of[int(s)]
                self.res.chips_removed += self.chips[pid] - after
                self.chips[pid] = after

    def _addons(self, tid: int, t: float, period: int) -> None:
        """At the first hand after the rebuy period, most players take the add-on."""
        if self.addon_from is None or period < self.addon_from or tid in self.addon_done:
            return
        self.addon_done.add(tid)
        if period > self.addon_from + 1:
            return
        for seat, pid in sorted(self.field.seats(tid).items()):
            if pid not in self.addon_players and self.rng.random() < 0.7:
                self.addon_players.add(pid)
                self._report(tid, t, "addon", seat=seat, player=pid)
                stack = self.structure.start_stack * self.profile.entries.addon_stacks
                self.chips[pid] += stack
                self.bought += stack
                self.res.addons += 1

    # ------------------------------------------------------------------ hands
    def _try_start(self, tid: int, t: float) -> None:
        f = self.field
        if f.broken(tid) or tid in self.in_hand or tid in self.skip:
            self.waiting.discard(tid)
            return
        self._count(tid, t)
        seat_of = f.seats(tid)
        if f.holding(tid) or len(seat_of) < 2:
            if f.halted(tid) and tid not in self.halted_now:
                self.halted_now.add(tid)
                self.res.halts += 1
            self.waiting.add(tid)
            return
        self.halted_now.discard(tid)
        reading = self.clock.read(self.structure, t)
        if reading.period != self.clock.period:  # the level changed: re-anchor
            self.clock = self.clock.normalized(self.structure, t)
            if self.tour is not None:
                self.execute({"kind": "tick"}, t)  # as the director's clock does
        period = self.structure.periods[reading.period]
        if period.is_break:  # play resumes when the break is over
            heapq.heappush(self.queue, (t + reading.remaining + 0.001, self._next(), -tid))
            self.waiting.discard(tid)
            return
        self.waiting.discard(tid)
        self._addons(tid, t, reading.period)
        occupied = set(seat_of)
        prev = self.prev.get(tid) if not f.redraw(tid) else None
        if prev is None:
            button, _ = btn.draw_button(sorted(occupied), self.profile.button.start, self.rng)
            pos = btn.first_hand(occupied, button, f.seat_count(tid))
        else:
            pos = btn.next_hand(prev, occupied, f.seat_count(tid),
                                dead_button=self.profile.button.dead_button,
                                waits=self.profile.button.newcomer_waits,
                                newcomers=f.newcomers(tid))
        before = self.prev.get(tid)
        self.prev[tid] = pos
        level = self.structure.level_number(reading.period) or 1
        self.res.levels_reached = max(self.res.levels_reached, level)
        self.res.max_spread_at_hand_start = max(self.res.max_spread_at_hand_start, f.spread())
        self._post_blinds(tid, seat_of, pos, period)
        hand = self.hand.get(tid, 0) + 1
        self.hand[tid] = hand
        self.in_hand.add(tid)
        if not self._report(tid, t, "hand_started", hand=hand, button=pos.button, sb=pos.sb,
                            bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting)):
            self._not_dealt(tid, seat_of, before)   # the floor held the table meanwhile
            return
        if self.buttons is not None:
            self.buttons.hand_started(tid, t, list(pos.dealt), hand)
        self.res.hands += 1
        length = self.hand_seconds * self.rng.uniform(0.6, 1.4)
        heapq.heappush(self.queue, (t + length, self._next(), tid))

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def _not_dealt(self, tid: int, seat_of: dict[int, str], prev: btn.Positions | None
                   ) -> None:
        """The director refused the hand (a day ended just then): take the blinds back."""
        for seat, stack in self.in_hand_stack.pop(tid, {}).items():
            self.chips[seat_of[seat]] = stack
        self.pots.pop(tid, None)
        self.in_hand.discard(tid)
        self.hand[tid] -= 1
        if prev is None:
            self.prev.pop(tid, None)
        else:
            self.prev[tid] = prev
        self.waiting.add(tid)

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
        rng, chips = self.rng, self.chips
        seat_of = self.field.seats(tid)
        start = self.in_hand_stack.pop(tid, {})
        dealt = [s for s in start if s in seat_of]
        pot = self.pots.pop(tid, 0)
        busted: list[int] = []
        beaten_by: dict[int, int] = {}   # busted seat -> the seat that won the pot
        pressed = self.buttons.hand_ending(tid, t) if self.buttons is not None else None
        if len(dealt) >= 2:
            stacks = [start[s] for s in dealt]
            bb = max(1, self.clock.current(self.structure, t).bb)
            avg_bbs = sum(stacks) / len(stacks) / bb
            broke = [s for s in dealt if chips[seat_of[s]] == 0]
            p_allin = min(0.6, 0.05 + 3.0 / max(avg_bbs, 1.0))
            if broke or rng.random() < p_allin:
                a = broke[0] if broke else rng.choice(dealt)
                b = rng.choice([s for s in dealt if s != a])
                pa, pb = seat_of[a], seat_of[b]
                if a != pressed:
                    self._report(tid, t, "all_in", seat=a, hand=self.hand[tid])
                risk = min(chips[pa], chips[pb])
                winner, loser = (pa, pb) if rng.random() < 0.5 else (pb, pa)
                chips[winner] += risk + pot
                chips[loser] -= risk
                pot = 0
                if chips[loser] == 0:
                    busted.append(a if loser == pa else b)
                    beaten_by[busted[-1]] = b if loser == pa else a
            taker = None
            if pot:
                taker = rng.choice(dealt)
                chips[seat_of[taker]] += pot
            for seat in dealt:  # a player blinded to nothing is out too
                if chips[seat_of[seat]] == 0 and seat not in busted:
                    busted.append(seat)
                    beaten_by[seat] = taker if taker is not None and chips[seat_of[taker]] \
                        else next(s for s in dealt if chips[seat_of[s]])
        period = self.clock.read(self.structure, t).period
        for seat in busted:
            pid = seat_of[seat]
            rebuy = period <= self.rebuy_until and rng.random() < 0.5
            by = beaten_by[seat]
            self.res.knockouts.append((pid, [seat_of[by]], rebuy))
            self._report(tid, t, "bust", seat=seat, player=pid, stack=start.get(seat),
                         eliminator=by, rebuy=rebuy)
            if rebuy:
                chips[pid] = self.structure.start_stack
                self.bought += self.structure.start_stack
                self.res.rebuys += 1
            if self.field.finished():
                return
        self.in_hand.discard(tid)
        self._report(tid, t, "hand_ended", hand=self.hand[tid])
        self._try_start(tid, t)

    # ------------------------------------------------------------------ checks
    def _violation(self, text: str) -> None:
        self.res.invariant_violations += 1
        if len(self.res.violations) < 50:
            self.res.violations.append(text)

    def _check(self, full: bool) -> None:
        tour = self.tour
        if tour is None:
            return
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
        if total != self.bought - self.res.chips_removed:
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
             structure: str = "standard", money: dict[str, Any] | None = None) -> SimResult:
    return Simulator(players, seats, profile, seed, structure, money=money).run()
