"""The TV clock and the floor dashboard in Chromium at 1920x1080, 1280x720 and 390x844,
through a whole structure (every level and break), pause, hand-for-hand, the bubble,
the final table and the finished event: no element may leave the screen or overflow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_kit import SCREENS, SIZES, fits, table_one
from browsers import Browser
from playwright.sync_api import Page, expect
from waiting import holds


def test_tv_clock_and_dashboard_fit_every_level_break_and_state(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    director = director_factory(players=18, web=True, floor_users={"floor": "s3cret"}).start()
    url = f"http://127.0.0.1:{director.http_port}"
    SCREENS.mkdir(parents=True, exist_ok=True)
    with browser:
        floor = browser.new_context()
        login = floor.request.post(url + "/api/login", data=json.dumps(
            {"user": "floor", "password": "s3cret"}),
            headers={"Content-Type": "application/json", "Origin": url})
        assert login.ok
        acting = {"Content-Type": "application/json", "Origin": url,
                  "X-CSRF-Token": login.json()["csrf"]}

        def act(cmd: dict[str, Any]) -> None:
            res = floor.request.post(url + "/api/act", data=json.dumps(cmd), headers=acting)
            assert res.ok, res.text()

        pages: list[tuple[Page, bool]] = []
        for w, h in SIZES:
            # bypass_csp: wait_for_function compiles its predicate inside the page, which
            # the dashboard's CSP forbids; the pages' own scripts run as served
            ctx = browser.new_context(viewport={"width": w, "height": h}, bypass_csp=True)
            for path, tv in (("/clock", True), ("/event", False)):
                page = ctx.new_page()
                page.goto(url + path)
                page.wait_for_function("PK.summary !== null")
                pages.append((page, tv))

        def settle(cond: str) -> None:
            for page, _ in pages:
                page.wait_for_function(f"(s => {cond})(PK.summary)")

        def check(where: str) -> None:
            for page, tv in pages:
                fits(page, tv, where)

        snap = floor.request.get(url + "/api/snapshot").json()
        periods = snap["summary"]["periods"]
        breaks = 0
        for period in range(periods):
            act({"kind": "clock", "action": "jump", "period": period})
            settle(f"s.period === {period}")
            check(f"period {period}")
            clock = pages[0][0]
            if clock.evaluate("PK.summary.is_break"):
                breaks += 1
                expect(clock.locator("#level")).to_have_text("BREAK")
            else:
                ante = clock.locator("#ante").text_content() or ""
                bb_ante = clock.evaluate("PK.summary.ante_text")
                assert ante == bb_ante and ("Ante 200" not in ante or "BB" in ante
                                            or not clock.evaluate("PK.summary.sb") > 0)
        assert periods > 20 and breaks >= 2
        act({"kind": "clock", "action": "jump", "period": 1})
        act({"kind": "clock", "action": "pause"})
        settle("s.paused && s.period === 1")
        check("paused")
        expect(pages[0][0].locator("#banner")).to_contain_text("PAUSED")
        pages[2][0].screenshot(path=str(SCREENS / "clock-1280x720-paused.png"))
        act({"kind": "clock", "action": "resume"})
        act({"kind": "h4h", "on": True})
        settle("s.hand_for_hand.on")
        check("hand-for-hand")
        expect(pages[0][0].locator("#banner")).to_contain_text("HAND-FOR-HAND")
        expect(pages[1][0].locator(".tag.h4h-playing").first).to_be_visible()  # round 1 to play
        act({"kind": "h4h", "on": False})

        ids = sorted(p["player"] for t in snap["tables"] for p in t["seats"] if p.get("player"))
        assert len(ids) == 18
        for pid in ids[:14]:                            # down to the bubble: 3 are paid
            act({"kind": "bust", "player": pid})
        settle("s.players_left === 4")
        check("bubble and final table")
        clock = pages[0][0]
        expect(clock.locator("#banner")).to_contain_text("FINAL TABLE")
        expect(clock.locator("#banner")).to_contain_text("BUBBLE")
        expect(pages[1][0].locator("#flags")).to_contain_text("BUBBLE")
        expect(pages[1][0].locator("#paid")).to_have_text("3")
        first = clock.evaluate("PK.summary.payouts[0]")
        expect(clock.locator("#pay")).to_contain_text(f"1st {first:,}")   # 18 x 100, 3 paid
        for page, _ in pages[1::2]:
            assert page.locator("[data-break]").count() == 0    # never on the final table
        for pid in ids[14:17]:
            act({"kind": "bust", "player": pid})
        settle("s.finished")
        check("finished")
        winner = clock.evaluate("PK.summary.winner")
        expect(clock.locator("#blinds")).to_have_text(winner)
        expect(clock.locator("#time")).to_have_text("OVER")
        before = clock.locator("#time").text_content()
        holds(lambda: clock.locator("#time").text_content() == before, 1.2,
              "the clock of a finished event still runs")
        for i, (w, h) in enumerate(SIZES):
            pages[2 * i][0].screenshot(path=str(SCREENS / f"clock-{w}x{h}-finished.png"))
        browser.close()


def test_dashboard_phone_layout_calls_search_and_level_controls(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    director = director_factory(players=18, web=True, floor_users={"floor": "s3cret"}).start()
    kiosk = table_one(tmp_path, mosquitto, director)
    url = f"http://127.0.0.1:{director.http_port}"
    with browser:
        page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page.clock.install()
        page.goto(url + "/event")
        page.fill("#login input[name=user]", "floor")
        page.fill("#login input[name=password]", "s3cret")
        page.click("#login button")
        expect(page.locator("#user")).to_have_text("floor")
        assert kiosk.act("press_floor").report is not None
        call = page.locator("#calls li").first
        expect(call).to_contain_text("Floor table 1")
        # calls come first on a phone: above the tables, on the first screen
        calls_top = page.locator("#calls").bounding_box()["y"]
        assert calls_top < page.locator("#tables").bounding_box()["y"]
        assert calls_top < 844, f"the call queue starts {calls_top:.0f}px down"
        fits(page, False, "phone")
        page.clock.fast_forward("02:30")
        expect(call).to_have_class("warn")
        page.clock.fast_forward("03:00")
        expect(call).to_have_class("late")                    # 5.5 minutes: red
        page.screenshot(path=str(SCREENS / "dashboard-390x844.png"), full_page=True)

        page.fill("#find", "Player 5")
        result = page.locator("#found li").first
        expect(result).to_contain_text("Player 5")
        result.locator("[data-pick]").click()
        expect(page.locator("#acting")).to_contain_text("Acting on Player 5")
        page.select_option("#player-act select[name=action]", "penalty")
        page.locator("#player-act button").click()
        expect(page.locator("#toast")).to_contain_text("Done: penalty")

        period = page.evaluate("PK.summary.period")
        page.click("#level-next")
        page.wait_for_function(f"PK.summary.period === {period + 1}")
        page.once("dialog", lambda d: d.accept("07:30"))
        page.click("#set-time")
        page.wait_for_function("Math.abs(PK.summary.remaining - 450) < 5")
        page.once("dialog", lambda d: d.accept())
        page.fill("#find", "Player 7")
        expect(page.locator("#found li").first.locator("[data-quick]")).to_have_text("Bust")
        page.locator("#found li").first.locator("[data-quick]").click()
        expect(page.locator("#toast")).to_contain_text("Done: bust")
        expect(page.locator("#left")).to_have_text("17")
        favicon = page.evaluate("document.querySelector('link[rel=icon]').href")
        assert page.request.get(favicon).ok
        browser.close()
    kiosk.stop()
