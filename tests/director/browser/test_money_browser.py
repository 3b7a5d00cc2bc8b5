"""The deal calculator and the results page in Debian's Chromium, against a real
director, at a desktop, a laptop and a phone size."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_kit import apart_on_screen, busy_room, fits
from browsers import Browser
from money_helpers import Reports, Served, money_director
from playwright.sync_api import Page, expect
from room_process import room_process

from kiosk.core.event.results import results

SCREENS = Path(__file__).resolve().parents[2] / "output" / "screens"
SIZES = [(1920, 1080), (1280, 720), (390, 844)]


def _inside_and_readable(page: Page, selectors: list[str]) -> None:
    """Each element is on screen horizontally, none overlaps another, text >= 12 px."""
    apart_on_screen(page, selectors, 12)


@pytest.fixture
def served(tmp_path: Path):
    d = money_director(tmp_path)
    rep = Reports(d)
    rep.play_down(3)
    rep.count([60000, 40000, 20000])
    s = Served(d)
    s.reports = rep
    yield s
    s.close()


def test_deal_calculator_and_results_page(served, browser) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    with browser:
        for w, h in SIZES:
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(served.url + "/deal")
            amounts = page.locator("#deal td.amount")
            expect(amounts).to_have_count(3)
            expect(amounts.first).not_to_have_text("")
            _inside_and_readable(page, ["h1", "#method", "#calc", "#deal"])
            page.screenshot(path=str(SCREENS / f"deal-{w}x{h}.png"))
            page.close()

        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(served.url + "/deal")
        expect(page.locator("#deal td.amount")).to_have_count(3)
        values = [int(t.replace(",", ""))
                  for t in page.locator("#deal td.amount").all_text_contents()]
        assert sum(values) == 1200 and sorted(values, reverse=True)[0] > 400   # ICM: the leader
        inputs = page.locator("#deal input")
        for i in range(3):
            inputs.nth(i).fill("10000")
        page.select_option("#method", "chip_chop")
        page.click("#calc")
        expect(page.locator("#deal td.amount").first).to_have_text("400")
        inputs.nth(0).fill("")
        page.click("#calc")
        expect(page.locator("#message")).to_contain_text("enter every player's chips")
        expect(page.locator("#record")).to_be_disabled()
        inputs.nth(0).fill("10000")
        page.click("#calc")
        expect(page.locator("#record")).to_be_hidden()       # recording needs a login
        assert served.call(lambda: served.d.tour.deal) is None
        page.request.post(served.url + "/api/login", data={"user": "floor", "password": "s3cret"})
        page.reload()
        for i in range(3):
            inputs.nth(i).fill("10000")
        page.select_option("#method", "chip_chop")
        page.click("#calc")
        expect(page.locator("#deal td.amount").first).to_have_text("400")
        _inside_and_readable(page, ["h1", "#method", "#calc", "#record", "#deal"])
        page.click("#record")
        expect(page.locator("#message")).to_have_text("Deal recorded.")
        assert served.call(lambda: served.d.tour.deal) is not None
        page.close()

        served.call(lambda: served.reports.play_down(1))
        for w, h in SIZES:
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(served.url + "/results")
            rows = page.locator("#results tbody tr")
            expect(rows).to_have_count(12)
            expect(rows.first).to_contain_text("400")        # the chopped deal
            expect(page.locator("#totals")).to_contain_text("1,200")
            expect(page.locator("#totals")).to_contain_text("Bounty pool")
            expect(page.locator("#print")).to_be_hidden(timeout=30000)   # slips: a login's
            _inside_and_readable(page, ["h1", "#totals", "#csv", "#site-csv", "#results"])
            page.screenshot(path=str(SCREENS / f"results-{w}x{h}.png"), full_page=True)
            page.close()

        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(served.url + "/audit")
        expect(page.locator("#audit tbody tr").first).to_contain_text("deal agreed")
        page.emulate_media(media="print")
        page.goto(served.url + "/results")
        paid = served.call(lambda: sum(1 for r in results(served.d.tour)
                                       if r["prize"] or r["bounty"]))
        expect(page.locator("#slips .slip")).to_have_count(paid)   # one slip to sign each
        expect(page.locator("#slips .slip").first).to_be_visible()
        expect(page.locator("#results")).to_be_hidden()
        browser.close()


def test_the_money_pages_of_a_room_event_name_it_and_say_what_they_cannot_do(
        tmp_path: Path, mosquitto, director_factory, browser: Browser) -> None:
    """The daily of a room, 14 players left: the results are headed by its title, with no
    bounties column where it pays none; the deal calculator says a deal waits for 12
    players and asks for no chips; an audit with nothing in it says so."""
    d = room_process(director_factory, mosquitto, tmp_path, players=14)
    with browser:
        td = busy_room(browser, d)
        assert td
        for w, h in SIZES:
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(d.url + "/results?event=daily")
            expect(page.locator("h1")).to_have_text("Daily 50 results")
            expect(page.locator("#results tbody tr")).to_have_count(14)
            assert page.locator("#results th.b").is_hidden()
            page.goto(d.url + "/deal?event=daily")
            message = page.locator("#message")
            expect(message).to_have_text("Daily 50: a deal is calculated for 12 players or "
                                         "fewer, and 14 are left. Come back at the final "
                                         "table.", timeout=30000)
            expect(message).to_have_class("info", timeout=30000)     # a note, not an error
            for nothing in ("#deal", "#calc", "#record", "#method"):
                expect(page.locator(nothing)).to_be_hidden()
            _inside_and_readable(page, ["h1", "#message"])
            box = message.bounding_box()
            assert box and box["x"] >= 8, box        # not against the screen's edge
            fits(page, False, "deal, too many left")
            page.goto(d.url + "/audit?event=sunday")
            expect(page.locator("#audit-empty")).to_have_text("No floor action recorded yet.")
            page.close()
        browser.close()
