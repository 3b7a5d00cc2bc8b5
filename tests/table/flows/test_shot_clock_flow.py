"""The shot clock at the table (TDA RP-19), as the dealer runs it: one press a decision,
the countdown and its sound, time-bank cards, the ruling when time runs out; orbit for
orbit and levels counted in hands as the table follows them. Pure controller, time
passed in; the view state is what the screens draw (tests/table/ui/test_ui_stalling.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from stalling_kit import hands_toml
from table_helpers import T0, plan, schedule, seat

from kiosk.table.controller import TableController

SHOT = {"seconds": 30, "applies": "event", "from_level": 1, "bank_seconds": 20,
        "bank_cards": 2}


def shot_plan(rev: int = 1, bank: int = 2, used: int = 0, **extra: Any) -> dict[str, Any]:
    seats = {n: seat(n, bank=bank, bank_used=used) for n in range(1, 10)}
    return plan(seats, rev=rev, **{"shot_clock": SHOT, **extra})


def table(**extra: Any) -> TableController:
    c = TableController(3, rng=random.Random(5), boot="s", debounce_s=0)
    assert c.directions.apply_schedule(schedule())
    assert c.apply_plan(shot_plan(**extra), T0)
    return c


def dealt(c: TableController, t: float = T0) -> tuple[int, int]:
    """Deal a hand: (big blind, first to act after it)."""
    assert not c.new_hand(t).refused
    pos = c.local.positions
    assert pos is not None
    after = sorted(s for s in pos.dealt if s > pos.bb) or sorted(pos.dealt)
    return pos.bb, after[0]


def test_clock_starts_the_shot_clock_on_each_player_in_turn() -> None:
    c = table()
    refused = c.press_clock(T0)
    assert refused.refused and "deal first" in refused.message
    bb, utg = dealt(c)
    assert c.view(T0).shot_clock_on
    assert c.press_clock(T0 + 1).message == f"Shot clock: seat {utg}"
    v = c.view(T0 + 11).shot_clock
    assert v is not None and (v.seat, v.phase, v.seconds, v.cards) == (utg, "running", 20, 2)
    assert c.sound(T0 + 11) == ""
    assert c.view(T0 + 27).shot_clock.phase == "countdown" and c.sound(T0 + 27) == "beep"
    nxt = c.press_clock(T0 + 28)                   # the player acted: the next in turn
    assert nxt.report is None and c.view(T0 + 28).shot_clock.seconds == 30
    assert c.view(T0 + 28).shot_clock.seat != utg
    assert c.choose_seat(T0 + 29, bb).message == f"Shot clock: seat {bb}"   # a tap: that seat
    assert c.hold_clock(T0 + 30).message == f"Seat {bb} acted"              # long press: stop
    assert c.view(T0 + 30).shot_clock is None
    assert c.end_hand(T0 + 31).report["kind"] == "hand_ended"


def test_a_time_bank_card_extends_the_clock_and_is_reported_once() -> None:
    c = table()
    dealt(c)
    seat_no = c.press_clock(T0).message.rsplit(" ", 1)[1]
    s = int(seat_no)
    res = c.time_bank(T0 + 25)
    assert res.report["kind"] == "time_bank"
    assert res.report["data"] == {"seat": s, "player": f"p{s}", "hand": 1}
    v = c.view(T0 + 25).shot_clock
    assert (v.remaining, v.total, v.cards, v.cards_taken) == (25, 50, 1, 1)
    assert next(x for x in c.view(T0 + 25).seats if x.seat == s).bank == 1
    # the director's plan still shows two cards: the kiosk counts its own until it sees it
    assert c.apply_plan(shot_plan(rev=2), T0 + 26)
    assert c.view(T0 + 26).shot_clock.cards == 1
    assert c.apply_plan(shot_plan(rev=3, bank=1, used=1), T0 + 27)
    assert c.local.bank_pending == {} and c.view(T0 + 27).shot_clock.cards == 1
    assert c.time_bank(T0 + 28).report is not None
    last = c.time_bank(T0 + 29)
    assert last.refused and "no time-bank card left" in last.message
    assert c.view(T0 + 29).shot_clock.total == 70 and not c.view(T0 + 29).shot_clock.can_bank


def test_time_up_asks_the_dealer_for_the_rule_and_reports_it() -> None:
    c = table()
    dealt(c)
    s = int(c.press_clock(T0).message.rsplit(" ", 1)[1])
    early = c.clock_done(T0 + 10, "dead")
    assert early.refused and "still has 20 s" in early.message
    assert c.sound(T0 + 31) == "on" and c.view(T0 + 31).shot_clock.phase == "buzzer"
    v = c.view(T0 + 40).shot_clock
    assert v.phase == "over" and v.ruling and v.seconds == 0 and not v.can_bank
    assert c.view(T0 + 40).clock_call is None              # its own screen, not the clock's
    assert c.time_bank(T0 + 40).refused                     # a card comes before time is up
    res = c.clock_done(T0 + 41, "dead")                     # the screen's HAND DEAD
    assert res.report["kind"] == "shot_clock_out"
    assert res.report["data"] == {"seat": s, "player": f"p{s}", "hand": 1, "outcome": "dead"}
    assert res.message == f"Seat {s}: hand dead (facing a bet)"
    c.press_clock(T0 + 42)
    assert c.shot_out(T0 + 80, "checked").message.endswith("checked (no bet to face)")


def test_the_screens_clock_still_calls_the_floors_clock_under_a_shot_clock() -> None:
    c = table()
    dealt(c)
    c.begin(T0, "clock")
    res = c.choose_seat(T0 + 1, 4)
    assert res.report["kind"] == "clock_call"
    assert c.view(T0 + 2).shot_clock is None


@pytest.mark.parametrize(("shot", "extra", "period", "runs"), [
    ({"applies": "level", "from_level": 3}, {}, 0, False),
    ({"applies": "level", "from_level": 3}, {}, 2, True),
    ({"applies": "final"}, {}, 0, False),
    ({"applies": "final"}, {"final_table": True}, 0, True),
    ({"applies": "off"}, {}, 0, False),
])
def test_the_shot_clock_runs_where_the_floor_says(shot: dict[str, Any], extra: dict[str, Any],
                                                  period: int, runs: bool) -> None:
    c = TableController(3, rng=random.Random(5), boot="s", debounce_s=0)
    assert c.directions.apply_schedule(schedule(period=period))
    body = shot_plan(**extra)
    body["shot_clock"] = {**SHOT, **shot}
    assert c.apply_plan(body, T0)
    dealt(c)
    res = c.press_clock(T0)
    assert c.view(T0).shot_clock_on is runs
    assert (res.message.startswith("Shot clock")) is runs
    if not runs:
        assert res.message == "CLOCK: tap the seat"      # a player's clock call, as before


def test_a_director_restart_mid_countdown_changes_nothing_at_the_table() -> None:
    c = table()
    dealt(c)
    s = int(c.press_clock(T0).message.rsplit(" ", 1)[1])
    c.time_bank(T0 + 5)
    state = c.export_state()
    # the new director republishes under a new epoch: the countdown runs on
    failover = shot_plan(rev=1)
    failover["epoch"] = T0 + 6
    assert c.apply_plan(failover, T0 + 6)
    v = c.view(T0 + 10).shot_clock
    assert (v.seat, v.remaining, v.cards) == (s, 40, 1)
    # a kiosk restart keeps the card it has not seen counted
    again = TableController(3, rng=random.Random(5), boot="t", debounce_s=0)
    again.directions.apply_schedule(schedule())
    again.apply_plan(shot_plan(), T0 + 11)
    again.import_state(state)
    assert next(x for x in again.view(T0 + 11).seats if x.seat == s).bank == 1


def test_the_buzzer_follows_the_shot_clock_and_a_clock_call() -> None:
    c = table()
    dealt(c)
    c.press_clock(T0)
    assert [c.sound(T0 + d) for d in (1, 26, 30.5, 34)] == ["", "beep", "on", ""]


# ---------------------------------------------------------------- orbit for orbit
def test_a_table_that_played_its_orbit_waits_and_says_for_whom() -> None:
    c = table(orbit={"on": True, "round": 2, "go": False, "hands_left": None, "hand": 0})
    c.directions.apply_schedule(schedule(rev=2, orbit={"on": True, "round": 2,
                                                        "playing": [1, 3, 5]}))
    v = c.view(T0)
    assert not v.can_deal and v.state == "ORBIT FOR ORBIT 2: WAIT" and v.orbit == "waiting"
    assert v.guidance == "Playing: tables 1, 5"
    assert c.new_hand(T0).refused
    c.apply_plan(shot_plan(rev=2, orbit={"on": True, "round": 3, "go": True,
                                         "hands_left": 2, "hand": 0}), T0)
    assert c.view(T0).can_deal and c.view(T0).orbit == "playing"
    for i in range(2):                       # offline: it stops by itself after its orbit
        assert not c.new_hand(T0 + 10 * i).refused
        c.end_hand(T0 + 10 * i + 5)
    assert c.view(T0 + 30).state == "ORBIT FOR ORBIT 3: WAIT"


def test_hand_for_hand_comes_before_orbit_for_orbit() -> None:
    c = table(orbit={"on": True, "round": 2, "go": False, "hands_left": None, "hand": 0},
              hand_for_hand={"on": True, "round": 4, "go": True})
    assert c.view(T0).can_deal and c.view(T0).state.startswith("HAND-FOR-HAND")


# ---------------------------------------------------------------- levels in hands


def test_a_tables_level_counts_its_own_hands_and_goes_on_offline(tmp_path: Path) -> None:
    path = tmp_path / "hands.toml"
    path.write_text(hands_toml(3, 2))
    c = TableController(3, rng=random.Random(5), boot="h", debounce_s=0)
    assert c.directions.apply_schedule(schedule("tda-2015", structure=str(path), paused=0.0))
    assert c.apply_plan(plan(hand_level={"period": 0, "played": 1, "hand": 0}), T0)
    v = c.view(T0)
    assert (v.level, v.blinds, v.clock, v.hands_left, v.paused) == (
        "Level 1", "50/100", "2 hands", 2, False)
    c.new_hand(T0)
    assert (c.view(T0).clock, c.local.period) == ("2 hands", 0)   # this hand included
    c.end_hand(T0 + 1)
    c.new_hand(T0 + 2)                       # the level's last hand
    v = c.view(T0 + 2)
    assert (v.clock, v.next_hand_note) == ("1 hand", "Next hand: level 2")
    c.end_hand(T0 + 3)
    v = c.view(T0 + 3)                       # offline, the table moved on by itself
    assert (v.level, v.blinds, v.clock) == ("Level 2", "100/200", "2 hands")
    c.new_hand(T0 + 4)
    assert c.local.period == 1
