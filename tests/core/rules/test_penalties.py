"""Penalties per profile: missed hands and rounds (TDA 71 / Irish 66), Irish r.30 for
leaving a live hand, and the home game's 10/20/40 minutes with the fourth strike out."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure

from kiosk.base.errors import RuleError
from kiosk.core.play.penalties import decide_penalty
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import PenaltyRules


def _rules(profile: str) -> PenaltyRules:
    return load_profile(profile).penalties


def test_missed_rounds_are_players_at_the_table_times_rounds() -> None:
    d = decide_penalty(_rules("tda-2017"), "rounds", 2, players_at_table=7, strikes_before=0)
    assert d.hands == 14 and not d.disqualify and "14 hands" in d.text


def test_missed_hands() -> None:
    assert decide_penalty(_rules("tda-2017"), "hands", 3, 9, 0).hands == 3
    with pytest.raises(RuleError):
        decide_penalty(_rules("tda-2017"), "hands", 0, 9, 0)


def test_irish_leaving_a_live_hand_two_hands_then_a_round() -> None:
    rules = _rules("irish-open")
    assert decide_penalty(rules, "left_live_hand", 1, 8, 0, left_live_hand_before=0).hands == 2
    assert decide_penalty(rules, "left_live_hand", 1, 8, 0, left_live_hand_before=1).hands == 8
    with pytest.raises(RuleError, match="not in this profile"):
        decide_penalty(_rules("tda-2017"), "left_live_hand", 1, 8, 0)


def test_home_game_minutes_ladder_and_fourth_strike_out() -> None:
    rules = _rules("home-roberts")
    got = [decide_penalty(rules, "minutes", 1, 8, strikes) for strikes in range(4)]
    assert [d.minutes for d in got[:3]] == [10, 20, 40]
    assert got[3].disqualify and not any(d.disqualify for d in got[:3])


def test_sheridans_has_warnings_only() -> None:
    assert decide_penalty(_rules("sheridans"), "warning", 1, 8, 0).text == "warning"
    with pytest.raises(RuleError):
        decide_penalty(_rules("sheridans"), "rounds", 1, 8, 0)


# ---------------------------------------------------------------- through the tournament


def test_rounds_penalty_counts_down_with_hands_dealt() -> None:
    room = Room(14, seats=7, structure=flat_structure())       # two tables of seven
    tour = room.tour
    pid = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    [ev] = room.do({"kind": "penalty", "player": pid, "type": "rounds", "amount": 1})
    assert ev["hands"] == 7 and tour.players[pid].penalty_hands == 7
    for _ in range(6):
        room.hand(1)
    assert tour.players[pid].penalty_hands == 1 and tour.players[pid].penalty_text
    room.hand(1)
    assert tour.players[pid].penalty_hands == 0 and tour.players[pid].penalty_text == ""


def test_irish_repeat_of_leaving_a_live_hand_costs_a_round() -> None:
    room = Room(16, profile="irish-open", structure=flat_structure())
    tour = room.tour
    pid = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    first = room.do({"kind": "penalty", "player": pid, "type": "left_live_hand"})
    again = room.do({"kind": "penalty", "player": pid, "type": "left_live_hand"})
    assert (first[0]["hands"], again[0]["hands"]) == (2, tour.tables[1].count)


def test_home_game_time_penalty_ends_and_fourth_strike_is_out() -> None:
    room = Room(12, profile="home-roberts", structure=flat_structure(levels=20))
    tour = room.tour
    pid = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    minutes = []
    for _ in range(3):
        [ev] = room.do({"kind": "penalty", "player": pid, "type": "minutes"})
        minutes.append(ev["minutes"])
        room.t += ev["minutes"] * 60 - 1
        room.do({"kind": "tick"})
        assert tour.players[pid].penalty_until is not None      # a second to go
        served = room.do({"kind": "tick"}, dt=1)
        assert any(e["kind"] == "penalty_served" for e in served)
        assert tour.players[pid].penalty_until is None
    assert minutes == [10, 20, 40]
    evs = room.do({"kind": "penalty", "player": pid, "type": "minutes"})
    assert [e["kind"] for e in evs][:2] == ["penalty", "busted"]
    assert tour.players[pid].status == "out" and pid in tour.places()


def test_disqualifying_the_last_opponent_ends_the_tournament() -> None:
    room = Room(2, structure=flat_structure())
    a, b = sorted(room.tour.players)
    evs = room.do({"kind": "penalty", "player": a, "type": "disqualify"})
    assert evs[-1].to_dict() == {"kind": "finished", "t": room.t, "winner": b}
    assert room.tour.places() == {a: 2, b: 1}


def test_penalty_amount_must_be_a_whole_number() -> None:
    room = Room(4, structure=flat_structure())
    with pytest.raises(RuleError):
        room.do({"kind": "penalty", "player": "p1", "type": "hands", "amount": "3"})
