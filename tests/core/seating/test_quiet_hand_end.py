"""A hand end that moves nobody is not followed by a balancing decision: proof that
deciding again after it (or after any command) would decide nothing."""

from __future__ import annotations

from typing import Any

import pytest
from core_kit import PROFILES

from kiosk.core.model.events import Event
from kiosk.sim.engine import Simulator


@pytest.mark.parametrize("profile", PROFILES)
def test_deciding_again_after_any_command_decides_nothing(profile: str) -> None:
    sim = Simulator(300, profile=profile, seed=2, structure="turbo")
    tour = sim.tour
    assert tour is not None
    orig = tour.execute
    again: list[tuple[Any, list[Event]]] = []
    skipped = 0

    def execute(cmd: Any, t: float) -> list[Event]:
        nonlocal skipped
        evs = orig(cmd, t)
        if not tour.started or tour.finished_at is not None:
            return evs
        skipped += getattr(cmd, "kind", "") == "report" and cmd.report.kind == "hand_ended" \
            and len(evs) == 1
        tour._out = extra = []
        try:
            tour.balancing.rebalance(t)
            tour.balancing.refresh_halts()
        finally:
            tour._out = None
        if extra:
            again.append((cmd, extra))
        return evs

    tour.execute = execute  # type: ignore[method-assign]
    res = sim.run()
    assert res.invariant_violations == 0, res.violations
    assert skipped > 100, "hand ends that moved nobody were played"
    assert again == [], f"a decision came only when asked again: {again[:1]}"
