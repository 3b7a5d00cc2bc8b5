"""Finishing places when several players bust on one hand: RP-8 (hand-for-hand busts
share the place), Irish r.74, Sheridan's r.29 and the home game's larger stack."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure

from kiosk.core.calc.places import Bust, group_places
from kiosk.rules.loader import load_profile


def _places(profile: str, group: list[Bust], alive_before: int, h4h: bool) -> dict[str, int]:
    return group_places(group, alive_before, load_profile(profile).busts, h4h)


def test_rp8_example_three_busts_share_50th() -> None:
    """52 left at the announcement, three bust on the current hand: all share 50th."""
    group = [Bust("a", 1, 9000), Bust("b", 4, 3000), Bust("c", 4, 12000)]
    assert _places("tda-2017", group, 52, h4h=True) == {"a": 50, "b": 50, "c": 50}


def test_tda_outside_h4h_larger_starting_stack_places_higher() -> None:
    group = [Bust("a", 1, 9000), Bust("b", 1, 3000)]
    assert _places("tda-2017", group, 30, h4h=False) == {"a": 29, "b": 30}


def test_irish_74_same_table_by_stack_across_tables_tie() -> None:
    same = [Bust("a", 2, 5000), Bust("b", 2, 8000)]
    assert _places("irish-open", same, 20, h4h=True) == {"b": 19, "a": 20}
    across = [Bust("a", 2, 5000), Bust("b", 3, 8000)]
    assert _places("irish-open", across, 20, h4h=True) == {"a": 19, "b": 19}


def test_sheridans_29_larger_stack_higher_equal_stacks_tie_for_higher() -> None:
    group = [Bust("a", 1, 4000), Bust("b", 1, 4000), Bust("c", 1, 9000)]
    assert _places("sheridans", group, 12, h4h=False) == {"c": 10, "a": 11, "b": 11}
    group = [Bust("a", 1, 4000), Bust("b", 1, 4000)]
    assert _places("sheridans", group, 12, h4h=False) == {"a": 11, "b": 11}


def test_home_game_larger_stack_places_higher_even_across_tables() -> None:
    group = [Bust("a", 1, 4000), Bust("b", 2, 9000)]
    assert _places("home-roberts", group, 12, h4h=False) == {"b": 11, "a": 12}


def test_unknown_stacks_tie() -> None:
    group = [Bust("a", 1, None), Bust("b", 1, 9000)]
    assert _places("tda-2017", group, 10, h4h=False) == {"a": 9, "b": 9}


# ---------------------------------------------------------------- through the tournament


def _h4h_busts(profile: str) -> dict[str, int]:
    """Hand-for-hand with 27 left at three tables: two bust at table 1 (5000 and 8000
    chips at the start of the hand) and one at table 2 (8000)."""
    room = Room(27, profile=profile, structure=flat_structure())
    tour = room.tour
    room.do({"kind": "h4h", "on": True})
    for tid in room.playing():
        room.deal(tid)
    s1, s2 = sorted(tour.tables[1].seat_of)[:2]
    a, b = tour.tables[1].seat_of[s1], tour.tables[1].seat_of[s2]
    c = tour.tables[2].seat_of[min(tour.tables[2].seat_of)]
    room.bust(1, s1, stack=5000)
    room.bust(1, s2, stack=8000)
    room.bust(2, min(tour.tables[2].seat_of), stack=8000)
    places = tour.places()
    return {"a": places[a], "b": places[b], "c": places[c]}


def test_tda_h4h_busts_on_one_hand_share_the_place() -> None:
    assert _h4h_busts("tda-2017") == {"a": 25, "b": 25, "c": 25}


def test_irish_h4h_same_table_by_stack_other_table_ties() -> None:
    # table 1: b (8000) above a (5000); c at table 2 ties with b for 25th, and the
    # two of them fill 25th and 26th, so a is 27th
    assert _h4h_busts("irish-open") == {"b": 25, "c": 25, "a": 27}


def test_busts_on_separate_hands_get_separate_places() -> None:
    room = Room(18, structure=flat_structure())
    tour = room.tour
    first = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    room.hand(1, busts=(min(tour.tables[1].seat_of),))
    second = tour.tables[2].seat_of[min(tour.tables[2].seat_of)]
    room.hand(2, busts=(min(tour.tables[2].seat_of),))
    assert (tour.places()[first], tour.places()[second]) == (18, 17)


@pytest.mark.parametrize("profile", ["tda-2017", "sheridans", "home-roberts"])
def test_places_run_1_to_n_at_the_end(profile: str) -> None:
    room = Room(12, seats=6, profile=profile, structure=flat_structure())
    tour = room.tour
    while tour.finished_at is None:
        tid = room.playing()[0]
        seats = sorted(tour.tables[tid].seat_of)
        room.hand(tid, busts=tuple(seats[:2]) if len(seats) > 2 else (seats[0],))
    places = sorted(tour.places().values())
    assert places[0] == 1 and places.count(1) == 1 and len(places) == 12
    for i, place in enumerate(places):
        assert place == i + 1 or place == places[i - 1]
