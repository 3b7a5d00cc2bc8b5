"""A table of the room's pool on the real dealer screen, headless at 800x480 and
1280x720: free (a calm idle screen that answers every press), then assigned to an
event (its title, clock and seats) without a restart."""

from __future__ import annotations

import pytest
from table_helpers import plan, schedule, seat, seating
from ui_checks import check_screen
from ui_kit import ROOM, SIZES, TITLE, Harness, free

from kiosk.protocol.messages import check


def touch_idle_screen(ui: Harness) -> None:
    """A finger on the middle of the screen, through Kivy's own touch dispatch."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(ui.screen.width * 0.5, ui.screen.height * 0.6)
    touch.touch_down()
    touch.touch_up()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_free_table_shows_a_calm_idle_screen_and_every_press_says_so(
        ui: Harness, size: tuple[int, int]) -> None:
    free(ui)
    ids = ui.draw(size)
    assert ids.idle_screen.shown
    assert ids.idle_title.text == "FREE TABLE 3" and ids.idle_room.text == ROOM
    assert ids.idle_message.text == "" and ids.idle_status.text == ""
    got = check_screen(ui.screen, size, big=(ids.idle_title,))
    assert got["caps"]["FREE TABLE 3"] >= 7 * 5.5 * size[1] / 480
    assert got["targets"] == 1                 # nothing to press by mistake but the
    assert ids.idle_pin.text == "DEALER PIN"   # PIN pad of a dealer without a badge
    ui.shot("free_table", size)

    taps, sent = ui.taps, len(ui.sent)
    touch_idle_screen(ui)                      # a tap on the glass
    assert ui.taps == taps + 1
    for action, *args in (("new_hand",), ("press_allin",), ("press_floor",),
                          ("begin", "bust"), ("undo",), ("choose_seat", 4)):
        res = ui.act(action, *args)
        assert res.refused and res.message == "This table is free", action
    assert len(ui.sent) == sent                # no report left the table
    ids = ui.draw(size)
    assert ids.idle_message.text == "This table is free"
    check_screen(ui.screen, size, big=(ids.idle_title,))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_card_at_a_free_table_says_where_its_player_sits(ui: Harness,
                                                            size: tuple[int, int]) -> None:
    free(ui, rev=2)
    sent = len(ui.sent)
    assert ui.ctl.directions.apply_seating({**seating(table=5), "event": "sunday"})
    assert ui.ctl.directions.apply_directory(check("events", {
        "rev": 1, "room": "main-room", "title": ROOM,
        "events": [{"event": "sunday", "title": TITLE, "state": "running", "tables": [5]}]}))
    res = ui.act("card", "CA000004")
    assert not res.refused and len(ui.sent) == sent          # told, nothing reported
    ids = ui.draw(size)
    assert ids.idle_message.text == f"Dev E: {TITLE} table 5 seat 4"
    check_screen(ui.screen, size, big=(ids.idle_title,))
    ui.shot("free_table_card", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_assigned_table_leaves_the_idle_screen_for_its_events_clock_and_seats(
        ui: Harness, size: tuple[int, int]) -> None:
    free(ui, rev=3)
    ui.draw(size)
    seats = {n: seat(n) for n in range(1, 10)}
    assert ui.ctl.apply_plan(plan(seats, rev=4, event="sunday", title=TITLE, room=ROOM), ui.t)
    assert ui.ctl.directions.apply_schedule(schedule(event="sunday", players_left=27,
                                          average_stack=16667, entries=30))
    ids = ui.draw(size)
    assert not ids.idle_screen.shown
    assert ids.blinds.text == "25/50" and ids.clock.text.startswith("18:")
    assert ids.oval.seats[4].ids.name.text == "Dev E"
    assert TITLE in [w.text for w in ui.screen.lines]
    ui.press(ids.btn_new)                                   # it deals again, for "sunday"
    assert ui.sent[-1]["kind"] == "hand_started" and ui.sent[-1]["event"] == "sunday"
    ui.draw(size)
    ui.check(size)
    ui.shot("assigned_table", size)
