"""Blind structures: play levels and breaks, as plain data the clock walks through."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from kiosk.base.texts import M_, Msg
from kiosk.rules.profile import Profile


@dataclass(frozen=True)
class Period:
    """One level of play, or a break when `is_break`. A level lasts `minutes`, or, in a
    structure counted in hands (TDA RP-19), `hands` dealt at each table (minutes 0)."""

    minutes: float
    sb: int = 0
    bb: int = 0
    ante: int = 0
    bb_ante: int = 0
    is_break: bool = False
    color_up: str = ""     # instructions shown on the break screen
    hands: int = 0         # hands per level at each table (0: the level is timed)

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0

    def blinds_text(self) -> str:
        if self.is_break:
            return "Break"
        text = f"{self.sb:,}/{self.bb:,}"
        if self.bb_ante:
            text += f" (BB ante {self.bb_ante:,})"
        elif self.ante:
            text += f" ante {self.ante:,}"
        return text


@dataclass(frozen=True)
class Structure:
    """Levels and breaks; `chips` are the denominations its break texts are written for
    (checked by `pokerkiosk profiles --check`; the event's own `chip_set` runs the race)."""

    name: str
    start_stack: int
    periods: tuple[Period, ...]
    chips: tuple[int, ...] = field(default=(), compare=False)

    @cached_property
    def _level_numbers(self) -> tuple[int | None, ...]:
        out: list[int | None] = []
        n = 0
        for p in self.periods:
            n += not p.is_break
            out.append(None if p.is_break else n)
        return tuple(out)

    @cached_property
    def counts_hands(self) -> bool:
        """Its levels change after a number of hands at each table, not on a clock."""
        return any(p.hands for p in self.periods)

    def level_number(self, index: int) -> int | None:
        """1-based level number of period `index`, or None for a break."""
        return self._level_numbers[index]

    def index_of_level(self, level: int) -> int:
        """Period index of 1-based play level `level`."""
        seen = 0
        for i, p in enumerate(self.periods):
            if not p.is_break:
                seen += 1
                if seen == level:
                    return i
        return len(self.periods) - 1

    def to_dict(self) -> dict:
        """JSON shape published in the retained schedule."""
        return {"name": self.name, "start_stack": self.start_stack,
                "periods": [_period_dict(p) for p in self.periods]}

    @classmethod
    def from_dict(cls, d: dict) -> Structure:
        return cls(d["name"], int(d["start_stack"]), tuple(Period(**p) for p in d["periods"]))


def _period_dict(p: Period) -> dict:
    """A period as the schedule carries it; `hands` only when set, so a timed structure
    reads as it always did (an older table refuses a key it does not know)."""
    d = {"minutes": p.minutes, "sb": p.sb, "bb": p.bb, "ante": p.ante, "bb_ante": p.bb_ante,
         "is_break": p.is_break, "color_up": p.color_up}
    if p.hands:
        d["hands"] = p.hands
    return d


def check_structure(s: Structure) -> list[tuple[int, str, Msg]]:
    """Problems as (period index, key, message); empty when the structure is sound."""
    problems: list[tuple[int, str, Msg]] = []
    if not any(not p.is_break for p in s.periods):
        problems.append((0, "level", M_("structure.no_level", "needs at least one level of "
                                        "play")))
    if s.counts_hands:
        problems += _hands_problems(s)
    last: Period | None = None
    for i, p in enumerate(s.periods):
        if p.minutes <= 0 and not p.hands:
            problems.append((i, "minutes", M_("structure.minutes", "must be positive, got "
                                              "{minutes}", minutes=p.minutes)))
        if p.is_break:
            continue
        if p.sb < 0 or p.bb <= 0 or p.ante < 0 or p.bb_ante < 0:
            problems.append((i, "bb", M_("structure.blinds", "blinds must be positive and "
                                         "antes not negative")))
        if p.sb > p.bb:
            problems.append((i, "sb", M_("structure.sb_over_bb", "small blind {sb} exceeds "
                                         "big blind {bb}", sb=p.sb, bb=p.bb)))
        if last is not None and (p.sb < last.sb or p.bb < last.bb):
            problems.append((i, "bb", M_("structure.decrease", "blinds decrease from "
                                         "{was_sb}/{was_bb} to {sb}/{bb}", was_sb=last.sb,
                                         was_bb=last.bb, sb=p.sb, bb=p.bb)))
        last = p
    return problems


def ante_reductions(s: Structure) -> list[tuple[int, Msg]]:
    """(period index, what went down) for each level whose ante is below the level's
    before: a BB ante that drops or stops (an ante per player in its place included),
    an ante per player that drops other than into a BB ante (TDA 2024 RP-11 refuses
    them; the final table has no levels of its own, so this covers it)."""
    out: list[tuple[int, Msg]] = []
    last: Period | None = None
    for i, p in enumerate(s.periods):
        if p.is_break:
            continue
        if last is not None:
            drops = [(kind, was, now) for kind, was, now in (
                ("BB ante", last.bb_ante, p.bb_ante), ("ante", last.ante, p.ante))
                if now < was and not (kind == "ante" and p.bb_ante)]
            if drops:
                kind, was, now = drops[0]
                out.append((i, M_("ante.bb_down", "the BB ante goes down from {was:chips} to "
                                  "{now:chips}", was=was, now=now) if kind == "BB ante" else
                            M_("ante.down", "the ante goes down from {was:chips} to "
                               "{now:chips}", was=was, now=now)))
        last = p
    return out


def structure_refusal(prof: Profile, s: Structure) -> Msg | None:
    """Why profile `prof` refuses structure `s` (None when it takes it): an ante the
    profile never reduces that goes down (TDA 2024 RP-11)."""
    if not prof.ante.never_reduced:
        return None
    found = ante_reductions(s)
    if not found:
        return None
    i, what = found[0]
    rule = f" ({prof.ante.rule})" if prof.ante.rule else ""
    return M_("ante.never_reduced", "level {level}: {what}; {profile} never reduces antes, "
              "the final table included{rule}", level=s.level_number(i), what=what,
              profile=prof.name, rule=rule)
def _hands_problems(s: Structure) -> list[tuple[int, str, Msg]]:
    """A structure counted in hands counts every level in hands and has no break: a break
    is timed, and each table reaches it after its own hands, so no two would break
    together."""
    out: list[tuple[int, str, Msg]] = []
    for i, p in enumerate(s.periods):
        if p.is_break:
            out.append((i, "break", M_("structure.hands_break", "a break is timed: a "
                                       "structure whose levels count hands has none")))
        elif not p.hands:
            out.append((i, "minutes", M_("structure.hands_mixed", "levels count hands "
                                         "elsewhere in this structure: give this one "
                                         "`hands` too (minutes and hands do not mix)")))
        elif p.minutes:
            out.append((i, "hands", M_("structure.hands_and_minutes", "a level lasts minutes "
                                       "or hands, not both")))
    return out
