"""The floor dashboard in Debian's Chromium, against a real director and a real kiosk."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

from browser_kit import (
    ROOM_SIZES,
    SCREENS,
    SIZES,
    Floor,
    busy_room,
    fits,
    legible,
    no_overlap,
    readable,
    table_one,
)
from browsers import Browser
from floor_client import FloorClient
from playwright.sync_api import expect
from race_table import BREAK_25_OFF, CHIPS, RaceTable
from room_kit import ROOM
from room_process import room_process
from waiting import eventually, wait_for


def test_floor_call_reaches_the_dashboard_and_the_ack_reaches_the_table(
        tmp_path: Path, mosquitto, director_factory, browser: Browser) -> None:
    director = director_factory(players=18, web=True, floor_users={"floor": "s3cret"}).start()
    kiosk = table_one(tmp_path, mosquitto, director)
    SCREENS.mkdir(parents=True, exist_ok=True)
    url = f"http://127.0.0.1:{director.http_port}"
    with browser:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url + "/event")
        expect(page.locator("#t1")).to_contain_text("Table 1")
        expect(page.locator("#t2")).to_contain_text("Table 2")

        assert kiosk.act("press_floor").report is not None     # FLOOR pressed at table 1
        calls = page.locator("#calls")
        expect(calls).to_contain_text("Floor table 1")   # no reload
        expect(page.locator("#t1")).to_contain_text("Floor called")

        expect(page.locator("[data-ack]")).to_have_count(0)    # not logged in yet
        assert kiosk.view().floor_state == "open"

        page.fill("#login input[name=user]", "floor")
        page.fill("#login input[name=password]", "s3cret")
        page.click("#login button")
        expect(page.locator("#user")).to_have_text("floor")
        page.locator("[data-ack]").first.click()
        expect(calls).to_contain_text("acked")
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
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    """A colour-up where table 1's dealer still owes the race: both pages say so and
    flag none of its stacks; once the race is in, nothing is left to say."""
    director = director_factory(players=18, web=True, floor_users={"td": "pw"},
                                extra_toml=CHIPS).start()
    one, two = (RaceTable(mosquitto, director.name, n) for n in (1, 2))
    wait_for(lambda: one.plan.get("seats") and two.plan.get("seats"), 15)
    url = f"http://127.0.0.1:{director.http_port}"
    td = FloorClient(url, "td", "pw")
    assert td.post("api/act", {"kind": "clock", "action": "jump", "period": BREAK_25_OFF})["ok"]
    with browser:
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
            expect(count).to_contain_text("2 of 2 tables counted")
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
            box = wait_for(where.first.bounding_box)   # none while the page redraws it
            assert box["x"] >= 0 and box["x"] + box["width"] <= w
            kind = "dashboard" if page in dashboards else "room"
            page.screenshot(path=str(SCREENS / f"race-pending-{kind}-{w}.png"))

        one.send("chip_race", round=one.plan["chip_count"]["round"], winners=[a])
        wait_for(lambda: not one.plan["colour_up"]["pending"], 15)
        for page in dashboards:
            expect(page.locator("#count")).to_be_hidden()
            expect(page.locator("#t1 .tag.race")).to_have_count(0)
        for page in rooms:
            expect(page.locator("#ev-test-event .count")).to_have_count(0)
            expect(page.locator("#tbl-1 .tag.race")).to_have_count(0)
        browser.close()
    one.close()
    two.close()


# the event page's controls each login sees (None: a visitor): the buttons of the bar, the
# actions on a player, and the desk's boxes
BAR = {"start": "#start-btn", "pause": "#pause-btn", "resume": "#resume-btn",
       "+1 min": "#controls .clock-btn >> nth=0", "h4h": "#h4h-btn"}
EVENT_SEES: dict[str | None, dict[str, Any]] = {
    None: {"bar": [], "acts": [], "register": False, "import": False, "break": False},
    "cash": {"bar": [], "acts": ["rebuy", "reenter"], "register": True, "import": True,
             "break": False},
    "fl": {"bar": ["pause", "+1 min", "h4h"], "register": True, "import": True,
           "acts": ["bust", "unbust", "move", "arrived", "penalty"], "break": True},
    "td": {"bar": ["pause", "+1 min", "h4h"], "register": True, "import": True,
           "acts": ["bust", "unbust", "move", "arrived", "penalty", "rebuy", "reenter"],
           "break": True},
}
ROLE = {"cash": "cashier", "fl": "floor", "td": "director"}


def event_controls(page: Any) -> dict[str, Any]:
    return {"bar": [name for name, sel in BAR.items() if page.locator(sel).is_visible()],
            "acts": page.eval_on_selector_all(
                "#player-act select[name=action] option",
                "os => os.filter(o => !o.hidden).map(o => o.value)")
            if page.locator("#player-act-box").is_visible() else [],
            "register": page.locator("#register-box").is_visible(),
            "import": page.locator("#import").is_visible(),
            "break": page.locator("[data-break]").count() > 0}


def inside_the_layout(page: Any, sel: str, where: str) -> None:
    """`sel` sits in the page's side column, below the header and the bar, on screen."""
    w = page.viewport_size["width"]
    box = page.locator(sel).bounding_box()
    bar = page.locator("#controls").bounding_box()
    aside = page.locator("aside").bounding_box()
    assert page.locator(f"aside {sel}").count() == 1, where
    assert box and bar and aside and box["y"] >= bar["y"] + bar["height"] - 1, (where, box)
    assert aside["x"] - 1 <= box["x"] and box["x"] + box["width"] <= min(
        w, aside["x"] + aside["width"]) + 1, (where, box, aside)


