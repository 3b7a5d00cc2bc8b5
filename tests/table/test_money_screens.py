"""The dealer's money screens, headless at 800x480 and 1280x720: a bust with place and
prize and the pot's winner, the chip-count keypad, the colour-up walk-through. Their
content comes from the core's own plans, through the wire, as a kiosk receives them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_helpers import Event18

from kiosk.table.ui.env import prepare

prepare("800x480", headless=True)

from kivy.base import EventLoop  # noqa: E402  (Kivy reads its settings on first import)
from kivy.core.window import Window  # noqa: E402
from PIL import Image  # noqa: E402

from kiosk.table.controller import TableController  # noqa: E402
from kiosk.table.money_entry import entry_from_plan  # noqa: E402
from kiosk.table.ui.money_screens import BustPanel, ChipCountPanel, ColourUpPanel  # noqa: E402

SHOTS = Path(__file__).resolve().parents[1] / "output" / "screens"
SIZES = [(800, 480), (1280, 720)]
T = Event18.T
MIN_PX = 18      # ~3.3 mm at 5.5 px/mm: readable from the dealer's chair (0.5 m)


def show(widget: Any, size: tuple[int, int], name: str) -> None:
    Window.size = size
    widget.size = size
    widget.pos = (0, 0)
    Window.add_widget(widget)
    for _ in range(3):
        EventLoop.idle()
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}_{size[0]}x{size[1]}.png"
    widget.export_to_png(str(path))
    with Image.open(path) as img:
        assert img.size == size
        assert len(img.convert("RGB").getcolors(1 << 20) or []) > 20   # really drawn


def check_layout(widgets: list[Any], size: tuple[int, int]) -> None:
    """Inside the window, apart from each other, and large enough to read."""
    w, h = size
    boxes = []
    for wid in widgets:
        x, y = wid.to_window(*wid.pos)
        assert x >= -1 and y >= -1 and x + wid.width <= w + 1 and y + wid.height <= h + 1, wid
        assert getattr(wid, "font_size", MIN_PX) >= MIN_PX, wid
        boxes.append((x, y, wid.width, wid.height))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[0] + a[2] <= b[0] + 1 or b[0] + b[2] <= a[0] + 1 or \
                a[1] + a[3] <= b[1] + 1 or b[1] + b[3] <= a[1] + 1
            assert apart, (a, b)


@pytest.fixture(scope="module")
def event() -> Iterator[Event18]:
    EventLoop.ensure_window()
    yield Event18()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bust_shows_place_and_prize_and_asks_who_won_the_pot(event: Event18,
                                                              size: tuple[int, int]) -> None:
    ctl = TableController(1, rng=random.Random(1), boot="m")
    table = 1
    tab = event.tour.tables[table]
    if not event.tour.groups.get(("hand", table, tab.hand)):
        event.deal(table)
        seats = sorted(tab.seat_of)
        ctl.apply_plan(event.plan(table), T)
        ctl.local.in_hand = True
        res = ctl.bust(T, seats[0], eliminator=seats[1])
        assert res.report["data"]["eliminator"] == seats[1]
        assert ctl.bust(T, seats[2], eliminator=seats[2]).refused
        event.send(res.report)
    body = event.plan(table)
    out = body["busts"][0]
    assert out["place"] == 18 and out["prize"] == 0 and out["eliminators"]
    chosen: list[int | None] = []
    panel = BustPanel(body, out["seat"], size[1], chosen.append)
    show(panel, size, "bust_prize")
    assert "18th place" in panel.lines.text and "no prize" in panel.lines.text
    assert len(panel.choices) == len(body["seats"])
    check_layout([panel.title, panel.lines, *panel.choices, panel.skip], size)
    panel.choices[0].dispatch("on_release")
    panel.skip.dispatch("on_release")
    assert chosen == [int(panel.choices[0].text), None]
    Window.remove_widget(panel)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_chip_count_keypad_checks_and_sends_a_count_the_director_takes(
        size: tuple[int, int]) -> None:
    event = Event18()
    tour = event.tour
    tour.execute({"kind": "count_chips", "label": "end of level 2", "by": "td"}, T)
    table = 2
    entry = entry_from_plan(event.plan(table))
    assert entry is not None and entry.seats == sorted(tour.tables[table].seat_of)
    sent: list[dict[int, int]] = []
    panel = ChipCountPanel(entry, size[1], sent.append, label="end of level 2")
    show(panel, size, "chip_count")
    check_layout([panel.title, panel.current, panel.send, *panel.keys.values()], size)
    for k in "21000":
        panel.keys[k].dispatch("on_release")
    assert panel.current.text.endswith("21,000")
    panel.send.dispatch("on_release")
    assert not sent and "no count" in panel.problem.text       # the other seats are empty
    for _ in entry.seats[1:]:
        panel._move(1)
        for k in "20000":
            panel.keys[k].dispatch("on_release")
    panel.keys["<"].dispatch("on_release")
    panel.keys["0"].dispatch("on_release")
    panel.send.dispatch("on_release")
    assert len(sent) == 1 and sent[0][entry.seats[0]] == 21000
    ctl = TableController(table, rng=random.Random(2), boot="c")
    event.send(ctl.chip_count(T, sent[0], entry.round_no).report)
    assert tour.counts[table][entry.seats[0]] == 21000
    assert event.plan(table)["chip_count"]["done"]
    Window.remove_widget(panel)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_colour_up_walks_the_dealer_through_the_race(size: tuple[int, int]) -> None:
    ev = Event18()
    stacks = ev.colour_up_break(1)
    seats = sorted(stacks)
    ev.send({"v": 1, "table": 1, "id": "cc1", "seq": 1, "ts": T, "kind": "chip_count",
             "data": {"stacks": {str(s): v for s, v in stacks.items()}}})
    cu = ev.plan(1)["colour_up"]
    assert cu["new_chip"] == 100 and sum(cu["won"].values()) >= 1
    done: list[bool] = []
    panel = ColourUpPanel(cu, size[1], lambda: done.append(True))
    show(panel, size, "colour_up")
    texts = [r.text for r in panel.rows]
    assert any("-> 20,100" in t for t in texts) and any("wins 1" in t for t in texts)
    assert len(panel.rows) == 3 * len(seats)
    check_layout([panel.title, panel.done, *panel.rows], size)
    panel.done.dispatch("on_release")
    assert done == [True]
    Window.remove_widget(panel)
