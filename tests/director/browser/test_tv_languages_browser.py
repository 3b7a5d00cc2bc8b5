"""The wall screens in the room's languages, in Chromium against a room director process:
the TV clock at 1920x1080 in German (length), Czech (diacritics) and Chinese (glyphs drawn,
not missing-glyph boxes) says its level, blinds, time and players in that language, on
the screen, not overlapping, readable from the back of the room; two languages side by
side and in turn (`/clock?langs=de,en&show=side|turn`); the dealers' roadmap at a phone's
390 px and at 1280x720 in Czech and German, and a dealer's own page in German; and the
pseudo-locale over the TV, the roadmap and a league's page leaves no text unmarked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_kit import SCREENS, Floor, fits, no_overlap, readable, serve
from browsers import Browser
from dealer_mqtt_kit import dealers_in, dealers_toml
from league_kit import played
from playwright.sync_api import Page, expect
from pseudo_check import unmarked_texts
from room_kit import ROOM
from room_process import room_process

WAIT = 30_000
TV = {"width": 1920, "height": 1080}
LANGS = '[room]\nlanguages = ["en", "de", "cs", "zh_Hans"]\n'
# what the TV says in each language, as the catalogue has it
SAYS = {"de": ("Level 1", "Spieler", "Nächstes Level", "Durchschnittsstack"),
        "cs": ("Úroveň 1", "Hráči", "Další úroveň", "Průměrný stack"),
        "zh_Hans": ("级别 1", "玩家", "下一级别", "平均筹码量")}
# a character no installed font draws: the browser shows its missing-glyph box
TOFU = "\U000f0000"
# the width of `text` in the element's own font beside that of missing-glyph boxes
# as many, and whether the browser's fonts have the glyphs at all
GLYPHS_JS = """([sel, text, tofu]) => {
  const el = document.querySelector(sel), font = getComputedStyle(el).font;
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = font;
  const shapes = [...text].map(ch => {
    const m = ctx.measureText(ch);
    return [m.width, m.actualBoundingBoxAscent, m.actualBoundingBoxDescent].join(",");
  });
  const box = ctx.measureText(tofu);
  const boxShape = [box.width, box.actualBoundingBoxAscent, box.actualBoundingBoxDescent].join(",");
  return {distinct: new Set(shapes).size, boxes: shapes.filter(s => s === boxShape).length,
          check: document.fonts.check(font, text)};
}"""


def a_room(director_factory: Any, mosquitto: Any, tmp_path: Path, browser: Browser) -> Any:
    """The room of room_kit in English, German, Czech and Chinese: the daily
    running with two dealers in."""
    room = ROOM.replace("[room]\n", LANGS, 1) + dealers_toml()
    d = room_process(director_factory, mosquitto, tmp_path, room, 12)
    Floor(browser.new_context().request, d.url, "td").post("/api/act?event=daily",
                                                           {"kind": "start"})
    dealers_in(mosquitto)
    return d


def tv(browser: Browser, url: str, size: dict[str, int] = TV) -> Page:
    page = browser.new_page(viewport=size)
    page.goto(url)
    expect(page.locator("#blinds")).to_have_text(re.compile(r"\d/\d"), timeout=WAIT)
    page.wait_for_load_state("networkidle", timeout=WAIT)
    return page


def test_the_tv_clock_in_german_czech_and_chinese(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    SCREENS.mkdir(parents=True, exist_ok=True)
    with browser:
        for code, (level, players, nxt, avg) in SAYS.items():
            page = tv(browser, f"{d.url}/clock?event=daily&lang={code}")
            expect(page.locator("#level")).to_have_text(level, timeout=WAIT)
            expect(page.locator("#leftName")).to_have_text(players, timeout=WAIT)
            expect(page.locator("#avgName")).to_have_text(avg, timeout=WAIT)
            expect(page.locator("#next-box")).to_contain_text(nxt, timeout=WAIT)
            expect(page.locator("#time")).to_have_text(re.compile(r"^\d\d:\d\d$"))
            fits(page, True, f"/clock {code}")
            no_overlap(page, [".tvclock > *", ".grid > div"], f"/clock {code}")
            readable(page, ".tvclock", 18, f"/clock {code}")
            # the blinds big enough to read across the room: a tenth of the screen
            size = page.evaluate(
                "parseFloat(getComputedStyle(document.getElementById('blinds')).fontSize)")
            assert size >= 90, f"{code}: the blinds are {size}px"
            page.screenshot(path=str(SCREENS / f"clock-{code}-1920x1080.png"))
            if code == "zh_Hans":
                drawn = page.evaluate(GLYPHS_JS, ["#avgName", avg, TOFU])
                assert drawn["boxes"] == 0 and drawn["distinct"] > 1 and drawn["check"], drawn
            page.close()
        # four events tiled on one TV, in German: each tile's words inside its box
        page = browser.new_page(viewport=TV)
        page.goto(f"{d.url}/clock?events=daily,sunday,sat,bounty&lang=de")
        expect(page.locator(".tvclock").first.locator(".lvl")).to_have_text("Level 1",
                                                                            timeout=WAIT)
        expect(page.locator(".tvclock .banners").nth(1)).to_contain_text("ANGEKÜNDIGT")
        page.wait_for_load_state("networkidle", timeout=WAIT)
        missing = page.locator(".tvclock").nth(3)
        expect(missing.locator(".event")).to_contain_text("bounty")
        expect(missing.locator(".event")).not_to_contain_text("no event")
        expect(missing.locator(".grid")).to_contain_text("Durchschnittsstack")
        fits(page, True, "/clock?events= de")
        page.screenshot(path=str(SCREENS / "clock-tiles-de-1920x1080.png"))


@pytest.mark.parametrize("show", ["side", "turn"])
def test_two_languages_on_the_tv_side_by_side_and_in_turn(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser,
        show: str) -> None:
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    with browser:
        # an unknown code and one the room does not speak are left out
        page = tv(browser, f"{d.url}/clock?event=daily&langs=de,xx,fr,zh_Hans&show={show}")
        level, players = page.locator("#level"), page.locator("#leftName")
        if show == "side":
            expect(level.locator(".tv-l1")).to_have_text("Level 1", timeout=WAIT)
            expect(level.locator(".tv-l2")).to_have_text("级别 1")
            expect(players).to_have_text(re.compile("Spieler.*玩家"))
            expect(page.locator(".grid")).to_contain_text("Nächstes Level")
            expect(page.locator(".grid")).to_contain_text("下一级别")
            first, second = (level.locator(s).bounding_box() for s in (".tv-l1", ".tv-l2"))
            assert first and second and second["y"] >= first["y"] + first["height"] - 1
            assert second["height"] < first["height"]
            fits(page, True, "/clock side by side")
            readable(page, "body", 18, "/clock side by side")
            # a number is written once, in the first language
            expect(page.locator("#avg")).to_have_text(re.compile(r"^[\d.]+$"))
            no_overlap(page, [".tvclock > *", ".grid > div"], "/clock side by side")
            page.screenshot(path=str(SCREENS / "clock-de-zh-side-1920x1080.png"))
        else:
            expect(players).to_have_text("Spieler", timeout=WAIT)
            expect(page.locator(".grid")).to_contain_text("Nächstes Level")
            # the next language within the turn's ten seconds, then the first again
            expect(players).to_have_text("玩家", timeout=15_000)
            expect(level).to_have_text("级别 1")
            expect(page.locator(".grid")).to_contain_text("下一级别")
            expect(players).to_have_text("Spieler", timeout=15_000)
            fits(page, True, "/clock in turn")


def test_the_dealers_roadmap_in_czech_and_german_and_a_dealer_page(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    heads = {"cs": ("Rozpis dealerů", "Čekají", "Přestávky"),
             "de": ("Dealer-Plan", "Wartend", "Pausen")}
    with browser:
        for size in ({"width": 390, "height": 844}, {"width": 1280, "height": 720}):
            for code, (title, waiting, breaks) in heads.items():
                page = browser.new_page(viewport=size)
                page.goto(f"{d.url}/dealers?lang={code}")
                expect(page.locator("#dt-title")).to_have_text(title, timeout=WAIT)
                expect(page.locator(".dt-side")).to_contain_text(waiting)
                expect(page.locator(".dt-side")).to_contain_text(breaks)
                strings = page.locator("#dt-strings")
                expect(strings).to_contain_text("Skupina 1" if code == "cs" else "Gruppe 1",
                                                timeout=WAIT)
                expect(page.locator("#dt-clock")).to_have_text(re.compile(r"^\d\d:\d\d$"))
                fits(page, False, f"/dealers {code}")
                no_overlap(page, [".dt-string", ".dt-side section", ".dt-row > *"],
                           f"/dealers {code}")
                readable(page, "body", 16, f"/dealers {code}")
                page.screenshot(path=str(SCREENS / f"dealers-{code}-{size['width']}.png"))
                page.close()
        # the roadmap in Czech and German in turn
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{d.url}/dealers?langs=cs,de&show=turn")
        expect(page.locator("#dt-title")).to_have_text("Rozpis dealerů", timeout=WAIT)
        expect(page.locator("#dt-strings")).to_contain_text("Skupina 1", timeout=WAIT)
        expect(page.locator("#dt-title")).to_have_text("Dealer-Plan", timeout=15_000)
        expect(page.locator("#dt-strings")).to_contain_text("Gruppe 1")
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{d.url}/dealers?dealer=Ann&lang=de")
        expect(phone.locator("#dt-where")).to_have_text("Tisch 1", timeout=WAIT)
        expect(phone.locator("#dt-when")).to_contain_text("Du gibst. Wechsel")
        fits(phone, False, "/dealers?dealer=Ann de")
        phone.goto(f"{d.url}/dealers?dealer=Nobody&lang=de")
        expect(phone.locator("#dt-where")).to_have_text("Kein solcher Dealer", timeout=WAIT)


NAMES = ("Daily 50", "Ann", "Bob", "Cy", "Casino Hall")


def test_the_pseudo_locale_marks_every_text_of_the_tv_and_the_roadmap(
        tmp_path: Path, mosquitto: Any, director_factory: Any, browser: Browser) -> None:
    d = a_room(director_factory, mosquitto, tmp_path, browser)
    with browser:
        page = tv(browser, f"{d.url}/clock?event=daily&lang=en_XA")
        expect(page.locator("#qr span")).to_contain_text("«", timeout=WAIT)
        assert unmarked_texts(page, NAMES) == []
        for path in ("/dealers", "/dealers?dealer=Ann", "/dealers?dealer=Nobody"):
            page.goto(f"{d.url}{path}{'&' if '?' in path else '?'}lang=en_XA")
            expect(page.locator("#dt-clock")).to_have_text(re.compile(r"\d\d:\d\d"),
                                                           timeout=WAIT)
            if "dealer=" in path:
                expect(page.locator("#dt-where")).to_contain_text("«", timeout=WAIT)
            else:
                expect(page.locator("#dt-strings")).to_contain_text("«", timeout=WAIT)
            assert unmarked_texts(page, (*NAMES, "Nobody")) == [], path
        # the dealers' board on the room page, as the director sees it
        room = browser.new_context(viewport={"width": 1280, "height": 720})
        Floor(room.request, d.url, "td")
        page = room.new_page()
        page.goto(f"{d.url}/?lang=en_XA")
        expect(page.locator("#dealers-board .dealer-table")).to_contain_text("«", timeout=WAIT)
        assert unmarked_texts(page, NAMES, within="#dealers-board") == []


def test_the_pseudo_locale_marks_every_text_of_a_league(tmp_path: Path,
                                                        browser: Browser) -> None:
    served = serve(played(tmp_path))
    try:
        with browser:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(served.url + "/p/league/table?lang=en_XA")
            expect(page.locator("#standings tbody tr").first).to_be_visible(timeout=WAIT)
            expect(page.locator("#ties")).to_contain_text("«")
            names = ("A", "B", "C", "D", "E", "e1", "e2", "e3", "table")
            assert unmarked_texts(page, names) == []
            page.goto(served.url + "/clock?league=season&lang=en_XA")
            expect(page.locator("#league-tv tr")).to_have_count(6, timeout=WAIT)
            assert unmarked_texts(page, (*names, "Season points")) == []
    finally:
        served.close()
