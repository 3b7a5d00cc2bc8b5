"""The printer page in Debian's Chromium against a real director with a `file:` printer:
the queue, a slip's preview, and reprint and results for the floor only."""

from __future__ import annotations

from pathlib import Path

from browser_kit import fits, legible
from browsers import Browser
from money_helpers import HASH, MONEY, Served
from playwright.sync_api import expect
from printer_kit import COLUMNS, director
from waiting import wait_for

from kiosk.config.files import EventConfig
from kiosk.director.service import Director
from kiosk.printer import escpos


def test_the_printer_page_previews_and_reprints(tmp_path: Path, browser: Browser) -> None:
    paper = tmp_path / "paper.bin"
    d = director(tmp_path, f"file:{paper}", players=4)
    assert d.printer is not None and d.printer.spooler.wait_idle(10)
    served = Served(d)
    try:
        with browser:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(served.url + "/printer")
            expect(page.locator("#state")).to_contain_text("ready; 0 slips waiting")
            rows = page.locator("#jobs tbody tr")
            expect(rows).to_have_count(8)
            page.locator("#jobs a", has_text="Seat card").first.click()
            preview = page.locator("#preview")
            expect(preview).to_be_visible()
            wait_for(lambda: preview.evaluate("img => img.complete && img.naturalWidth"))
            assert preview.evaluate("img => img.naturalWidth") > 500     # a slip 80 mm wide
            box = preview.bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390 + 1   # fits the phone

            # a visitor is shown the queue, not the buttons that print paper
            expect(page.locator("#login-hint")).to_be_visible()
            assert page.locator("#jobs button").count() == 0
            assert page.locator("#controls").is_hidden()
            legible(page, "header a, #login-hint a, #jobs a")
            fits(page, False, "printer page")
            page.request.post(served.url + "/api/login",
                              data={"user": "floor", "password": "s3cret"})
            page.reload()
            expect(page.locator("#controls")).to_be_visible()
            expect(page.locator("#login-hint")).to_be_hidden()
            page.locator("#jobs button", has_text="Reprint").first.click()
            expect(page.locator("#msg")).to_contain_text("queued")
            page.click("#results")
            expect(rows).to_have_count(10)
            assert not errors
            browser.close()
        assert d.printer.spooler.wait_idle(10)
        slips = escpos.decode(paper.read_bytes(), COLUMNS)
        assert len(slips) == 10 and slips[-1][1].text == "RESULTS"
        assert slips[-2] == slips[-3]         # the newest job (the last seat card), again
    finally:
        served.close()
        d.printer.close()
        d.store.close()


def test_without_a_printer_the_page_says_so_and_offers_nothing(tmp_path: Path,
                                                               browser: Browser) -> None:
    d = Director(EventConfig(name="sunday", structure="turbo", db=str(tmp_path / "e.db"),
                             money=MONEY, floor_users={"floor": HASH}))
    served = Served(d)
    try:
        with browser:
            for w, h in ((1920, 1080), (390, 844)):
                context = browser.new_context(viewport={"width": w, "height": h})
                context.request.post(served.url + "/api/login",
                                     data={"user": "floor", "password": "s3cret"})
                page = context.new_page()
                page.goto(served.url + "/printer")
                expect(page.locator("#state")).to_have_text(
                    "No printer: start the demo with --printer PORT, or set [printer] port "
                    "in room.toml.")
                for nothing in ("#controls", "#jobs", "#login-hint"):
                    expect(page.locator(nothing)).to_be_hidden()
                assert [b for b in page.locator("button, select").all() if b.is_visible()] \
                    == []
                legible(page, "header a")
                fits(page, False, "no printer")
                context.close()
            browser.close()
    finally:
        served.close()
        d.store.close()
