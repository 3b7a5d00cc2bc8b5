"""The floor dashboard in Debian's Chromium, against a real director and a real kiosk."""

from __future__ import annotations

import re
from pathlib import Path

from browser_kit import SCREENS, chromium, table_one
from playwright.sync_api import expect, sync_playwright
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
