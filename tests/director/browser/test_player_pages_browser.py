"""The players' pages in Debian's Chromium at a phone, a laptop and a TV size, against a
real director: they fit, follow a bust within 2 s, find a seat, refuse a stranger's floor
action, show hostile names as text, and say how old their news is when the link drops."""

from __future__ import annotations

import json
import re
from pathlib import Path

from browser_kit import OVERFLOW_JS, SCREENS, apart_on_screen
from browsers import Browser
from money_helpers import Served
from player_kit import EMOJI, HTML_NAME, count_every_table, director
from playwright.sync_api import Page, expect

from kiosk.core.model import commands

SIZES = [(390, 844), (1280, 720), (1920, 1080)]

# what a player reads: on screen, apart, and large enough at arm's length
READ = ["#title", "#level", "#blinds", "#time", "#next", "#break", "#left", "#avg", "#pool",
        "#paid", "#seat-name", "#payouts", "#counts", "#results"]

# the clock's corner code touches no other text or box on the TV
QR_CLEAR_JS = """() => {
  const qr = document.querySelector("#qr"), q = qr.getBoundingClientRect(), hit = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (qr.contains(el) || el.contains(qr) || el.tagName === "SCRIPT") continue;
    if (el.children.length) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom)
      hit.push((el.id || el.tagName) + " " + (el.textContent || "").slice(0, 20));
  }
  return hit;
}"""


def fits(page: Page, tv: bool, where: str) -> None:
    """browser_kit's fits; a text field scrolls its own long value, as it should."""
    bad = [b for b in page.evaluate(OVERFLOW_JS, tv) if not b.startswith("#seat-name ")]
    assert not bad, f"{where} {page.viewport_size}: " + "; ".join(bad[:8])


def readable(page: Page, min_px: float) -> None:
    """What a player reads, on screen, apart and at least `min_px` high."""
    apart_on_screen(page, READ, min_px)


def seat_of(d, name: str) -> tuple[int, int]:
    p = next(p for p in d.tour.players.values() if p.name == name)
    return p.table, p.seat


