"""Chips: which denominations leave at a break, the colour-up of each profile, and the
reconciliation of the room's counted stacks against the chips that should be in play.

Colour-ups by profile (`chip_race.mode`):
- "race" (TDA 2017 r.24, TDA 2015 r.23, Irish 23): one card per odd chip, dealt from
  seat 1; the highest cards win one chip of the smallest denomination left, at most one
  per player; a player who would be raced out gets one such chip anyway.
- "race_by_card" (home rules after Roberts): one card per odd chip; each card in order
  of rank wins a chip, several per player allowed; a player left with nothing gets his
  chip before anyone else; a remainder of half a chip or more wins one more.
- "round_up" (Sheridan's r.13): no race: odd chips round up to the next denomination.
The number of chips a race awards is the odd chips' value in new chips, a remainder of
half a chip or more rounding up.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from kiosk.rules.profile import ChipRaceRules
from kiosk.rules.structure import Structure

MAX_STACK = 10 ** 12
SUITS = "cdhs"          # clubs < diamonds < hearts < spades (S>H>D>C)
RANKS = "23456789TJQKA"


def card_name(card: int) -> str:
    """0..51 -> '2c'..'As'; rank first, then suit, so a higher number is a higher card."""
    return RANKS[card // 4 % 13] + SUITS[card % 4]


def _amounts(structure: Structure, start: int) -> list[int]:
    return [a for p in structure.periods[start:] if not p.is_break
            for a in (p.sb, p.bb, p.ante, p.bb_ante) if a]


def smallest_needed(chips: Sequence[int], amounts: Iterable[int]) -> int:
    """The largest denomination that still pays every blind and ante exactly."""
    amounts = list(amounts)
    fits = [d for d in sorted(chips) if all(a % d == 0 for a in amounts)]
    return fits[-1] if fits else min(chips)


def leaving_at(chips: Sequence[int], structure: Structure, period: int) -> tuple[list[int], int]:
    """Denominations that leave play at the break `period`, and the smallest one left."""
    if not chips or not structure.periods[period].is_break:
        return [], min(chips) if chips else 0
    prev_break = max((i for i in range(period) if structure.periods[i].is_break), default=-1)
    before = smallest_needed(chips, _amounts(structure, prev_break + 1))
    after = smallest_needed(chips, _amounts(structure, period + 1))
    return [d for d in sorted(chips) if before <= d < after], after


def odd_chips(value: int, removed: Sequence[int]) -> int:
    """How many chips of removed denominations make up `value`, largest first."""
    n = 0
    for d in sorted(removed, reverse=True):
        n += value // d
        value %= d
    return n + (1 if value else 0)


@dataclass
class ColourUp:
    """The outcome of one table's colour-up, for the dealer's walk-through and the log."""

    before: dict[int, int]
    after: dict[int, int]
    new_chip: int
    cards: dict[int, list[str]] = field(default_factory=dict)   # seat -> cards dealt
    won: dict[int, int] = field(default_factory=dict)           # seat -> chips won
    rescued: list[int] = field(default_factory=list)            # seats not raced out

    @property
    def removed(self) -> int:
        """Chips taken out of play (negative when the colour-up added chips)."""
        return sum(self.before.values()) - sum(self.after.values())


def colour_up(stacks: Mapping[int, int], removed: Sequence[int], new_chip: int,
              rules: ChipRaceRules, rng: random.Random) -> ColourUp:
    """Colour up one table: `stacks` by seat, the `removed` denominations, and the
    smallest denomination left (`new_chip`)."""
    seats = sorted(stacks, key=lambda s: ((s - rules.start_seat) % 10, s))
    odd = {s: stacks[s] % new_chip for s in seats}
    base = {s: stacks[s] - odd[s] for s in seats}
    res = ColourUp(dict(stacks), dict(base), new_chip)
    if not removed or not any(odd.values()):
        res.after = dict(stacks)
        return res
    if rules.mode == "round_up":
        res.after = {s: base[s] + (new_chip if odd[s] else 0) for s in seats}
        res.won = {s: 1 for s in seats if odd[s]}
        return res
    total = sum(odd.values())
    awards = total // new_chip + (1 if 2 * (total % new_chip) >= new_chip else 0)
    dealt: list[tuple[int, int, int]] = []   # (card, deal order, seat)
    n_cards = sum(odd_chips(odd[s], removed) for s in seats)
    decks = -(-n_cards // 52)
    pack = [c for _ in range(decks) for c in range(52)]
    rng.shuffle(pack)
    for s in seats:   # each player receives all his cards before the next (from seat 1)
        for _ in range(odd_chips(odd[s], removed)):
            card = pack[len(dealt)]
            dealt.append((card, len(dealt), s))
            res.cards.setdefault(s, []).append(card_name(card))
    won: dict[int, int] = {}
    if rules.nobody_raced_out and rules.mode == "race_by_card":
        for s in seats:   # Roberts: his chip comes first, out of the awards
            if base[s] == 0 and odd[s] and awards:
                won[s] = 1
                awards -= 1
                res.rescued.append(s)
    for _card, _order, s in sorted(dealt, key=lambda c: (-c[0], c[1])):
        if awards == 0:
            break
        if rules.max_one_chip and won.get(s):
            continue
        won[s] = won.get(s, 0) + 1
        awards -= 1
    for s in seats:
        res.after[s] = base[s] + won.get(s, 0) * new_chip
        if rules.nobody_raced_out and res.after[s] == 0 and stacks[s] > 0:
            res.after[s] = new_chip   # TDA 24A: never raced out of play
            res.rescued.append(s)
    res.won = won
    return res


# ------------------------------------------------------------------ chip counts
def check_stacks(stacks: Mapping[int, int], seats: int = 10) -> list[str]:
    """Reasons a table's entered stacks cannot be taken (empty when they can)."""
    bad = []
    for seat, stack in stacks.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= seats:
            bad.append(f"seat {seat!r} is not a seat 1-{seats}")
        elif not isinstance(stack, int) or isinstance(stack, bool) or not 0 <= stack < MAX_STACK:
            bad.append(f"seat {seat}: {stack!r} is not a whole number of chips 0-{MAX_STACK:,}")
    return bad


