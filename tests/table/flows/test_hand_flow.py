"""The hand flow: the button drawn then moved per the profile, newcomers waiting for
the button, hand-for-hand waits, and what the seats show."""

from __future__ import annotations

import random

from flow_helpers import make
from table_helpers import T0, plan, seat

from kiosk.core.calc.button import draw_button, first_hand
from kiosk.protocol.messages import decode, encode
from kiosk.table.controller import TableController


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
