"""The dealers' rotation on the real dealer screen, headless at 800x480 and 1280x720: the
header names the dealer and the time to the push, the push asks to finish the hand, and the
dealer pushed off reads where to go next; each screen fits and reads at arm's length."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import T0, schedule
from ui_kit import SIZES, Harness, nine

from kiosk.rules.structure_files import load_structure

DEALER = {"dealer": "Ann", "push_at": T0 + 60 + 270.0, "incoming": "Cy"}


def centre(ui: Harness) -> list[str]:
    return [w.text for w in ui.screen.lines]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_header_names_the_dealer_and_the_push_asks_to_finish_the_hand(
        ui: Harness, size: tuple[int, int]) -> None:
    ui.t = T0 + 60
    ui.fresh(1, nine(), dealer=DEALER)
    ids = ui.draw(size)
    assert ids.to_break.text.startswith("Ann · push 4:30")
    assert not any("PUSH" in x for x in centre(ui))
    ui.check(size)
    ui.shot("dealer_header", size)
    ui.press(ids.btn_new)                     # a hand is on when the push comes due
    ui.t = DEALER["push_at"] + 5
    ids = ui.draw(size)
    assert "Ann · push due" in ids.to_break.text
    assert "PUSH after this hand: Cy" in centre(ui)
    assert ui.check(size)["targets"] > 0
    ui.shot("dealer_push_prompt", size)
    ui.press(ids.btn_end)                     # the hand is over: the incoming badges in
    ids = ui.draw(size)
    assert "PUSH: Cy badges in" in centre(ui)
    ui.check(size)
    ui.shot("dealer_badge_in", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_dealer_pushed_off_reads_where_to_go_next(ui: Harness,
                                                      size: tuple[int, int]) -> None:
    ui.t = T0 + 4000
    after = {"dealer": "Cy", "push_at": ui.t + 1800, "incoming": "Dee", "outgoing": "Ann",
             "outgoing_to": "Table 14", "pushed_at": ui.t - 10}
    ui.fresh(2, nine(), dealer=after)
    ids = ui.draw(size)
    assert "Ann: Table 14" in centre(ui)
    assert ids.to_break.text.startswith("Cy · push 30:00")
    ui.check(size)
    ui.shot("dealer_next_table", size)
    ui.t += 200                                # the line goes once the dealer has gone
    ui.draw(size)
    assert "Ann: Table 14" not in centre(ui)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_minute_before_a_break_ends_calls_the_decks(ui: Harness,
                                                      size: tuple[int, int]) -> None:
    """TDA 2024 RP-20 on the break screen: the line fits and reads at arm's length."""
    s = load_structure("standard")
    brk = next(i for i, p in enumerate(s.periods) if p.is_break)
    was = ui.ctl.ctx.schedule
    try:
        ui.fresh(4, nine())
        assert ui.ctl.directions.apply_schedule(schedule("tda-2024", period=brk, anchor=T0,
                                              prepare_decks=60, rev=9))
        ui.t = T0 + s.periods[brk].seconds - 30
        ui.draw(size)
        assert "DEALERS, PREPARE YOUR DECKS" in centre(ui)
        ui.check(size)
        ui.shot("dealer_prepare_decks", size)
    finally:
        ui.ctl.ctx.schedule = was        # the next screens' tables take the usual one


def test_a_pin_goes_to_the_director_once_and_a_bad_one_never_leaves(ui: Harness) -> None:
    ui.fresh(3, nine(), dealer=DEALER)
    sent = len(ui.sent)
    res = ui.act("dealer_pin", "Cy", "2468")
    assert res.dealer == {"dealer": "Cy", "pin": "2468"} and res.report is None
    bad = ui.act("dealer_pin", "Cy", "12a4")
    assert bad.dealer is None and bad.refused
    assert len(ui.sent) == sent                       # no report: nothing queued or kept
    ui.act("dealer_answer", "Wrong PIN: 4 tries left", False)
    assert ui.ctl.view(ui.t).checkin == "Wrong PIN: 4 tries left"