@dataclass
class Reconciliation:
    """The room's counted chips against the chips that should be in play."""

    expected: int
    counted: int
    tables_counted: int
    flags: dict[int, list[str]]     # table -> what is wrong there

    @property
    def difference(self) -> int:
        return self.counted - self.expected

    @property
    def ok(self) -> bool:
        return self.difference == 0 and not self.flags

    def to_dict(self) -> dict:
        return {"expected": self.expected, "counted": self.counted,
                "difference": self.difference, "tables_counted": self.tables_counted,
                "ok": self.ok, "flags": {str(t): f for t, f in sorted(self.flags.items())}}


def reconcile(expected: int, counts: Mapping[int, Mapping[int, int]],
              seated: Mapping[int, Iterable[int]], smallest_chip: int = 1) -> Reconciliation:
    """Check every table's count: missing tables, seats counted empty or seated players
    not counted, stacks of zero, stacks that no chips could make, stacks above all the
    chips in play; then the room's total against `expected`."""
    flags: dict[int, list[str]] = {}
    counted = 0
    for table, occupied in seated.items():
        stacks = counts.get(table)
        if stacks is None:
            flags[table] = ["no count yet"]
            continue
        counted += sum(stacks.values())
        occupied = set(occupied)
        why = [f"seat {s} counted but empty" for s in sorted(set(stacks) - occupied)]
        why += [f"seat {s} not counted" for s in sorted(occupied - set(stacks))]
        for s in sorted(set(stacks) & occupied):
            v = stacks[s]
            if v == 0:
                why.append(f"seat {s}: no chips for a seated player")
            elif v > expected:
                why.append(f"seat {s}: {v:,} is more than all {expected:,} chips in play")
            elif smallest_chip > 1 and v % smallest_chip:
                why.append(f"seat {s}: {v:,} is not a multiple of the {smallest_chip} chip")
        if why:
            flags[table] = why
    for table in counts:
        if table not in seated:
            flags.setdefault(table, []).append("counted but not in play")
    return Reconciliation(expected, counted, sum(1 for t in seated if t in counts), flags)
