"""Prize pool and a standard payout table (top share of the field, geometric steps)."""

from __future__ import annotations

import math


def payouts(entries: int, buy_in: int, percent_paid: float = 15.0) -> list[int]:
    """Prize per place (index 0 = winner); whole currency units summing to the pool."""
    pool = entries * buy_in
    if entries <= 0 or pool <= 0:
        return []
    paid = max(1, min(entries, math.ceil(entries * percent_paid / 100)))
    if paid == 1:
        return [pool]
    ratio = 0.78 if paid < 10 else 0.86
    weights = [max(ratio ** i, 1.0 / paid) for i in range(paid)]
    total = sum(weights)
    prizes = [int(pool * w / total) for w in weights]
    prizes[0] += pool - sum(prizes)
    return prizes
