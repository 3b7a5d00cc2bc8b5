"""Penalties: missed hands and rounds (TDA 71), Irish r.30, and timed penalties."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_, Msg
from kiosk.rules.profile import PenaltyRules


@dataclass(frozen=True)
class PenaltyDecision:
    hands: int = 0
    minutes: int = 0
    disqualify: bool = False
    msg: Msg | None = None

    @property
    def text(self) -> str:
        """The penalty in English (the log's and older kiosks' words)."""
        return str(self.msg or "")


def decide_penalty(rules: PenaltyRules, kind: str, amount: int, players_at_table: int,
                   strikes_before: int, left_live_hand_before: int = 0) -> PenaltyDecision:
    """What a penalty of `kind` costs under these rules.

    rounds: one hand per player at the table (the offender included) per round.
    minutes: the ladder by strike (10, 20, 40 ...); the `strikes_out` strike is out.
    left_live_hand: Irish r.30, two hands the first time, a round after that.
    """
    allowed = set(rules.kinds) | ({"left_live_hand"} if rules.leaving_live_hand_hands else set())
    if kind not in allowed:
        raise RuleError(M_("penalty.not_in_profile", "penalty '{kind}' is not in this "
                           "profile (allowed: {allowed})", kind=kind,
                           allowed=", ".join(sorted(allowed))))
    if kind == "warning":
        return PenaltyDecision(msg=M_("penalty.warning", "warning"))
    if kind == "disqualify":
        return PenaltyDecision(disqualify=True,
                               msg=M_("penalty.disqualified", "disqualified"))
    if kind == "hands":
        if amount < 1:
            raise RuleError(M_("penalty.hands_one", "a missed-hands penalty needs at least one "
                               "hand"))
        return PenaltyDecision(hands=amount, msg=Mn_("penalty.hands", "{n} hand",
                                                      "{n} hands", amount))
    if kind == "rounds":
        if amount < 1:
            raise RuleError(M_("penalty.rounds_one", "a missed-rounds penalty needs at least one "
                               "round"))
        hands = players_at_table * amount
        return PenaltyDecision(hands=hands, msg=Mn_("penalty.rounds", "{n} round = "
                                                     "{hands} hands", "{n} rounds = {hands} "
                                                     "hands", amount, hands=hands))
    if kind == "left_live_hand":
        assert rules.leaving_live_hand_hands is not None
        if left_live_hand_before == 0:
            n = rules.leaving_live_hand_hands
            return PenaltyDecision(hands=n, msg=M_("penalty.left_live_hand", "{hands} hands "
                                                    "(left a live hand)", hands=n))
        return PenaltyDecision(hands=players_at_table,
                               msg=M_("penalty.left_live_hand_again", "1 round = {hands} "
                                       "hands (left a live hand again)",
                                       hands=players_at_table))
    if kind == "minutes":
        strike = strikes_before + 1
        if rules.strikes_out and strike >= rules.strikes_out:
            return PenaltyDecision(disqualify=True, msg=M_("penalty.strike_out",
                                                            "strike {strike}: out",
                                                            strike=strike))
        ladder = rules.minutes_ladder or (10,)
        minutes = ladder[min(strike, len(ladder)) - 1]
        return PenaltyDecision(minutes=minutes, msg=M_("penalty.strike_minutes",
                                                        "strike {strike}: {minutes} minutes",
                                                        strike=strike, minutes=minutes))
    raise RuleError(M_("penalty.unknown", "unknown penalty '{kind}'", kind=kind))
