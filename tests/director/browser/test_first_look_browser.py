"""The room as a newcomer first meets it, in Chromium against a room director process: every
page passes axe-core's WCAG 2.1 AA rules (no serious or critical violation) as a visitor
and as the floor, a visitor's pages log no console error, finding a table shows it, a
paused event's card says so, the floor's messages name events by their title, the TV
clock reads from the back of the room (an announced event with its entries and buy-in, a
satellite with its seats), and the money pages say what a newcomer expects.

Every wait has its own deadline, sized for a loaded machine."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser_kit import SCREENS, SMALLEST_JS, Floor, accessible, chromium
from dealer_mqtt_kit import dealers_in, dealers_toml
from playwright.sync_api import Page, expect, sync_playwright
from room_kit import ROOM
from room_process import room_process

WAIT = 30_000      # ms: any wait for the page, on a loaded machine
STARTS = "Sun 6 Dec, 19:00"       # the room file's "2026-12-06T19:00", as English says it
FOUND = re.compile(r"\bfound\b")
PAGES = ["/", "/clock", "/clock?events=daily,sat,sunday", "/dealers", "/dealers?dealer=Ann",
         "/dealers?dealer=Cy", "/p/", "/p/daily", "/p/sat", "/p/sunday", "/event/daily",
         "/floor/section", "/results?event=daily", "/deal?event=daily",
         "/audit?event=daily", "/printer"]
PHONE = ["/", "/dealers", "/dealers?dealer=Ann", "/p/", "/p/daily", "/floor/section"]


def a_room(director_factory: Any, mosquitto: Any, tmp_path: Path, browser: Any,
           players: int = 12) -> Any:
    """The daily running with its dealers in, the satellite running and paused, Sunday
    announced."""
    room = ROOM.replace("scheduled = true\n", 'scheduled = true\nstarts = "2026-12-06T19:00"\n')
    d = room_process(director_factory, mosquitto, tmp_path, room + dealers_toml(), players)
    td = Floor(browser.new_context().request, d.url, "td")
    td.post("/api/act?event=daily", {"kind": "start"})
    for i in range(9):
        td.post("/api/act?event=sat", {"kind": "register", "name": f"Satellite Player {i}"})
    td.post("/api/act?event=sat", {"kind": "start"})
    td.post("/api/act?event=sat", {"kind": "clock", "action": "pause"})
    dealers_in(mosquitto)
    return d


@contextmanager
def served(director_factory: Any, mosquitto: Any, tmp_path: Path,
           players: int = 12) -> Iterator[tuple[Any, Any]]:
    """Chromium and a_room, both closed after."""
    with sync_playwright() as pw:
        browser = chromium(pw)
        d = a_room(director_factory, mosquitto, tmp_path, browser, players)
        yield browser, d
        browser.close()
    d.stop()


def logged_in(browser: Any, url: str, user: str, **ctx: Any) -> Any:
    context = browser.new_context(**ctx)
    Floor(context.request, url, user)          # the page's context shares the session
    return context


def settle(page: Page, path: str) -> None:
    """The page's first answers are in: what each page fills in from the director."""
    shown = {"/": "#events .ev", "/clock": ".tvclock .time", "/dealers": "#dt-clock",
             "/p/": "body", "/event": "#event", "/floor": "#calls li",
             "/results": "#results tbody tr", "/deal": "#deal-form",
             "/audit": "#audit", "/printer": "#state"}
    key = next(k for k in sorted(shown, key=len, reverse=True) if path.startswith(k))
    expect(page.locator(shown[key]).first).to_be_visible(timeout=WAIT)
    if key == "/dealers":
        expect(page.locator("#dt-clock")).not_to_have_text("--:--", timeout=WAIT)
    page.wait_for_load_state("networkidle", timeout=WAIT)


