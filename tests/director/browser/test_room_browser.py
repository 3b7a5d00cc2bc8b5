"""The room page and the tiled TV clock in Debian's Chromium, against a room director
process and a real kiosk: everything in view, nothing overlapping, every text readable,
at 1920x1080, 1280x720 and (the room page) a 390 px phone."""

from __future__ import annotations

import json
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

from browser_kit import (
    ROOM_SIZES,
    SCREENS,
    Floor,
    busy_room,
    fits,
    no_overlap,
    readable,
)
from browsers import Browser
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from room_process import PASSWORD, room_process
from waiting import eventually, holds, wait_for

from kiosk.config.files import TableConfig
from kiosk.table.service import TableService

TV_SIZES = [(1920, 1080), (1280, 720)]


def kiosk_at_table_one(tmp_path: Path, mosquitto: Any) -> TableService:
    cfg = TableConfig(table=1, room="casino", broker=mosquitto.config,
                      state_dir=str(tmp_path / "table-1"), gpio=None)
    Path(cfg.state_dir).mkdir()
    kiosk = TableService(cfg, resend_s=1.0, debounce_s=0.0)
    kiosk.start()
    wait_for(lambda: sum(1 for s in kiosk.view().seats if s.name) == 6)
    return kiosk


def test_room_page_shows_every_event_table_and_call_and_fits_every_screen(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = room_process(director_factory, mosquitto, tmp_path)
    SCREENS.mkdir(parents=True, exist_ok=True)
    with browser:
        busy_room(browser, d)
        kiosk = kiosk_at_table_one(tmp_path, mosquitto)
        assert kiosk.act("press_floor").report is not None
        pages = []
        for w, h in ROOM_SIZES:
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(d.url + "/")
            expect(page.locator("#ev-daily")).to_contain_text("12 left of 12")
            expect(page.locator("#ev-sat")).to_contain_text("running")
            expect(page.locator("#tbl-1")).to_contain_text("Daily 50")
            expect(page.locator("#tbl-8")).to_contain_text("free")
            expect(page.locator("#calls")).to_contain_text("Daily 50 · table 1")
            expect(page.locator("#tbl-1 .tag.break")).to_have_text("floor 1")
            pages.append(page)
        for page in pages:
            fits(page, False, "room")
            no_overlap(page, [".ev", ".tbl", "#calls li", "main > *", "header > *",
                              "aside > *"], "room")
            readable(page, "body", 12, "room")
        phone = pages[-1]    # calls come first on a phone, on the first screen
        calls_top = phone.locator("#calls").bounding_box()["y"]
        assert calls_top < phone.locator("#events").bounding_box()["y"] and calls_top < 844
        for page, (w, h) in zip(pages, ROOM_SIZES, strict=True):
            page.screenshot(path=str(SCREENS / f"room-{w}x{h}.png"), full_page=True)

        page = pages[0]
        page.fill("#login input[name=user]", "fl")
        page.fill("#login input[name=password]", PASSWORD)
        page.click("#login button")
        expect(page.locator("#role")).to_have_text("floor")
        page.locator("#tbl-8 select").select_option("sat")
        page.locator("#tbl-8 [data-assign]").click()
        expect(page.locator("#toast")).to_contain_text("Table 8 → Satellite to Sunday",
                                                       timeout=30000)
        expect(page.locator("#tbl-8")).to_contain_text("Satellite to Sunday")
        page.locator("#tbl-8 [data-free]").click()
        expect(page.locator("#tbl-8")).to_contain_text("free")
        # finishing is the director's: the floor is not offered it
        expect(page.locator("#ev-sat [data-do]")).to_have_text(["Pause"])
        page.locator("#calls [data-ack]").click()
        expect(page.locator("#calls")).to_contain_text("acked")
        wait_for(lambda: kiosk.view().floor_state == "acked")

        page.locator("#ev-daily h3 a").click()
        page.wait_for_url("**/event/daily")
        expect(page.locator("#event")).to_have_text("Daily 50")
        expect(page.locator("#t1")).to_contain_text("Table 1")
        browser.close()
    kiosk.stop()


def test_tv_clock_tiles_two_to_four_events_readable_on_one_screen(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = room_process(director_factory, mosquitto, tmp_path)
    with browser:
        td = busy_room(browser, d)
        td.post("/api/act?event=sat", {"kind": "clock", "action": "pause"})
        screens = {1: "event=sat", 2: "events=daily,sat", 3: "events=daily,sat,sunday",
                   4: "events=daily,sat,sunday,bounty"}
        for w, h in TV_SIZES:
            for n, query in screens.items():
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(f"{d.url}/clock?{query}")
                tiles = page.locator("section.tvclock")
                expect(tiles).to_have_count(n)
                names = query.split("=")[1].split(",")
                for i, name in enumerate(names):
                    tile = tiles.nth(i)
                    expect(tile.locator(".time")).not_to_have_text("--:--")
                    title = {"daily": "Daily 50", "sat": "Satellite to Sunday",
                             "sunday": "Sunday Main", "bounty": "Thursday Bounty"}[name]
                    expect(tile.locator(".event")).to_contain_text(title)
                    expect(tile.locator(".lvl")).to_have_text("Level 1")
                expect(tiles.nth(names.index("sat")).locator(".banners")).to_contain_text(
                    "PAUSED")
                fits(page, True, f"{n} tiles")
                no_overlap(page, ["section.tvclock", ".tvclock > *", ".tvclock .grid > *",
                                  ".tvclock .pay > *", ".tvclock .tv-top > *"], f"{n} tiles")
                readable(page, "section.tvclock", h / 60, f"{n} tiles")
                page.screenshot(path=str(SCREENS / f"clock-{n}-tiles-{w}x{h}.png"))
                page.close()
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{d.url}/clock?events=daily,nowhere")
        expect(page.locator("section.tvclock").nth(1)).to_contain_text("no event 'nowhere'")
        expect(page.locator("section.tvclock").nth(0).locator(".event")).to_have_text(
            "Daily 50")
        browser.close()


# each event's state on the room page and the buttons it shows a director, no more
OFFERED = {"gala": ["Open", "Archive"],          # scheduled
           "bounty": [],                         # open, nobody in yet
           "sunday": ["Start"],                  # open, two players in
           "daily": ["Pause", "Finish"],         # running
           "sat": ["Resume", "Finish"],          # running, clock paused
           "early": ["Archive"]}                 # finished
BUTTONS_JS = """(id) => [...document.querySelectorAll(`#ev-${id} .acts button`)]
  .filter(b => b.getBoundingClientRect().width > 0 && getComputedStyle(b).visibility !== "hidden")
  .map(b => { const r = b.getBoundingClientRect(), size = parseFloat(getComputedStyle(b).fontSize);
    return {text: b.textContent.trim(), left: r.left, right: r.right, top: r.top,
            bottom: r.bottom, height: r.height, size}; })"""
# the card scrolled into view and its buttons measured in one step: the page draws its
# cards again every 2 s, and on a loaded machine a redraw between two steps moved them
SCROLLED_JS = f"""(id) => {{ document.getElementById(`ev-${{id}}`).scrollIntoView();
  return ({BUTTONS_JS})(id); }}"""


def on_screen(b: dict[str, Any], w: int, h: int | None = None) -> bool:
    """A button of BUTTONS_JS inside the viewport (sideways only, without `h`)."""
    sideways = b["left"] >= 0 and b["right"] <= w
    return sideways and (h is None or (b["top"] >= 0 and b["bottom"] <= h))


def every_state(td: Floor) -> None:
    """busy_room's events, plus one announced only, one with players not started yet,
    one paused and one finished (OFFERED)."""
    td.post("/api/room/events", {"name": "gala", "title": "Gala Night", "scheduled": True})
    for i in range(2):
        td.post("/api/act?event=sunday", {"kind": "register", "name": f"Sunday Player {i}"})
    td.post("/api/act?event=sat", {"kind": "clock", "action": "pause"})
    td.post("/api/room/events", {"name": "early", "title": "Early Bird", "tables": 1})
    for i in range(2):
        td.post("/api/act?event=early", {"kind": "register", "name": f"Early Player {i}"})
    td.post("/api/act?event=early", {"kind": "start"})
    td.post("/api/room/act", {"kind": "set_event_state", "event": "early",
                              "state": "finished"})


def log_rows(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return int(con.execute("SELECT count(*) FROM events").fetchone()[0])


def test_each_event_shows_only_its_actions_and_finish_asks_first(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = room_process(director_factory, mosquitto, tmp_path)
    with browser:
        td = busy_room(browser, d)
        every_state(td)
        for w, h in ROOM_SIZES:
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(d.url + "/")
            expect(page.locator("#ev-early")).to_contain_text("finished")
            page.fill("#login input[name=user]", "td")
            page.fill("#login input[name=password]", PASSWORD)
            page.click("#login button")
            expect(page.locator("#role")).to_have_text("director")
            expect(page.locator("#ev-daily [data-do]")).to_have_count(2)
            for event, labels in OFFERED.items():
                shown = page.evaluate(SCROLLED_JS, event)
                where = f"{event} at {w}x{h}"
                assert [b["text"] for b in shown] == labels, where
                for b in shown:       # on the screen as it scrolled there, and readable
                    assert on_screen(b, w, h), (where, b)
                    assert b["size"] >= 13 and b["height"] >= (40 if w < 600 else 30), \
                        (where, b)
            fits(page, False, "room actions")
            no_overlap(page, [".ev", ".ev > *", ".ev .acts > *"], "room actions")
            readable(page, "#events", 12, "room actions")
            page.screenshot(path=str(SCREENS / f"room-actions-{w}x{h}.png"), full_page=True)

            # Finish asks in the card; Cancel leaves the event as it was
            daily = page.locator("#ev-daily")
            rows = log_rows(tmp_path / "room.db")
            daily.locator('[data-do="finished"]').click()
            ask = daily.locator(".acts.ask")
            expect(ask).to_contain_text("Finish Daily 50?")
            expect(daily.locator("[data-do]")).to_have_count(0)
            holds(ask.locator("[data-confirm]").is_visible, 2.5,   # past the 2 s refresh
                  "the page's refresh took the question away")
            for b in page.evaluate(BUTTONS_JS, "daily"):
                assert on_screen(b, w), b
            no_overlap(page, [".ev .acts > *"], "finish asks")
            # the page re-renders the cards every 2 s: a node replaced while its picture
            # is taken is taken again
            for attempt in range(3):
                try:
                    daily.screenshot(path=str(SCREENS / f"room-finish-asks-{w}x{h}.png"))
                    break
                except PlaywrightError:
                    if attempt == 2:
                        raise
            daily.locator("[data-keep]").click()
            expect(ask).to_have_count(0)
            expect(daily.locator(".tag.st-running")).to_have_text("running")
            assert [b["text"] for b in page.evaluate(BUTTONS_JS, "daily")] == \
                ["Pause", "Finish"]
            assert log_rows(tmp_path / "room.db") == rows
            page.click("#logout")
            page.close()

        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(d.url + "/")
        expect(page.locator("#ev-daily")).to_contain_text("running")
        page.fill("#login input[name=user]", "td")
        page.fill("#login input[name=password]", PASSWORD)
        page.click("#login button")
        expect(page.locator("#role")).to_have_text("director")
        # a confirm step the event left meanwhile goes, and does not come back later
        page.locator('#ev-gala [data-do="archived"]').click()
        expect(page.locator("#ev-gala [data-confirm]")).to_be_visible()
        td.post("/api/room/act", {"kind": "set_event_state", "event": "gala", "state": "open"})
        expect(page.locator("#ev-gala .acts.ask")).to_have_count(0)
        for i in range(2):
            td.post("/api/act?event=gala", {"kind": "register", "name": f"Gala Player {i}"})
        td.post("/api/act?event=gala", {"kind": "start"})
        td.post("/api/room/act", {"kind": "set_event_state", "event": "gala",
                                  "state": "finished"})
        expect(page.locator("#ev-gala .tag.st-finished")).to_have_text("finished")
        assert [b["text"] for b in page.evaluate(BUTTONS_JS, "gala")] == ["Archive"]

        page.locator('#ev-daily [data-do="finished"]').click()
        page.locator("#ev-daily [data-confirm]").click()
        expect(page.locator("#toast")).to_contain_text("Daily 50 is finished", timeout=30000)
        expect(page.locator("#ev-daily .tag.st-finished")).to_have_text("finished")
        assert [b["text"] for b in page.evaluate(BUTTONS_JS, "daily")] == ["Archive"]
        browser.close()


# what each login sees of the room page's controls (None: a visitor, or a TV left on the
# page): each event card's buttons, and whether it shows each other control
NONE = {"assign": False, "free": False, "ack": False, "return": False, "refund": False,
        "new event": False}
SEES: dict[str | None, dict[str, Any]] = {
    None: {"daily": [], "sat": [], "sunday": [], **NONE},
    "cash": {"daily": [], "sat": [], "sunday": [], **NONE, "return": True, "refund": True},
    "fl": {"daily": ["Pause"], "sat": ["Pause"], "sunday": [], **NONE, "assign": True,
           "free": True, "ack": True},
    "td": {"daily": ["Pause", "Finish"], "sat": ["Pause", "Finish"], "sunday": ["Start"],
           **{k: True for k in NONE}},
}
CONTROLS = {"assign": "#map [data-assign]", "free": "#map [data-free]",
            "ack": "#calls [data-ack]", "return": "#tickets [data-return]",
            "refund": "#tickets [data-refund]", "new event": "#new-event button"}


# whether a select shows its chosen option whole (the text, its padding and the arrow)
SELECT_FITS_JS = """(s) => { const st = getComputedStyle(s), c = document.createElement("canvas")
  .getContext("2d"); c.font = `${st.fontSize} ${st.fontFamily}`;
  const text = c.measureText(s.options[s.selectedIndex].text).width;
  return text + parseFloat(st.paddingLeft) + parseFloat(st.paddingRight) + 20 <= s.clientWidth; }"""


def shown_controls(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = {e: [b["text"] for b in page.evaluate(BUTTONS_JS, e)]
                            for e in ("daily", "sat", "sunday")}
    for name, sel in CONTROLS.items():
        seen[name] = any(page.locator(sel).nth(i).is_visible()
                         for i in range(page.locator(sel).count()))
    return seen


def test_a_visitor_sees_the_room_read_only_and_each_role_only_its_controls(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    """Before login the room page is the room, read-only, with the log-in form; each
    control shows once the login's role may take its action, and the director refuses
    every action from a visitor and from a role that may not, whatever a page shows."""
    d = room_process(director_factory, mosquitto, tmp_path)
    with browser:
        td = busy_room(browser, d)
        for i in range(2):
            td.post("/api/act?event=sunday", {"kind": "register", "name": f"Sunday {i}"})
        td.post("/api/room/act", {"kind": "assign_table", "table": 8, "event": "sat"})
        found = browser.new_context().request.get(
            d.url + "/api/players?event=sat&q=Satellite Player 0")
        player = found.json()["players"][0]["player"]
        td.post("/api/room/act", {"kind": "issue_ticket", "player": player,
                                  "target": "sunday", "value": 300})
        kiosk = kiosk_at_table_one(tmp_path, mosquitto)
        assert kiosk.act("press_floor").report is not None
        for who, sees in SEES.items():
            for w, h in ROOM_SIZES:
                context = browser.new_context(viewport={"width": w, "height": h})
                if who is not None:
                    Floor(context.request, d.url, who)   # the session's cookie
                page = context.new_page()
                page.goto(d.url + "/")
                expect(page.locator("#calls")).to_contain_text("table 1")
                expect(page.locator("#tickets")).to_contain_text("→ Sunday Main")
                expect(page.locator("#tbl-8")).to_contain_text("Satellite")
                expect(page.locator("#upd-versions")).to_contain_text("Tables:")
                expect(page.locator("#ev-sunday .facts")).to_contain_text("2 registered")
                expect(page.locator("#ev-sat")).to_contain_text("seats to Sunday Main")
                assert [a.get_attribute("href") for a in page.locator("header .links a")
                        .all()][1:] == ["/p/", "/printer"]
                gap = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
                    "main h2")].map(h => h.getBoundingClientRect().top)) -
                    document.querySelector("header").getBoundingClientRect().bottom""")
                assert gap < 24, (who, w, gap)        # no empty band under the header
                assert eventually(partial(shown_controls, page), sees) == sees, (who, w)
                for select in page.locator("#map select").all():    # "Daily 50", whole
                    assert eventually(partial(select.evaluate, SELECT_FITS_JS), True), \
                        (who, w)   # measured again if the page redrew it meanwhile
                assert page.locator("#login").is_visible() == (who is None), (who, w)
                if who is None:       # the log-in form on the first screen, readable
                    box = page.locator("#login").bounding_box()
                    assert box and box["y"] + box["height"] <= h and box["x"] >= 0 \
                        and box["x"] + box["width"] <= w, (w, box)
                    readable(page, "#login", 13, "log-in form")
                    page.screenshot(path=str(SCREENS / f"room-visitor-{w}x{h}.png"),
                                    full_page=True)
                else:
                    expect(page.locator("#role")).to_have_text(
                        {"cash": "cashier", "fl": "floor", "td": "director"}[who])
                fits(page, False, f"room as {who}")
                no_overlap(page, [".ev", ".tbl", "main > *", "header > *", "aside > *"],
                           f"room as {who}")
                context.close()

        # the page shows nothing a visitor may do; the director refuses it all the same
        visitor = browser.new_context().request
        before = log_rows(tmp_path / "room.db")
        tries = [("/api/act?event=daily", {"kind": "clock", "action": "pause"}),
                 ("/api/act?event=sunday", {"kind": "start"}),
                 ("/api/room/act", {"kind": "set_event_state", "event": "daily",
                                    "state": "finished"}),
                 ("/api/room/act", {"kind": "assign_table", "table": 7, "event": "daily"}),
                 ("/api/room/act", {"kind": "free_table", "table": 8}),
                 ("/api/room/act", {"kind": "refund_ticket", "ticket": "t1"}),
                 ("/api/room/events", {"name": "walk-in"}),
                 ("/api/releases", {"action": "hold"})]
        for path, body in tries:
            r = visitor.post(d.url + path, data=json.dumps(body),
                             headers={"Content-Type": "application/json", "Origin": d.url})
            assert r.status == 401 and "log in" in r.json()["error"], (path, r.text())
        # and a role what its page does not show it either
        cash = Floor(browser.new_context().request, d.url, "cash")
        fl = Floor(browser.new_context().request, d.url, "fl")
        for who, path, body, what in [
                (cash, "/api/act?event=daily", {"kind": "clock", "action": "pause"},
                 "run the clock"),
                (cash, "/api/room/act", {"kind": "assign_table", "table": 7,
                                         "event": "daily"}, "assign tables"),
                (fl, "/api/room/act", {"kind": "refund_ticket", "ticket": "t1"},
                 "refund tickets"),
                (fl, "/api/room/events", {"name": "walk-in"}, "open events"),
                (fl, "/api/releases", {"action": "hold"}, "steer the tables' updates")]:
            r = who.request.post(d.url + path, data=json.dumps(body), headers=who.headers)
            assert r.status == 403 and what in r.json()["error"], (path, r.text())
        assert log_rows(tmp_path / "room.db") == before
        browser.close()
    kiosk.stop()
