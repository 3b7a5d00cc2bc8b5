"""Balancing and breaking on identical bust sequences: the core against a simple reference.

N entrants are seated 9-max at random with random buttons. Each step, some tables deal
a hand (buttons follow the profile) and then one uniformly random remaining player
busts in a hand at their table; the run stops when the field fits the final table.
The core decides through `Tournament.execute`, exactly as in the director; the
reference breaks the table with the fewest players once everyone fits one table fewer,
and otherwise moves a random player from the longest table to a random seat at the
shortest whenever they differ by two or more. Both see the same bust order. With
`--sim`, whole chip-driven tournaments from the simulator are measured too. With
`--sections K`, the core runs again with the tables split into K sections of
consecutive numbers and a break order of them (the highest-numbered section first): the
moves per entrant with and without a section order, side by side.

    python bench/balance_bench.py --players N --seed S [--profile P|all] [--json] [--sim]
                                  [--sections K]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from kiosk.core.calc import button as btn
from kiosk.core.event.tournament import Tournament
from kiosk.rules.loader import load_profile, profile_ids
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Period, Structure
from kiosk.sim.engine import Simulator

SEATS = 9
HANDS_PER_BUST = 12   # a 10,000-entrant event deals about 121,000 hands to the end


def _structure() -> Structure:
    """One endless level: the clock plays no part in who moves."""
    return Structure("bench", 10_000, (Period(10_000, sb=50, bb=100),))


@dataclasses.dataclass
class Tally:
    """What one policy did to the players on one bust sequence."""

    players: int
    break_moves: int = 0
    balance_moves: int = 0
    tda10a: int = 0
    breaks: int = 0
    broken_sizes: int = 0
    table_busts: int = 0     # tables in play, summed over the busts: what waiting costs
    busts: int = 0
    times: list[float] = dataclasses.field(default_factory=list)
    cpu: list[float] = dataclasses.field(default_factory=list)
    moves: dict[str, int] = dataclasses.field(default_factory=dict)

    def moved(self, pid: str) -> None:
        self.moves[pid] = self.moves.get(pid, 0) + 1

    def result(self) -> dict[str, Any]:
        total = self.break_moves + self.balance_moves
        times, cpu = sorted(self.times) or [0.0], sorted(self.cpu) or [0.0]
        return {
            "moves_per_entrant": round(total / self.players, 4),
            "moves": total, "break_moves": self.break_moves,
            "balance_moves": self.balance_moves,
            "max_moves_one_player": max(self.moves.values(), default=0),
            "moved_3plus": sum(1 for m in self.moves.values() if m >= 3),
            "tda10a_share": round(self.tda10a / self.balance_moves, 4)
            if self.balance_moves else 1.0,
            "breaks": self.breaks,
            "players_per_broken_table": round(self.broken_sizes / self.breaks, 2)
            if self.breaks else 0.0,
            "tables_per_bust": round(self.table_busts / self.busts, 2) if self.busts else 0.0,
            "decisions": len(self.times),
            "p50_ms": round(1000 * statistics.median(times), 4),
            "p99_ms": round(1000 * _p99(times), 4),
            "p99_cpu_ms": round(1000 * _p99(cpu), 4),
        }

    def timed(self, decide: Callable[[], Any], acted: Callable[[Any], bool]) -> Any:
        """Run one decision, keeping its wall-clock and CPU time when it moved anyone
        (CPU time leaves out the other processes sharing the machine)."""
        wall, cpu = time.perf_counter(), time.thread_time()
        out = decide()
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if acted(out):
            self.times.append(wall)
            self.cpu.append(cpu)
        return out


def _p99(xs: list[float]) -> float:
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def _positions(prev: btn.Positions | None, occupied: set[int], newcomers: set[int],
               prof: Profile, rng: random.Random) -> btn.Positions:
    """The next hand's button and blinds, as a table kiosk works them out."""
    if prev is None:
        button, _ = btn.draw_button(sorted(occupied), "random", rng)
        return btn.first_hand(occupied, button, SEATS)
    return btn.next_hand(prev, occupied, SEATS, dead_button=prof.button.dead_button,
                         newcomers=newcomers, waits=prof.button.newcomer_waits)


def _worst(pos: btn.Positions | None, occupied: set[int], seat: int) -> bool:
    """TDA 10A's seat: the open seat that takes the big blind soonest (any before hand 1)."""
    if pos is None:
        return True
    return btn.worst_open_seat(pos, occupied, SEATS, random.Random(0)) == seat