def test_the_event_page_shows_each_role_its_controls_as_the_clock_and_event_allow(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    """Read-only before login; a role sees the controls it may use; Pause or Resume as the
    clock runs or not; the reservation box in the page's side column, where the event takes
    reservations; an event not started offers neither, and says where its tables are."""
    text = ROOM.replace("scheduled = true\n", "scheduled = true\nreservations = true\n")
    d = room_process(director_factory, mosquitto, tmp_path, text)
    with browser:
        td = busy_room(browser, d)
        for who, sees in EVENT_SEES.items():
            for w, h in ROOM_SIZES:
                where = f"{who} at {w}x{h}"
                context = browser.new_context(viewport={"width": w, "height": h})
                if who is not None:
                    Floor(context.request, d.url, who)
                page = context.new_page()
                page.goto(d.url + "/event/daily")
                expect(page.locator("#event")).to_have_text("Daily 50")
                expect(page.locator("#t1")).to_contain_text("Table 1")
                if who is not None:
                    expect(page.locator("#user")).to_have_text(who)
                assert eventually(partial(event_controls, page), sees) == sees, where
                assert page.locator("#login").is_visible() == (who is None), where
                assert page.locator("#confirm-box").is_hidden(), where   # no reservations
                fits(page, False, where)
                no_overlap(page, ["header > *", "#controls > *", "main > *", "aside > *"],
                           where)
                readable(page, "body", 12, where)

                page.goto(d.url + "/event/sunday")
                expect(page.locator("#event")).to_have_text("Sunday Main")
                expect(page.locator("#flags")).to_have_text("Not started")   # not "paused"
                expect(page.locator("#head .money")).to_have_text("pool 0 · 0 paid")
                expect(page.locator("#no-tables")).to_contain_text(
                    "the draw seats the players when the event starts")
                for button in ("#start-btn", "#pause-btn", "#resume-btn", "#h4h-btn"):
                    assert page.locator(button).is_hidden(), (where, button)
                if who is None:
                    expect(page.locator("#confirm-box")).to_be_hidden()
                else:
                    expect(page.locator("#confirm-box")).to_be_visible()
                    inside_the_layout(page, "#confirm-box", where)
                    no_overlap(page, ["header > *", "#controls > *", "main > *",
                                      "aside > *", "#confirm-box *"], where)
                    readable(page, "#confirm-box", 13, where)
                    if who == "cash" and w > 1000:
                        page.screenshot(path=str(SCREENS / f"event-desk-{w}x{h}.png"))
                context.close()

        # the clock paused: the floor is offered Resume, not Pause, and the reverse
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        Floor(page.context.request, d.url, "fl")
        page.goto(d.url + "/event/daily")
        expect(page.locator("#pause-btn")).to_be_visible()
        expect(page.locator("#resume-btn")).to_be_hidden()
        td.post("/api/act?event=daily", {"kind": "clock", "action": "pause"})
        expect(page.locator("#resume-btn")).to_be_visible()
        expect(page.locator("#pause-btn")).to_be_hidden()
        expect(page.locator("#flags")).to_contain_text("Clock paused")
        page.click("#resume-btn")
        expect(page.locator("#pause-btn")).to_be_visible()
        expect(page.locator("#resume-btn")).to_be_hidden()
        expect(page.locator("#flags")).not_to_contain_text("Clock paused")
        # the player form asks only what the chosen action needs
        for action, where, penalty in [("bust", False, False), ("move", True, False),
                                       ("penalty", False, True), ("arrived", False, False)]:
            page.select_option("#player-act select[name=action]", action)
            assert page.locator("#act-where").is_visible() == where, action
            assert page.locator("#act-penalty").is_visible() == penalty, action
        # the event's other pages, one tap away, each about this event
        links = {a.inner_text(): a.get_attribute("href")
                 for a in page.locator("#event-links a").all()}
        assert links == {"TV clock": "/clock?event=daily", "Players' page": "/p/daily",
                         "Results": "/results?event=daily", "Deal": "/deal?event=daily",
                         "Audit": "/audit?event=daily", "Printer": "/printer"}, links
        legible(page, "#event-links a")
        page.click("#event-links >> text=Results")
        expect(page.locator("h1")).to_have_text("Daily 50 results")
        page.go_back()
        expect(page.locator("#event")).to_have_text("Daily 50")
        # two players in: the director (only) is offered Start
        for i in range(2):
            td.post("/api/act?event=sunday", {"kind": "register", "name": f"Sunday {i}"})
        page.goto(d.url + "/event/sunday")
        expect(page.locator("#event")).to_have_text("Sunday Main")
        expect(page.locator("#start-btn")).to_be_hidden()
        director = browser.new_page(viewport={"width": 1280, "height": 720})
        Floor(director.context.request, d.url, "td")
        director.goto(d.url + "/event/sunday")
        expect(director.locator("#start-btn")).to_be_visible()
        director.click("#start-btn")
        expect(director.locator("#flags")).not_to_contain_text("Not started")
        expect(director.locator("#pause-btn")).to_be_visible()
        expect(director.locator("#start-btn")).to_be_hidden()
        browser.close()
