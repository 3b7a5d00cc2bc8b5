"""League standings: a season of events, recomputed in full and updated after one result.

P players enter E finished events (fields of 20 to 200, drawn at random); the standings
of a league are computed from the events' recorded results, with each formula the rooms
use (sqrt of the field over the place, a points table, a custom expression), the best 20
results counting. Measured: a full recompute of every event's points and the table, and
the update after one event's result changes (its points and its players re-totalled, the
table sorted again). Target: p99 under 50 ms for both.

    python bench/league_bench.py --players 10000 --events 500 [--runs 30] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from typing import Any

from kiosk.core.season.leagues import EventResult, LeagueSpec, Result, Standings, formula

FORMULAS = {
    "sqrt": formula("sqrt", scale=10),
    "table": formula("table", table=[100, 80, 65, 55, 45, 40, 35, 30, 25, 20]),
    "expression": formula("expression", "10 * sqrt(entrants / place) + prize / max(buy_in, 1)"
                                        " + bounties / 50"),
}
TARGET_MS = 50.0


def season(players: int, events: int, seed: int) -> list[EventResult]:
    rng = random.Random(seed)
    out = []
    for e in range(events):
        field = rng.sample(range(players), min(players, rng.randint(20, 200)))
        buy_in = rng.choice([0, 50, 100, 200])
        paid = max(1, len(field) // 7)
        out.append(EventResult(
            f"e{e}", f"Event {e}", "event", 1e9 + e * 86400.0, buy_in, len(field),
            tuple(Result(f"r{p}", f"Player {p}", i + 1,
                         buy_in * (paid - i) if i < paid else 0,
                         rng.choice([0, 0, 0, 25, 50]))
                  for i, p in enumerate(field))))
    return out


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def measure(events: list[EventResult], kind: str, runs: int, seed: int) -> dict[str, Any]:
    spec = LeagueSpec("season", "Season", FORMULAS[kind], best=20)
    rng = random.Random(seed)
    full: list[float] = []
    for _ in range(runs):
        gc.collect()
        started = time.perf_counter()
        Standings(spec).recompute(events)
        full.append((time.perf_counter() - started) * 1000)
    live = Standings(spec)
    table = live.recompute(events)
    updates: list[float] = []
    for _ in range(runs * 5):
        ev = events[rng.randrange(len(events))]
        results = list(ev.results)
        i, j = rng.randrange(len(results)), rng.randrange(len(results))
        results[i], results[j] = (Result(results[j].player, results[j].name, results[i].place),
                                  Result(results[i].player, results[i].name, results[j].place))
        changed = EventResult(ev.name, ev.title, ev.kind, ev.finished_at, ev.buy_in,
                              ev.entrants, tuple(results))
        started = time.perf_counter()
        table = live.update(changed, ev.name)
        updates.append((time.perf_counter() - started) * 1000)
    return {"formula": kind, "results": sum(len(e.results) for e in events),
            "ranked": len(table),
            "full_p50_ms": round(statistics.median(full), 2), "full_p99_ms": round(p99(full), 2),
            "update_p50_ms": round(statistics.median(updates), 2),
            "update_p99_ms": round(p99(updates), 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--events", type=int, default=500)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    events = season(args.players, args.events, args.seed)
    rows = [measure(events, kind, args.runs, args.seed) for kind in FORMULAS]
    full = max(r["full_p99_ms"] for r in rows)
    update = max(r["update_p99_ms"] for r in rows)
    out = {"players": args.players, "events": args.events, "runs": args.runs,
           "standings_p99_ms": {"full": full, "update": update}, "target_ms": TARGET_MS,
           "within_target": full < TARGET_MS and update < TARGET_MS, "formulas": rows}
    if args.json:
        print(json.dumps(out))
        return
    for r in rows:
        print(f"{r['formula']:<11} {r['results']} results, {r['ranked']} ranked: full p99 "
              f"{r['full_p99_ms']} ms, update p99 {r['update_p99_ms']} ms")
    print(f"standings p99: full {full} ms, update {update} ms (target < {TARGET_MS} ms)")


if __name__ == "__main__":
    main()
