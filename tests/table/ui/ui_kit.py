"""The dealer screen headless (SDL2 offscreen) for the screen tests: a harness that
draws the real TableScreen at a size, counts every tap and keeps every report, and the
plans and tables the screens are shown with. Kivy is prepared here, before its first
import, so a test module that imports this may import Kivy after it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from table_helpers import T0, Event18, plan, schedule, seat

from kiosk.table.ui.env import prepare

prepare("800x480", headless=True)

from kivy.base import EventLoop  # noqa: E402  (Kivy reads its settings on first import)
from PIL import Image  # noqa: E402
from ui_checks import check_screen, tag_ids  # noqa: E402

from kiosk.core.event import plans  # noqa: E402
from kiosk.protocol.messages import check  # noqa: E402
from kiosk.table.controller import TableController  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "output" / "screens"
SIZES = [(800, 480), (1280, 720)]
LONG = "Maximilian-Alexander Oppenheimer-Wittgenstein"
MARKUP = "[b]x[/b][color=ff0000]red"
SHORTEN = frozenset({"name", "who"})
TITLE, ROOM = "Sunday Main Event", "Main Room"
TABLE = 3


class Harness:
    """A TableScreen in the offscreen window, driven by a controller at a fixed time;
    every tap goes through the widgets and is counted."""

    def __init__(self) -> None:
        EventLoop.ensure_window()
        from kivy.core.window import Window

        from kiosk.table.ui.app import TableScreen
        self.window = Window
        self.t = T0 + 60
        self.taps = 0
        self.sent: list[dict[str, Any]] = []     # every report the taps produced
        self.ctl = TableController(3, rng=random.Random(3), boot="ui", debounce_s=0)
        self.ctl.directions.apply_schedule(schedule(players_left=27, average_stack=16667,
                                                    entries=30))
        self.screen = TableScreen(act=self.act)
        Window.add_widget(self.screen)

    def act(self, name: str, *args: Any) -> Any:
        self.taps += 1
        self.t += 1
        res = self.ctl.act(name, self.t, *args)
        self.sent += res.reports
        return res

    def press(self, widget: Any) -> None:
        assert not widget.disabled, f"{widget.text!r} is disabled"
        widget.dispatch("on_release")
        self.screen.render(self.ctl.view(self.t))

    def seat(self, n: int) -> None:
        self.press(self.screen.ids.oval.seats[n])

    def draw(self, size: tuple[int, int]) -> Any:
        self.window.size = size
        self.screen.size = size
        for _ in range(3):
            self.screen.render(self.ctl.view(self.t))
            EventLoop.idle()
        tag_ids(self.screen)
        return self.screen.ids

    def check(self, size: tuple[int, int]) -> dict[str, Any]:
        ids = self.screen.ids
        return check_screen(self.screen, size, big=(ids.clock, ids.blinds), may_shorten=SHORTEN)

    def shot(self, name: str, size: tuple[int, int]) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}_{size[0]}x{size[1]}.png"
        self.screen.export_to_png(str(path))
        with Image.open(path) as img:
            assert img.size == size
            assert len(img.convert("RGB").getcolors(1 << 20) or []) > 20   # really drawn
        return path

    def fresh(self, rev: int, seats: dict[int, dict[str, Any]] | None = None,
              **kw: Any) -> None:
        """A new hand-free table with this plan."""
        old = self.ctl      # a new table state; the same draws and report numbers go on
        self.ctl = TableController(3, rng=old.ctx.rng, seq=old.ctx.seq, boot="ui",
                                   debounce_s=0)
        assert old.ctx.schedule is not None
        self.ctl.directions.apply_schedule(old.ctx.schedule)
        self.ctl.set_link(True, 0)
        kw = {"title": TITLE, "room": ROOM, **kw}
        self.ctl.apply_plan(plan(seats or nine(), rev=rev, **kw), self.t)

    def close(self) -> None:
        self.window.remove_widget(self.screen)


def nine(**changes: dict[str, Any]) -> dict[int, dict[str, Any]]:
    seats = {n: seat(n) for n in range(1, 10)} | {7: seat(7, penalty_hands=2)}
    seats[2] = seat(2, LONG)
    seats[3] = seat(3, MARKUP)
    return seats


def eight_movers() -> list[dict[str, Any]]:
    names = ["Anna Byrne", "Bo Ryan", LONG, "Dara Kelly", MARKUP, "Finn Burke",
             "Gus Doyle", "Hana Quinn"]
    return [{"player": f"p{i}", "name": n, "seat": i, "to_table": 10 + i % 3,
             "to_seat": i + 1} for i, n in enumerate(names, start=1)]


def on_table(ui: Harness, event: Event18, table: int, rev: int) -> None:
    """Point the screen at one of the event's tables, as its kiosk."""
    ui.ctl = TableController(table, rng=random.Random(table), boot=f"ui{rev}", debounce_s=0)
    ui.ctl.directions.apply_schedule(schedule(players_left=18, average_stack=20000, entries=18))
    ui.ctl.set_link(True, 0)
    assert ui.ctl.apply_plan(event.plan(table, rev), ui.t)


def free(ui: Harness, rev: int = 1) -> None:
    """A fresh kiosk whose plan says the room holds it free."""
    ui.ctl = TableController(TABLE, rng=random.Random(5), boot="free", debounce_s=0)
    ui.ctl.set_link(True, 0)
    assert ui.ctl.apply_plan(check("plan", {"rev": rev, **plans.free_plan(TABLE, ROOM)}), ui.t)
