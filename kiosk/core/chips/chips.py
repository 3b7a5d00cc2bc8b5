"""Chips: which denominations leave at a break, the colour-up of each profile, and the
reconciliation of the room's counted stacks against the chips that should be in play.

Colour-ups by profile (`chip_race`):
- "race" (TDA 2017 r.24, TDA 2015 r.23, Irish 23): one card per odd chip, dealt from
  seat 1; the highest cards win one chip of the smallest denomination left, at most one
  per player; a player left with nothing gets one such chip on top (`rescue = "extra"`).
- "race_by_card" (home rules after Roberts): one card per odd chip, each player all his
  cards before the next; each card in order of rank wins a chip, several per player
  allowed; a player left with nothing gets his chip before anyone else, out of the
  chips the race gives (`rescue = "first"`), and his cards win nothing more.
- "round_up" (Sheridan's r.13): no race: odd chips round up to the next denomination.
The number of chips a race gives is the odd chips' value in new chips, a remainder of
half a chip or more rounding up (the home rules say so; the TDA texts leave it open).

A race is worked out in three steps, so the dealer can race with real cards: `race`
(who is dealt how many cards, how many chips they win), the winners (entered by the
dealer, checked by `check_winners`, or drawn by `draw`), and `settle`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from kiosk.base.texts import M_, Mn_, Msg
from kiosk.rules.profile import ChipRaceRules
from kiosk.rules.structure import Structure

MAX_STACK = 10 ** 12
SUITS = "cdhs"          # clubs < diamonds < hearts < spades (S>H>D>C)
RANKS = "23456789TJQKA"


def card_name(card: int) -> str:
    """0..51 -> '2c'..'As'; rank first, then suit, so a higher number is a higher card."""
    return RANKS[card // 4 % 13] + SUITS[card % 4]


def blinds_from(structure: Structure, start: int) -> list[int]:
    """Every blind and ante of the levels from period `start` on."""
    return [a for p in structure.periods[start:] if not p.is_break
            for a in (p.sb, p.bb, p.ante, p.bb_ante) if a]


def smallest_needed(chips: Sequence[int], amounts: Iterable[int]) -> int:
    """The largest denomination that still pays every blind and ante exactly."""
    amounts = list(amounts)
    fits = [d for d in sorted(chips) if all(a % d == 0 for a in amounts)]
    return fits[-1] if fits else min(chips)


def smallest_in_play(chips: Sequence[int], structure: Structure, colour_at: int) -> int:
    """The smallest chip of `chips` on the tables after the colour-up at break
    `colour_at` (-1: before any): the one the blinds from there on still need."""
    return smallest_needed(chips, blinds_from(structure, colour_at + 1))


def leaving_at(chips: Sequence[int], structure: Structure, period: int) -> tuple[list[int], int]:
    """Denominations that leave play at the break `period`, and the smallest one left."""
    if not chips or not structure.periods[period].is_break:
        return [], min(chips) if chips else 0
    prev_break = max((i for i in range(period) if structure.periods[i].is_break), default=-1)
    before = smallest_needed(chips, blinds_from(structure, prev_break + 1))
    after = smallest_needed(chips, blinds_from(structure, period + 1))
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
    won: dict[int, int] = field(default_factory=dict)           # seat -> chips won by cards
    rescued: list[int] = field(default_factory=list)            # seats not raced out
    winners: list[int] = field(default_factory=list)            # seats as their cards won

    @property
    def removed(self) -> int:
        """Chips taken out of play (negative when the colour-up added chips)."""
        return sum(self.before.values()) - sum(self.after.values())


@dataclass(frozen=True)
class Race:
    """One table's race before its outcome: what the dealer deals and how many chips
    the cards win. The dealer's entry (or the director's draw) then settles it."""

    stacks: dict[int, int]
    new_chip: int
    base: dict[int, int]          # each stack with its odd chips taken off
    deal_cards: dict[int, int]    # seat -> cards dealt, one per odd chip, in deal order
    to_give: int                  # chips of `new_chip` the cards win
    max_each: int | None          # chips one player may win (None: no limit)
    rules: ChipRaceRules

    @property
    def needs_entry(self) -> bool:
        """Whether cards decide anything (a race that gives no chip needs no dealer)."""
        return self.to_give > 0


def race(stacks: Mapping[int, int], removed: Sequence[int], new_chip: int,
         rules: ChipRaceRules) -> Race:
    """The race a table's counted `stacks` call for when the `removed` denominations
    leave play and `new_chip` is the smallest left. Chips that make a whole new chip
    are coloured up directly; the rest are the odd chips, one card each, dealt from
    `rules.start_seat`. The race gives their value in new chips, half a chip or more
    rounding up. Round-up profiles and colour-ups without odd chips deal nothing."""
    seats = sorted(stacks, key=lambda s: ((s - rules.start_seat) % 10, s))
    odd = {s: stacks[s] % new_chip if removed else 0 for s in seats}
    base = {s: stacks[s] - odd[s] for s in seats}
    total = sum(odd.values())
    if rules.mode == "round_up" or not total:
        return Race({s: stacks[s] for s in seats}, new_chip, base, {}, 0, None, rules)
    deal = {s: odd_chips(odd[s], removed) for s in seats if odd[s]}
    to_give = total // new_chip + (1 if 2 * (total % new_chip) >= new_chip else 0)
    return Race({s: stacks[s] for s in seats}, new_chip, base, deal, to_give,
                1 if rules.max_one_chip else None, rules)


def check_winners(r: Race, winners: object) -> list[Msg]:
    """Reasons a dealer's entry cannot be the race's outcome (empty when it can):
    `winners` are seats, highest card first, one per chip the race gives."""
    if not isinstance(winners, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in winners):
        return [M_("race.winners_shape", "the winners must be a list of seat numbers")]
    bad = [M_("race.no_card", "seat {seat} holds no card in this race", seat=s)
           for s in sorted(set(winners)) if s not in r.deal_cards]
    if len(winners) != r.to_give:
        bad.append(Mn_("race.gives", "the race gives {n} chip: enter {n} winning card, not "
                       "{got}", "the race gives {n} chips: enter {n} winning cards, not {got}",
                       r.to_give, got=len(winners)))
    for s in sorted(set(winners) & set(r.deal_cards)):
        n = winners.count(s)
        if r.max_each is not None and n > r.max_each:
            bad.append(Mn_("race.at_most", "seat {seat} wins at most {n} chip (rule {rule}): "
                           "the next highest card wins", "seat {seat} wins at most {n} chips "
                           "(rule {rule}): the next highest card wins", r.max_each, seat=s,
                           rule=r.rules.rule or r.rules.mode))
        elif n > r.deal_cards[s]:
            bad.append(Mn_("race.holds", "seat {seat} holds {n} card, not {got} winning ones",
                           "seat {seat} holds {n} cards, not {got} winning ones",
                           r.deal_cards[s], seat=s, got=n))
    return bad


def _rescue_first(r: Race, winners: list[int]) -> tuple[list[int], list[int]]:
    """Home rules: a player with nothing after the race gets his chip before anyone
    else, out of the chips the race gives. Rescues shorten the list of card winners,
    which may leave another player with nothing: repeated until nobody is. A rescued
    player's cards win nothing more (his chip is the rescue)."""
    at_risk = [s for s in r.deal_cards if r.base[s] == 0]
    rescued: list[int] = []
    while True:
        keep = [s for s in winners if s not in rescued][:max(r.to_give - len(rescued), 0)]
        more = [s for s in at_risk if s not in rescued and s not in keep]
        if not more:
            return keep, rescued
        rescued += more