def test_player_pages_fit_follow_busts_find_seats_and_hold_no_floor_power(
        tmp_path: Path, browser: Browser) -> None:
    d = director(tmp_path, players=20, extra=(EMOJI, HTML_NAME))
    count_every_table(d)
    first_out = next(p.id for p in d.tour.players.values() if p.name == "Player 3")
    d.act(commands.decode({"kind": "bust", "player": first_out}), "floor")
    served = Served(d)
    url = served.url
    SCREENS.mkdir(parents=True, exist_ok=True)
    try:
        with browser:
            dialogs: list[str] = []
            pages: list[Page] = []
            for w, h in SIZES:
                page = browser.new_context(viewport={"width": w, "height": h}).new_page()
                page.on("dialog", lambda dlg: (dialogs.append(dlg.message), dlg.dismiss()))
                page.goto(url + "/p/open-7")
                expect(page.locator("#left")).to_have_text("21 of 22")
                expect(page.locator("#time")).to_have_text(re.compile(r"^\d\d:\d\d$"))
                expect(page.locator("#counts tbody tr")).to_have_count(21)
                fits(page, False, "player page")
                readable(page, 16 if w < 600 else 15)
                pages.append(page)
            phone = pages[0]
            # hostile names are text: no element made of them, no script run
            expect(phone.locator("#counts")).to_contain_text(HTML_NAME)
            expect(phone.locator("#counts")).to_contain_text(EMOJI)
            assert phone.locator("main img").count() == 0 and not dialogs
            expect(phone.locator("#bounties-card")).to_be_visible()
            expect(phone.locator("#results")).to_contain_text("Player 3")
            phone.screenshot(path=str(SCREENS / "players-390x844.png"), full_page=False)
            pages[2].screenshot(path=str(SCREENS / "players-1920x1080.png"))

            # a bust reaches every page within 2 s, without a reload
            pid = next(p.id for p in d.tour.players.values() if p.name == "Player 5")
            served.call(lambda: d.act(commands.decode({"kind": "bust", "player": pid}),
                                      "floor"))
            for page in pages:
                expect(page.locator("#left")).to_have_text("20 of 22", timeout=2000)
                expect(page.locator("#results tbody tr").first).to_contain_text("Player 5")
                fits(page, False, "after a bust")

            # the seat lookup: one, many, none, a name of 64 emoji
            for page in pages:
                table, seat = served.call(lambda: seat_of(d, "Player 12"))
                page.fill("#seat-name", "player 12")
                page.click("#seat-form button")
                expect(page.locator("#seat-result")).to_contain_text(
                    f"Table {table} \u00b7 Seat {seat}")
                fits(page, False, "seat found")
            table, seat = served.call(lambda: seat_of(d, EMOJI))
            phone.fill("#seat-name", EMOJI)
            phone.click("#seat-form button")
            expect(phone.locator("#seat-result")).to_contain_text(
                f"Table {table} \u00b7 Seat {seat}")
            fits(phone, False, "emoji name")
            phone.locator("#seat-result").scroll_into_view_if_needed()
            phone.screenshot(path=str(SCREENS / "players-390x844-seat.png"))
            phone.fill("#seat-name", "Player")
            phone.click("#seat-form button")
            expect(phone.locator("#seat-result")).to_contain_text("20 players match")
            expect(phone.locator("#seat-result li")).to_have_count(20)
            fits(phone, False, "twenty matches")
            phone.fill("#seat-name", "<b>Nobody</b>")
            phone.click("#seat-form button")
            expect(phone.locator("#seat-result")).to_contain_text(
                "no player named \u201c<b>Nobody</b>\u201d")
            phone.fill("#seat-name", "Player 5")
            phone.click("#seat-form button")
            expect(phone.locator("#seat-result")).to_contain_text("finished in place 21")

            # a stranger on a player page holds none of the floor's powers
            for cmd in ('{"kind":"clock","action":"pause"}',
                        json.dumps({"kind": "bust", "player": pid})):
                status = phone.evaluate("""async body => (await fetch("/api/act", {method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRF-Token": "guess"},
                    body})).status""", cmd)
                assert status == 401
            assert served.call(lambda: (d.tour.clock.paused, d.tour.alive)) == (False, 20)

            # the room's list and an unknown event
            for page in pages:
                page.goto(url + "/p/")
                expect(page.locator("#events a")).to_have_text("open-7")
                expect(page.locator("#events")).to_contain_text("20 of 22 left")
                fits(page, False, "events list")
                page.goto(url + "/p/no-such-event")
                expect(page.locator("main")).to_contain_text("There is no event called "
                                                             "no-such-event")
                fits(page, False, "unknown event")
                page.goto(url + "/p/open-7")
                expect(page.locator("#left")).to_have_text("20 of 22")

            # the TV clock: a corner QR code to this page, clear of everything else
            for w, h in SIZES[1:]:
                # bypass_csp: wait_for_function's predicate is compiled in the page
                tv = browser.new_context(viewport={"width": w, "height": h},
                                         bypass_csp=True).new_page()
                tv.goto(url + "/clock")
                qr = tv.locator("#qr img")
                expect(qr).to_be_visible()
                tv.wait_for_function("document.querySelector('#qr img').naturalWidth > 0")
                assert tv.evaluate(QR_CLEAR_JS) == []
                fits(tv, True, "clock with its QR code")
                if w == 1920:
                    tv.screenshot(path=str(SCREENS / "clock-qr-1920x1080.png"))

            # the link drops: every page says how old what it shows is
            served.close()
            for page in pages:
                expect(page.locator("#link")).to_contain_text("Connection lost")
                expect(page.locator("#link")).to_contain_text("ago")
                expect(page.locator("#left")).to_have_text("20 of 22")
                fits(page, False, "link lost")
            phone.screenshot(path=str(SCREENS / "players-390x844-offline.png"))
            browser.close()
    finally:
        if served.thread.is_alive():
            served.close()

