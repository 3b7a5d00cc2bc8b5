"""Each table's own pace (TDA RP-19) in the core: orbit for orbit, with tables that break
or gain players mid-orbit, and levels counted in hands at tables dealing at different
speeds; both replay to the same state."""

from __future__ import annotations

import pytest
from core_kit import Room, digest, flat_structure
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.base.errors import RuleError
from kiosk.core.calc import button as btn
from kiosk.core.calc import pace
from kiosk.core.event import plans
from kiosk.core.event.tournament import Tournament
from kiosk.rules.structure import Period, Structure, check_structure


def go(r: Room, table: int) -> bool:
    """Whether the table's plan lets it deal on in orbit for orbit."""
    return bool(plans.plan(r.tour, table)["orbit"]["go"])


def orbit_hands(r: Room, table: int, limit: int = 30) -> int:
    """Hands `table` deals until its plan says its orbit of this round is played out (or
    the round is over: it was the last table playing)."""
    n, round_ = 0, r.tour.orbit_round
    while go(r, table) and r.tour.orbit_round == round_:
        r.hand(table)
        r.arrive_all()
        n += 1
        assert n < limit, f"table {table} never finished its orbit"
    return n


def test_each_table_plays_one_orbit_then_waits_for_the_others() -> None:
    r = Room(18, structure=flat_structure())
    with pytest.raises(RuleError, match="already off"):
        r.do({"kind": "orbit", "on": False})
    r.do({"kind": "orbit", "on": True, "by": "td"})
    assert r.tour.orbit_round == 1 and r.tour.orbit_waiting == {1, 2}
    assert orbit_hands(r, 1) == 9               # every player posts the big blind once
    assert not go(r, 1) and r.tour.orbit_round == 1
    assert plans.schedule(r.tour)["orbit"] == {"on": True, "round": 1, "playing": [2]}
    assert plans.plan(r.tour, 2)["orbit"]["hands_left"] is None   # no hand of it yet
    r.hand(2)
    assert r.tour.orbit_round == 1
    # what a table that loses the network counts down on its own
    assert plans.plan(r.tour, 2)["orbit"] | {"round": 1} == {
        "on": True, "round": 1, "go": True, "hands_left": 8, "hand": 1}
    assert orbit_hands(r, 2) == 8
    assert r.tour.orbit_round == 2 and go(r, 1) and go(r, 2)   # the next round
    done = [e for e in r.events if e.kind == "orbit_done"]
    assert [(e.table, e.round) for e in done] == [(1, 1), (2, 1)]
    assert digest(r.replay()) == digest(r.tour)
    assert r.replay().pace.orbit_waiting == r.tour.orbit_waiting
    r.do({"kind": "orbit", "on": False})
    assert not plans.plan(r.tour, 1)["orbit"]["on"]


def test_a_table_that_breaks_mid_orbit_no_longer_holds_the_round_and_one_that_gains_players_plays_them_in() -> None:  # noqa: E501
    r = Room(19, structure=flat_structure())        # 7, 6, 6
    r.do({"kind": "orbit", "on": True})
    sizes = {n: r.tour.tables[n].count for n in r.playing()}
    big = max(sizes, key=lambda n: sizes[n])
    breaking, gaining = sorted(n for n in sizes if n != big)
    assert orbit_hands(r, big) == 7
    r.hand(gaining)                                 # one hand of its six-player orbit
    r.deal(breaking)                                # mid-orbit: a bust, the floor breaks it
    r.bust(breaking, max(r.tour.tables[breaking].seat_of))
    r.do({"kind": "break_table", "table": breaking})
    r.end(breaking)
    r.arrive_all()
    assert r.tour.tables[breaking].broken
    assert r.tour.orbit_waiting == {gaining}, "the broken table no longer holds the round"
    gained = r.tour.tables[gaining].count
    assert gained > 6
    rest = orbit_hands(r, gaining)
    assert 1 + rest >= 6 and rest >= gained - 3, "the newcomers are dealt into the orbit"
    assert r.tour.orbit_round == 2 and r.tour.orbit_waiting == {big, gaining}
    assert digest(r.replay()) == digest(r.tour)


def test_a_table_that_breaks_into_the_final_table_ends_the_round() -> None:
    r = Room(12, seats=6, structure=flat_structure())   # 6 and 6
    r.do({"kind": "orbit", "on": True})
    assert orbit_hands(r, 1) == 6 and r.tour.orbit_waiting == {2}
    for seat in sorted(r.tour.tables[2].seat_of)[:5]:   # the floor busts five at table 2
        r.do({"kind": "bust", "player": r.tour.tables[2].seat_of[seat]})
        r.arrive_all()
    assert r.tour.final_table == 1 and r.tour.tables[2].broken
    assert r.tour.orbit_round == 2 and r.tour.orbit_waiting == {1}
    assert orbit_hands(r, 1) == 7                       # the final table's first orbit


def test_a_table_opened_during_a_round_plays_its_orbit_in_it() -> None:
    r = Room(12, seats=6, structure=flat_structure())
    r.do({"kind": "orbit", "on": True})
    r.hand(1)
    for i in range(6):
        r.do({"kind": "register", "name": f"Late {i}", "player": f"late{i}"})
    assert sorted(r.playing()) == [1, 2, 3]
    assert r.tour.orbit_round == 1 and r.tour.orbit_waiting == {1, 2, 3} and go(r, 3)
    assert digest(r.replay()) == digest(r.tour)


