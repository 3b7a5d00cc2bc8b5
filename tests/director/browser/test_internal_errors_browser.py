"""A bug in a decision, as the floor meets it in Debian's Chromium: the command is refused
as an internal error (never as a rule), nothing of it is written, and the health lines of
the event's dashboard and the room page count it until someone reads the log."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from browsers import Browser
from money_helpers import Served, money_director
from playwright.sync_api import expect

from kiosk.core.money.knockouts import Knockouts


@pytest.mark.internal_errors(1)
def test_a_bug_in_a_bust_is_refused_logged_and_counted_on_the_health_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, browser: Browser) -> None:
    d = money_director(tmp_path)
    player = d.tour.players["p3"]
    seated_at = (player.table, player.seat)
    logged = d.log.last_seq

    def after_bust(self: Knockouts, *args: Any) -> None:   # the bust is already folded
        raise KeyError(2)

    monkeypatch.setattr(Knockouts, "after_bust", after_bust)
    served = Served(d)
    try:
        with browser:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("dialog", lambda dialog: dialog.accept())    # "Bust: Player 3?"
            page.goto(served.url + "/event")
            health = page.locator("#health")   # no broker in this test: it says so
            expect(health).to_have_text("broker: not connected")
            page.fill("#login input[name=user]", "floor")
            page.fill("#login input[name=password]", "s3cret")
            page.click("#login button")
            expect(page.locator("#user")).to_have_text("floor")
            page.fill("#find", player.name)
            page.locator("#found [data-quick]").first.click()     # the Bust button
            expect(page.locator("#toast")).to_have_text("internal error (logged)")
            expect(health).to_have_text("broker: not connected · internal errors: 1 command "
                                        "refused (see the director's log)")
            assert page.request.get(served.url + "/api/health").json()[
                "internal_errors"] == 1

            room = browser.new_page(viewport={"width": 1400, "height": 900})
            room.goto(served.url + "/")
            expect(room.locator("#health")).to_contain_text("internal errors: 1 command")
            browser.close()
    finally:
        served.close()
    # nothing of the bust was written, nor is it in memory: the player still sits there
    assert d.log.last_seq == logged
    assert d.tour.players["p3"].status == "seated"
    assert (d.tour.players["p3"].table, d.tour.players["p3"].seat) == seated_at
    assert d.internal_errors == 1
    bug = [r for r in caplog.records if r.levelno == logging.ERROR
           and "internal error in money-test: bust" in r.getMessage()]
    assert len(bug) == 1 and bug[0].exc_info is not None, "logged with its traceback"
