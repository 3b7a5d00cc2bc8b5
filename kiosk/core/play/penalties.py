"""Penalties: missed hands and rounds (TDA 71), Irish r.30, and timed penalties."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.base.errors import RuleError
from kiosk.rules.profile import PenaltyRules


@dataclass(frozen=True)
class PenaltyDecision:
    hands: int = 0
    minutes: int = 0
    disqualify: bool = False
    text: str = ""


def decide_penalty(rules: PenaltyRules, kind: str, amount: int, players_at_table: int,
                   strikes_before: int, left_live_hand_before: int = 0) -> PenaltyDecision:
    """What a penalty of `kind` costs under these rules.

    rounds: one hand per player at the table (the offender included) per round.
    minutes: the ladder by strike (10, 20, 40 ...); the `strikes_out` strike is out.
    left_live_hand: Irish r.30, two hands the first time, a round after that.
    """
    allowed = set(rules.kinds) | ({"left_live_hand"} if rules.leaving_live_hand_hands else set())
    if kind not in allowed:
        raise RuleError(f"penalty {kind!r} is not in this profile (allowed: "
                        f"{', '.join(sorted(allowed))})")
    if kind == "warning":
        return PenaltyDecision(text="warning")
    if kind == "disqualify":
        return PenaltyDecision(disqualify=True, text="disqualified")
    if kind == "hands":
        if amount < 1:
            raise RuleError("a missed-hands penalty needs at least one hand")
        return PenaltyDecision(hands=amount, text=f"{amount} hand{'s' * (amount > 1)}")
    if kind == "rounds":
        if amount < 1:
            raise RuleError("a missed-rounds penalty needs at least one round")
        hands = players_at_table * amount
        return PenaltyDecision(hands=hands, text=f"{amount} round{'s' * (amount > 1)} "
                                                 f"= {hands} hands")
    if kind == "left_live_hand":
        assert rules.leaving_live_hand_hands is not None
        if left_live_hand_before == 0:
            n = rules.leaving_live_hand_hands
            return PenaltyDecision(hands=n, text=f"{n} hands (left a live hand)")
        return PenaltyDecision(hands=players_at_table,
                               text=f"1 round = {players_at_table} hands (left a live hand again)")
    if kind == "minutes":
        strike = strikes_before + 1
        if rules.strikes_out and strike >= rules.strikes_out:
            return PenaltyDecision(disqualify=True, text=f"strike {strike}: out")
        ladder = rules.minutes_ladder or (10,)
        minutes = ladder[min(strike, len(ladder)) - 1]
        return PenaltyDecision(minutes=minutes, text=f"strike {strike}: {minutes} minutes")
    raise RuleError(f"unknown penalty {kind!r}")
