"""Soak: N whole rooms on random seeds, every feature at once, every invariant checked.

Each seed is a room of several events (harness.soak says which, and what the floor
does meanwhile) played to its winners, seats and bags through the director, with a
director kill and replay in the middle. Prints one JSON object; exits 1 when any count
of trouble is not zero, naming the seeds that showed it (each one replays alone with
`--start SEED --seeds 1`).

    python bench/soak.py --seeds 200 --json [--start 1] [--jobs 2] [--window KEY]

`--window KEY` plays as many seeds again from a start drawn from KEY (`.ci/run` passes
the commit), so each run also explores rooms no run played before.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from harness.soak import Findings, soak_room

TROUBLE = ("stuck", "internal_errors", "violations", "replay_mismatches")
WINDOWS = (10_000, 10_000_000)   # where --window starts: clear of the fixed seeds


def window_start(key: str) -> int:
    """The first seed of the window `key` names: the same key, the same rooms."""
    lo, hi = WINDOWS
    return lo + int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % (hi - lo)


def summary(found: list[Findings], wall: float) -> dict[str, Any]:
    """The counts the soak promises to keep at zero, then what was played."""
    total = {k: sum(len(getattr(f, k)) for f in found) for k in TROUBLE}
    failures = [f"seed {f.seed}: {kind}: {what}" for kind in TROUBLE for f in found
                for what in getattr(f, kind)]   # the worst kinds first
    return {"seeds": len(found), "events_played": sum(f.events_played for f in found),
            "stuck": total["stuck"], "internal_errors": total["internal_errors"],
            "invariant_violations": total["violations"],
            "replay_mismatches": total["replay_mismatches"],
            "failing_seeds": sorted({f.seed for f in found
                                     if any(getattr(f, k) for k in TROUBLE)}),
            "reports": sum(f.reports for f in found),
            "resent_reports": sum(f.resent for f in found),
            "floor_actions": sum(f.floor_actions for f in found),
            "director_kills": sum(f.kills for f in found),
            "events_by_profile": {p: sum(f.profiles.get(p, 0) for f in found)
                                  for p in sorted({p for f in found for p in f.profiles})},
            "dealer_pushes": sum(f.dealer_pushes for f in found),
            "pushes_refused_mid_hand": sum(f.pushes_refused_mid_hand for f in found),
            "slowest_seed_s": max((f.wall_s for f in found), default=0.0),
            "wall_s": round(wall, 1), "failures": failures[:40]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200, help="how many rooms")
    ap.add_argument("--start", type=int, default=1, help="the first seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="rooms played at once (processes)")
    ap.add_argument("--json", action="store_true", help="one line of JSON")
    ap.add_argument("--window", metavar="KEY",
                    help="also play --seeds seeds from a start drawn from KEY (a commit)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.CRITICAL)   # refusals are counted, not printed
    starts = [args.start] + ([window_start(args.window)] if args.window else [])
    seeds = [s for start in starts for s in range(start, start + args.seeds)]
    wall = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            found = list(pool.map(soak_room, seeds, chunksize=4))
    else:
        found = [soak_room(s) for s in seeds]
    out = {"windows": [[start, start + args.seeds - 1] for start in starts],
           **summary(found, time.perf_counter() - wall)}
    print(json.dumps(out, indent=None if args.json else 1), flush=True)
    for seed in out["failing_seeds"]:
        print(f"seed {seed} failed; replay it alone: python bench/soak.py --start {seed} "
              "--seeds 1", file=sys.stderr)
    return 1 if out["failing_seeds"] else 0


if __name__ == "__main__":
    sys.exit(main())
