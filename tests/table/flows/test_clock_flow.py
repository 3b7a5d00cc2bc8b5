"""The clock-call flow under each profile's rule: approval, minimum wait, the seconds
and the final countdown, and who may call it."""

from __future__ import annotations

from flow_helpers import make
from table_helpers import T0, plan

from kiosk.table.controller import TableController


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
    assert c.clock.buzzer_on(T0 + 40.5) and c.view(T0 + 40.5).clock_call.text == "TIME"
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
