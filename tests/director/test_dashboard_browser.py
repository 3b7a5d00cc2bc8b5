"""The floor dashboard in Debian's Chromium, against a real director and a real kiosk."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_kit import SCREENS, chromium, table_one
from floor_client import FloorClient
from playwright.sync_api import expect, sync_playwright
from race_table import BREAK_25_OFF, CHIPS, RaceTable
from test_room_browser import readable
from test_walls_browser import SIZES, fits
from waiting import wait_for


def test_floor_call_reaches_the_dashboard_and_the_ack_reaches_the_table(
        tmp_path: Path, mosquitto, director_factory) -> None:
    director = director_factory(players=18, web=True, floor_users={"floor": "s3cret"}).start()
    kiosk = table_one(tmp_path, mosquitto, director)
    SCREENS.mkdir(parents=True, exist_ok=True)
    url = f"http://127.0.0.1:{director.http_port}"
    with sync_playwright() as pw:
        browser = chromium(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url + "/event")
        expect(page.locator("#t1")).to_contain_text("Table 1")
        expect(page.locator("#t2")).to_contain_text("Table 2")

        assert kiosk.act("press_floor").report is not None     # FLOOR pressed at table 1
        calls = page.locator("#calls")
        expect(calls).to_contain_text("Floor table 1", timeout=10000)   # no reload
        expect(page.locator("#t1")).to_contain_text("Floor called")

        page.locator("[data-ack]").first.click()                # not logged in yet
        expect(page.locator("#toast")).to_contain_text("log in as floor staff")
        assert kiosk.view().floor_state == "open"

        page.fill("#login input[name=user]", "floor")
        page.fill("#login input[name=password]", "s3cret")
        page.click("#login button")
        expect(page.locator("#user")).to_have_text("floor")
        page.locator("[data-ack]").first.click()
        expect(calls).to_contain_text("acked", timeout=10000)
        wait_for(lambda: kiosk.view().floor_state == "acked")  # the table's plan got it
        page.screenshot(path=str(SCREENS / "dashboard.png"))

        clock = browser.new_page(viewport={"width": 1280, "height": 720})
        clock.goto(url + "/clock")
        expect(clock.locator("#level")).to_have_text("Level 1")
        expect(clock.locator("#left")).to_have_text("18 / 18")
        expect(clock.locator("#time")).to_have_text(re.compile(r"^\d\d:\d\d$"))  # running
        clock.screenshot(path=str(SCREENS / "clock.png"))
        browser.close()
    kiosk.stop()


def test_the_dashboard_and_the_room_page_name_the_tables_that_owe_their_race(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    """A colour-up where table 1's dealer still owes the race: both pages say so and
    flag none of its stacks; once the race is in, nothing is left to say."""
    director = director_factory(players=18, web=True, floor_users={"td": "pw"},
                                extra_toml=CHIPS).start()
    one, two = (RaceTable(mosquitto, director.name, n) for n in (1, 2))
    wait_for(lambda: one.plan.get("seats") and two.plan.get("seats"), 15)
    url = f"http://127.0.0.1:{director.http_port}"
    td = FloorClient(url, "td", "pw")
    assert td.post("api/act", {"kind": "clock", "action": "jump", "period": BREAK_25_OFF})["ok"]
    with sync_playwright() as pw:
        browser = chromium(pw)
        dashboards, rooms = [], []
        for w, h in SIZES:
            for path, pages in (("/event", dashboards), ("/", rooms)):
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(url + path)
                pages.append(page)
        a, b, c = sorted(int(s) for s in one.plan["seats"])[:3]
        one.count({a: 75, b: 25, c: -100})      # 100 in 25s: the dealer races one chip
        two.count()                             # nothing to race: settled at once
        wait_for(lambda: (one.plan.get("colour_up") or {}).get("pending"), 15)
        for page in dashboards:
            count = page.locator("#count")
            expect(count).to_contain_text("2 of 2 tables counted", timeout=10000)
            expect(count).to_contain_text("race pending at table 1")
            expect(count).not_to_contain_text("multiple")
            expect(page.locator("#t1 .tag.race")).to_have_text("RACE PENDING")
            expect(page.locator("#t2 .tag.race")).to_have_count(0)
        for page in rooms:
            card = page.locator("#ev-test-event")
            expect(card.locator(".count")).to_contain_text(["race pending at table 1"])
            expect(card).not_to_contain_text("multiple")
            expect(page.locator("#tbl-1 .tag.race")).to_have_text("race pending")
            expect(page.locator("#tbl-2 .tag.race")).to_have_count(0)
        for page in dashboards + rooms:
            fits(page, False, "race pending")
            readable(page, "body", 12, "race pending")
            w = page.viewport_size["width"]
            where = page.locator("#count" if page in dashboards else "#ev-test-event .count")
            box = where.first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= w
            kind = "dashboard" if page in dashboards else "room"
            page.screenshot(path=str(SCREENS / f"race-pending-{kind}-{w}.png"))

        one.send("chip_race", round=one.plan["chip_count"]["round"], winners=[a])
        wait_for(lambda: not one.plan["colour_up"]["pending"], 15)
        for page in dashboards:
            expect(page.locator("#count")).to_be_hidden(timeout=10000)
            expect(page.locator("#t1 .tag.race")).to_have_count(0)
        for page in rooms:
            expect(page.locator("#ev-test-event .count")).to_have_count(0)
            expect(page.locator("#tbl-1 .tag.race")).to_have_count(0)
        browser.close()
    one.close()
    two.close()