def test_every_page_passes_axe_for_a_visitor_and_the_floor_and_logs_no_error(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    with served(director_factory, mosquitto, tmp_path) as (browser, d):
        errors: list[str] = []
        for who, size, paths in (("visitor", (1280, 720), PAGES), ("fl", (1280, 720), PAGES),
                                 ("visitor", (390, 844), PHONE), ("fl", (390, 844), PHONE)):
            viewport = {"width": size[0], "height": size[1]}
            context = browser.new_context(viewport=viewport) if who == "visitor" else \
                logged_in(browser, d.url, who, viewport=viewport)
            for path in paths:
                page = context.new_page()
                page.on("console", lambda m, p=path, w=who: errors.append(
                    f"{w} {p}: {m.text}") if m.type == "error" else None)
                page.goto(d.url + path)
                settle(page, path)
                accessible(page, f"{who} {path}")
                page.close()
            context.close()
        assert errors == [], errors


def test_the_room_page_finds_a_table_says_paused_and_names_events_by_title(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    with served(director_factory, mosquitto, tmp_path) as (browser, d):
        page = logged_in(browser, d.url, "fl", viewport={"width": 1280, "height": 720}
                         ).new_page()
        page.goto(d.url + "/")
        sat = page.locator("#ev-sat")
        expect(sat.locator("h3 .tag").last).to_have_text("paused", timeout=WAIT)
        expect(sat).not_to_contain_text("running", timeout=WAIT)
        expect(page.locator("#counts")).to_contain_text("1 running", timeout=WAIT)
        expect(page.locator("#ev-daily h3 .tag").last).to_have_text("running", timeout=WAIT)
        expect(page.locator("#ev-daily").get_by_role("link", name="Results")).to_have_attribute(
            "href", "/results?event=daily", timeout=WAIT)
        # no empty chip: a tag with nothing in it is not drawn
        assert page.evaluate("""[...document.querySelectorAll('.tag')].filter(t =>
            !t.textContent.trim() && t.getBoundingClientRect().width).length""") == 0
        # a table number: the tile outlined, in view, and a line that says what it holds
        find = page.locator("#room-find")
        find.fill("6")
        expect(page.locator("#tbl-6")).to_have_class(FOUND, timeout=WAIT)
        expect(page.locator("#tbl-6")).to_be_in_viewport(timeout=WAIT)
        expect(page.locator("#room-found")).to_contain_text("Table 6", timeout=WAIT)
        find.fill("60")
        expect(page.locator("#room-found")).to_contain_text("No table 60 in this room",
                                                            timeout=WAIT)
        # a player found by name: the button takes the floor to the player's table
        find.fill("Satellite Player 1")
        go = page.locator("#room-found button[data-found]").first
        expect(go).to_be_visible(timeout=WAIT)
        table = int(go.get_attribute("data-found") or 0)
        page.evaluate("scrollTo(0, 0)")
        go.click()
        expect(page.locator(f"#tbl-{table}")).to_have_class(FOUND, timeout=WAIT)
        expect(page.locator(f"#tbl-{table}")).to_be_in_viewport(timeout=WAIT)
        # the floor resumes the satellite: the message names it by its title
        sat.get_by_role("button", name="Resume").click()
        expect(page.locator("#toast")).to_have_text("Clock resumed: Satellite to Sunday",
                                                    timeout=WAIT)
        expect(sat.locator("h3 .tag").last).to_have_text("running", timeout=WAIT)
        page.screenshot(path=str(SCREENS / "room-found-1280x720.png"))
        # the audit lists the floor's pause and resume of the clock, with who did them
        audit = browser.new_page()
        audit.goto(d.url + "/audit?event=sat")
        rows = audit.locator("#audit tbody tr")
        expect(rows.first).to_contain_text("clock resume", timeout=WAIT)
        expect(rows.nth(0)).to_contain_text("fl", timeout=WAIT)
        expect(rows.nth(1)).to_contain_text("clock pause", timeout=WAIT)
        expect(rows.nth(1)).to_contain_text("td", timeout=WAIT)
        expect(audit.locator("#audit-empty")).to_be_hidden(timeout=WAIT)


def test_the_tv_clock_reads_from_the_back_and_the_money_pages_say_what_is_so(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    with served(director_factory, mosquitto, tmp_path, players=14) as (browser, d):
        tv = browser.new_page(viewport={"width": 1920, "height": 1080})
        # one event: its smallest text, the QR code's caption included, 1/60 of the height
        tv.goto(d.url + "/clock?event=daily")
        expect(tv.locator("#qr")).to_contain_text("Live on your phone", timeout=WAIT)
        size, what = tv.evaluate(SMALLEST_JS, "body")
        assert size >= 1080 / 60, f"{what!r} is {size}px"
        # three tiles: the satellite's seats, Sunday announced with its buy-in, no zeros
        tv.goto(d.url + "/clock?events=daily,sat,sunday")
        sunday, sat = tv.locator(".tvclock").nth(2), tv.locator(".tvclock").nth(1)
        expect(sunday.locator(".banners")).to_have_text("ANNOUNCED", timeout=WAIT)
        expect(sunday).not_to_contain_text("PAUSED", timeout=WAIT)
        expect(sunday.locator(".grid")).to_contain_text("Buy-in300", timeout=WAIT)
        expect(sunday.locator(".grid")).not_to_contain_text("Prize pool", use_inner_text=True,
                                                            timeout=WAIT)
        expect(sunday.locator(".grid")).not_to_contain_text("Average stack",
                                                            use_inner_text=True, timeout=WAIT)
        expect(sunday.locator(".blinds")).to_have_text(STARTS, timeout=WAIT)
        expect(sat.locator(".pay")).to_contain_text("3 seats to Sunday Main", timeout=WAIT)
        size, what = tv.evaluate(SMALLEST_JS, "body")
        assert size >= 1080 / 60, f"{what!r} is {size}px"
        tv.screenshot(path=str(SCREENS / "clock-announced-1920x1080.png"))
        # the announced event on a player's phone: when it starts and its buy-in
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(d.url + "/p/sunday")
        expect(phone.locator("#blinds")).to_have_text(STARTS, timeout=WAIT)
        expect(phone.locator("#ante")).to_have_text("Buy-in 300", timeout=WAIT)
        expect(phone.locator("#left-name")).to_have_text("Entries so far", timeout=WAIT)
        for zeros in ("#payouts-card", "#pool", "#paid", "#results-card"):
            expect(phone.locator(zeros)).to_be_hidden(timeout=WAIT)
        expect(phone.locator("body")).not_to_contain_text("0 of 0", use_inner_text=True,
                                                          timeout=WAIT)
        phone.screenshot(path=str(SCREENS / "players-announced-390.png"))
        # results: no prize reads "—"; the payout slips are the desk's
        visitor = browser.new_page()
        visitor.goto(d.url + "/results?event=daily")
        expect(visitor.locator("#results tbody tr").first).to_contain_text("in play",
                                                                           timeout=WAIT)
        prizes = visitor.locator("#results tbody td:nth-child(3)").all_text_contents()
        assert prizes and set(prizes) == {"—"}, prizes
        expect(visitor.locator("#print")).to_be_hidden(timeout=WAIT)
        desk = logged_in(browser, d.url, "fl").new_page()
        desk.goto(d.url + "/results?event=daily")
        expect(desk.locator("#print")).to_be_visible(timeout=WAIT)
        # the deal calculator with twelve players left: a note naming the event, no error
        desk.goto(d.url + "/deal?event=daily")
        message = desk.locator("#message")
        expect(message).to_contain_text("Daily 50: a deal is calculated for", timeout=WAIT)
        expect(message).to_have_class("info", timeout=WAIT)
        expect(desk.locator("h1")).to_have_text("Deal calculator: Daily 50", timeout=WAIT)


def test_the_event_page_explains_its_marks(tmp_path: Path, mosquitto: Any,
                                           director_factory: Any) -> None:
    """The ▶ of a hand being dealt and the amber ● of an all-in are said on the page."""
    with sync_playwright() as pw:
        browser = chromium(pw)
        d = room_process(director_factory, mosquitto, tmp_path)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(d.url + "/event/daily")
        legend = page.locator("#legend")
        expect(legend).to_contain_text("▶ a hand is being dealt", timeout=WAIT)
        expect(legend).to_contain_text("● all in", timeout=WAIT)
        expect(legend).to_be_visible(timeout=WAIT)
        browser.close()
    d.stop()
