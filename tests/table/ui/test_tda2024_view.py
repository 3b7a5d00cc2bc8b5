"""What the dealer's screen says under TDA 2024, as the pure view (kiosk.table.view) and
the lines in the middle of the table (kiosk.table.ui.texts): "prepare your decks" in the
minute before play starts or resumes (RP-20), the big blind ante taken after the blind
(RP-11), the push waiting out the hold before a level change (RP-7)."""

from __future__ import annotations

import random

from table_helpers import T0, plan, schedule

from kiosk.protocol import messages
from kiosk.rules.structure_files import load_structure
from kiosk.table.controller import TableController
from kiosk.table.ui.texts import centre_lines

DECKS = "DEALERS, PREPARE YOUR DECKS"


def _table(profile: str, sched: dict, **plan_kw: object) -> TableController:
    c = TableController(3, rng=random.Random(1), boot="v", debounce_s=0)
    assert c.directions.apply_schedule(messages.check("schedule", sched))
    assert c.apply_plan(plan(**plan_kw), T0)
    return c


def _lines(c: TableController, t: float) -> list[str]:
    return [text for text, _ in centre_lines(c.view(t))]


def test_rp20_the_minute_before_a_break_ends_says_prepare_your_decks() -> None:
    s = load_structure("standard")
    brk = next(i for i, p in enumerate(s.periods) if p.is_break)
    ends = T0 + s.periods[brk].seconds          # the break started at T0
    c = _table("tda-2024", schedule("tda-2024", period=brk, prepare_decks=60))
    assert not c.view(ends - 61).prepare_decks and DECKS not in _lines(c, ends - 61)
    v = c.view(ends - 59)
    assert v.prepare_decks and v.is_break and DECKS in _lines(c, ends - 59)
    assert not c.view(ends + 1).prepare_decks   # play has resumed
    # a profile that does not call it (TDA 2017: the schedule says 0) never shows it
    old = _table("tda-2017", schedule("tda-2017", period=brk))
    assert not old.view(ends - 30).prepare_decks


def test_rp20_the_minute_before_the_first_level_starts_says_it_too() -> None:
    """The start under TDA 2024 runs the first level from a minute after the floor's
    start (kiosk.core.calc.clock.Clock.delayed): the kiosk calls the decks meanwhile."""
    c = _table("tda-2024", schedule("tda-2024", anchor=T0 + 60, prepare_decks=60))
    assert c.view(T0 + 1).prepare_decks and DECKS in _lines(c, T0 + 1)
    assert c.view(T0 + 1).clock == "20:59"
    assert not c.view(T0 + 61).prepare_decks and c.view(T0 + 61).clock == "19:59"


def test_rp11_the_big_blind_ante_is_said_to_come_after_the_blind() -> None:
    s = load_structure("standard")
    level = next(i for i, p in enumerate(s.periods) if p.bb_ante)
    ante = s.periods[level].bb_ante
    new = _table("tda-2024", schedule("tda-2024", period=level))
    old = _table("tda-2017", schedule("tda-2017", period=level))
    assert new.view(T0 + 1).ante == f"BB ante {ante:,} (blind first)"
    assert old.view(T0 + 1).ante == f"BB ante {ante:,}"


def test_rp7_a_push_due_in_the_hold_waits_for_the_level_change() -> None:
    """The table reads the hold off its own clock: the schedule's `push_hold` seconds
    before the running level ends (level 1 of the standard structure ends at T0 + 20 min)."""
    ends = T0 + 20 * 60
    due = ends - 60                              # inside the 90 s before the level ends
    dealer = {"dealer": "Ann", "push_at": due, "incoming": "Cy"}
    sched = schedule("tda-2024", push_hold=90)
    c = _table("tda-2024", sched, dealer=dealer)
    v = c.view(due + 5)
    assert v.dealer_line == "Ann · push 0:55" and v.push_prompt == ""
    assert not v.pin_button
    v = c.view(ends)
    assert v.dealer_line == "Ann · push due" and v.push_prompt == "PUSH: Cy badges in"
    assert v.pin_button
    # a push due before the hold and not yet done waits through it as well
    c = _table("tda-2024", sched, dealer={**dealer, "push_at": ends - 200})
    assert c.view(ends - 100).push_prompt == "PUSH: Cy badges in"
    assert c.view(ends - 60).push_prompt == "" and \
        c.view(ends - 60).dealer_line == "Ann · push 1:00"
    # without the hold (TDA 2017: the schedule says 0) the push is due as it falls due
    old = _table("tda-2017", schedule("tda-2017"), dealer=dealer)
    assert old.view(due + 5).push_prompt == "PUSH: Cy badges in"