def test_hand_for_hand_during_orbit_for_orbit_paces_the_round_without_a_deadlock() -> None:
    r = Room(18, structure=flat_structure())
    r.do({"kind": "orbit", "on": True})
    assert orbit_hands(r, 1) == 9
    r.do({"kind": "h4h", "on": True})
    for _ in range(3):                   # both tables deal each round: orbit waits aside
        for n in (1, 2):
            r.hand(n)
    assert r.tour.h4h_round == 4
    r.do({"kind": "h4h", "on": False})
    assert r.tour.orbit_on


def test_a_profile_without_orbit_for_orbit_refuses_it() -> None:
    import dataclasses

    from kiosk.rules.loader import load_profile
    from kiosk.rules.profile import StallingRules

    prof = dataclasses.replace(load_profile("tda-2015"),
                               stalling=StallingRules(orbit_for_orbit=False))
    tour = Tournament.create(event="x", profile=prof, structure=flat_structure())
    with pytest.raises(RuleError, match="TDA 2015 has no orbit for orbit"):
        tour.execute({"kind": "orbit", "on": True}, 0.0)


# ---------------------------------------------------------------- levels in hands
def hands_structure(*hands: int) -> Structure:
    return Structure("by hands", 10000, tuple(
        Period(0, sb=50 * 2 ** i, bb=100 * 2 ** i, hands=n) for i, n in enumerate(hands)))


def test_each_table_changes_level_after_its_own_hands() -> None:
    r = Room(18, profile="tda-2015", structure=hands_structure(3, 2, 5))
    for _ in range(3):
        r.hand(1)
    r.hand(2)
    assert plans.plan(r.tour, 1)["hand_level"] == {"period": 0, "played": 3, "hand": 3}
    assert r.tour.pace.next_level(1) == (1, 0)      # its next hand opens level 2
    assert r.tour.pace.next_level(2) == (0, 1)
    assert r.tour.clock.period == 0                 # the slowest table is at level 1
    r.hand(1)
    r.hand(1)
    assert r.tour.pace.next_level(1) == (2, 0)      # level 3 after 3 + 2 hands
    r.hand(2)
    r.hand(2)
    assert r.tour.clock.period == 1 and r.tour.clock.paused
    clocks = [e for e in r.events if e.kind == "clock_set" and e.why == "hands"]
    assert [e.clock["period"] for e in clocks] == [1]
    again = r.replay()
    assert again.pace.table_levels == r.tour.pace.table_levels
    assert digest(again) == digest(r.tour)
    # the last level never ends
    for _ in range(12):
        r.hand(1)
    assert r.tour.pace.next_level(1)[0] == 2


def test_a_table_opened_later_starts_at_the_slowest_tables_level() -> None:
    r = Room(9, profile="tda-2015", structure=hands_structure(2, 2, 2))
    for _ in range(3):
        r.hand(1)
    for i in range(9):
        r.do({"kind": "register", "name": f"Late {i}", "player": f"late{i}"})
    r.do({"kind": "seat_waiting"})
    new = max(r.playing())
    assert new != 1
    assert r.tour.pace.next_level(new)[0] == r.tour.pace.next_level(1)[0] == 1


def test_time_only_features_are_refused_with_a_structure_in_hands() -> None:
    with pytest.raises(RuleError, match="runs 120 s off the clock"):
        Tournament.create(event="x", profile="tda-2017", structure=hands_structure(3))
    r = Room(9, profile="tda-2015", structure=hands_structure(3, 3))
    with pytest.raises(RuleError, match="counts its levels in hands"):
        r.do({"kind": "clock", "action": "add", "seconds": 60})
    broken = Structure("mixed", 1000, (Period(0, 5, 10, hands=3), Period(10, 10, 20),
                                       Period(5, is_break=True)))
    keys = [k for _i, k, _m in check_structure(broken)]
    assert keys == ["minutes", "break"]


def test_pace_arithmetic() -> None:
    s = hands_structure(2, 3)
    assert pace.after_hands(s, 0, 0, 4) == (1, 2)
    assert pace.hands_left(s, 1, 2) == 1 and pace.hands_left(s, 0, 2) == 3
    assert pace.orbit_over(8, 2, 3, 9) and not pace.orbit_over(7, 1, 2, 9)


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(1, 10), min_size=2, max_size=10), st.integers(0, 9))
def test_an_orbit_is_one_big_blind_a_player(occupied: set[int], first: int) -> None:
    """With the same players seated, the big blind moving on seat by seat: the orbit takes
    one hand a player, and the hands left the plan gives count down to none."""
    seats = 10
    bb = sorted(occupied)[first % len(occupied)]
    travel, last, hands = 0, bb, 1
    while True:
        left = pace.orbit_hands_left(travel, last, occupied, seats)
        nxt = btn.next_seat(occupied, last, seats)
        if pace.orbit_over(travel, last, nxt, seats):
            assert left == 0
            break
        assert left == len(occupied) - hands
        travel, last, hands = travel + pace.bb_step(last, nxt, seats), nxt, hands + 1
    assert hands == len(occupied)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.integers(0, 40))
def test_hands_counted_at_once_or_one_by_one_land_on_the_same_level(
        per_level: list[int], dealt: int) -> None:
    s = hands_structure(*per_level)
    one_by_one = (0, 0)
    for _ in range(dealt):
        one_by_one = pace.after_hands(s, *one_by_one, 1)
    assert pace.after_hands(s, 0, 0, dealt) == one_by_one
    period = pace.hand_level(s, *one_by_one)[0]
    assert period == min(len(per_level) - 1, sum(
        1 for i in range(len(per_level)) if dealt >= sum(per_level[:i + 1])))