# ------------------------------------------------------------------------ the core


class CoreRun:
    """The tournament core driven by table reports, hand by hand."""

    def __init__(self, players: int, prof: Profile, seed: int, sections: int = 0) -> None:
        self.tour = Tournament.create(event="bench", profile=prof, structure=_structure(),
                                      seats=SEATS, seed=seed)
        self.prof = prof
        self.tally = Tally(players)
        self.rid = 0
        self.button_rng = random.Random(f"{seed}:buttons")
        for i in range(players):
            self.tour.execute({"kind": "register", "name": f"P{i}", "player": f"p{i}"}, 0.0)
        self._do({"kind": "start"})
        if sections:
            self.tour.execute({"kind": "set_break_order",
                               "sections": split_sections(self.tables(), sections)}, 0.0)

    def seating(self) -> dict[int, dict[int, str]]:
        return {t.id: dict(t.seat_of) for t in self.tour.tables.values() if not t.broken}

    def _do(self, cmd: dict[str, Any]) -> list[dict[str, Any]]:
        tour = self.tour
        broken_from: dict[int, int] = {}
        evs = self.tally.timed(lambda: tour.execute(cmd, 0.0), lambda evs: any(
            e["kind"] in ("moved", "move_ordered", "table_breaking") for e in evs))
        for ev in evs:
            kind = ev["kind"]
            if kind == "table_broken":
                self.tally.breaks += 1
            elif kind == "moved" and ev["reason"] in ("balance", "break"):
                self.tally.moved(ev["player"])
                if ev["reason"] == "break":
                    self.tally.break_moves += 1
                    broken_from[ev["table"]] = broken_from.get(ev["table"], 0) + 1
                else:
                    self.tally.balance_moves += 1
                    dst = tour.tables[ev["to_table"]]
                    occupied = set(dst.seat_of) - {ev["to_seat"]}
                    if ev.get("due_bb") and _worst(dst.positions, occupied, ev["to_seat"]):
                        self.tally.tda10a += 1
        self.tally.broken_sizes += sum(broken_from.values())
        if tour.moving:
            for pid in sorted(tour.moving):
                p = tour.players[pid]
                self._report(p.table or 0, "present", seat=p.seat)
        return evs

    def _report(self, table: int, kind: str, **data: Any) -> None:
        self.rid += 1
        self._do({"kind": "report", "table": table,
                  "report": {"v": 2, "table": table, "id": f"b{self.rid}", "kind": kind,
                             "data": data}})

    def tables(self) -> list[int]:
        return sorted(t.id for t in self.tour.tables.values() if not t.broken)

    def start_hand(self, tid: int) -> bool:
        tab = self.tour.tables[tid]
        if tab.broken or tab.in_hand or tab.count < 2 or self.tour.holding(tab):
            return False
        prev = None if tab.redraw_button else tab.positions
        pos = _positions(prev, set(tab.seat_of), tab.new_seats, self.prof, self.button_rng)
        self._report(tid, "hand_started", hand=tab.hand + 1, button=pos.button, sb=pos.sb,
                     bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting))
        return True

    def end_hand(self, tid: int) -> None:
        self._report(tid, "hand_ended", hand=self.tour.tables[tid].hand)

    def bust(self, pid: str) -> None:
        p = self.tour.players[pid]
        tid = p.table or 0
        dealt = self.start_hand(tid)
        self._report(tid, "bust", seat=p.seat, player=pid)
        if dealt and not self.tour.tables[tid].broken:
            self.end_hand(tid)

    def alive(self) -> int:
        return self.tour.alive


