"""One simulated hand at one table: blinds and antes from real stacks, then now and
then two players get it all in and the shorter stack that loses busts."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from kiosk.core.calc.button import Positions
from kiosk.rules.structure import Period


@dataclass(slots=True)
class Hand:
    """A hand in play: who was dealt in, their stacks before the blinds, the pot."""

    number: int
    period: int                                           # the clock's period at the deal
    dealt: dict[int, str]                                 # seat -> player dealt in
    start: dict[int, int] = field(default_factory=dict)   # seat -> stack before blinds
    pot: int = 0
    report: str = ""                                      # the hand_started report's id
    pos: Positions | None = None                          # its button and blinds


@dataclass(slots=True)
class Outcome:
    """What happened at the table: the all-in (if any) and who went out to whom."""

    all_in: int | None = None                                # seat that moved all-in
    busted: list[int] = field(default_factory=list)
    beaten_by: dict[int, int] = field(default_factory=dict)  # busted seat -> winner's seat


def post_blinds(chips: dict[str, int], hand: Hand, pos: Positions, period: Period) -> None:
    """Take the small and big blind (with a big-blind ante) and antes from the stacks
    (`hand.start` already holds each dealt seat's stack)."""
    dealt = hand.dealt
    pot = 0
    posts = [(pos.bb, period.bb + period.bb_ante)]
    if not pos.dead_sb:
        posts.append((pos.sb, period.sb))
    if period.ante:
        posts += [(seat, period.ante) for seat in dealt]
    for seat, amount in posts:
        payer = dealt.get(seat)
        if payer is not None:
            paid = min(amount, chips[payer])
            chips[payer] -= paid
            pot += paid
    hand.pot = pot


def refund(chips: dict[str, int], hand: Hand, period: Period) -> None:
    """A hand that never was (its start refused): what each player posted, back."""
    assert hand.pos is not None
    stacks = {pid: hand.start[seat] for seat, pid in hand.dealt.items()}
    post_blinds(stacks, Hand(hand.number, hand.period, hand.dealt), hand.pos, period)
    for seat, pid in hand.dealt.items():
        chips[pid] = chips.get(pid, 0) + hand.start[seat] - stacks[pid]


def showdown(rng: random.Random, chips: dict[str, int], hand: Hand, live: dict[int, str],
             bb: int) -> Outcome:
    """Play the hand out among the `live` seats (those still seated since the deal;
    `hand.start` holds exactly their stacks)."""
    out = Outcome()
    seats = list(live)
    pot = hand.pot
    if len(seats) < 2:
        return out
    avg_bbs = sum(hand.start.values()) / len(seats) / max(1, bb)
    # seats blinded to nothing: rare, so looked for only when some stack is empty
    broke = [] if all(map(chips.__getitem__, live.values())) else \
        [s for s, pid in live.items() if not chips[pid]]
    if broke or rng.random() < min(0.6, 0.05 + 3.0 / max(avg_bbs, 1.0)):
        a = broke[0] if broke else rng.choice(seats)
        b = rng.choice([s for s in seats if s != a])
        out.all_in = a
        risk = min(chips[live[a]], chips[live[b]])
        win, lose = (a, b) if rng.random() < 0.5 else (b, a)
        chips[live[win]] += risk + pot
        chips[live[lose]] -= risk
        pot = 0
        if chips[live[lose]] == 0:
            out.busted.append(lose)
            out.beaten_by[lose] = win
    taker = None
    if pot:
        taker = rng.choice(seats)
        chips[live[taker]] += pot
    # a player blinded to nothing is out too (only a seat broke before the showdown can
    # be left with nothing and not have lost the all-in)
    for seat in broke:
        if chips[live[seat]] == 0 and seat not in out.beaten_by:
            out.busted.append(seat)
            out.beaten_by[seat] = taker if taker is not None and chips[live[taker]] \
                else next(s for s in seats if chips[live[s]])
    return out
