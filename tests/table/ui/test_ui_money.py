"""The money moments inside the real dealer screen, headless at 800x480 and 1280x720:
who won the pot after a bust, then place, prize and bounties; the chip-count keypad;
the colour-up walk-through. Plans come from the core (a real bounty event) where the
moment needs the director's arithmetic; every tap goes through the widgets."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flow_helpers import ORDER, answered, as_dealer, stacks
from table_helpers import T0, Event18, plan
from ui_kit import SIZES, Harness, nine, on_table

from kiosk.table.controller import TableController


def keys(ui: Harness) -> dict[str, Any]:
    return {b.text: b for b in ui.screen.ids.keypad.children if getattr(b, "text", "")}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_bust_asks_who_won_the_pot_then_shows_place_prize_and_bounty(
        ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(20 + size[0])
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    start = ui.taps
    ui.press(ids.btn_bust)
    ui.press(ui.screen.bust_buttons[4])
    ui.press(ui.screen.keypad_ok)
    ids = ui.draw(size)
    assert ids.bust_panel.shown
    assert ids.bust_prompt.text == "Who won the pot? Tap the seat, or SKIP"
    assert 4 not in ui.screen.bust_buttons and len(ui.screen.bust_buttons) == 8
    assert ui.screen.keypad_ok.text == "SKIP" and ui.screen.keypad_split is not None
    assert "1" not in keys(ui)                                  # no digits on this step
    got = ui.check(size)
    assert got["targets"] == 10                                 # 8 seats, SPLIT POT, SKIP
    ui.shot("bust_winner", size)
    sent = len(ui.sent)
    ui.press(ui.screen.bust_buttons[6])
    assert ui.taps - start == 4                                 # BUST, 4, OK, 6
    assert [r["data"] for r in ui.sent[sent:]] == [
        {"seat": 4, "player": "p4", "eliminator": 6}]
    assert not ui.draw(size).bust_panel.shown                   # back to the table
    bounty = nine() | {6: nine()[6] | {"bounty": 75}}
    del bounty[4]
    ui.ctl.apply_plan(plan(bounty, rev=21 + size[0], busts=[
        {"seat": 4, "player": "p4", "name": "Dev E", "place": 9, "tied": 1, "prize": 120,
         "bounty_won": 50, "eliminators": [6]}]), ui.t)
    ids = ui.draw(size)
    lines = [w.text for w in ui.screen.lines if w.text]
    assert lines[:2] == ["Seat 4: 9th, wins 120", "Seat 4: bounties 50"]
    assert ids.oval.seats[4].ids.status.text.strip() == "OUT 9th"
    ui.check(size)
    ui.shot("bust_prize_bounty", size)
    ui.press(ids.btn_end)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_chip_count_keypad_shows_what_is_wrong_and_sends_a_count(
        ui: Harness, size: tuple[int, int]) -> None:
    event = Event18()
    event.tour.execute({"kind": "count_chips", "label": "end of level 2", "by": "td"}, T0)
    saved = ui.ctl
    on_table(ui, event, 2, 1)
    try:
        ids = ui.draw(size)
        seats = sorted(event.tour.tables[2].seat_of)
        assert ids.bust_panel.shown and list(ui.screen.bust_buttons) == seats
        assert ids.bust_prompt.text == ("CHIP COUNT (end of level 2): tap a seat, type its "
                                        "stack, then SEND")
        assert ui.screen.keypad_ok.text == "SEND" and "CANCEL" not in keys(ui)
        pad, before = keys(ui), len(ui.sent)
        for k in ("2", "1", "000"):
            ui.press(pad[k])
        ui.press(ui.screen.keypad_ok)                           # the others are missing
        ids = ui.draw(size)
        assert ui.sent[before:] == []
        assert ids.bust_prompt.text.startswith(f"Seat {seats[1]}: no count (+")
        assert ui.screen.bust_buttons[seats[0]].text.endswith("\n21,000")
        got = ui.check(size)
        assert got["targets"] == len(seats) + 13                # seats, 12 keys and SEND
        ui.shot("count_keypad", size)
        for s in seats[1:]:
            ui.press(ui.screen.bust_buttons[s])
            for k in ("2", "0", "000"):
                ui.press(pad[k])
        ui.press(ui.screen.keypad_ok)
        counts = [r for r in ui.sent[before:] if r["kind"] == "chip_count"]
        assert counts[-1]["data"]["stacks"] == {
            str(s): 21000 if s == seats[0] else 20000 for s in seats}
        ids = ui.draw(size)
        assert not ids.bust_panel.shown and not ids.btn_new.disabled   # back to play
        event.send(counts[-1])
        assert ui.ctl.apply_plan(event.plan(2, 2), ui.t)
        assert not ui.draw(size).bust_panel.shown
    finally:
        ui.ctl = saved


def type_count(ui: Harness, stacks: dict[int, int]) -> dict[str, Any]:
    """Each stack typed through the panel's seat buttons and keypad, then SEND: the
    report the kiosk sent."""
    pad, before = keys(ui), len(ui.sent)
    for seat, stack in stacks.items():
        ui.press(ui.screen.bust_buttons[seat])
        for k in (*str(stack // 1000), "000"):        # 40,000: 4, 0, 000
            ui.press(pad[k])
    ui.press(ui.screen.keypad_ok)
    sent = [r for r in ui.sent[before:] if r["kind"] == "chip_count"]
    assert len(sent) == 1, ui.screen.ids.bust_prompt.text
    return sent[0]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_recount_the_bag_asks_for_comes_back_on_the_keypad(
        ui: Harness, size: tuple[int, int]) -> None:
    """Table 1 counted for the bags through its screen; a player moved in after, so the
    bag names it to recount: the same keypad comes back, says why, fits both screens."""
    event = Event18()
    event.bag_count()
    saved = ui.ctl
    on_table(ui, event, 1, 1)
    try:
        ids = ui.draw(size)
        assert ids.bust_panel.shown and ids.bust_prompt.text.startswith("CHIP COUNT (bags")
        event.send(type_count(ui, stacks(event, 1)))
        other = TableController(2, rng=random.Random(2), boot="t2", debounce_s=0)
        other.apply_plan(event.plan(2, 1), ui.t)
        event.send(other.chip_count(ui.t, stacks(event, 2), 1).report)
        assert ui.ctl.apply_plan(event.plan(1, 2), ui.t)
        assert not ui.draw(size).bust_panel.shown                  # counted: the bag waits
        _src, dst = event.move_after_the_count()
        assert ui.ctl.apply_plan(event.plan(1, 3), ui.t)
        ids = ui.draw(size)
        assert ids.bust_panel.shown, "the recount is not offered"
        assert ids.bust_prompt.text == f"RECOUNT: seat {dst} changed since the count"
        assert list(ui.screen.bust_buttons) == sorted(event.tour.tables[1].seat_of)
        got = ui.check(size)
        assert got["targets"] == len(ui.screen.bust_buttons) + 13     # seats, 12 keys, SEND
        ui.shot("recount_keypad", size)
        report = type_count(ui, stacks(event, 1))
        assert report["data"]["round"] == 1 and str(dst) in report["data"]["stacks"]
        assert not ui.draw(size).bust_panel.shown
    finally:
        ui.ctl = saved


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_colour_up_walk_through_then_play(ui: Harness, size: tuple[int, int]) -> None:
    event = Event18()
    stacks = event.colour_up_break(1)
    seats = sorted(stacks)
    saved = ui.ctl
    on_table(ui, event, 1, 1)
    try:
        event.send(ui.ctl.chip_count(ui.t, stacks, 1).report)
        assert ui.ctl.apply_plan(event.plan(1, 2), ui.t)
        ids = ui.draw(size)
        assert ids.colour_up_panel.shown and not ids.bust_panel.shown
        assert ids.cu_title.text == "COLOUR-UP: 25 off, race for 100"
        rows = [c for c in ui.screen.colour_up_cells if c.opacity]
        assert [r.ids.seat.text for r in rows] == [f"Seat {s}" for s in seats]
        assert any(r.ids.change.text.endswith("-> 20,100") for r in rows)
        assert any("wins 1" in r.ids.cards.text for r in rows)
        got = ui.check(size)
        assert got["targets"] == 1                              # DONE
        ui.shot("colour_up_race", size)
        ui.press(ids.cu_done)
        ids = ui.draw(size)
        assert not ids.colour_up_panel.shown and not ids.bust_panel.shown
        assert not ids.btn_new.disabled                         # back to play
    finally:
        ui.ctl = saved


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_side_pots_name_each_busts_winner_on_screen(ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(40 + size[0])
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.press(ids.btn_bust)
    pad = keys(ui)
    for n, digit in ((4, "8"), (6, "5")):
        ui.press(ui.screen.bust_buttons[n])
        ui.press(pad[digit])
        ui.press(pad["000"])
    ui.press(ui.screen.keypad_ok)
    ids = ui.draw(size)
    assert ids.bust_prompt.text == "Who won? One seat won all: tap it"
    assert ui.screen.keypad_side is not None and ui.screen.keypad_side.text == "SIDE POTS"
    start, sent = ui.taps, len(ui.sent)
    ui.press(ui.screen.keypad_side)
    ui.press(ui.screen.bust_buttons[2])                         # seat 4's pot: seat 2
    ids = ui.draw(size)
    assert ids.bust_prompt.text == "Seat 6's pot: who won it? Tap the seat"
    assert ui.screen.keypad_side.armed and ui.sent[sent:] == []
    assert ui.screen.bust_buttons[2].text.endswith("\nwon seat 4")
    got = ui.check(size)
    assert got["targets"] == 10                                 # 7 seats and three keys
    ui.shot("bust_side_pots", size)
    ui.press(ui.screen.bust_buttons[8])                         # seat 6's pot: seat 8
    assert ui.taps - start == 3                                 # SIDE POTS, 2, 8
    assert [(r["data"]["seat"], r["data"]["eliminator"]) for r in ui.sent[sent:]] == [
        (4, 2), (6, 8)]
    assert not ui.draw(size).bust_panel.shown
    ui.press(ids.btn_end)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_dealers_chip_race_is_tapped_in_card_order(ui: Harness,
                                                       size: tuple[int, int]) -> None:
    event = Event18()
    stacks = event.colour_up_break(1)
    saved = ui.ctl
    on_table(ui, event, 1, 1)
    try:
        event.send(ui.ctl.chip_count(ui.t, stacks, 1).report)
        core = event.plan(1, 2)
        assert ui.ctl.apply_plan(as_dealer(core, 3), ui.t)
        ids = ui.draw(size)
        assert ids.bust_panel.shown and not ids.colour_up_panel.shown
        assert ids.bust_prompt.text == "CHIP RACE: 4 x 100: tap the highest card's seat"
        buttons = ui.screen.bust_buttons
        assert buttons[2].text.endswith("\n3 cards") and buttons[1].text.endswith("\n1 card")
        assert ui.screen.keypad_note.text == ORDER
        assert ui.screen.keypad_ok.text == "SEND" and ui.screen.keypad_ok.disabled
        start, sent = ui.taps, len(ui.sent)
        for seat in (4, 2, 8):
            ui.press(buttons[seat])
        ui.press(ui.screen.keypad_undo)                         # not seat 8: seat 6
        ui.press(buttons[6])
        ids = ui.draw(size)
        assert buttons[4].text.endswith("\nchip 1") and buttons[4].disabled   # one each
        assert ui.screen.keypad_ok.disabled and ui.sent[sent:] == []
        got = ui.check(size)
        assert got["targets"] == 11                             # 9 seats, UNDO, SEND
        ui.shot("race_dealer", size)
        ui.press(buttons[1])
        ui.press(ui.screen.keypad_ok)
        assert ui.taps - start == 7                             # 4 seats, a slip undone, SEND
        assert [r["data"] for r in ui.sent[sent:]] == [{"round": 1, "winners": [4, 2, 6, 1]}]
        ids = ui.draw(size)
        assert not ids.bust_panel.shown and not ids.btn_new.disabled   # plays on meanwhile
        assert ui.ctl.apply_plan(answered(as_dealer(core, 4), 5, [4, 2, 6, 1]), ui.t)
        ids = ui.draw(size)
        assert ids.colour_up_panel.shown and ids.cu_title.text.endswith("race for 100")
        ui.press(ids.cu_done)
        assert not ui.draw(size).colour_up_panel.shown
    finally:
        ui.ctl = saved
