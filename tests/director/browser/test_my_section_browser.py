"""A floor login's section is kept on the director: chosen on the room page in one
browser, a fresh browser and a phone of the same login open on it, in Debian's Chromium
against a room director process over a real Mosquitto; "Whole room" (one click) brings
the whole room back everywhere, and a visitor's page is not filtered by anyone's choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browsers import Browser
from playwright.sync_api import Page, expect
from room_process import PASSWORD, room_process

ROOM = """
[room]
name = "hall"
title = "Hall"
tables = 12

[director]
db = "room.db"

[[events]]
name = "daily"
title = "Daily"
structure = "turbo"
seed = 3

[[sections]]
name = "Pavilion"
tables = "1-6"

[[sections]]
name = "Amazon"
tables = "7-12"
"""


def opened(browser: Any, url: str, path: str = "/", user: str | None = "fl",
           size: tuple[int, int] = (1280, 800)) -> Page:
    """A fresh browser (its own context: no cookies, no storage) on `path`, logged in."""
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(url + path)
    if user is not None:
        page.fill("#login input[name=user]", user)
        page.fill("#login input[name=password]", PASSWORD)
        page.click("#login button")
        expect(page.locator("#me")).to_be_visible()
    return page


def test_a_logins_section_follows_it_to_a_fresh_browser_and_its_phone(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = room_process(director_factory, mosquitto, tmp_path, text=ROOM, players=9)
    with browser:
        first = opened(browser, d.url)
        expect(first.locator("[data-map-section]")).to_have_count(2)
        first.locator("[data-work='Amazon']").click()
        expect(first.locator("#my-section")).to_have_text("Section: Amazon")

        second = opened(browser, d.url)                  # another browser, the same login
        expect(second.locator("#my-section")).to_have_text("Section: Amazon")
        expect(second.locator("[data-map-section='Pavilion']")).to_have_class(
            "map-section other")
        expect(second.locator("[data-work='Amazon']")).to_have_text("Mine")

        phone = opened(browser, d.url, "/floor/section", size=(390, 844))
        expect(phone.locator("#pick")).to_have_value("Amazon")

        visitor = opened(browser, d.url, user=None)      # nobody's choice filters theirs
        expect(visitor.locator("[data-map-section]")).to_have_count(2)
        expect(visitor.locator("#my-section")).to_have_text("")
        expect(visitor.locator("[data-map-section='Pavilion']")).to_have_class("map-section")

        second.locator("#whole-room").click()            # one click: the whole room again
        expect(second.locator("#my-section")).to_have_text("")
        expect(second.locator("[data-map-section='Pavilion']")).to_have_class("map-section")
        third = opened(browser, d.url)
        expect(third.locator("[data-map-section]")).to_have_count(2)
        expect(third.locator("#whole-room")).to_be_hidden()
        expect(third.locator("[data-map-section='Pavilion']")).to_have_class("map-section")
        browser.close()