def settle(r: Race, winners: list[int], cards: Mapping[int, list[str]] | None = None
           ) -> ColourUp:
    """The colour-up once the cards have spoken: `winners` as checked by
    `check_winners`. TDA/Irish: a player left with nothing gets one new chip on top
    of the race (never raced out); home rules: his chip comes first (`_rescue_first`).
    Round-up profiles: every odd stack rounds up to the next new chip."""
    res = ColourUp(dict(r.stacks), dict(r.base), r.new_chip, dict(cards or {}),
                   winners=list(winners))
    if r.rules.mode == "round_up":
        res.won = {s: 1 for s in r.stacks if r.stacks[s] != r.base[s]}
        res.after = {s: r.base[s] + r.new_chip * res.won.get(s, 0) for s in r.stacks}
        return res
    given, rescued = list(winners), list[int]()
    if r.rules.nobody_raced_out and r.rules.rescue == "first":
        given, rescued = _rescue_first(r, given)
    for s in given:
        res.won[s] = res.won.get(s, 0) + 1
    for s in r.stacks:
        res.after[s] = r.base[s] + (res.won.get(s, 0) + (s in rescued)) * r.new_chip
        if r.rules.nobody_raced_out and res.after[s] == 0 and r.stacks[s] > 0:
            res.after[s] = r.new_chip   # TDA 24A: never raced out of play
            rescued.append(s)
    res.rescued = sorted(rescued)
    return res


def draw(r: Race, rng: random.Random) -> tuple[dict[int, list[str]], list[int]]:
    """The director's draw: the cards dealt from a shuffled pack (more packs when one
    is not enough), each player all his cards before the next, and the winners as the
    dealer would enter them: highest card first (the earlier dealt on a tie between
    packs), a player at his limit passed over."""
    return deal(r.deal_cards, r.to_give, r.max_each, rng)


