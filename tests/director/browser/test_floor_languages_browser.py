"""The floor's pages in their reader's language, in Chromium against a room director
process whose room speaks German, English, Czech and Chinese: each floor login reads its
own language (floor-users.toml), the key controls of the room page (1920x1080) and the
event dashboard (1280x720) say their words in it, on screen, apart and readable, Chinese
drawn by a real font, a refusal comes in the login's language, the section page fits a
390 px phone in Czech, the room page in Czech passes axe-core, and in the pseudo-locale
every text a person reads on the floor's pages went through the catalogue."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from browser_kit import Floor, accessible, no_overlap, readable
from browsers import Browser
from playwright.sync_api import Page, expect
from pseudo_check import settled_unmarked, unmarked_texts
from room_kit import ROOM
from room_process import PASSWORD, room_process
from waiting import wait_for

from kiosk.config import floor_users
from kiosk.lang.catalogue import catalogue
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import encode, report
from kiosk.protocol.topics import Topics

WAIT = 30_000
LANGS = ROOM.replace("tables = 8\n", 'tables = 8\nlanguages = ["de", "en", "cs", "zh_Hans"]\n', 1)
# each login: its role and its own language (None: the room's, or the page's chooser)
PEOPLE = {"td": ("director", None), "cash": ("cashier", None), "fl": ("floor", "cs"),
          "fd": ("floor", "de"), "ana": ("director", "cs"), "ben": ("director", "de"),
          "chen": ("director", "zh_Hans")}
DIRECTORS = {"cs": "ana", "de": "ben", "zh_Hans": "chen"}
# what the floor's pages show that is data, not words: names, logins, tables, levels and
# players (T3, L2, r7), versions, numbers, the path's arrow (U+203A) between the room and the event
DATA = re.compile(r"Casino Hall|Pavilion|Amazon Blue|Daily 50|Sunday Main|Satellite to Sunday|"
                  r"Satellite Player \d+|Player \d+|poker-kiosk|turbo|\b(td|ana|fl)\b|"
                  r"pokerkiosk release add|HTTP|\b[TLr]\d+\b|\bv?\d[\d.]*\b|\u203a")
# each distinct Chinese character of an element, drawn in the element's font: its shape
GLYPHS_JS = r"""(sel) => {
  const el = document.querySelector(sel), family = getComputedStyle(el).fontFamily;
  const shape = ch => {
    const c = document.createElement("canvas"); c.width = c.height = 64;
    const x = c.getContext("2d"); x.font = `48px ${family}`; x.fillText(ch, 4, 52);
    return Array.from(x.getImageData(0, 0, 64, 64).data.filter((v, i) => i % 4 === 3)).join("");
  };
  const chars = [...new Set(el.textContent)].filter(ch => /[\u4e00-\u9fff]/.test(ch));
  const shapes = chars.map(shape), box = shape("\u{10FFFD}");
  return {chars: chars.join(""), shapes: new Set(shapes).size,
          boxes: shapes.filter(s => s === box).length,
          blank: shapes.filter(s => !/[1-9]/.test(s)).length};
}"""


def a_room(director_factory: Any, mosquitto: Any, tmp_path: Path, browser: Browser) -> Any:
    """The room in four languages with PEOPLE's logins, the daily running and a floor
    call open at one of its tables (its kiosk pressed FLOOR over the broker)."""
    d = room_process(director_factory, mosquitto, tmp_path, LANGS)
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in PEOPLE},
                     {u: role for u, (role, _) in PEOPLE.items()},
                     {u: code for u, (_, code) in PEOPLE.items() if code})
    td = Floor(browser.new_context().request, d.url, "td")
    td.post("/api/act?event=daily", {"kind": "start"})
    room = td.request.get(d.url + "/api/room").json()
    table = next(t["table"] for t in room["tables"] if t["event"] == "daily")
    client = make_client("floor-call", mosquitto.config)
    client.connect("127.0.0.1", mosquitto.port)
    client.loop_start()
    try:
        rep = {**report(table, "fc-1", 1, 0.0, "floor_call", seat=2), "event": "daily"}
        client.publish(Topics("casino").report(table), encode(rep), qos=1).wait_for_publish(10)
        wait_for(lambda: td.request.get(d.url + "/api/room").json()["calls"], 30)
    finally:
        client.loop_stop()
        client.disconnect()
    return d


def login(browser: Browser, d: Any, user: str, **ctx: Any) -> Any:
    context = browser.new_context(**ctx)
    Floor(context.request, d.url, user)          # the page's context shares the session
    return context


def said(code: str, text: str) -> str:
    return catalogue(code).gettext(text)


def glyphs_drawn(page: Page, selector: str) -> None:
    """The Chinese characters of `selector` are drawn by a font that has them: each
    distinct character leaves its own shape in the page's font (missing-glyph boxes are
    all one shape), and none is the shape of a character no font has."""
    found = page.evaluate(GLYPHS_JS, selector)
    assert len(found["chars"]) >= 2, found
    assert found["shapes"] == len(found["chars"]), found
    assert not found["boxes"] and not found["blank"], found


def looked_over(page: Page, code: str, name: str, parts: list[str], px: int, chinese: str,
                tmp_path: Path) -> None:
    """The page in `code` as its reader sees it: `parts` apart, every text at least `px`,
    Chinese (the text of selector `chinese`) drawn by a real font; a screenshot kept, the
    page's context closed."""
    where = f"{code} {name}"
    no_overlap(page, parts, where)
    readable(page, "body", px, where)
    if code == "zh_Hans":
        glyphs_drawn(page, chinese)
    page.screenshot(path=str(tmp_path / f"{name}-{code}.png"))
    page.context.close()