def texts(ui: Harness) -> list[str]:
    """Every text the screen holds, shown or not."""
    from ui_checks import walk
    return [str(getattr(w, "text", "")) for w in walk(ui.screen)]


def recording(ui: Harness) -> list[Any]:
    """Every result the screen's taps got back."""
    got: list[Any] = []
    act = ui.screen.act
    ui.screen.act = lambda *a: got.append(act(*a)) or got[-1]
    return got


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_dealer_without_a_badge_types_the_pin_on_the_push_prompt_and_it_goes_once(
        ui: Harness, size: tuple[int, int]) -> None:
    ui.t = T0 + 60
    ui.fresh(4, nine(), dealer=DEALER)
    ids = ui.draw(size)
    assert ids.btn_pin.opacity == 0 and ids.btn_pin.disabled     # no push due: no PIN
    ui.t = DEALER["push_at"] + 5
    ids = ui.draw(size)
    assert "PUSH: Cy badges in" in centre(ui)
    ui.check(size)
    got = recording(ui)
    ui.press(ids.btn_pin)
    ids = ui.draw(size)
    assert ids.pin_pad.shown
    names = [b.text for b in reversed(ids.pin_names.children)]
    assert names == ["Cy", "Ann", "TYPE A NAME"]                # the relief due, first
    assert ids.pin_title.text == "PIN for Cy: -" and ids.pin_ok.disabled
    keys = {b.text: b for b in ids.pin_keys.children if hasattr(b, "text")}
    for k in "2468":
        ui.press(keys[k])
    ids = ui.draw(size)
    assert ids.pin_title.text == "PIN for Cy: ****" and not ids.pin_ok.disabled
    assert not any("2468" in x for x in texts(ui))              # never shown
    assert ui.check(size)["targets"] >= 15
    ui.shot("dealer_pin_pad", size)
    sent = len(ui.sent)
    ui.press(ids.pin_ok)
    ids = ui.draw(size)
    assert [r.dealer for r in got if r.dealer] == [{"dealer": "Cy", "pin": "2468"}]
    assert len(ui.sent) == sent                                   # nothing queued
    assert not ids.pin_pad.shown and ui.ctl.pin.panel() is None
    assert not any("2468" in x for x in texts(ui))
    assert ui.ctl.view(ui.t).checkin == "PIN: asking the director…"
    ui.screen.act = ui.act


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_dealer_at_a_free_table_types_a_name_and_cancel_sends_nothing(
        ui: Harness, size: tuple[int, int]) -> None:
    from ui_kit import free
    free(ui)
    ids = ui.draw(size)
    got = recording(ui)
    ui.press(ids.idle_pin)
    ids = ui.draw(size)
    assert ids.pin_pad.shown and ids.pin_names.width == 0       # no names: the letters
    keys = {b.text: b for b in ids.pin_keys.children if hasattr(b, "text")}
    assert {"A", "Z", "DEL", "SPACE", "NEXT"} <= set(keys)
    for k in "BOXB":
        ui.press(keys[k])
    ui.press(keys["DEL"])
    ids = ui.draw(size)
    assert ids.pin_title.text == "PIN for Box: -"
    ui.check(size)
    ui.shot("dealer_pin_name", size)
    ui.press(keys["NEXT"])
    ids = ui.draw(size)
    digits = {b.text: b for b in ids.pin_keys.children if hasattr(b, "text")}
    assert "A" not in digits and ids.pin_names.width > 0
    for k in "1357":
        ui.press(digits[k])
    ids = ui.draw(size)
    assert ids.pin_title.text == "PIN for Box: ****"
    ui.check(size)
    ui.press(ids.pin_cancel)
    ids = ui.draw(size)
    assert not ids.pin_pad.shown and ids.idle_screen.shown
    assert not any(r.dealer for r in got)                        # CANCEL: nothing sent
    ui.press(ids.idle_pin)                                       # and nothing kept
    assert ui.ctl.pin.panel() is not None and ui.ctl.pin.panel().stars == ""
    ui.press(ui.screen.ids.pin_cancel)
    ui.screen.act = ui.act
