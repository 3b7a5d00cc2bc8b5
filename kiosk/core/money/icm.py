"""Deal calculators for the final table: ICM (Malmuth-Harville) and chip chop.

Both give whole currency units summing exactly to the prizes still to be paid: the
fractional equities are rounded by largest remainder.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

MAX_PLAYERS = 12   # 2^n subsets: 12 players is still instant


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if not 2 <= len(stacks) <= MAX_PLAYERS:
        raise ValueError(f"a deal needs 2 to {MAX_PLAYERS} players")
    if any(not isinstance(s, int) or s <= 0 for s in stacks):
        raise ValueError("every stack must be a positive whole number of chips")
    if any(not isinstance(p, int) or p < 0 for p in prizes):
        raise ValueError("prizes must be whole amounts >= 0")
    if len(prizes) > len(stacks):
        raise ValueError("more prizes than players")


def icm_equity(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Expected prize per player (Malmuth-Harville: the chance to finish next is the
    share of the chips still in play)."""
    _check(stacks, prizes)
    n = len(stacks)
    paid = list(prizes) + [0] * (n - len(prizes))

    @cache
    def rest(mask: int) -> tuple[float, ...]:
        """Equity of each player in `mask` for the places after the players not in it."""
        members = [i for i in range(n) if mask >> i & 1]
        place = n - len(members)
        eq = [0.0] * n
        if place >= len(prizes) or not members:
            return tuple(eq)
        total = sum(stacks[i] for i in members)
        for i in members:
            p = stacks[i] / total
            eq[i] += p * paid[place]
            if len(members) > 1:
                sub = rest(mask & ~(1 << i))
                for j in members:
                    if j != i:
                        eq[j] += p * sub[j]
        return tuple(eq)

    return list(rest((1 << n) - 1))


def whole(values: Sequence[float | Fraction], total: int) -> list[int]:
    """Round `values` (summing to `total`) to integers summing exactly to `total`."""
    floors = [int(v) for v in values]
    order = sorted(range(len(values)), key=lambda i: (-(values[i] - floors[i]), i))
    left = total - sum(floors)   # float error can make this -1 or len + 1
    k = 0
    while left:
        i = order[k % len(order)] if left > 0 else order[-1 - k % len(order)]
        step = 1 if left > 0 else -1
        if floors[i] + step >= 0:
            floors[i] += step
            left -= step
        k += 1
    return floors


def icm_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """ICM equities in whole units summing to the prizes left."""
    return whole(icm_equity(stacks, prizes), sum(prizes))


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Everyone is sure of the lowest prize left; the rest is split by chips."""
    _check(stacks, prizes)
    n = len(stacks)
    paid = list(prizes) + [0] * (n - len(prizes))
    floor = paid[-1]
    rest = sum(paid) - floor * n
    total = sum(stacks)
    shares = [floor + Fraction(rest * s, total) for s in stacks]
    return whole(shares, sum(paid))