def split_sections(tables: list[int], k: int) -> list[dict[str, Any]]:
    """`tables` cut into `k` sections of consecutive numbers, the last section first in
    the break order (the far ballroom, which holds the highest numbers)."""
    size = -(-len(tables) // k)
    parts = [tables[i:i + size] for i in range(0, len(tables), size)]
    return [{"name": f"S{n + 1}", "tables": part} for n, part in reversed(list(enumerate(parts)))]


# ------------------------------------------------------------------- the reference


class ReferenceRun:
    """A simple balancer: fewest-players table breaks, longest gives to shortest."""

    def __init__(self, players: int, prof: Profile, seed: int,
                 seating: dict[int, dict[int, str]]) -> None:
        self.prof = prof
        self.tally = Tally(players)
        self.seat_of = {t: dict(s) for t, s in seating.items()}
        self.where = {pid: t for t, s in seating.items() for pid in s.values()}
        self.pos: dict[int, btn.Positions | None] = {t: None for t in seating}
        self.new: dict[int, set[int]] = {t: set() for t in seating}
        self.rng = random.Random(f"{seed}:reference")
        self.button_rng = random.Random(f"{seed}:buttons")

    def tables(self) -> list[int]:
        return sorted(self.seat_of)

    def alive(self) -> int:
        return len(self.where)

    def start_hand(self, tid: int) -> bool:
        occupied = set(self.seat_of[tid])
        if len(occupied) < 2:
            return False
        self.pos[tid] = _positions(self.pos[tid], occupied, self.new[tid], self.prof,
                                   self.button_rng)
        self.new[tid] = set()
        return True

    def end_hand(self, tid: int) -> None:
        pass

    def bust(self, pid: str) -> None:
        tid = self.where.pop(pid)
        self.start_hand(tid)
        seats = self.seat_of[tid]
        del seats[next(s for s, q in seats.items() if q == pid)]
        self.tally.timed(self._decide, bool)

    def _seat(self, pid: str, tid: int, seat: int) -> None:
        self.seat_of[tid][seat] = pid
        self.new[tid].add(seat)
        self.where[pid] = tid
        self.tally.moved(pid)

    def _decide(self) -> bool:
        final = self.prof.balance.final_table_size(SEATS)
        if self.alive() <= final:
            return False
        acted = False
        while len(self.seat_of) > -(-self.alive() // SEATS):
            tid = min(self.seat_of, key=lambda t: (len(self.seat_of[t]), t))
            movers = sorted(self.seat_of.pop(tid).values())
            del self.pos[tid], self.new[tid]
            self.rng.shuffle(movers)
            self.tally.breaks += 1
            self.tally.broken_sizes += len(movers)
            for pid in movers:
                dst = min(self.seat_of, key=lambda t: (len(self.seat_of[t]), t))
                free = [s for s in range(1, SEATS + 1) if s not in self.seat_of[dst]]
                self._seat(pid, dst, self.rng.choice(free))
                self.tally.break_moves += 1
            acted = True
        while len(self.seat_of) > 1:
            src = max(self.seat_of, key=lambda t: (len(self.seat_of[t]), -t))
            dst = min(self.seat_of, key=lambda t: (len(self.seat_of[t]), t))
            if len(self.seat_of[src]) - len(self.seat_of[dst]) < 2:
                break
            seat = self.rng.choice(sorted(self.seat_of[src]))
            pid = self.seat_of[src].pop(seat)
            pos = self.pos[src]
            due = pos is not None and btn.next_big_blind(
                pos, set(self.seat_of[src]) | {seat}, SEATS) == seat
            free = [s for s in range(1, SEATS + 1) if s not in self.seat_of[dst]]
            to_seat = self.rng.choice(free)
            if due and _worst(self.pos[dst], set(self.seat_of[dst]), to_seat):
                self.tally.tda10a += 1
            self._seat(pid, dst, to_seat)
            self.tally.balance_moves += 1
            acted = True
        return acted


# ------------------------------------------------------------------------- driving


def play(run: CoreRun | ReferenceRun, order: list[str], seed: int) -> dict[str, Any]:
    """Deal and bust in `order` until the field fits the final table (with the cyclic
    garbage collector off, as in the simulator: its passes are not decisions)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _play(run, order, seed)
    finally:
        if enabled:
            gc.enable()


def _play(run: CoreRun | ReferenceRun, order: list[str], seed: int) -> dict[str, Any]:
    final = run.prof.balance.final_table_size(SEATS)
    deal_rng = random.Random(f"{seed}:deal")
    for tid in run.tables():
        if run.start_hand(tid):
            run.end_hand(tid)
    for pid in order:
        if run.alive() <= final:
            break
        tables = run.tables()
        run.tally.table_busts += len(tables)
        run.tally.busts += 1
        chance = min(1.0, HANDS_PER_BUST / max(1, len(tables)))
        for tid in tables:
            if deal_rng.random() < chance and run.start_hand(tid):
                run.end_hand(tid)
        run.bust(pid)
    return run.tally.result()


def compare(players: int, seed: int, prof: Profile, sections: int = 0
            ) -> dict[str, dict[str, Any]]:
    core = CoreRun(players, prof, seed)
    seating = core.seating()
    order = sorted(p for s in seating.values() for p in s.values())
    random.Random(f"{seed}:busts").shuffle(order)
    ref = ReferenceRun(players, prof, seed, seating)
    out = {"core": play(core, order, seed), "reference": play(ref, order, seed)}
    if sections:
        # the same draw and bust order, the tables breaking section by section
        out["core_sections"] = play(CoreRun(players, prof, seed, sections), order, seed)
        out["core_sections"]["sections"] = sections
    return out


def simulate(players: int, seed: int, prof: Profile) -> dict[str, Any]:
    """A chip-driven tournament from the simulator, to the final table."""
    sim = Simulator(players, seats=SEATS, profile=prof, seed=seed)
    res = sim.run()
    assert sim.tour is not None
    tour = sim.tour
    st = tour.stats
    moved = [p.moves for p in tour.players.values()]
    times = sorted(res.decision_times) or [0.0]
    return {
        "moves_per_entrant": round((st["moves_balance"] + st["moves_break"]) / players, 4),
        "break_moves": st["moves_break"], "balance_moves": st["moves_balance"],
        "max_moves_one_player": max(moved), "moved_3plus": sum(1 for m in moved if m >= 3),
        "moved_bb_twice": res.moved_bb_twice, "moved_skipped_bb": res.moved_skipped_bb,
        "invariant_violations": res.invariant_violations,
        "p50_ms": round(1000 * statistics.median(times), 4),
        "p99_ms": round(1000 * _p99(times), 4),
    }


def _line(name: str, r: dict[str, Any]) -> str:
    return (f"  {name:<10} {r['moves_per_entrant']:.4f} moves/entrant "
            f"({r['break_moves']} break, {r['balance_moves']} balance), most for one player "
            f"{r['max_moves_one_player']}, moved 3+ {r['moved_3plus']}"
            + (f", TDA 10A {100 * r['tda10a_share']:.1f} %" if "tda10a_share" in r else "")
            + f", decision p50 {r['p50_ms']:.3f} ms p99 {r['p99_ms']:.3f} ms"
            + (f" (CPU {r['p99_cpu_ms']:.3f} ms)" if "p99_cpu_ms" in r else ""))


def _variants(profile: str, policies: list[str]) -> list[tuple[str, Profile]]:
    prof = load_profile(profile)
    out = [(profile, prof)]
    for policy in policies:
        if policy != prof.balance.break_order:
            bal = dataclasses.replace(prof.balance, break_order=policy)
            out.append((f"{profile} break_order={policy}", dataclasses.replace(prof, balance=bal)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="tda-2017",
                    help="a profile id, or 'all' for every shipped profile")
    ap.add_argument("--policy", action="append", default=[],
                    help="also run with this break_order (fewest, published)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--sim", action="store_true", help="also run the chip-driven simulator")
    ap.add_argument("--sections", type=int, default=0,
                    help="also run the core with a break order of this many sections")
    args = ap.parse_args(argv)
    if args.players < 20:
        ap.error("--players must be at least 20")
    if not 0 <= args.sections <= 40:
        ap.error("--sections must be 0 to 40")
    if args.json:
        print(json.dumps(compare(args.players, args.seed, load_profile(args.profile),
                                 args.sections)))
        return 0
    profiles = profile_ids() if args.profile == "all" else [args.profile]
    for profile in profiles:
        for name, prof in _variants(profile, args.policy):
            print(f"== {args.players:,} entrants, 9-max, {name}, seed {args.seed}")
            out = compare(args.players, args.seed, prof, args.sections)
            for side in ("core", "reference", "core_sections"):
                if side in out:
                    print(_line(side, out[side]))
            core, ref = out["core"], out["reference"]
            gain = 100 * (1 - core["moves_per_entrant"] / ref["moves_per_entrant"])
            print(f"  core moves {gain:+.1f} % below the reference; players per broken "
                  f"table {core['players_per_broken_table']} v {ref['players_per_broken_table']}"
                  f"; tables in play per bust {core['tables_per_bust']} v "
                  f"{ref['tables_per_bust']}")
            if args.sim:
                print(_line("simulator", simulate(args.players, args.seed, prof)))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
