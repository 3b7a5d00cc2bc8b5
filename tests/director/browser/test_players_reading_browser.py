"""The players' and money pages in Debian's Chromium as their readers see them: a 390 px
phone in German (length), Czech (diacritics) and Chinese (glyphs) sees each page's texts
in its language, on screen, apart and readable, Chinese drawn by a real font (no
missing-glyph boxes), money in the room's currency as the language writes it and the
announced event's start in the room's zone; the language chooser's pick is kept across
pages; the results at 1280x720 in German; and the pseudo-locale over every one of these
pages leaves no text unmarked (data aside: names, titles, codes)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser_kit import OVERFLOW_JS, SCREENS
from browsers import Browser
from money_helpers import Served
from player_kit import ROOM
from playwright.sync_api import Page, expect
from pseudo_check import settled_unmarked
from reservations_kit import room

from kiosk.director.service import Director
from kiosk.lang.catalogue import catalogue
from kiosk.lang.codes import NAMES
from kiosk.lang.formats import Formats

PHONE = {"width": 390, "height": 844}
ACCEPT = {"de": "de-DE,de;q=0.9", "cs": "cs-CZ,cs;q=0.9", "zh_Hans": "zh-CN,zh;q=0.9"}
TAG = {"de": "de", "cs": "cs", "zh_Hans": "zh-Hans"}
ZONE = "Europe/Berlin"

# every leaf that shows text: on screen, at least 12 px, and clear of every other one
LAYOUT_JS = """() => {
  const W = innerWidth, out = {bad: [], n: 0}, boxes = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "OPTION", "SELECT"].includes(el.tagName)) continue;
    if (el.children.length) continue;
    if (!el.textContent.trim() || !el.checkVisibility({checkVisibilityCSS: true})) continue;
    const r = el.getBoundingClientRect();
    const name = (el.id ? "#" + el.id : el.tagName) + " " + el.textContent.trim().slice(0, 24);
    if (!r.width || !r.height) continue;
    out.n++;
    if (r.left < -1 || r.right > W + 1) out.bad.push(name + " leaves the screen");
    if (parseFloat(getComputedStyle(el).fontSize) < 12) out.bad.push(name + " is under 12px");
    for (const [other, o] of boxes)
      if (r.left < o.right - 1 && o.left < r.right - 1 &&
          r.top < o.bottom - 1 && o.top < r.bottom - 1)
        out.bad.push(name + " overlaps " + other);
    boxes.push([name, r]);
  }
  return out;
}"""

# each distinct CJK character drawn in the page's font, compared with a character no font
# has (a missing-glyph box): none may be drawn as that box, and they differ from each other
TOFU_JS = """() => {
  const text = document.body.innerText;
  const chars = [...new Set(text.match(/[\\u4e00-\\u9fff]/g) || [])];
  const c = document.createElement("canvas"); c.width = c.height = 40;
  const g = c.getContext("2d");
  g.font = "30px " + getComputedStyle(document.body).fontFamily;
  const draw = ch => { g.clearRect(0, 0, 40, 40); g.fillText(ch, 2, 32);
                       return Array.from(g.getImageData(0, 0, 40, 40).data).join(","); };
  const box = draw("\\u{10FFFD}"), seen = new Set(), tofu = [];
  for (const ch of chars) { const img = draw(ch); if (img === box) tofu.push(ch); seen.add(img); }
  return {chars: chars.length, tofu, distinct: seen.size};
}"""

def a_room(tmp_path: Path, text: str = ROOM) -> Director:
    """Daily 50 started, 14 players, three out; Sunday Main announced."""
    d = room(tmp_path, text)
    for i in range(14):
        d.act({"kind": "register", "name": f"Player {i}"}, "td", "daily")
    d.act({"kind": "start"}, "td", "daily")
    tour = d.events["daily"].tour
    for name in ("Player 3", "Player 5", "Player 7"):
        pid = next(p.id for p in tour.players.values() if p.name == name)
        d.act({"kind": "bust", "player": pid}, "td", "daily")
    return d


@contextmanager
def room_served(tmp_path: Path, browser: Browser,
                text: str = ROOM) -> Iterator[tuple[Director, str]]:
    """a_room over HTTP (its address given with it) and Chromium, both closed after."""
    d = a_room(tmp_path, text)
    served = Served(d)
    try:
        with browser:
            yield d, served.url
    finally:
        served.close()


def said(code: str, text: str, **args: Any) -> str:
    out = catalogue(code).gettext(text)
    for k, v in args.items():
        out = out.replace("{" + k + "}", str(v))
    return out


def spaces(s: str) -> str:
    return re.sub(r"[\s\u202f\u00a0]+", " ", s).strip()


def laid_out(page: Page, where: str) -> None:
    bad = [b for b in page.evaluate(OVERFLOW_JS, False) if not b.startswith("#seat-name ")]
    got = page.evaluate(LAYOUT_JS)
    assert got["n"] > 3 and not bad + got["bad"], f"{where}: " + "; ".join((bad + got["bad"])[:8])


def zh_fonts() -> set[str]:
    out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
    return {f.strip() for line in out.splitlines() for f in line.split(",")}


def drawn_in_chinese(page: Page, where: str, *sels: str) -> dict[str, Any]:
    """Each CJK character drawn, none a missing-glyph box; Chromium drew the Chinese of
    `sels` with a font that has Chinese, one glyph per character at least."""
    got = page.evaluate(TOFU_JS)
    assert got["chars"] >= 4 and not got["tofu"] and got["distinct"] == got["chars"], (where, got)
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    have = zh_fonts()
    for sel in sels:
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": sel})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        cjk = len(re.findall(r"[\u4e00-\u9fff]", page.locator(sel).first.inner_text()))
        drew = sum(f["glyphCount"] for f in fonts if f["familyName"] in have)
        assert cjk and drew >= cjk, (where, sel, fonts, have)
        got.setdefault("fonts", set()).update(f["familyName"] for f in fonts
                                              if f["familyName"] in have)
    return got


def test_a_phone_reads_each_players_page_in_german_czech_and_chinese(
        tmp_path: Path, browser: Browser) -> None:
    with room_served(tmp_path, browser) as (d, url):
        SCREENS.mkdir(parents=True, exist_ok=True)
        pool = d.events["daily"].tour.money_view().prize_pool
        code = None
        for lang in ("de", "cs", "zh_Hans"):
            fmt = Formats(lang, ZONE, "EUR")
            ctx = browser.new_context(viewport=PHONE, extra_http_headers={
                "Accept-Language": ACCEPT[lang]})
            page = ctx.new_page()
            page.goto(url + "/p/daily")
            expect(page.locator("html")).to_have_attribute("lang", TAG[lang])
            expect(page.locator("#left")).to_have_text(spaces(said(
                lang, "{left} of {entries}", left=11, entries=14)))
            expect(page.locator("#level")).to_have_text(said(lang, "Level {n}", n=1))
            expect(page.locator("#left-name")).to_have_text(said(lang, "Players left"))
            expect(page.locator(".pp-seat h2")).to_have_text(said(lang, "Find my seat"))
            assert spaces(page.locator("#pool").inner_text()) == spaces(fmt.money(pool))
            page.fill("#seat-name", "Player 4")
            page.click("#seat-form button")
            expect(page.locator("#seat-result .pp-seat-big")).to_contain_text(
                said(lang, "Table {table} · Seat {seat}").split("{")[0].strip())
            laid_out(page, f"/p/daily {lang}")
            if lang == "zh_Hans":
                glyphs = drawn_in_chinese(page, "/p/daily", "#left-name", ".pp-seat h2")
            page.screenshot(path=str(SCREENS / f"players-{lang}-390.png"), full_page=True)
            # the announced event: its start in the room's zone, its buy-in in euros
            page.goto(url + "/p/sunday")
            expect(page.locator("#level")).to_have_text(said(lang, "Starts"))
            expect(page.locator("#blinds")).to_contain_text("12:00")
            if lang == "de":
                expect(page.locator("#blinds")).to_have_text("So., 6. Dez., 12:00")
            assert spaces(page.locator("#ante").inner_text()) == spaces(said(
                lang, "Buy-in {amount}", amount=fmt.money(300)))
            if code is None:
                page.fill("#reserve-name", "Zoë Nováková")
                page.click("#reserve-form button")
                expect(page.locator("#reserve-code")).to_have_text(re.compile(r"^\w{8}$"))
                code = page.locator("#reserve-code").inner_text()
            laid_out(page, f"/p/sunday {lang}")
            # the room's events
            page.goto(url + "/p/")
            expect(page.locator("h2")).to_have_text(said(lang, "Events"))
            expect(page.locator("#events")).to_contain_text(said(
                lang, "{left} of {entries} left", left=11, entries=14).split("1")[0])
            sunday = page.locator("#events li", has_text="Sunday Main")
            expect(sunday).to_contain_text("12:00")
            assert spaces(fmt.money(300)) in spaces(sunday.inner_text())
            laid_out(page, f"/p/ {lang}")
            if lang == "zh_Hans":
                drawn_in_chinese(page, "/p/", "h2")
            page.screenshot(path=str(SCREENS / f"players-index-{lang}-390.png"))
            # the reservation's own page
            page.goto(f"{url}/p/sunday/reservation/{code}")
            expect(page.locator("h1")).to_have_text(said(lang, "Your reservation"))
            expect(page.locator("#res-state")).to_have_text(
                said(lang, "Reserved: pay at the desk"))
            expect(page.locator("#res-name")).to_have_text("Zoë Nováková")
            laid_out(page, f"reservation {lang}")
            if lang == "zh_Hans":
                drawn_in_chinese(page, "reservation", "h1")
            page.screenshot(path=str(SCREENS / f"reservation-{lang}-390.png"))
            ctx.close()
        print(f"\nChinese drawn with {sorted(glyphs['fonts'])}: {glyphs['chars']} "
              f"characters, none a missing-glyph box")


def test_the_results_in_german_at_1280x720_write_money_as_german_does(
        tmp_path: Path, browser: Browser) -> None:
    with room_served(tmp_path, browser) as (d, url):
        pool = d.events["daily"].tour.money_view().prize_pool
        ctx = browser.new_context(viewport={"width": 1280, "height": 720},
                                  extra_http_headers={"Accept-Language": "de"})
        page = ctx.new_page()
        page.goto(url + "/results?event=daily")
        expect(page.locator("#results tbody tr").first).to_be_visible()
        totals = spaces(page.locator("#totals").inner_text())
        assert "Preispool" in totals and spaces(Formats("de", ZONE, "EUR").money(pool)) \
            in totals, totals
        assert re.search(r"\b17\.276 €", totals), totals      # 14 x 1,234 euros
        expect(page.locator("#results thead th").first).to_have_text("Platz")
        laid_out(page, "results de")
        page.screenshot(path=str(SCREENS / "results-de-1280.png"))


def test_the_chosen_language_is_kept_from_page_to_page(tmp_path: Path,
                                                        browser: Browser) -> None:
    three = ROOM.replace('["de", "en", "cs", "es", "fr", "pt_BR", "zh_Hans"]', '["de", "en", "cs"]')
    with room_served(tmp_path, browser, three) as (_, url):
        ctx = browser.new_context(viewport=PHONE,
                                  extra_http_headers={"Accept-Language": "de"})
        page = ctx.new_page()
        page.goto(url + "/p/daily")
        expect(page.locator(".pp-home")).to_have_text("Alle Events")
        choice = page.locator("#lang-choice select")
        expect(choice.locator("option")).to_have_text(["Deutsch", "English", "Čeština"])
        choice.select_option("cs")
        expect(page.locator("html")).to_have_attribute("lang", "cs")
        expect(page.locator(".pp-home")).to_have_text("Všechny turnaje")
        page.reload()
        expect(page.locator(".pp-home")).to_have_text("Všechny turnaje")
        page.goto(url + "/p/sunday")
        expect(page.locator("html")).to_have_attribute("lang", "cs")
        expect(page.locator("#level")).to_have_text("Začátek")
        expect(page.locator("#lang-choice select")).to_have_value("cs")
        page.goto(url + "/p/")
        expect(page.locator("h2")).to_have_text("Turnaje")
        assert any(c["name"] == "pk_lang" and c["value"] == "cs" for c in ctx.cookies())


def test_the_pseudo_locale_leaves_no_text_unmarked_on_these_pages(
        tmp_path: Path, browser: Browser) -> None:
    with room_served(tmp_path, browser) as (d, url):
        code = d.bookings.reserve("sunday", "Zoë", "", "127.0.0.1", "en").code
        names = sorted({p.name for p in d.events["daily"].tour.players.values()} |
                       {"Daily 50", "Sunday Main", "Casino Hall", code, "poker-kiosk", "td", "Zoë",
                        "Sun 6 Dec"},        # a day as CLDR writes it in English, not our text
                       key=len, reverse=True)
        data = "|".join(map(re.escape, names)) + r"|\b\d+(st|nd|rd|th)\b"      # and 1st, 2nd
        pages = {"/p/daily": "#left", "/p/sunday": "#level", "/p/": "#events a",
                 f"/p/sunday/reservation/{code}": "#res-name", "/p/none": "h1",
                 "/results?event=daily": "#results tbody tr", "/deal?event=daily": "#deal-form",
                 "/audit?event=daily": "h1"}
        page = browser.new_context(viewport=PHONE).new_page()
        for path, shown in pages.items():
            page.goto(url + path + ("&" if "?" in path else "?") + "lang=en_XA")
            expect(page.locator(shown).first).not_to_have_text(re.compile(r"^-?$"))
            # the log's own records are data; the chooser names a language in its words
            bad = settled_unmarked(page, NAMES.values(), skip=["#audit tbody"], data=data)
            assert not bad, f"{path}: {bad[:10]}"
