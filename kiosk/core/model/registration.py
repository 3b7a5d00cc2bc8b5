"""Late registration windows and stacks, per profile (TDA 7, Irish 71, Sheridan's 3)."""

from __future__ import annotations

from collections.abc import Iterable

from kiosk.base.texts import M_, Msg
from kiosk.core.calc.clock import raises_so_far
from kiosk.core.model.state import WAITING
from kiosk.rules.profile import LateRegRules
from kiosk.rules.structure import Structure


def late_reg_open(rules: LateRegRules, s: Structure, period: int, started: bool) -> bool:
    """Whether a new entry may still be sold while the clock is in `period`."""
    if not started:
        return True
    if rules.until_raises is not None and raises_so_far(s, period) >= rules.until_raises:
        return False
    if rules.until_level is not None:
        last = s.index_of_level(rules.until_level)
        if period <= last:
            return True
        # Irish r.71: a break straight after the last level keeps it open until play resumes
        return rules.through_break and period == last + 1 and s.periods[period].is_break
    return True


def late_stack(rules: LateRegRules, start_stack: int, big_blind: int) -> int:
    """Sheridan's r.3 docks five current big blinds; everyone else gets a full stack."""
    if rules.stack == "docked":
        return max(big_blind, start_stack - rules.dock_big_blinds * big_blind)
    return start_stack


def current_big_blind(s: Structure, period: int) -> int:
    for p in reversed(s.periods[: period + 1]):
        if not p.is_break:
            return p.bb
    return next(p.bb for p in s.periods if not p.is_break)


def start_refusal(started: bool, statuses: Iterable[str], alive: int) -> Msg | None:
    """Why an event cannot start, or None when it can: it has not started, and at least
    two players wait for the draw or are seated already (a Day 2's carried players,
    `alive`). `statuses` are the registered players' (kiosk.core.model.state)."""
    if started:
        return M_("start.already", "the tournament has already started")
    if sum(1 for s in statuses if s == WAITING) + alive < 2:
        return M_("start.two_players", "at least two players must be registered to start")
    return None
