"""Blind structures: play levels and breaks, as plain data the clock walks through."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Period:
    """One level of play, or a break when `is_break`."""

    minutes: float
    sb: int = 0
    bb: int = 0
    ante: int = 0
    bb_ante: int = 0
    is_break: bool = False
    color_up: str = ""     # instructions shown on the break screen

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
                "periods": [{"minutes": p.minutes, "sb": p.sb, "bb": p.bb, "ante": p.ante,
                             "bb_ante": p.bb_ante, "is_break": p.is_break,
                             "color_up": p.color_up} for p in self.periods]}

    @classmethod
    def from_dict(cls, d: dict) -> Structure:
        return cls(d["name"], int(d["start_stack"]), tuple(Period(**p) for p in d["periods"]))


def check_structure(s: Structure) -> list[tuple[int, str, str]]:
    """Problems as (period index, key, message); empty when the structure is sound."""
    problems: list[tuple[int, str, str]] = []
    if not any(not p.is_break for p in s.periods):
        problems.append((0, "level", "needs at least one level of play"))
    last: Period | None = None
    for i, p in enumerate(s.periods):
        if p.minutes <= 0:
            problems.append((i, "minutes", f"must be positive, got {p.minutes}"))
        if p.is_break:
            continue
        if p.sb < 0 or p.bb <= 0 or p.ante < 0 or p.bb_ante < 0:
            problems.append((i, "bb", "blinds must be positive and antes not negative"))
        if p.sb > p.bb:
            problems.append((i, "sb", f"small blind {p.sb} exceeds big blind {p.bb}"))
        if last is not None and (p.sb < last.sb or p.bb < last.bb):
            problems.append((i, "bb", f"blinds decrease from {last.sb}/{last.bb} "
                                      f"to {p.sb}/{p.bb}"))
        last = p
    return problems
