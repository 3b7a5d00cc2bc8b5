"""Breaking by section: the floor's break order (the far ballroom first) makes the tables
of the first section break before any other, inside the profile's rules (the shortest of
that section first under TDA's fewest-players order; by number under a published order),
and a replay of the log breaks the same tables."""

from __future__ import annotations

import pytest

from kiosk.base.errors import RuleError
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.rules.structure_files import load_structure


def field_of(players: int, profile: str = "tda-2017") -> Tournament:
    tour = Tournament.create(event="t", profile=profile, structure=load_structure("turbo"),
                             seats=9, seed=3, t=0.0)
    log: list = []
    run = tour.execute

    def execute(cmd, t):  # type: ignore[no-untyped-def]
        out = run(cmd, t)
        log.extend(out)
        return out

    tour.execute = execute  # type: ignore[method-assign]
    tour.log = log  # type: ignore[attr-defined]
    for i in range(players):
        tour.execute(commands.Register(name=f"P{i + 1}"), 0.0)
    tour.execute(commands.Start(), 0.0)
    return tour


def bust_from(tour: Tournament, tables: list[int], n: int, t: float) -> None:
    """Bust `n` players, taking them from `tables` in turn (the shortest tables)."""
    for i in range(n):
        tab = tour.seating.tables[tables[i % len(tables)]]
        pid = tab.seat_of[min(tab.seat_of)]
        tour.execute(commands.Bust(player=pid), t + i)


def broken(tour: Tournament) -> list[int]:
    return sorted(x.id for x in tour.seating.tables.values() if x.broken or x.breaking)


ORDER = {"kind": "set_break_order", "sections": [{"name": "Pavilion", "tables": [1, 2]},
                                                  {"name": "Amazon Blue", "tables": [3, 4]}]}


@pytest.mark.parametrize("ordered", [False, True])
def test_the_first_section_breaks_first_however_short_the_others(ordered: bool) -> None:
    tour = field_of(54)                      # six tables of nine
    if ordered:
        tour.execute(ORDER, 1.0)
        assert tour.break_order()[:2] in ([1, 2], [2, 1])
    bust_from(tour, [5, 6], 9, 2.0)          # tables 5 and 6 are the shortest
    first = broken(tour)
    assert len(first) == 1
    if ordered:
        assert first[0] in (1, 2), "the Pavilion breaks before the shorter tables"
    else:
        assert first[0] in (5, 6), "TDA's order alone breaks the shortest table"
    seated = sum(x.count for x in tour.seating.active_tables())
    assert seated == 45, "nobody is lost in the break"


def test_then_the_second_section_and_a_replay_breaks_the_same_tables() -> None:
    tour = field_of(54)
    tour.execute(ORDER, 1.0)
    bust_from(tour, [5, 6], 27, 2.0)
    assert set(broken(tour)) >= {1, 2}, "the Pavilion went first, both its tables"
    assert not {5, 6} & set(broken(tour)), "the unordered tables break last"
    again = Tournament.replay([tour.config, *tour.log])  # type: ignore[attr-defined]
    assert broken(again) == broken(tour)
    assert again.break_order() == tour.break_order()


def test_a_table_in_two_sections_of_the_order_is_refused_and_changes_nothing() -> None:
    tour = field_of(27)
    before = tour.n_events
    with pytest.raises(RuleError, match="table 2 is in section 'A' and 'B'"):
        tour.execute({"kind": "set_break_order",
                      "sections": [{"name": "A", "tables": [1, 2]},
                                   {"name": "B", "tables": [2, 3]}]}, 1.0)
    assert tour.n_events == before
