"""The dealers' screens in Chromium: the board on the room page (floor login), the break
room's roadmap at /dealers (no login, names and tables only, readable from 3 m) and a
dealer's phone page, each on screen, nothing covering anything, readable."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from browser_kit import SCREENS, chromium
from playwright.sync_api import expect, sync_playwright
from room_process import PASSWORD, room_process
from test_dealers_mqtt import Table, dealers_toml
from test_room_browser import no_overlap, readable
from test_room_director import ROOM
from test_walls_browser import fits

TZ = "Asia/Kolkata"


def local(t: float) -> str:
    """A time of day in the room's time zone (+5:30, no summer time)."""
    return datetime.fromtimestamp(t, ZoneInfo(TZ)).strftime("%H:%M")


def test_the_dealers_board_roadmap_and_phone_page_fit_and_read(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    room = ROOM.replace("[room]\n", f'[room]\ntimezone = "{TZ}"\n', 1)
    d = room_process(director_factory, mosquitto, tmp_path, room + dealers_toml())
    table = Table(mosquitto)
    try:
        assert table.badge(1, "b1", "BADGE-0")["ok"]
        assert table.badge(2, "b2", "BADGE-1")["ok"]
    finally:
        table.close()
    SCREENS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = chromium(pw)
        anon = pw.request.new_context()
        assert anon.get(d.url + "/api/dealers").status == 401
        public = anon.get(d.url + "/api/dealers/public").json()
        assert {"alerts", "locked"}.isdisjoint(public)
        assert "BADGE" not in json.dumps(public)
        assert public["tz"] == TZ
        push = {t["table"]: t["push_at"] for t in public["tables"]}
        # the board, for the floor
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(d.url + "/")
        expect(page.locator("#dealers-board")).to_contain_text("Log in to see the dealers")
        page.fill("#login input[name=user]", "fl")
        page.fill("#login input[name=password]", PASSWORD)
        page.click("#login button")
        expect(page.locator("#role")).to_have_text("floor")
        board = page.locator("#dealers-board")
        expect(board).to_contain_text("Ann", timeout=10000)
        expect(board).to_contain_text("Bob")
        expect(board.locator(".dealer-table")).to_contain_text(local(push[1]))
        expect(board.locator(".dealer-alerts")).to_contain_text("String 1 has no relief")
        clock_in = board.locator("select[aria-label='Clock in']")
        expect(clock_in.locator("option")).to_have_text(["Cy"])     # Ann and Bob are in
        board.get_by_role("button", name="Clock in").click()        # the floor clocks Cy in
        expect(board).to_contain_text("S1 Cy", timeout=10000)
        fits(page, False, "dealers board")
        no_overlap(page, [".dealer-table tr", "main > *", ".dealer-controls > *"],
                   "dealers board")
        readable(page, "#dealers-board", 12, "dealers board")
        page.screenshot(path=str(SCREENS / "dealers-board-1920x1080.png"), full_page=True)
        # the break room's roadmap, no login
        tv = browser.new_page(viewport={"width": 1920, "height": 1080})
        tv.goto(d.url + "/dealers")
        strings = tv.locator("#dt-strings")
        expect(strings).to_contain_text("String 1 · relief Cy")
        expect(strings).to_contain_text("Ann")
        expect(strings).to_contain_text(f"push {local(push[1])}")    # the room's time
        fits(tv, False, "dealers tv")
        no_overlap(tv, [".dt-string", ".dt-row > *", ".dt-main > *"], "dealers tv")
        readable(tv, "body", 28, "dealers tv")        # 3 m away
        tv.screenshot(path=str(SCREENS / "dealers-1920x1080.png"))
        # a dealer's phone
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(d.url + "/dealers?dealer=Cy")
        expect(phone.locator("#dt-where")).to_have_text("Table 1")
        expect(phone.locator("#dt-when")).to_have_text(f"push at {local(push[1])}")
        fits(phone, False, "dealer phone")
        no_overlap(phone, [".dt-me > *"], "dealer phone")
        readable(phone, "#dt-me", 16, "dealer phone")
        phone.screenshot(path=str(SCREENS / "dealers-phone-390.png"))
        browser.close()
    d.stop()
