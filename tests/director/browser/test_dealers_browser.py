"""The dealers' screens in Chromium: the board on the room page (floor login), the break
room's roadmap at /dealers (no login, names and tables only, readable from 3 m) and a
dealer's phone page, each on screen, nothing covering anything, readable."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from browser_kit import SCREENS, fits, no_overlap, readable, uncut
from browsers import Browser
from dealer_mqtt_kit import dealers_in, dealers_toml
from playwright.sync_api import expect
from room_kit import ROOM
from room_process import PASSWORD, room_process

TZ = "Asia/Kolkata"
WAIT = 30_000      # ms: every wait for the page, sized for a loaded machine


def local(t: float) -> str:
    """A time of day in the room's time zone (+5:30, no summer time)."""
    return datetime.fromtimestamp(t, ZoneInfo(TZ)).strftime("%H:%M")


def test_the_dealers_board_roadmap_and_phone_page_fit_and_read(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    room = ROOM.replace("[room]\n", f'[room]\ntimezone = "{TZ}"\n', 1)
    d = room_process(director_factory, mosquitto, tmp_path, room + dealers_toml())
    dealers_in(mosquitto)
    SCREENS.mkdir(parents=True, exist_ok=True)
    with browser:
        anon = browser.new_context().request
        assert anon.get(d.url + "/api/dealers").status == 401
        public = anon.get(d.url + "/api/dealers/public").json()
        assert {"alerts", "locked"}.isdisjoint(public)
        assert "BADGE" not in json.dumps(public)
        assert public["tz"] == TZ
        push = {t["table"]: t["push_at"] for t in public["tables"]}
        # the board, for the floor
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(d.url + "/")
        expect(page.locator("#dealers-board")).to_contain_text("Log in to see the dealers",
                                                               timeout=WAIT)
        page.fill("#login input[name=user]", "fl")
        page.fill("#login input[name=password]", PASSWORD)
        page.click("#login button")
        expect(page.locator("#role")).to_have_text("floor", timeout=WAIT)
        board = page.locator("#dealers-board")
        expect(board).to_contain_text("Ann", timeout=WAIT)
        expect(board).to_contain_text("Bob", timeout=WAIT)
        expect(board.locator(".dealer-table")).to_contain_text(local(push[1]), timeout=WAIT)
        expect(board.locator(".dealer-table th")).to_have_text(
            ["Table", "Dealer", "Dealing for", "Push at", "Comes next"], timeout=WAIT)
        expect(board.locator(".dealer-alerts")).to_contain_text("String 1 has no relief",
                                                               timeout=WAIT)
        def listed(term: str) -> Any:
            return board.locator(".dealer-lists > div").filter(
                has=page.locator("dt", has_text=term)).locator("dd")

        expect(listed("Waiting")).to_have_text("none", timeout=WAIT)
        expect(listed("On break")).to_have_text("none", timeout=WAIT)
        clock_in = board.get_by_label("Clock in:")                  # each list has its label
        expect(clock_in.locator("option")).to_have_text(["Cy"], timeout=WAIT)   # Ann, Bob in
        expect(board.get_by_role("button", name="Add dealer")).to_have_count(  # a director's
            0, timeout=WAIT)
        board.get_by_role("button", name="Clock in").click()        # the floor clocks Cy in
        expect(listed("Reliefs")).to_have_text("string 1 (tables 1, 2): Cy", timeout=30000)
        expect(clock_in.locator("option")).to_have_text(["everyone is in"], timeout=WAIT)
        expect(clock_in).to_be_disabled(timeout=WAIT)
        fits(page, False, "dealers board")
        no_overlap(page, [".dealer-table tr", "main > *", ".dealer-controls > *"],
                   "dealers board")
        readable(page, "#dealers-board", 12, "dealers board")
        page.screenshot(path=str(SCREENS / "dealers-board-1920x1080.png"), full_page=True)
        # the break room's roadmap, no login
        tv = browser.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(d.url + "/dealers")
        strings = tv.locator("#dt-strings")
        expect(strings).to_contain_text("String 1 · relief Cy", timeout=30000)
        for empty in ("#dt-waiting", "#dt-breaks", "#dt-eo"):     # an empty list says so
            expect(tv.locator(empty)).to_have_text("none", timeout=WAIT)
        expect(strings).to_contain_text("Ann", timeout=WAIT)
        expect(strings).to_contain_text(f"push {local(push[1])}", timeout=WAIT)   # room's time
        fits(tv, False, "dealers tv")
        no_overlap(tv, [".dt-string", ".dt-row > *", ".dt-main > *"], "dealers tv")
        readable(tv, "body", 28, "dealers tv")        # 3 m away
        tv.screenshot(path=str(SCREENS / "dealers-1920x1080.png"))
        # the roadmap on a phone: every name whole, nothing wider than the screen
        small = browser.new_page(viewport={"width": 390, "height": 844})
        small.goto(d.url + "/dealers")
        expect(small.locator("#dt-strings")).to_contain_text("Ann", timeout=30000)
        fits(small, False, "dealers phone")
        uncut(small, ".dt-row > *, .dt-string h2, .dt-side li", "dealers phone")
        small.screenshot(path=str(SCREENS / "dealers-390.png"), full_page=True)
        # a dealer's phone: the relief, whom and when; the dealer, who comes and where
        # next; a name of no roster
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        says = {"Cy": ("Table 1", f"At {local(push[1])}: relieve Ann", ""),
                "Ann": ("Table 1", f"You deal. Push at {local(push[1])}: Cy relieves you at "
                        "a hand's end", "Then: table 2, as the string's relief"),
                "Zed": ("No such dealer", "\"Zed\" is not on this room's roster: check the "
                        "name, or ask the floor", "")}
        for name, (where, when, then) in says.items():
            phone.goto(d.url + f"/dealers?dealer={name}")
            expect(phone.locator("#dt-where")).to_have_text(where, timeout=30000)
            expect(phone.locator("#dt-when")).to_have_text(when, timeout=WAIT)
            expect(phone.locator("#dt-then")).to_have_text(then, timeout=WAIT)
            fits(phone, False, f"dealer phone {name}")
            uncut(phone, ".dt-me > *", f"dealer phone {name}")
            no_overlap(phone, [".dt-me > *"], "dealer phone")
            readable(phone, "#dt-me", 16, "dealer phone")
            phone.screenshot(path=str(SCREENS / f"dealers-phone-{name}-390.png"))
        browser.close()
    d.stop()
