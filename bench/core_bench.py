"""Benchmark of the tournament core: whole tournaments through kiosk.sim.engine.

Prints figures, asserts nothing. Targets from the issues: a 10,000-entrant 9-max
tournament to a winner in under 5 s on the CI machine, one balancing decision under
1 ms at p99 (also while more than 1000 tables are open), and total moves within 10 %
of the unavoidable ones (players whose table broke, counting balancing moves off
tables that broke later). That ratio counts every break move as unavoidable, so it
cannot tell a good breaking order from a bad one: moves per entrant, the most moves
for one player and the players moved three times or more can, and
bench/balance_bench.py sets them against a simple reference on the same busts.

The whole-run figure is the best of `--repeat` runs (the machine is shared: the load
average is printed with it, and the CPU time, which other work disturbs less). The
event hash (SHA-256 over every event's JSON, one a line, in the order decided) says
whether a change to the code changed what the tournament decided.

    python bench/core_bench.py [--players 10000] [--seed 1] [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import resource
import statistics
import sys
import time

from kiosk.core.model.events import Event, encode
from kiosk.rules.loader import profile_ids
from kiosk.sim.engine import SimResult, Simulator

WIDE_TABLES = 1000
TARGET_SECONDS = 5.0   # the figure for 10,000 entrants on the CI machine (2 cores)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def _p99(xs: list[float]) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def _peak_mb() -> float:
    """Peak resident memory of this process so far (ru_maxrss is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def event_hash(events: list[Event]) -> str:
    h = hashlib.sha256()
    for ev in events:
        h.update(encode(ev))
        h.update(b"\n")
    return h.hexdigest()


def run(players: int, profile: str, seed: int) -> tuple[SimResult, float, float, str]:
    """One tournament: its result, wall seconds, CPU seconds and event hash."""
    sim = Simulator(players, seats=9, profile=profile, seed=seed)
    sim.log = []
    start, cpu = time.perf_counter(), time.process_time()
    res = sim.run()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return res, wall, cpu, event_hash(sim.log)


def best_of(n: int, players: int, profile: str,
            seed: int) -> tuple[SimResult, float, float, str]:
    """The fastest of `n` runs (the same tournament each time), each starting as a fresh
    process would: the last run's tournament (its parts refer to it) collected first."""
    runs = []
    for _ in range(max(1, n)):
        gc.collect()
        runs.append(run(players, profile, seed))
    if len({r[3] for r in runs}) > 1:
        raise SystemExit("the same tournament decided different events from one run to "
                         "the next")
    return min(runs, key=lambda r: r[1])


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def report(res: SimResult, wall: float, *, wide: bool) -> None:
    moves = res.moves_balance + res.moves_break
    busts = res.players - 1
    times = res.decision_times
    print(f"  wall time              {wall:.2f} s  ({res.events:,} events, "
          f"{res.sim_hours} h of play)")
    print(f"  hands                  {res.hands:,}")
    print(f"  busts per second       {busts / wall:,.0f}")
    print(f"  balancing decisions    {len(times):,}: median {_ms(statistics.median(times))}, "
          f"p99 {_ms(_p99(times))}, max {_ms(max(times))}" if times else
          "  balancing decisions    none")
    if wide:
        at_wide = [t for t, n in zip(times, res.decision_tables, strict=True)
                   if n > WIDE_TABLES]
        if at_wide:
            print(f"  ... with >{WIDE_TABLES} tables {len(at_wide):,}: median "
                  f"{_ms(statistics.median(at_wide))}, p99 {_ms(_p99(at_wide))}, "
                  f"max {_ms(max(at_wide))}")
        else:
            print(f"  ... never more than {WIDE_TABLES} tables open")
    ratio = moves / res.moves_unavoidable if res.moves_unavoidable else float("nan")
    print(f"  moves                  {moves:,} ({moves / res.players:.3f} per entrant; "
          f"{res.moves_balance} balance, {res.moves_break} break/final); unavoidable "
          f"{res.moves_unavoidable:,} ({res.moves_unavoidable / res.players:.3f} per "
          f"entrant): {100 * (ratio - 1):+.1f} %")
    print(f"  tables at the start    {res.tables_max:,}; halts {res.halts}, widest spread "
          f"at a hand start {res.max_spread_at_hand_start}")
    print(f"  moved: skipped a BB {res.moved_skipped_bb}, BB twice {res.moved_bb_twice}, "
          f"most moves for one player {res.max_moves_one_player}, moved 3+ times "
          f"{res.moved_3plus}")
    print(f"  invariant violations   {res.invariant_violations}")
    for v in res.violations[:3]:
        print(f"    ! {v}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of the main tournament; the fastest is reported")
    ap.add_argument("--quick", action="store_true", help="skip the per-profile runs")
    args = ap.parse_args(argv)

    print(f"== {args.players:,} entrants, 9-max, tda-2017, seed {args.seed}; {_load()}")
    res, wall, cpu, digest = best_of(args.repeat, args.players, "tda-2017", args.seed)
    report(res, wall, wide=True)
    print(f"  CPU time               {cpu:.2f} s"
          + (f" (fastest of {args.repeat} runs; {_load()})" if args.repeat > 1 else ""))
    print(f"  event hash             {digest} ({res.events:,} events)")
    print(f"  peak memory (RSS)      {_peak_mb():.0f} MB")
    targets = [(f"whole run < {TARGET_SECONDS:g} s", wall < TARGET_SECONDS),
               ("decision p99 < 1 ms", _p99(res.decision_times) < 1e-3),
               ("moves within 10 % of unavoidable",
                res.moves_balance + res.moves_break <= 1.10 * res.moves_unavoidable)]
    print("  targets: " + ", ".join(f"{name} {'met' if ok else 'MISSED'}"
                                    for name, ok in targets))
    if args.quick:
        return 0
    for profile in profile_ids():
        print(f"\n== 1,000 entrants, 9-max, {profile}, seed {args.seed}")
        res, wall, _cpu, digest = run(1000, profile, args.seed)
        report(res, wall, wide=False)
        print(f"  event hash             {digest}")
    print(f"\npeak memory of the whole benchmark (RSS) {_peak_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
