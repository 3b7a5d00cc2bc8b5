"""The floor breaks a table only into seats that exist (TDA 9 draws its players into the
open seats of the other tables): found by the soak, where a table broken with too few
seats left kept its remaining players waiting at a table that never dealt again, and where
tables broken mid-hand one after another left none to go to. (Newcomers seated while a
breaking table finishes its hand may still take seats it needed: those players then move
as seats open, tests/explore/test_soak.py, seed 180.)"""

from __future__ import annotations

import pytest

from kiosk.base.errors import RuleError
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.rules.structure_files import load_structure


def room_of(players: int) -> Tournament:
    tour = Tournament.create(event="t", profile="tda-2017",
                             structure=load_structure("turbo"), seats=9, seed=3, t=0.0)
    for i in range(players):
        tour.execute(commands.Register(name=f"P{i + 1}"), 0.0)
    tour.execute(commands.Start(), 0.0)
    return tour


def test_a_break_with_too_few_open_seats_is_refused_and_changes_nothing() -> None:
    tour = room_of(22)        # three tables of 7 or 8: 3 + 2 open seats elsewhere at most
    counts = {x.id: x.count for x in tour.seating.active_tables()}
    assert sorted(counts.values()) == [7, 7, 8]
    fullest = max(counts, key=lambda tid: counts[tid])
    before = tour.n_events
    with pytest.raises(RuleError, match=rf"table {fullest} cannot break: its 8 players "
                                        r"need seats and the other tables have 4 open"):
        tour.execute(commands.BreakTable(table=fullest), 1.0)
    assert tour.n_events == before
    assert not any(x.breaking for x in tour.seating.active_tables())
