"""A table's own pace, hand by hand: levels counted in hands, and orbits.

Plain arithmetic on what each hand's report says, shared by the director (which logs
the hands) and the tables (which deal on while offline), so both count alike.
"""

from __future__ import annotations

from collections.abc import Collection

from kiosk.core.calc.button import next_seat
from kiosk.rules.structure import Structure


def hand_level(s: Structure, period: int, played: int) -> tuple[int, int]:
    """The level of a table's next hand and how many hands of it the table has dealt, when
    it has dealt `played` hands of `period` so far: once those are all the level's
    hands, the next hand opens the next level (the last level never ends)."""
    last = len(s.periods) - 1
    while period < last and played >= s.periods[period].hands:
        period, played = period + 1, 0
    return period, played


def after_hands(s: Structure, period: int, played: int, hands: int) -> tuple[int, int]:
    """Where a table stands after `hands` more hands from (`period`, `played`)."""
    for _ in range(max(0, hands)):
        period, played = hand_level(s, period, played)
        played += 1
    return period, played


def hands_left(s: Structure, period: int, played: int) -> int:
    """Hands of the level the next hand opens or continues, that one included."""
    p, k = hand_level(s, period, played)
    return max(0, s.periods[p].hands - k)


def bb_step(last_bb: int, bb: int, seats: int) -> int:
    """Seats the big blind moved clockwise from `last_bb` to `bb` round a table of
    `seats` seats (0 when it stayed)."""
    return (bb - last_bb) % seats


def orbit_over(travel: int, last_bb: int, next_bb: int, seats: int) -> bool:
    """Whether a table whose big blind has moved `travel` seats since the first hand of its
    orbit has played the orbit out: the next big blind, at `next_bb`, would come back to
    or pass the orbit's first (every player has posted it once)."""
    return travel + bb_step(last_bb, next_bb, seats) >= seats


def orbit_hands_left(travel: int, last_bb: int, occupied: Collection[int], seats: int) -> int:
    """Hands a table still deals in its orbit with these seats occupied: the director
    publishes it, and a table that loses the network stops there by itself."""
    occ = set(occupied)
    if len(occ) < 2:
        return 0
    n, last = 0, last_bb
    while True:
        nxt = next_seat(occ, last, seats)
        if orbit_over(travel, last, nxt, seats):
            return n
        travel, last, n = travel + bb_step(last, nxt, seats), nxt, n + 1
