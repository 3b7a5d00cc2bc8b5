"""The tools against stalling (TDA RP-19) on the floor's pages, in Chromium: the TV clock
shows the final table's time banks while its shot clock runs there (1920x1080, 1280x720
and a 390 px phone, nothing off the screen), the dashboard offers the floor orbit for
orbit and where the shot clock runs, and a role that may not is refused with nothing
logged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_kit import SCREENS, chromium, fits, legible
from floor_client import FloorClient
from playwright.sync_api import expect, sync_playwright
from stalling_kit import hands_toml
from waiting import wait_for

from kiosk.config import floor_users
from kiosk.director.log.store import EventLog
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import encode, report
from kiosk.protocol.topics import SingleEventTopics

SIZES = [(1920, 1080), (1280, 720), (390, 844)]
SHOT = ('[shot_clock]\nseconds = 30\napplies = "final"\nbank_cards = 2\nbank_seconds = 30\n')
LONG = "Maximilian-Alexander Oppenheimer"
# the banks that the corner QR code (landscape screens) would hide
CLEAR_OF_QR = """() => {
  const qr = document.getElementById("qr");
  if (!qr || qr.hidden) return [];
  const q = qr.getBoundingClientRect();
  return [...document.querySelectorAll(".banks .bank")].filter(b => {
    const r = b.getBoundingClientRect();
    return r.right > q.left && r.left < q.right && r.bottom > q.top && r.top < q.bottom;
  }).map(b => b.textContent);
}"""


def test_the_tv_shows_the_final_tables_banks_and_the_floor_runs_the_tools(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    director = director_factory(players=18, web=True, extra_toml=SHOT,
                                floor_users={"fl": "s3cret-floor", "cash": "s3cret-cash"})
    director.players_csv.write_text(director.players_csv.read_text().replace(
        "Player 18,", f"{LONG},"))
    users = floor_users.load_roles(director.dir / floor_users.FILE)
    floor_users.save(director.dir / floor_users.FILE, floor_users.load(
        director.dir / floor_users.FILE), {**users, "fl": "floor", "cash": "cashier"})
    director.start()
    url = f"http://127.0.0.1:{director.http_port}"
    floor, cash = FloorClient(url, "fl", "s3cret-floor"), FloorClient(url, "cash", "s3cret-cash")
    before = len(EventLog(director.db))
    for cmd, what in (({"kind": "orbit", "on": True}, "run orbit for orbit"),
                      ({"kind": "shot_clock", "applies": "event"},
                       "set where the shot clock runs")):
        refused = cash.post("/api/act", cmd)
        assert not refused["ok"] and f"your role (cashier) may not {what}" in refused["error"]
    assert len(EventLog(director.db)) == before

    snap = floor.get("/api/snapshot")
    ids = sorted(p["player"] for t in snap["tables"] for p in t["seats"] if p.get("player"))
    for pid in ids[:8]:                                # ten left: the final table
        assert floor.post("/api/act", {"kind": "bust", "player": pid})["ok"]
    final = wait_for(lambda: floor.get("/api/snapshot")["summary"]["final_table"], 30)
    tile = next(t for t in floor.get("/api/snapshot")["tables"] if t["table"] == final)
    who = next(s for s in tile["seats"] if s.get("player"))
    seat = who["seat"]
    # the final table's kiosk says a player handed in a card
    client = make_client("tb", mosquitto.config)
    client.connect("127.0.0.1", mosquitto.port)
    client.loop_start()
    client.publish(SingleEventTopics(director.name).report(final), encode(report(
        final, "tb-1", 1, 0.0, "time_bank", seat=seat, player=who["player"], hand=0)),
        qos=1).wait_for_publish(10)
    client.loop_stop()
    client.disconnect()
    banks = wait_for(lambda: (b := floor.get("/api/snapshot")["summary"]["shot_clock"][
        "banks"]) and next(x for x in b if x["seat"] == seat)["cards"] == 1 and b, 30)
    assert len(banks) == 10 and sum(b["cards"] for b in banks) == 19
    assert LONG in {b["name"] for b in banks}

    SCREENS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = chromium(pw)
        for w, h in SIZES:
            ctx = browser.new_context(viewport={"width": w, "height": h}, bypass_csp=True)
            page = ctx.new_page()
            page.goto(url + "/clock")
            page.wait_for_function("PK.summary !== null && PK.summary.shot_clock.final_table",
                                   timeout=20000)
            rows = page.locator(".banks .bank")
            expect(rows).to_have_count(10, timeout=20000)
            if w > h:                              # the corner QR code is drawn by then
                page.wait_for_function("document.getElementById('qr') !== null")
            expect(page.locator(".banks .banks-title")).to_contain_text("30 s a card")
            used = page.locator(".banks .bank", has_text=who["name"]).first
            expect(used.locator("i")).to_have_text("1")
            expect(page.locator(".banks .bank", has_text=LONG)).to_have_count(1)
            fits(page, True, "final table banks")
            assert page.evaluate(CLEAR_OF_QR) == [], f"{w}x{h}: under the QR code"
            legible(page, ".banks .bank, .banks .banks-title")
            page.screenshot(path=str(SCREENS / f"clock-banks-{w}x{h}.png"))
            ctx.close()
        # the dashboard: the floor turns orbit for orbit on and sees where the shot clock runs
        ctx = browser.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True)
        page = ctx.new_page()
        page.goto(url + "/event")
        page.fill("#login [name=user]", "fl")
        page.fill("#login [name=password]", "s3cret-floor")
        page.click("#login button")
        expect(page.locator("#shot-btn")).to_have_text("Shot clock: final…", timeout=20000)
        expect(page.locator("#orbit-btn")).to_have_text("Start orbit for orbit")
        page.click("#orbit-btn")
        expect(page.locator("#flags")).to_contain_text("Orbit for orbit round 1",
                                                       timeout=20000)
        expect(page.locator("#orbit-btn")).to_have_text("Stop orbit for orbit")
        fits(page, False, "dashboard with orbit for orbit")
        browser.close()
    audit = [(e["kind"], e.get("by")) for e in EventLog(director.db).read()
             if e["kind"] == "orbit"]
    assert audit == [("orbit", "fl")]
    assert json.dumps(banks)   # plain data, as the pages read it


def test_the_tv_and_the_players_page_show_hands_left_where_levels_count_hands(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    structure = tmp_path / "hands.toml"
    structure.write_text(hands_toml(3, 4))
    director = director_factory(players=18, profile="tda-2015", structure=str(structure),
                                web=True).start()
    url = f"http://127.0.0.1:{director.http_port}"
    with sync_playwright() as pw:
        browser = chromium(pw)
        for (w, h), path, sel, text in (((1920, 1080), "/clock", "#time", "3 HANDS"),
                                        ((390, 844), f"/p/{director.name}", "#time",
                                         "3 hands")):
            ctx = browser.new_context(viewport={"width": w, "height": h}, bypass_csp=True)
            page = ctx.new_page()
            page.goto(url + path)
            expect(page.locator(sel)).to_have_text(text, timeout=20000)
            page.wait_for_timeout(1200)                      # no clock counts it down
            expect(page.locator(sel)).to_have_text(text)
            if path == "/clock":
                expect(page.locator("#banner")).not_to_contain_text("PAUSED")
                fits(page, True, "hands left")
                page.screenshot(path=str(SCREENS / f"clock-hands-{w}x{h}.png"))
            ctx.close()
        browser.close()
