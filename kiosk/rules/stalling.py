"""Which tools against stalling (TDA RP-19) a profile and a structure can take together.

Checked where an event's settings are read (its config, and the core when it is
created), so an event that cannot run them is refused before anything is written, with
the key to change and the reason.
"""

from __future__ import annotations

from collections.abc import Iterable

from kiosk.base.texts import M_, Msg
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Structure


def _rule(rule: str) -> Msg | str:
    """The rule a refusal cites, after its words: " (rule RP-19)"."""
    # i18n: keep the leading space: it follows a word of the sentence
    return M_("rule.cited", " (rule {rule})", rule=rule) if rule else ""


def structure_problem(profile: Profile, structure: Structure) -> Msg | None:
    """Why `structure` cannot run under `profile`, or None: levels counted in hands need
    a profile that allows them, and no time-only procedure (hand-for-hand's run-off takes
    minutes off a clock such a structure does not have)."""
    if not structure.counts_hands:
        return None
    if not profile.stalling.hands_per_level:
        return M_("stalling.no_hand_levels", "{profile} does not count levels in hands"
                  "{rule}: choose a timed structure", profile=profile.name,
                  rule=_rule(profile.stalling.rule))
    h4h = profile.hand_for_hand
    if h4h is not None and h4h.runoff_seconds:
        return M_("stalling.runoff", "{structure} counts its levels in hands, but {profile} "
                  "runs {seconds} s off the clock for each hand-for-hand hand{rule}: no "
                  "clock runs to take it off; choose a timed structure or a profile whose "
                  "hand-for-hand has no run-off", structure=structure.name,
                  profile=profile.name, seconds=h4h.runoff_seconds, rule=_rule(h4h.rule))
    return None


def shot_clock_problem(profile: Profile, structure: Structure, seconds: int, cards: int,
                       levels: Iterable[int], from_level: int) -> tuple[str, Msg] | None:
    """(key, reason) when a shot clock of `seconds` with `cards` time-bank cards (more
    given at `levels`), applied from level `from_level`, cannot run here; else None."""
    if not seconds and cards:
        return "bank_cards", M_("shot.bank_without_clock", "a time-bank card extends the "
                                "shot clock: set seconds, or no cards")
    if not seconds:
        return None
    if not profile.stalling.shot_clock:
        return "seconds", M_("shot.not_in_profile", "{profile} has no shot clock{rule}: its "
                             "clock call (rule {call_rule}) times a player",
                             profile=profile.name, rule=_rule(profile.stalling.rule),
                             call_rule=profile.clock_call.rule or "-")
    n = sum(1 for p in structure.periods if not p.is_break)
    for key, level in (("from_level", from_level), *(("bank_levels", x) for x in levels)):
        if not 1 <= level <= n:
            return key, M_("shot.no_level", "level {level} is not in {structure} (levels 1 "
                           "to {levels})", level=level, structure=structure.name, levels=n)
    return None
