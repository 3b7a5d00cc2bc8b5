"""Money benchmark: reconciling 1,000 tables' chip counts, and ICM for 9 players.

Targets: reconciliation < 1 s, ICM < 50 ms. Prints the figures; asserts nothing.
"""

from __future__ import annotations

import random
import statistics
import time

from kiosk.core.chips.chips import reconcile
from kiosk.core.money.icm import icm_deal

TABLES, SEATS = 1000, 9


def bench_reconcile(rounds: int = 5) -> list[float]:
    rng = random.Random(1)
    counts = {t: {s: 25 * rng.randint(1, 4000) for s in range(1, SEATS + 1)}
              for t in range(1, TABLES + 1)}
    seated = {t: set(stacks) for t, stacks in counts.items()}
    expected = sum(sum(s.values()) for s in counts.values())
    missing = sum(counts.pop(999).values())   # one table has not counted yet
    counts[17][3] += 25                       # and one player's stack is off by a chip
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        rec = reconcile(expected, counts, seated, smallest_chip=25)
        times.append(time.perf_counter() - start)
    assert rec.flags == {999: ["no count yet"]} and rec.difference == 25 - missing
    return times


def bench_icm(rounds: int = 20) -> list[float]:
    rng = random.Random(2)
    prizes = [30_000, 20_000, 13_500, 10_000, 8_000, 6_500, 5_800, 5_200, 4_700]
    times = []
    for _ in range(rounds):
        stacks = [rng.randint(100_000, 5_000_000) for _ in range(9)]
        start = time.perf_counter()
        amounts = icm_deal(stacks, prizes)
        times.append(time.perf_counter() - start)
        assert sum(amounts) == sum(prizes)
    return times


def main() -> None:
    rec = bench_reconcile()
    icm = bench_icm()
    print(f"reconciliation of {TABLES:,} tables x {SEATS} seats: median "
          f"{statistics.median(rec) * 1000:.1f} ms, worst {max(rec) * 1000:.1f} ms "
          f"(target < 1000 ms)")
    print(f"ICM for 9 players, 9 places paid: median {statistics.median(icm) * 1000:.2f} ms, "
          f"worst {max(icm) * 1000:.2f} ms (target < 50 ms)")


if __name__ == "__main__":
    main()
