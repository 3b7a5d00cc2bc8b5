"""The table controller as a pure state machine: time is an argument, randomness injected."""

from __future__ import annotations

import random
from dataclasses import replace

from table_helpers import T0, plan, schedule, seat

from kiosk.core.button import draw_button, first_hand
from kiosk.protocol.messages import decode, encode
from kiosk.table.controller import TableController


def make(profile: str = "tda-2017", seats: list[int] | None = None, *, start: str | None = None,
         seed: int = 7, **plan_kw: object) -> TableController:
    c = TableController(3, rng=random.Random(seed), boot="b0")
    assert c.apply_schedule(schedule(profile))
    assert c.apply_plan(plan(seats, **plan_kw), T0)
    if start:
        c.ctx.profile = replace(c.ctx.profile, button=replace(c.ctx.profile.button, start=start))
    return c


def positions(c: TableController) -> tuple[int, int, int]:
    view = c.view(T0)
    marks = {k: [s.seat for s in view.seats if getattr(s, k)] for k in ("button", "sb", "bb")}
    return marks["button"][0], marks["sb"][0], marks["bb"][0]


def test_first_button_is_drawn_with_the_injected_rng() -> None:
    c = make(seed=11)
    res = c.new_hand(T0 + 1)
    button, _ = draw_button(list(range(1, 10)), "random", random.Random(11))
    expect = first_hand(set(range(1, 10)), button, 10)
    assert res.report is not None and res.report["kind"] == "hand_started"
    assert (res.report["data"]["button"], res.report["data"]["sb"],
            res.report["data"]["bb"]) == (expect.button, expect.sb, expect.bb)
    decode("report", encode(res.report))   # a valid protocol message


def test_hand_by_hand_dead_button_and_newcomer_waits() -> None:
    c = make(seats=[1, 2, 3, 5, 6], start="seat1")
    t = T0
    assert c.new_hand(t + 1).report["data"]["button"] == 1
    assert positions(c) == (1, 2, 3)
    c.end_hand(t + 2)
    c.new_hand(t + 3)
    assert positions(c) == (2, 3, 5)
    c.end_hand(t + 4)
    # a new player takes seat 4, between the coming button (3) and small blind (5)
    seats = {n: seat(n) for n in (1, 2, 3, 5, 6)} | {4: seat(4, "Newt")}
    assert c.apply_plan(plan(seats, rev=2), t + 5)
    res = c.new_hand(t + 6)
    assert res.report["data"] | {} == {"hand": 3, "button": 3, "sb": 5, "bb": 6,
                                       "dealt": [1, 2, 3, 5, 6], "waiting": [4]}
    assert [s.seat for s in c.view(t + 6).seats if s.waiting] == [4]
    c.end_hand(t + 7)
    # seat 5 busts: dead small blind next hand (TDA 32), newcomer dealt in once passed
    assert c.bust(t + 8, 5, stack=12000).report["data"] == {"seat": 5, "player": "p5",
                                                            "stack": 12000}
    res = c.new_hand(t + 9)
    assert (res.report["data"]["button"], res.report["data"]["sb"],
            res.report["data"]["bb"]) == (5, 6, 1)
    assert 4 in res.report["data"]["dealt"] and 5 not in res.report["data"]["dealt"]


def test_moving_button_profile_and_plan_redraw() -> None:
    c = make("home-roberts", seats=[2, 4, 6, 8])
    c.new_hand(T0)
    assert positions(c) == (2, 4, 6)   # seat1 start: the first occupied seat
    c.end_hand(T0 + 1)
    c.new_hand(T0 + 2)
    assert positions(c) == (4, 6, 8)
    c.end_hand(T0 + 3)
    c.apply_plan(plan([2, 4, 6, 8], rev=2, redraw_button=True), T0 + 4)
    assert c.new_hand(T0 + 5).message.startswith("Button drawn: seat 2")


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
    v = c.view(T0 + 80 * 60 + 5)       # four 20-minute levels, then the break
    assert v.is_break and v.level == "Break" and "Race off the 25 chips" in v.color_up


def _approve(c: TableController, t: float, seat_no: int, rev: int = 2) -> None:
    rules = c.ctx.profile.clock_call
    assert c.apply_plan(plan(rev=rev, clock_calls={"c1": {
        "state": "approved", "seat": seat_no, "approved_at": t, "seconds": rules.seconds,
        "countdown": rules.countdown}}), t)


