"""Bounties: fixed (the whole bounty to the eliminator) and progressive knockouts.

In a progressive knockout (PKO) the eliminator takes part of the bounty in cash and
the rest goes onto his own head. A pot split between several winners splits the
bounty: equal parts, the odd units to the eliminators in the order given (seat order
from the table). A bounty belongs to one entry; once paid it is gone, so it can never
be paid twice, and a rebuy or re-entry buys a fresh one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Award:
    eliminator: str
    cash: int      # paid to the eliminator now
    head: int      # added to the bounty on the eliminator's own head (PKO)


def split(amount: int, parts: int) -> list[int]:
    """`amount` in `parts` integer shares, the odd units to the first shares."""
    share, odd = divmod(amount, parts)
    return [share + (1 if i < odd else 0) for i in range(parts)]


def knockout(head: int, eliminators: Sequence[str], mode: str, pko_percent: int = 50
             ) -> list[Award]:
    """How the bounty `head` on a busted entry is paid to its eliminators."""
    if not eliminators:
        raise ValueError("a knockout needs at least one eliminator")
    if len(set(eliminators)) != len(eliminators):
        raise ValueError("an eliminator is named twice")
    out = []
    for pid, part in zip(eliminators, split(head, len(eliminators)), strict=True):
        cash = part if mode == "fixed" else part * pko_percent // 100
        out.append(Award(pid, cash, part - cash))
    return out
