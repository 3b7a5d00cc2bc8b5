"""Prize pool and payout tables, in whole currency units that sum exactly to the pool.

Every entry (first entry, re-entry or rebuy, all sold at the same price) splits into
prize money, bounty money, the house fee and the staff share; add-ons go to the prize
pool only. A guarantee tops the pool up (the overlay). The payout table is chosen per
event: a standard table by field size, a percent of the field paid on a geometric
curve, winner-take-all, or shares imported from CSV. Prizes are rounded down to the
event's unit and whatever rounding leaves over goes to first place, so the places
never pay more than the pool and the table stays non-increasing.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_

TABLES = ("standard", "percent", "wta", "shares")
BOUNTY_MODES = ("", "fixed", "pko")
SHARE_UNIT = 10_000   # imported shares are in basis points: 10,000 = the whole pool

# (largest field, shares in basis points): the standard table by field size
STANDARD: tuple[tuple[int, tuple[int, ...]], ...] = (
    (5, (10_000,)),
    (10, (6_500, 3_500)),
    (20, (5_000, 3_000, 2_000)),
    (30, (4_500, 2_700, 1_700, 1_100)),
    (45, (4_000, 2_500, 1_600, 1_100, 800)),
    (60, (3_600, 2_300, 1_500, 1_100, 850, 650)),
    (80, (3_300, 2_100, 1_400, 1_050, 850, 700, 600)),
    (100, (3_100, 2_000, 1_350, 1_000, 800, 650, 580, 520)),
)


@dataclass(frozen=True)
class PrizeRules:
    """How one event turns money taken into prizes (all amounts per entry, integers)."""

    buy_in: int = 0              # to the prize pool, per entry, re-entry and rebuy
    fee: int = 0                 # to the house
    staff: int = 0               # to the dealers and staff
    bounty: int = 0              # to the bounty pool (the bounty on the entrant's head)
    bounty_mode: str = ""        # "" (none) | "fixed" | "pko"
    pko_percent: int = 50        # PKO: share of a bounty paid in cash; the rest goes on
    addon: int | None = None     # add-on prize money; None: the same as buy_in
    guarantee: int = 0           # the prize pool is at least this (overlay paid by house)
    table: str = "standard"      # "standard" | "percent" | "wta" | "shares"
    percent_paid: float = 15.0   # "percent": share of the field paid
    shares: tuple[int, ...] = () # "shares": basis points per place, summing to 10,000
    rounding: int = 1            # prizes are multiples of this (first place takes the rest)
    seat_value: int = 0          # satellites: a seat in the target event costs this
    target_event: str = ""       # satellites: the event the seats are for

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> PrizeRules:
        d = dict(d or {})
        names = {f.name for f in fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise RuleError(M_("payout.unknown_settings", "unknown prize setting(s): {names}",
                               names=', '.join(sorted(unknown))))
        if "shares" in d:
            d["shares"] = tuple(d["shares"])
        rules = cls(**d)
        rules.check()
        return rules

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["shares"] = list(self.shares)
        return d

    def check(self) -> None:
        for name in ("buy_in", "fee", "staff", "bounty", "guarantee", "seat_value"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise RuleError(M_("payout.whole_amount", "{name} must be a whole amount >= 0, "
                                   "got {got}", name=name, got=repr(v)))
        if self.addon is not None and (not isinstance(self.addon, int) or self.addon < 0):
            raise RuleError(M_("payout.whole_amount", "{name} must be a whole amount >= 0, "
                               "got {got}", name="addon", got=repr(self.addon)))
        if not isinstance(self.rounding, int) or self.rounding < 1:
            raise RuleError(M_("payout.rounding", "rounding must be a whole amount >= 1, got "
                               "{got}", got=repr(self.rounding)))
        if self.table not in TABLES:
            raise RuleError(M_("payout.table_unknown", "payout table must be one of {tables}",
                               tables=', '.join(TABLES)))
        if self.bounty_mode not in BOUNTY_MODES:
            raise RuleError(M_("payout.bounty_mode", "bounty_mode must be fixed or pko (or empty)"))
        if bool(self.bounty_mode) != bool(self.bounty):
            raise RuleError(M_("payout.bounty_both", "a bounty event needs both bounty_mode and a "
                               "bounty amount"))
        if not 0 <= self.pko_percent <= 100:
            raise RuleError(M_("payout.pko_percent", "pko_percent must be 0-100"))
        if not 0 < self.percent_paid <= 100:
            raise RuleError(M_("payout.percent_paid", "percent_paid must be above 0 and at most "
                               "100"))
        if self.table == "shares":
            check_shares(self.shares)

    @property
    def entry_price(self) -> int:
        return self.buy_in + self.bounty + self.fee + self.staff

    @property
    def addon_prize(self) -> int:
        return self.buy_in if self.addon is None else self.addon


@dataclass(frozen=True)
class Pool:
    """Where the money taken went."""

    collected: int
    prize_pool: int
    bounty_pool: int
    fees: int
    staff: int
    overlay: int

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def pool(rules: PrizeRules, entries: int, addons: int = 0, carried: int = 0) -> Pool:
    """The money of `entries` buy-ins (re-entries and rebuys included) and `addons`, plus
    prize money `carried` in from other events (a Day 2's flights: collected there)."""
    prize = entries * rules.buy_in + addons * rules.addon_prize + carried
    overlay = max(0, rules.guarantee - prize)
    return Pool(collected=entries * rules.entry_price + addons * rules.addon_prize,
                prize_pool=prize + overlay, bounty_pool=entries * rules.bounty,
                fees=entries * rules.fee, staff=entries * rules.staff, overlay=overlay)


def check_shares(shares: Sequence[int]) -> None:
    if not shares:
        raise RuleError(M_("payout.no_place", "a payout table needs at least one place"))
    if any(not isinstance(s, int) or s <= 0 for s in shares):
        raise RuleError(M_("payout.share_positive", "every place's share must be a positive "
                           "number of basis points"))
    if sum(shares) != SHARE_UNIT:
        total = sum(shares) / 100
        raise RuleError(M_("payout.shares_sum", "shares add up to {percent:num} %, not 100 %",
                           percent=int(total) if total.is_integer() else total))
    if any(a < b for a, b in itertools.pairwise(shares)):
        raise RuleError(M_("payout.lower_pays_more", "a lower place cannot pay more than a higher "
                           "one"))


def shares_for(rules: PrizeRules, field_size: int) -> list[int]:
    """Relative weights per place (index 0 = first) for a field of `field_size`."""
    if field_size <= 0:
        return []
    if rules.table == "wta":
        return [1]
    if rules.table == "shares":
        return list(rules.shares[:field_size])
    if rules.table == "standard":
        for largest, shares in STANDARD:
            if field_size <= largest:
                return list(shares)
    return _geometric(field_size, rules.percent_paid)


def _geometric(field_size: int, percent_paid: float) -> list[int]:
    """Top `percent_paid` of the field, each place a fixed ratio of the one above."""
    paid = max(1, min(field_size, math.ceil(field_size * percent_paid / 100)))
    ratio = 0.78 if paid < 10 else 0.86
    scale = 1_000_000
    return [max(round(scale * ratio ** i), scale // paid) for i in range(paid)]


def distribute(total: int, weights: Sequence[int], unit: int = 1) -> list[int]:
    """Split `total` by integer `weights`: multiples of `unit`, the remainder to the first."""
    if not weights or total <= 0:
        return []
    w = sum(weights)
    out = [(total * x // w) // unit * unit for x in weights]
    out[0] += total - sum(out)
    while len(out) > 1 and out[-1] == 0:   # a place that would pay nothing is not paid
        out.pop()
    return out


def payout_table(rules: PrizeRules, prize_pool: int, field_size: int) -> list[int]:
    """Prize per place, index 0 = winner; sums exactly to `prize_pool`."""
    if rules.seat_value:
        return satellite_table(rules.seat_value, prize_pool)
    return distribute(prize_pool, shares_for(rules, field_size), rules.rounding)


def satellite_table(seat_value: int, prize_pool: int) -> list[int]:
    """Satellites: every paid place wins a seat; what is left is cash for the next place."""
    seats, rest = divmod(prize_pool, seat_value)
    return [seat_value] * seats + ([rest] if rest else [])


def seats_won(rules: PrizeRules, payouts: Sequence[int]) -> int:
    return sum(1 for p in payouts if p == rules.seat_value) if rules.seat_value else 0


def split_ties(payouts: Sequence[int], places: Mapping[str, int]) -> dict[str, int]:
    """Each player's prize; players sharing a place share the prizes of the places they
    span (TDA RP-8A), to the unit, the odd units to the first by player id."""
    by_place: dict[int, list[str]] = {}
    for pid, place in places.items():
        by_place.setdefault(place, []).append(pid)
    out: dict[str, int] = {}
    for place, pids in by_place.items():
        pids.sort(key=pid_key)
        money = sum(payouts[place - 1: place - 1 + len(pids)])
        share, odd = divmod(money, len(pids))
        for i, pid in enumerate(pids):
            out[pid] = share + (1 if i < odd else 0)
    return out


def pid_key(pid: str) -> tuple[int, str]:
    """Player ids in the order people read them: p2 before p10."""
    digits = "".join(ch for ch in pid if ch.isdigit())
    return (int(digits) if digits else 0, pid)


def parse_shares_csv(text: str) -> tuple[int, ...]:
    """An imported payout table: `place,percent` rows (percent to two decimals)."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if rows and rows[0] and not rows[0][0].strip().isdigit():
        rows = rows[1:]   # a header
    shares: dict[int, int] = {}
    for n, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip():
            continue
        if len(row) < 2:
            raise RuleError(M_("payout.csv_expected", "line {line}: expected place,percent",
                               line=n))
        try:
            place = int(row[0])
            bp = Decimal(row[1].strip().rstrip("%")) * 100
        except (ValueError, InvalidOperation):
            raise RuleError(M_("payout.csv_row", "line {line}: '{row}' is not place,percent",
                               line=n, row=','.join(row))) from None
        if bp != bp.to_integral_value():
            raise RuleError(M_("payout.csv_decimals", "line {line}: percentages take at most two "
                               "decimals", line=n))
        if place in shares:
            raise RuleError(M_("payout.csv_place_twice", "line {line}: place {place} appears twice",
                               line=n, place=place))
        shares[place] = int(bp)
    if sorted(shares) != list(range(1, len(shares) + 1)):
        raise RuleError(M_("payout.places_gaps", "places must run 1, 2, 3, ... without gaps"))
    out = tuple(shares[p] for p in range(1, len(shares) + 1))
    check_shares(out)
    return out


@dataclass
class MoneyView:
    """What a screen shows about the money at one moment."""

    prize_pool: int
    payouts: list[int]
    places_paid: int
    bubble: bool
    in_the_money: bool
    bounty_pool: int
    locked: bool
    pool: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def payouts(entries: int, buy_in: int, percent_paid: float = 15.0) -> list[int]:
    """Prize per place for a plain event: `entries` x `buy_in`, `percent_paid` paid."""
    rules = PrizeRules(buy_in=buy_in, table="percent", percent_paid=percent_paid)
    return payout_table(rules, pool(rules, entries).prize_pool, entries)
