"""Button and blinds at one table, hand by hand.

Dead button (TDA 32, Sheridan's r.9 diagrams): the big blind moves forward to the next
occupied seat; the small blind is last hand's big-blind seat (dead when that seat is
empty); the button is last hand's small-blind seat (dead when empty). Moving button
(Roberts): button, small and big blind each go to the next occupied seat.
New players sit out only between the button and the small blind (TDA 7A, 9): the
button and small-blind seats themselves are dealt in. Sheridan's r.10 (and the home
game's Roberts rules) make a newcomer in the button or small-blind seat wait too.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

import msgspec

SUITS = "SHDC"  # spades > hearts > diamonds > clubs (Sheridan's r.4)
RANKS = "23456789TJQKA"


class Positions(msgspec.Struct, frozen=True, gc=False):
    """Who is where for one hand, as seats; a dead post keeps its (empty) seat.

    Made for every hand, twice (the dealer's next hand, the director's fold of it): a
    frozen struct, immutable like a frozen dataclass at a twentieth of its cost."""

    button: int
    sb: int
    bb: int
    dealt: tuple[int, ...] = ()     # seats dealt in, in seat order
    waiting: tuple[int, ...] = ()   # new players waiting for the button to pass

    @property
    def dead_button(self) -> bool:
        return self.button not in self.dealt and self.button not in self.waiting

    @property
    def dead_sb(self) -> bool:
        return self.sb not in self.dealt

    def to_dict(self) -> dict:
        return {"button": self.button, "sb": self.sb, "bb": self.bb, "dealt": list(self.dealt),
                "waiting": list(self.waiting)}

    @classmethod
    def from_dict(cls, d: dict) -> Positions:
        return cls(int(d["button"]), int(d["sb"]), int(d["bb"]), tuple(d.get("dealt", ())),
                   tuple(d.get("waiting", ())))


def next_seat(occupied: Collection[int], after: int, seats: int) -> int:
    """First occupied seat clockwise strictly after `after`."""
    for step in range(1, seats + 1):
        s = (after - 1 + step) % seats + 1
        if s in occupied:
            return s
    raise ValueError("no occupied seat")


def arc(start: int, end: int, seats: int) -> list[int]:
    """Seats clockwise from `start` to `end`, both included."""
    out = [start]
    while out[-1] != end:
        out.append(out[-1] % seats + 1)
        if len(out) > seats:
            break
    return out


def draw_button(occupied: Sequence[int], mode: str, rng: random.Random) -> tuple[int, dict]:
    """First button of a table: seat 1 (or the first occupied), a random seat, or a
    high-card draw (the cards are returned so the dealer can show them)."""
    seats = sorted(occupied)
    if mode == "seat1":
        return seats[0], {}
    if mode == "high_card":
        deck = [r + s for r in RANKS for s in SUITS]
        cards = dict(zip(seats, rng.sample(deck, len(seats)), strict=False))

        def rank(c: str) -> tuple[int, int]:
            return RANKS.index(c[0]), -SUITS.index(c[1])

        return max(seats, key=lambda s: rank(cards[s])), cards
    return rng.choice(seats), {}


def first_hand(occupied: Collection[int], button: int, seats: int) -> Positions:
    """Positions for a table's first hand once the button is placed."""
    occ = set(occupied)
    if len(occ) == 2:
        other = next_seat(occ, button, seats)
        return Positions(button, button, other, tuple(sorted(occ)))
    sb = next_seat(occ, button, seats)
    bb = next_seat(occ, sb, seats)
    return Positions(button, sb, bb, tuple(sorted(occ)))


WAITS = ("between", "button_and_sb")


def next_hand(prev: Positions, occupied: Collection[int], seats: int, *, dead_button: bool,
              newcomers: Collection[int] = (), waits: str = "between") -> Positions:
    """Positions for the hand after `prev` with these seats occupied now.

    `waits` says which newcomers sit out until the button passes: "between" only
    those strictly between the button and the small blind (TDA 9), "button_and_sb"
    also those on the button or small-blind seat (Sheridan's r.10).
    """
    if waits not in WAITS:
        raise ValueError(f"unknown newcomer rule {waits!r}")
    occ = set(occupied)
    if len(occ) < 2:
        raise ValueError("a hand needs two players")
    fresh = occ.intersection(newcomers)   # newcomers seated now: only they may wait
    waiting: set[int] = set()
    for _ in range(seats):
        live = occ - waiting if waiting else occ
        button, sb, bb = _heads_up(prev, live, seats) if len(live) == 2 else (
            _dead(prev, live, seats) if dead_button else _moving(prev, live, seats))
        blocked = _waiting_seats(button, sb, seats, waits) & fresh & live if fresh else fresh
        if not blocked or len(live - blocked) < 2:
            return Positions(button, sb, bb, tuple(sorted(live)),
                             tuple(sorted(waiting)) if waiting else ())
        waiting |= blocked
    raise AssertionError("unreachable")


Blinds = tuple[int, int, int]   # button, small blind, big blind


def _waiting_seats(button: int, sb: int, seats: int, waits: str) -> set[int]:
    """Seats where a newcomer may not be dealt in this hand."""
    seats_ = arc(button, sb, seats)
    return set(seats_) if waits == "button_and_sb" else set(seats_[1:-1])


def _dead(prev: Positions, occ: set[int], seats: int) -> Blinds:
    return prev.sb, prev.bb, next_seat(occ, prev.bb, seats)


def _moving(prev: Positions, occ: set[int], seats: int) -> Blinds:
    button = next_seat(occ, prev.button, seats)
    sb = next_seat(occ, button, seats)
    bb = next_seat(occ, sb, seats)
    return button, sb, bb


def _heads_up(prev: Positions, occ: set[int], seats: int) -> Blinds:
    """TDA 34: the small blind is the button; nobody takes the big blind twice running."""
    bb = next_seat(occ, prev.bb, seats)
    button = next_seat(occ, bb, seats)
    return button, button, bb


def next_big_blind(prev: Positions, occupied: Collection[int], seats: int) -> int | None:
    """The seat due the big blind on the coming hand (the player TDA 10 moves)."""
    occ = set(occupied)
    if not occ:
        return None
    return next_seat(occ, prev.bb, seats)


def blinds_reach_empty_seat(prev: Positions | None, occupied: Collection[int],
                            seats: int) -> bool:
    """TDA 2024 r.11D: a short table's blinds are affected once its next hand has the big
    blind move onto an empty seat (the seat after the last big blind is empty) or a dead
    small blind or button. Before its first hand a table counts as affected."""
    if prev is None:
        return True
    occ = set(occupied)
    return prev.bb % seats + 1 not in occ or prev.bb not in occ or prev.sb not in occ


def worst_open_seat(prev: Positions | None, occupied: Collection[int], seats: int,
                    rng: random.Random) -> int:
    """TDA 10A: the open seat that takes the big blind soonest, never the small blind.

    The seat just after last hand's big blind pays the big blind next; the big-blind
    seat itself would be the small blind. With no hand played yet, any open seat.
    """
    occ = set(occupied)
    open_seats = [s for s in range(1, seats + 1) if s not in occ]
    if not open_seats:
        raise ValueError("table is full")
    if prev is None:
        return rng.choice(open_seats)
    for step in range(1, seats):
        s = (prev.bb - 1 + step) % seats + 1
        if s not in occ:
            return s
    return open_seats[0]