def test_clock_call_tda_2017_is_25_plus_5_after_approval() -> None:
    c = make()
    assert c.press_clock(T0).message == "CLOCK: tap the seat"
    res = c.choose_seat(T0 + 1, 6)
    assert res.report["kind"] == "clock_call" and res.report["data"] == {"seat": 6}
    assert c.view(T0 + 5).clock_call.phase == "approval"
    _approve(c, T0 + 10, 6)
    cc = c.view(T0 + 20).clock_call
    assert (cc.phase, cc.text) == ("running", "20") and "25 + 5 s" in cc.detail
    assert c.view(T0 + 36).clock_call.phase == "countdown"
    assert c.view(T0 + 36).clock_call.text == "4"
    assert c.buzzer_on(T0 + 40.5) and c.view(T0 + 40.5).clock_call.text == "TIME"
    done = c.clock_done(T0 + 45, "acted")
    assert done.report["data"] == {"call": res.report["id"], "outcome": "acted"}
    assert c.view(T0 + 46).clock_call is None


def test_clock_call_tda_2015_is_50_plus_10() -> None:
    c = make("tda-2015")
    c.call_clock(T0, 2, by="player")
    _approve(c, T0 + 1, 2)
    assert c.view(T0 + 1).clock_call.remaining == 60
    assert c.view(T0 + 51).clock_call.phase == "countdown"
    assert c.view(T0 + 61.5).clock_call.buzzer


def test_clock_call_irish_open_waits_two_minutes() -> None:
    c = make("irish-open")
    c.call_clock(T0, 4, by="player")
    _approve(c, T0 + 10, 4)              # approved early: still waits for min_wait
    v = c.view(T0 + 60)
    assert v.clock_call.phase == "waiting" and v.clock_call.text == "Clock can start in 01:00"
    assert c.view(T0 + 130).clock_call.remaining == 50
    assert c.view(T0 + 181).clock_call.phase == "buzzer"


def test_clock_call_sheridans_dealer_only_30_seconds() -> None:
    c = make("sheridans")
    refused = c.press_clock(T0)
    assert refused.refused and refused.report is None and "rule 32" in refused.message
    assert c.call_clock(T0 + 1, 3, by="player").refused
    c.begin(T0 + 2, "clock")             # the dealer's own CLOCK on the screen
    assert c.choose_seat(T0 + 3, 3).report["kind"] == "clock_call"
    cc = c.view(T0 + 4).clock_call       # no approval: runs at once
    assert (cc.phase, cc.remaining) == ("running", 29)
    assert c.view(T0 + 33.1).clock_call.phase == "buzzer"


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


def test_floor_call_follows_the_plan_and_hold_cancels() -> None:
    c = make()
    call = c.press_floor(T0).report["id"]
    c.apply_plan(plan(rev=2, floor_calls={call: {"state": "acked", "since": T0}}), T0 + 3)
    assert c.view(T0 + 3).floor_call == "Floor on the way"
    c.apply_plan(plan(rev=3, floor_calls={call: {"state": "resolved", "since": T0}}), T0 + 9)
    assert c.view(T0 + 10).floor_state == "resolved"
    assert c.view(T0 + 30).floor_call == ""
    c.press_floor(T0 + 40)
    cancel = c.hold_floor(T0 + 42)
    assert cancel.report["kind"] == "floor_cancel" and c.floor.call is None


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


def test_hand_for_hand_waits_for_the_floor() -> None:
    c = make(hand_for_hand={"on": True, "round": 1, "go": True})
    c.new_hand(T0)
    c.end_hand(T0 + 60)
    assert c.view(T0 + 61).h4h_waiting
    assert c.new_hand(T0 + 62).message == "Hand-for-hand: wait"
    c.apply_plan(plan(rev=2, hand_for_hand={"on": True, "round": 2, "go": True}), T0 + 90)
    assert not c.view(T0 + 90).h4h_waiting
    assert c.new_hand(T0 + 91).report["data"]["hand"] == 2


def test_halt_absent_and_penalty_are_shown() -> None:
    seats = {n: seat(n) for n in range(1, 7)} | {3: seat(3, penalty_hands=2)}
    c = make(seats=seats, halt=True)
    assert c.new_hand(T0).message == "Halted: do not deal"
    assert c.set_absent(T0, 5).report["kind"] == "absent"
    v = c.view(T0)
    assert v.halt and v.seats[4].absent and v.seats[2].penalty == "PEN x2"
    assert c.set_absent(T0 + 1, 5, False).report["kind"] == "present"


def test_ids_unique_seq_increasing_and_state_survives_restart() -> None:
    c = make(seats=[1, 2, 3, 4])
    reps = [r.report for r in (c.new_hand(T0), c.press_floor(T0 + 1), c.end_hand(T0 + 2))]
    assert len({r["id"] for r in reps}) == 3 and [r["seq"] for r in reps] == [1, 2, 3]
    again = TableController(3, rng=random.Random(1))
    again.apply_schedule(schedule())
    again.apply_plan(plan([1, 2, 3, 4]), T0)
    again.import_state(c.export_state())
    res = again.new_hand(T0 + 10)
    assert res.report["seq"] == 4 and res.report["data"]["hand"] == 2
    live = again.live(T0 + 11)
    assert live["hand"] == 2 and live["in_hand"] and live["table"] == 3