def test_the_room_page_and_the_dashboard_speak_each_logins_language(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    assert "WenQuanYi" in subprocess.run(["fc-list", ":lang=zh"], capture_output=True,
                                         text=True).stdout
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    for code, user in DIRECTORS.items():
        tag = code.replace("_", "-")
        context = login(browser, d, user, viewport={"width": 1920, "height": 1080})
        page = context.new_page()
        page.goto(d.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", tag)
        card = page.locator("#ev-daily")
        expect(card.locator("[data-do=pause]")).to_have_text(said(code, "Pause"), timeout=WAIT)
        expect(page.locator("#logout")).to_have_text(said(code, "Log out"))
        expect(page.locator("#lang-choice select")).to_have_count(0)   # its own, always
        expect(page.locator("#room-find")).to_have_attribute(
            "placeholder", said(code, "find a table or a player"))
        call = page.locator("#calls li").first
        expect(call).to_contain_text(said(code, "Floor"))
        expect(call.locator("[data-ack]")).to_have_text(said(code, "On my way"))
        expect(page.locator("h2 [data-i18n]").first).to_have_text(said(code, "Tables"))
        # the TV link says the room's languages, one after the other
        expect(page.locator("#tv-link")).to_have_attribute(
            "href", re.compile(r"&langs=de,en,cs,zh_Hans&show=turn$"))
        for el in (card.locator("[data-do=pause]"), page.locator("#logout"),
                   page.locator("#room-find"), call.locator("[data-ack]")):
            expect(el).to_be_in_viewport()
        looked_over(page, code, "room", ["#head > *", "#who > *", "#me > *", ".ev .acts > *",
                                         "#calls li > *", ".room-main > h2", ".ev .facts > *"],
                    12, "#ev-daily [data-do=pause]", tmp_path)

        context = login(browser, d, user, viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.goto(d.url + "/event/daily")
        expect(page.locator("html")).to_have_attribute("lang", tag)
        expect(page.locator("#pause-btn")).to_have_text(said(code, "Pause clock"), timeout=WAIT)
        expect(page.locator("#set-time")).to_have_text(said(code, "Set time…"))
        expect(page.locator("#logout")).to_have_text(said(code, "Log out"))
        expect(page.locator("#find")).to_have_attribute("placeholder",
                                                        said(code, "name, id or card"))
        expect(page.locator("#player-act option[value=move]")).to_have_text(
            said(code, "Move to table / seat"))
        expect(page.locator("#calls li").first).to_contain_text(said(code, "Floor"))
        expect(page.locator(".tile .alert").first).to_contain_text(said(code, "Floor called"))
        for el in ("#pause-btn", "#set-time", "#logout", "#find"):
            expect(page.locator(el)).to_be_in_viewport()
        looked_over(page, code, "dashboard", ["#controls > *", "#head > *", "#who > *", "#me > *",
                                              "#tables > .tile", ".tile h3 > *", "#calls li > *"],
                    11, "#pause-btn", tmp_path)


def test_a_refusal_comes_in_the_logins_language_and_the_section_page_fits_a_phone(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    for user, code in (("fl", "cs"), ("fd", "de")):
        context = login(browser, d, user, viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.goto(d.url + "/event/daily")
        expect(page.locator("#logout")).to_have_text(said(code, "Log out"), timeout=WAIT)
        # the floor may not sell a rebuy: the director says so, in the login's words
        page.evaluate("act({kind: 'rebuy', player: 'P0001'})")
        words = catalogue(code).render({"key": "role.rebuy", "args": {"role": "§"}})
        toast = page.locator("#toast")
        for part in (p.strip() for p in words.split("§") if p.strip()):
            expect(toast).to_contain_text(part)
        expect(toast).to_have_class("error")
        english = catalogue("en").render({"key": "role.rebuy", "args": {"role": "§"}})
        assert english.split("§")[-1].strip() not in toast.inner_text()
        page.close()
        context.close()

    context = login(browser, d, "fl", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(d.url + "/floor/section")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#calls li").first).to_contain_text(said("cs", "Floor"), timeout=WAIT)
    expect(page.locator("[data-ack]").first).to_have_text(said("cs", "On my way"))
    expect(page.locator("#pick option").first).to_have_text(said("cs", "Whole room"))
    expect(page.locator("#logout")).to_have_text(said("cs", "Log out"))
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the section page is {wide} px wide on a 390 px phone"
    no_overlap(page, ["#head > *", "#who > *", "#me > *", "#calls li > *",
                      ".section-main > *"], "cs section")
    readable(page, "body", 12, "cs section")
    page.screenshot(path=str(tmp_path / "section-cs.png"))
    context.close()

    # the audit log names the floor's actions in the reader's words
    td = Floor(browser.new_context().request, d.url, "td")
    td.post("/api/act?event=daily", {"kind": "clock", "action": "pause"})
    context = login(browser, d, "ben", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(d.url + "/audit?event=daily")
    expect(page.locator("#audit tbody")).to_contain_text(said("de", "clock paused"),
                                                         timeout=WAIT)
    assert "clock paused" not in page.locator("#audit tbody").inner_text()
    context.close()
    td.post("/api/act?event=daily", {"kind": "clock", "action": "resume"})

    context = login(browser, d, "ana", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(d.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#ev-daily [data-do=pause]")).to_be_visible(timeout=WAIT)
    page.wait_for_load_state("networkidle", timeout=WAIT)
    accessible(page, "cs /")
    context.close()


def test_in_the_pseudo_locale_every_text_of_the_floors_pages_is_marked(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    shown = {"/": "#ev-daily", "/event/daily": ".tile", "/floor/section": "#calls li",
             "/printer": "#state"}
    # the dealers' board and the language names are another page's texts and data
    skip = ("#dealers-board", "#lang-choice", "#room", "#event", "#profile", "code")
    screen = {"width": 1920, "height": 1080}
    for who in ("visitor", "td"):
        context = browser.new_context(viewport=screen) if who == "visitor" else \
            login(browser, d, who, viewport=screen)
        # no language of its own: the header offers the room's four, the chosen one kept
        page = context.new_page()
        page.goto(d.url + "/event/daily")
        chooser = page.locator("#lang-choice select")
        expect(chooser.locator("option")).to_have_count(4, timeout=WAIT)
        chooser.select_option("cs")
        expect(page.locator("html")).to_have_attribute("lang", "cs", timeout=WAIT)
        expect(page.locator("#pause-btn" if who == "td" else "#find")).to_be_attached()
        expect(page.locator("h2 [data-i18n]").first).to_have_text(said("cs", "Calls"))
        page.close()
        for path, ready in shown.items():
            page = context.new_page()
            page.goto(d.url + path + "?lang=en_XA")
            expect(page.locator("html")).to_have_attribute("lang", "en-XA")
            expect(page.locator(ready).first).to_be_visible(timeout=WAIT)
            page.wait_for_load_state("networkidle", timeout=WAIT)
            left = settled_unmarked(page, skip=skip, data=DATA)
            assert not left, f"{who} {path}: not through the catalogue: {left[:12]}"
            box, found = {"/": ("#room-find", "#room-found li"),
                          "/event/daily": ("#find", "#found li")}.get(path, (None, None))
            if box:       # what a search finds says itself too
                page.fill(box, "Player 1")
                expect(page.locator(found).first).to_be_visible(timeout=WAIT)
                left = unmarked_texts(page, skip=skip, data=DATA)
                assert not left, f"{who} {path} found: not through the catalogue: {left[:12]}"
            page.close()
        context.close()
