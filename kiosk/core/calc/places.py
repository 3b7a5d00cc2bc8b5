"""Finishing places from groups of busts, with each profile's tie rules.

A group is every bust on one hand: one table's hand in normal play, or one round of
hand-for-hand across all tables; a player out without being dealt in that hand (the
floor's bust between hands, of a player who sat down since) is a group alone. Within a
group, "stack" orders players by the chips they started the hand with (equal stacks tie
for the higher place); "tie" gives the whole group the group's highest place (TDA RP-8:
they share it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.rules.profile import BustRules


def group_key(table: int, hand: int, life: int, h4h_round: int | None) -> tuple:
    """The group a bust joins: the round of hand-for-hand (`h4h_round`), else the table's
    hand. A table broken and opened again numbers its hands from 0 again, so a later
    life's hands carry it (`life`): a bust there never joins a group of an earlier life,
    out hours before, and never shares their place."""
    if h4h_round is not None:
        return ("h4h", h4h_round)
    return ("hand", table, hand, life) if life else ("hand", table, hand)


@dataclass(frozen=True)
class Bust:
    player: str
    table: int
    stack: int | None   # chips at the start of the hand, when the dealer gave them


def rank_group(group: Sequence[Bust], rules: BustRules, hand_for_hand: bool) -> list[int]:
    """Rank within a group, 0 = best finish; equal ranks tie."""
    same_table_rule = rules.hand_for_hand_same_table if hand_for_hand else rules.same_table
    tables = {b.table for b in group}
    if len(tables) > 1 and rules.across_tables == "tie":
        # order inside each table, then tie across tables level by level (Irish r.74)
        ranks = [0] * len(group)
        for t in tables:
            idx = [i for i, b in enumerate(group) if b.table == t]
            for i, r in zip(idx, _stack_ranks([group[i] for i in idx], same_table_rule),
                            strict=True):
                ranks[i] = r
        return ranks
    rule = same_table_rule if len(tables) == 1 else "stack"
    return _stack_ranks(list(group), rule)


def _stack_ranks(group: list[Bust], rule: str) -> list[int]:
    if rule == "tie" or any(b.stack is None for b in group):
        return [0] * len(group)
    order = sorted({b.stack for b in group if b.stack is not None}, reverse=True)
    # dense ranks by stack, then converted to "players ahead" so ties share the higher place
    ahead = {s: sum(1 for b in group if (b.stack or 0) > s) for s in order}
    return [ahead[b.stack] for b in group if b.stack is not None]


def group_places(group: Sequence[Bust], alive_before: int, rules: BustRules,
                 hand_for_hand: bool) -> dict[str, int]:
    """Places for one group when `alive_before` players were left before it."""
    top = alive_before - len(group) + 1
    if len(group) == 1:   # most groups: one bust takes the group's place under every rule
        return {group[0].player: top}
    ranks = rank_group(group, rules, hand_for_hand)
    if len(group) > 1 and ranks and max(ranks) > 0 and not all(r == ranks[0] for r in ranks):
        # convert dense levels (across-table ties) into places: a level's place is top +
        # the number of players on better levels
        levels = sorted(set(ranks))
        better = {lv: sum(1 for r in ranks if r < lv) for lv in levels}
        return {b.player: top + better[r] for b, r in zip(group, ranks, strict=True)}
    return {b.player: top + r for b, r in zip(group, ranks, strict=True)}
