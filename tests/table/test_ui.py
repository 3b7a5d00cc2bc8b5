"""The dealer screen rendered headless (SDL2 offscreen), at 800x480 and 1280x720.

Screenshots go to tests/output/screens/ (kept by CI as artefacts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from table_helpers import T0, plan, schedule, seat

from kiosk.table.ui.env import prepare

prepare("800x480", headless=True)

from kivy.base import EventLoop  # noqa: E402  (Kivy reads its settings on first import)
from PIL import Image  # noqa: E402

from kiosk.table.controller import TableController  # noqa: E402

SHOTS = Path(__file__).resolve().parents[1] / "output" / "screens"
SIZES = [(800, 480), (1280, 720)]
MOVE = {"player": "p4", "name": "Dev E", "seat": 4, "to_table": 7, "to_seat": 2}
ARRIVAL = {"player": "p20", "name": "Anna K", "seat": 6, "from_table": 5, "from_seat": 1}


class Harness:
    """A TableScreen in the offscreen window, driven by a controller at a fixed time."""

    def __init__(self) -> None:
        EventLoop.ensure_window()
        from kivy.core.window import Window

        from kiosk.table.ui.app import TableScreen
        self.window = Window
        self.t = T0 + 60
        self.ctl = TableController(3, rng=random.Random(3), boot="ui")
        self.ctl.apply_schedule(schedule())
        self.screen = TableScreen(act=self.act)
        Window.add_widget(self.screen)

    def act(self, name: str, *args: Any) -> Any:
        return getattr(self.ctl, name)(self.t, *args)

    def draw(self, size: tuple[int, int]) -> Any:
        self.window.size = size
        self.screen.size = size
        for _ in range(3):
            self.screen.render(self.ctl.view(self.t))
            EventLoop.idle()
        return self.screen.ids

    def shot(self, name: str, size: tuple[int, int]) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}_{size[0]}x{size[1]}.png"
        self.screen.export_to_png(str(path))
        with Image.open(path) as img:
            assert img.size == size
            assert len(img.convert("RGB").getcolors(1 << 20) or []) > 20   # really drawn
        return path

    def close(self) -> None:
        self.window.remove_widget(self.screen)


@pytest.fixture(scope="module")
def ui() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


def table_plan(rev: int, **kw: Any) -> dict[str, Any]:
    seats = {n: seat(n) for n in range(1, 10)} | {7: seat(7, penalty_hands=2)}
    return plan(seats, rev=rev, **kw)


def seated(ui: Harness, rev: int, **kw: Any) -> None:
    ui.ctl.plan = {"rev": -1}
    ui.ctl.apply_plan(table_plan(rev, **kw), ui.t)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen(ui: Harness, size: tuple[int, int]) -> None:
    seated(ui, 1)
    if not ui.ctl.local.in_hand:
        ui.act("new_hand")
        ui.act("all_in", 5)
        ui.act("set_absent", 8)
    ui.ctl.set_link(False, 3)
    ids = ui.draw(size)
    assert (ids.level.text, ids.blinds.text, ids.clock.text) == ("Level 1", "25/50", "19:00")
    assert ids.next_level.text == "Next: 50/100" and ids.hand.text == "Hand 1 - running"
    seats = ids.oval.seats
    assert len(seats) == 9 and "Eva F" in seats[5].text and "ALL-IN" in seats[5].text
    assert "absent" in seats[8].text and "penalty: 2 hands" in seats[7].text
    pos = ui.ctl.local.positions
    assert "D" in seats[pos.button].text and "BB" in seats[pos.bb].text
    assert ids.offline.text.startswith("OFFLINE") and "3 report(s) queued" in ids.offline.text
    assert not ids.clock_call.shown and not ids.break_screen.shown
    ui.ctl.set_link(True, 0)
    ids = ui.draw(size)
    assert ids.offline.text == "" and ids.offline.opacity == 0
    ui.shot("main", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clock_call_overlay(ui: Harness, size: tuple[int, int]) -> None:
    seated(ui, 1)
    ui.ctl.clock_call = None
    assert ui.act("call_clock", 6, "player").report is not None
    seated(ui, 2, clock_calls={f"c{size[0]}": {"state": "approved", "seat": 6,
                                               "approved_at": ui.t, "seconds": 25,
                                               "countdown": 5}})
    ui.t += 10
    try:
        ids = ui.draw(size)
        assert ids.clock_call.shown and ids.clock_call.opacity == 1
        assert ids.cc_title.text == "CLOCK ON SEAT 6" and ids.cc_count.text == "20"
        assert "25 + 5 s" in ids.cc_detail.text
        ui.shot("clock_call", size)
        ui.t += 17                                       # into the final 5 s count
        ids = ui.draw(size)
        assert ids.cc_count.text == "3" and tuple(ids.cc_count.color) == (1, 0.2, 0.2, 1)
    finally:
        ui.act("clock_done", "acted")
        ui.t -= 27


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_move_banner_and_arrival(ui: Harness, size: tuple[int, int]) -> None:
    seats = table_plan(3)["seats"] | {"6": seat(6, "Anna K", player="p20", status="arriving")}
    ui.ctl.plan = {"rev": -1}
    ui.ctl.apply_plan(plan(rev=3, moves_out=[MOVE], moves_in=[ARRIVAL]) | {"seats": seats}, ui.t)
    ids = ui.draw(size)
    assert ids.moves.text == "Seat 4: go to table 7 seat 2" and ids.moves.opacity == 1
    assert ids.arrivals.text == "Arriving: Seat 6: Anna K from table 5"
    assert "arriving" in ids.oval.seats[6].text
    ui.shot("move_banner", size)
    seated(ui, 4)
    assert ui.draw(size).moves.text == ""


def test_break_screen_and_floor_status(ui: Harness) -> None:
    seated(ui, 5)
    ui.ctl.local.in_hand = False
    saved, ui.t = ui.t, T0 + 80 * 60 + 30
    ui.ctl.floor_call = None
    call = ui.act("press_floor").report["id"]
    ui.ctl.apply_plan(table_plan(6, floor_calls={call: {"state": "acked"}}), ui.t)
    try:
        ids = ui.draw((1280, 720))
        assert ids.break_screen.shown and ids.break_clock.text == "09:30"
        assert ids.color_up.text == "Race off the 25 chips"
        assert ids.floor.text == "Floor on the way"
        ui.shot("break", (1280, 720))
    finally:
        ui.t = saved
        ui.ctl.floor_call = None


def test_taps_drive_the_controller(ui: Harness) -> None:
    seated(ui, 7)
    ui.ctl.local.in_hand = False
    ui.t += 100
    ids = ui.draw((800, 480))
    press: Callable[[Any], None] = lambda w: w.dispatch("on_release")  # noqa: E731
    press(ids.btn_new)
    assert ui.ctl.local.in_hand
    press(ids.btn_bust)
    ids = ui.draw((800, 480))
    assert ids.centre.text == "BUST: tap the busted seat" and ids.bust_entry.opacity == 1
    ids.bust_stack.text = "8000"
    ui.t += 1
    res = ui.screen.seat_tapped(2)
    assert res.report["kind"] == "bust" and res.report["data"]["stack"] == 8000
    press(ids.btn_undo)
    assert ui.ctl.local.busted == {}
