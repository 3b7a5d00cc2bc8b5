"""The table controller as a pure state machine: time is an argument, randomness injected."""

from __future__ import annotations

import random

from flow_helpers import make
from table_helpers import T0, plan, schedule, seat, seating

from kiosk.table.controller import TableController


def test_new_level_applies_from_the_next_hand() -> None:
    c = make()
    c.new_hand(T0 + 1190)               # level 1 runs 20 minutes from T0
    v = c.view(T0 + 1210)
    assert (v.level, v.blinds, v.next_hand_note) == ("Level 1", "25/50", "Next hand: level 2")
    assert v.clock == "19:50"           # the clock itself has moved on
    c.end_hand(T0 + 1212)
    assert c.view(T0 + 1212).level == "Level 2"
    c.new_hand(T0 + 1215)
    v = c.view(T0 + 1216)
    assert (v.level, v.blinds, v.next_hand_note) == ("Level 2", "50/100", "")
    assert c.live(T0 + 1216)["period"] == 1


def test_break_screen_shows_colour_up() -> None:
    c = make()
    v = c.view(T0 + 170 * 60 + 5)      # 4 levels, a break, 4 levels: the break the 25s leave
    assert v.is_break and v.level == "Break" and "Race off the 25 chips" in v.color_up


def test_duplicate_presses_are_refused_without_a_report() -> None:
    c = make()
    first = c.press_floor(T0)
    assert first.report["kind"] == "floor_call"
    bounce = c.press_floor(T0 + 0.2)
    assert bounce.refused and bounce.report is None
    again = c.press_floor(T0 + 5)
    assert again.refused and again.message == "Floor already called"
    c.new_hand(T0 + 6)
    running = c.new_hand(T0 + 10)
    assert running.refused and running.message == "Hand 1 is still running - end it first"
    c.press_allin(T0 + 11)
    assert c.choose_seat(T0 + 12, 4).report["kind"] == "all_in"
    second = c.all_in(T0 + 13, 4)
    assert second.refused and second.message == "Seat 4 is already all-in"
    assert c.ctx.seq == 3                     # floor_call, hand_started, all_in


def test_undo_takes_back_the_last_dealer_action() -> None:
    c = make(seats=[1, 2, 3])
    started = c.new_hand(T0)
    c.end_hand(T0 + 1)
    busted = c.bust(T0 + 2, 2)
    assert not c.view(T0 + 2).seats[1].occupied
    undo = c.undo(T0 + 3)
    assert undo.report["kind"] == "undo" and undo.report["data"] == {"report": busted.report["id"]}
    assert c.view(T0 + 3).seats[1].occupied
    # hand starts and ends are not taken back (the director counts them): UNDO says so
    assert c.view(T0 + 4).undo == "" and c.undo(T0 + 5).message == "Nothing to undo"
    assert c.local.hand == 1
    assert c.new_hand(T0 + 10).report["data"]["hand"] == 2
    assert started.report["id"] != undo.report["id"]


def test_plan_with_lower_revision_is_ignored_and_banners_show() -> None:
    c = make()
    moves = [{"player": "p4", "name": "Dev E", "seat": 4, "to_table": 7, "to_seat": 2}]
    arriving = [{"player": "p20", "name": "Anna", "seat": 2, "from_table": 3, "from_seat": 5}]
    seats = {n: seat(n) for n in range(1, 10)} | {2: seat(2, "Anna", player="p20",
                                                           status="arriving")}
    assert c.apply_plan(plan(seats, rev=5, moves_out=moves, moves_in=arriving), T0)
    assert not c.apply_plan(plan(rev=4), T0)
    v = c.view(T0)
    assert v.moves == ("Seat 4: go to table 7 seat 2",)
    assert v.arrivals == ("Seat 2: arriving from T3",)
    assert v.seats[1].arriving and not v.seats[1].occupied


def test_ids_unique_seq_increasing_and_state_survives_restart() -> None:
    c = make(seats=[1, 2, 3, 4])
    reps = [r.report for r in (c.new_hand(T0), c.press_floor(T0 + 1), c.end_hand(T0 + 2))]
    assert len({r["id"] for r in reps}) == 3 and [r["seq"] for r in reps] == [1, 2, 3]
    again = TableController(3, rng=random.Random(1))
    again.directions.apply_schedule(schedule())
    again.apply_plan(plan([1, 2, 3, 4]), T0)
    again.import_state(c.export_state())
    res = again.new_hand(T0 + 10)
    assert res.report["seq"] == 4 and res.report["data"]["hand"] == 2
    live = again.live(T0 + 11)
    assert live["hand"] == 2 and live["in_hand"] and live["table"] == 3


def test_a_moved_table_starts_clean_and_cards_are_found_in_every_event() -> None:
    c = TableController(3, rng=random.Random(1), debounce_s=0)
    assert c.apply_plan(plan(rev=1, event="daily", title="Daily"), T0)
    assert c.directions.apply_schedule(schedule(event="daily"))
    assert c.directions.apply_seating({**seating(3), "event": "daily"})
    assert c.directions.apply_seating({"v": 2, "rev": 1, "event": "sat",
                            "cards": {"CB000001": [6, 2, "Zed Other"]}})
    dealt = c.act("new_hand", T0 + 1)
    assert dealt.report["event"] == "daily" and c.view(T0 + 2).in_hand
    other = c.act("card", T0 + 3, "CB000001")                 # a satellite player, here
    assert other.refused and other.message == "Other event — Zed Other: sat table 6 seat 2"
    assert other.report is None
    # the floor gives the table to the satellite: the daily's hand and clock stay behind
    assert c.apply_plan(plan(rev=2, event="sat", title="Sat"), T0 + 4)
    v = c.view(T0 + 5)
    assert not v.in_hand and v.hand == 0 and v.level == "-" and v.event_title == "Sat"
    assert c.undo_label() == ""                               # no undo of the daily's hand
    assert c.act("card", T0 + 6, "CB000001").message == "Wrong seat — table 6 seat 2 (Zed Other)"
    c.directions.set_director(False)
    assert c.view(T0 + 7).director_offline


def test_a_card_the_directory_seats_here_but_the_plan_no_longer_does_is_not_checked_in(
        ) -> None:
    """In a big room the seating directory lags the plans (it goes to every table, paced
    by its size): a player moved off table 3 swipes at the old seat. The plan, sent at
    once with the move, decides: no check-in report, and the player is sent to the floor;
    the player who now has the seat checks in."""
    c = TableController(3, rng=random.Random(1), debounce_s=0)
    assert c.directions.apply_schedule(schedule())
    assert c.directions.apply_seating(seating(3))                    # seat 4: CA000004, as it was
    assert c.apply_plan(plan([1, 2, 3, 5]), T0)           # seat 4's player has moved
    gone = c.act("card", T0 + 1, "CA000004")
    assert gone.refused and gone.report is None
    assert gone.message == "Dev E: not seated here now — ask the floor"
    seats = {n: seat(n) for n in (1, 2, 3, 5)} | {4: seat(4, "Ravi", player="p40",
                                                        card="C0FFEE04")}
    assert c.apply_plan(plan(seats, rev=2), T0 + 2)
    newcomer = c.act("card", T0 + 3, "c0ffee04")
    assert newcomer.report["data"] == {"card": "C0FFEE04", "seat": 4}
