"""The dealers' rotation on the real dealer screen, headless at 800x480 and 1280x720: the
header names the dealer and the time to the push, the push asks to finish the hand, and the
dealer pushed off reads where to go next; each screen fits and reads at arm's length."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from table_helpers import T0
from test_ui import SIZES, Harness, nine

DEALER = {"dealer": "Ann", "push_at": T0 + 60 + 270.0, "incoming": "Cy"}


@pytest.fixture(scope="module")
def ui() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


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