def deal(deal_cards: Mapping[int, int], to_give: int, max_each: int | None,
         rng: random.Random) -> tuple[dict[int, list[str]], list[int]]:
    """A race dealt as a dealer deals it, from what a table's plan says of it (the cards
    each seat gets, the chips to give, the limit per player): the cards by seat, and the
    seats whose cards win, as the dealer enters them."""
    n_cards = sum(deal_cards.values())
    pack = [c for _ in range(-(-n_cards // 52)) for c in range(52)]
    rng.shuffle(pack)
    dealt: list[tuple[int, int, int]] = []   # (card, deal order, seat)
    cards: dict[int, list[str]] = {}
    for s, n in deal_cards.items():
        for _ in range(n):
            card = pack[len(dealt)]
            dealt.append((card, len(dealt), s))
            cards.setdefault(s, []).append(card_name(card))
    winners: list[int] = []
    for _card, _order, s in sorted(dealt, key=lambda c: (-c[0], c[1])):
        if len(winners) == to_give:
            break
        if max_each is None or winners.count(s) < max_each:
            winners.append(s)
    return cards, winners


def colour_up(stacks: Mapping[int, int], removed: Sequence[int], new_chip: int,
              rules: ChipRaceRules, rng: random.Random) -> ColourUp:
    """Colour up one table by the director's draw: `stacks` by seat, the `removed`
    denominations, and the smallest denomination left (`new_chip`)."""
    r = race(stacks, removed, new_chip, rules)
    cards, winners = draw(r, rng)
    return settle(r, winners, cards)


# ------------------------------------------------------------------ chip counts
def check_stacks(stacks: Mapping[int, int], seats: int = 10) -> list[Msg]:
    """Reasons a table's entered stacks cannot be taken (empty when they can)."""
    bad = []
    for seat, stack in stacks.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= seats:
            bad.append(M_("count.not_a_seat", "seat {seat} is not a seat 1-{seats}",
                          seat=repr(seat), seats=seats))
        elif not isinstance(stack, int) or isinstance(stack, bool) or not 0 <= stack < MAX_STACK:
            bad.append(M_("count.not_chips", "seat {seat}: {stack} is not a whole number of "
                          "chips 0-{most:chips}", seat=seat, stack=repr(stack),
                          most=MAX_STACK))
    return bad


@dataclass
class Reconciliation:
    """The room's counted chips against the chips that should be in play."""

    expected: int
    counted: int
    tables_counted: int
    flags: dict[int, list[str]]     # table -> what is wrong there (English)
    # tables counted in a colour-up whose race the dealer still owes: their stacks still
    # hold the chips that leave, so they are not flagged for it
    races_pending: list[int] = field(default_factory=list)
    notes: dict[int, list[Msg]] = field(default_factory=dict)   # the flags as messages

    @property
    def difference(self) -> int:
        return self.counted - self.expected

    @property
    def ok(self) -> bool:
        return self.difference == 0 and not self.flags and not self.races_pending

    def to_dict(self) -> dict:
        return {"expected": self.expected, "counted": self.counted,
                "difference": self.difference, "tables_counted": self.tables_counted,
                "ok": self.ok, "flags": {str(t): f for t, f in sorted(self.flags.items())},
                "races_pending": sorted(self.races_pending)}


def reconcile(expected: int, counts: Mapping[int, Mapping[int, int]],
              seated: Mapping[int, Iterable[int]], smallest_chip: int = 1,
              racing: Iterable[int] = ()) -> Reconciliation:
    """Check every table's count: missing tables, seats counted empty or seated players
    not counted, stacks of zero, stacks that no chips could make, stacks above all the
    chips in play; then the room's total against `expected`. A table `racing` (its
    colour-up race not entered yet) still holds the chips that leave: its stacks are
    not held to the smallest chip left."""
    notes: dict[int, list[Msg]] = {}
    counted = 0
    racing = set(racing)
    for table, occupied in seated.items():
        stacks = counts.get(table)
        if stacks is None:
            notes[table] = [M_("count.none_yet", "no count yet")]
            continue
        counted += sum(stacks.values())
        why = _seat_notes(stacks, set(occupied), expected,
                          smallest_chip if table not in racing else 1)
        if why:
            notes[table] = why
    for table in counts:
        if table not in seated:
            notes.setdefault(table, []).append(M_("count.not_in_play",
                                                  "counted but not in play"))
    flags = {t: [str(m) for m in ms] for t, ms in notes.items()}
    return Reconciliation(expected, counted, sum(1 for t in seated if t in counts), flags,
                          sorted(racing & set(seated)), notes)


def _seat_notes(stacks: Mapping[int, int], occupied: set[int], expected: int,
                smallest_chip: int) -> list[Msg]:
    """What is wrong with one table's count, seat by seat."""
    why = [M_("count.seat_empty", "seat {seat} counted but empty", seat=s)
           for s in sorted(set(stacks) - occupied)]
    why += [M_("count.seat_missing", "seat {seat} not counted", seat=s)
            for s in sorted(occupied - set(stacks))]
    for s in sorted(set(stacks) & occupied):
        v = stacks[s]
        if v == 0:
            why.append(M_("count.no_chips", "seat {seat}: no chips for a seated player",
                          seat=s))
        elif v > expected:
            why.append(M_("count.too_many", "seat {seat}: {stack:chips} is more than all "
                          "{expected:chips} chips in play", seat=s, stack=v,
                          expected=expected))
        elif smallest_chip > 1 and v % smallest_chip:
            why.append(M_("count.not_multiple", "seat {seat}: {stack:chips} is not a "
                          "multiple of the {chip} chip", seat=s, stack=v, chip=smallest_chip))
    return why
