"""What the browser tests share: Debian's Chromium and a kiosk playing table 1.

A test takes the process's Chromium as the `browser` fixture (tests/conftest.py); its
contexts wait tests/browsers.py's WAIT_MS, never Playwright's 5 s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browsers import Browser, launch
from money_helpers import Served
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from room_process import PASSWORD
from waiting import eventually, wait_for

from kiosk.config.files import TableConfig
from kiosk.table.service import TableService

SCREENS = Path(__file__).resolve().parents[1] / "output" / "screens"

def chromium(pw: Any) -> Browser:
    """A Chromium of the test's own from Playwright `pw`, its contexts as patient as the
    shared one's (the `browser` fixture is quicker: launched once per process)."""
    return Browser(launch(pw), own=True)


def table_one(tmp_path: Path, mosquitto: Any, director: Any) -> TableService:
    """A real kiosk at table 1, started, with its nine players seated from the plan."""
    cfg = TableConfig(table=1, room=director.name, broker=mosquitto.config,
                      state_dir=str(tmp_path / "table-1"), gpio=None)
    Path(cfg.state_dir).mkdir()
    kiosk = TableService(cfg, resend_s=1.0, debounce_s=0.0)
    kiosk.start()
    wait_for(lambda: sum(1 for s in kiosk.view().seats if s.name) == 9)
    return kiosk


# the contrast ratio (WCAG 2) of an element's text against the first opaque background
# behind it: 4.5 is the least for text of an ordinary size
CONTRAST_JS = """(el) => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 :
    ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let bg = el, back = [255, 255, 255];
  while (bg) { const c = rgb(getComputedStyle(bg).backgroundColor);
    if (c.length < 4 || c[3] > 0.5) { back = c.slice(0, 3); break; } bg = bg.parentElement; }
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(back);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def legible(page: Any, selector: str, least: float = 4.5) -> None:
    """Every visible element `selector` finds stands out from its background. A page that
    redraws itself may replace an element while it is measured: measured again then."""
    def too_faint() -> list[str] | None:
        try:
            return [f"{selector} {el.inner_text()!r}: contrast {ratio:.1f}"
                    for el in page.locator(selector).all() if el.is_visible()
                    and (ratio := el.evaluate(CONTRAST_JS)) < least]
        except PlaywrightError:       # replaced while measured (no style any more)
            return None
    faint = eventually(too_faint, [])
    assert faint == [], faint


# WCAG 2.1 A and AA, as axe-core (shipped inside axe-playwright-python, no network) tags them
WCAG21AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
            "resultTypes": ["violations"]}


def accessible(page: Any, where: str) -> None:
    """axe-core finds no serious or critical violation of WCAG 2.1 AA on the page as it
    stands (what is shown now: run it again after a login or a change of state)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options=WCAG21AA).response["violations"]
    bad = [f"{v['id']} ({v['impact']}): {v['help']} at "
           f"{[n['target'] for n in v['nodes'][:3]]}" for v in found
           if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where} {page.viewport_size}: " + "; ".join(bad)


# text cut short: an element whose text is wider than its box (an ellipsis), or a box
# that reaches past the screen's right edge
CUT_JS = """(sel) => [...document.querySelectorAll(sel)].filter(el => {
  const r = el.getBoundingClientRect();
  return r.width && (el.scrollWidth > el.clientWidth + 1 || r.right > innerWidth + 1);
}).map(el => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}"`)"""


def uncut(page: Any, selector: str, where: str) -> None:
    """Every element `selector` finds shows its whole text inside the screen."""
    cut = page.evaluate(CUT_JS, selector)
    assert not cut, f"{where} {page.viewport_size}: cut: " + "; ".join(cut[:8])


SIZES = [(1920, 1080), (1280, 720), (390, 844)]


# every element inside the viewport; text never wider than its box; for the TV, no
# scrolling at all; for the dashboard, no sideways scrolling
OVERFLOW_JS = """(tv) => {
  const W = innerWidth, H = innerHeight, bad = [], de = document.documentElement;
  if (de.scrollWidth > W + 1) bad.push(`page is ${de.scrollWidth}px wide`);
  if (tv && de.scrollHeight > H + 1) bad.push(`page is ${de.scrollHeight}px tall`);
  for (const el of document.body.querySelectorAll("*")) {
    if (el.tagName === "SCRIPT") continue;
    const st = getComputedStyle(el), r = el.getBoundingClientRect();
    if (st.display === "none" || st.visibility === "hidden" || (!r.width && !r.height)) continue;
    const name = el.id ? "#" + el.id : el.tagName.toLowerCase() + "." + el.className;
    const what = `${name} "${(el.textContent || "").trim().slice(0, 30)}"`;
    if (r.left < -1 || r.right > W + 1) bad.push(`${what} spans x ${r.left | 0}..${r.right | 0}`);
    if (tv && (r.top < -1 || r.bottom > H + 1))
      bad.push(`${what} spans y ${r.top | 0}..${r.bottom | 0}`);
    if (el.clientWidth && el.scrollWidth > el.clientWidth + 1 && !el.children.length)
      bad.push(`${what} text needs ${el.scrollWidth}px, has ${el.clientWidth}px`);
  }
  return bad;
}"""


def fits(page: Page, tv: bool, where: str) -> None:
    bad = page.evaluate(OVERFLOW_JS, tv)
    assert not bad, f"{where} {page.viewport_size}: " + "; ".join(bad[:8])


# boxes that must not cover one another: the cards of one list, the tiles of one screen,
# and inside a TV tile every line of text
OVERLAP_JS = """(groups) => {
  const bad = [];
  const box = el => el.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
                          a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const text = el => el.textContent.trim().slice(0, 20);
  const shown = el => { const r = box(el), st = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && st.display !== "none" && st.visibility !== "hidden"; };
  for (const sel of groups) {
    const els = [...document.querySelectorAll(sel)].filter(shown);
    for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++)
      if (els[i].parentElement === els[j].parentElement && meets(box(els[i]), box(els[j])))
        bad.push(`${sel}: "${text(els[i])}" covers "${text(els[j])}"`);
  }
  return bad;
}"""


# the smallest text on the page: every element that holds text of its own
SMALLEST_JS = """(root) => {
  let least = 1e9, what = "";
  for (const el of document.querySelectorAll(root + " *")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const r = el.getBoundingClientRect();
    if (!own || !r.width || getComputedStyle(el).display === "none") continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < least) { least = size; what = el.textContent.trim().slice(0, 30); }
  }
  return [least, what];
}"""


ROOM_SIZES = [(1920, 1080), (1280, 720), (390, 844)]


def no_overlap(page: Page, groups: list[str], where: str) -> None:
    bad = page.evaluate(OVERLAP_JS, groups)
    assert not bad, f"{where} {page.viewport_size}: " + "; ".join(bad[:8])


def readable(page: Page, root: str, least: float, where: str) -> None:
    size, what = page.evaluate(SMALLEST_JS, root)
    assert size >= least, f"{where} {page.viewport_size}: {what!r} is {size:.1f}px"


def apart_on_screen(page: Page, selectors: list[str], min_px: float) -> None:
    """Each element (its first match) shown inside the width, none overlapping another,
    its text at least `min_px` high."""
    width = page.viewport_size["width"]
    boxes = []
    for sel in selectors:
        loc = page.locator(sel).first
        box = loc.bounding_box()
        assert box is not None, f"{sel} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, f"{sel} leaves the screen"
        size = loc.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= min_px, f"{sel} text is {size}px"
        boxes.append((sel, box))
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            apart = (ba["x"] + ba["width"] <= bb["x"] or bb["x"] + bb["width"] <= ba["x"] or
                     ba["y"] + ba["height"] <= bb["y"] or bb["y"] + bb["height"] <= ba["y"])
            assert apart, f"{a} overlaps {b}"


class Floor:
    """A floor login's requests, as the dashboard makes them."""

    def __init__(self, pw_request: Any, url: str, user: str) -> None:
        self.request, self.url = pw_request, url
        r = pw_request.post(url + "/api/login", data=json.dumps(
            {"user": user, "password": PASSWORD}),
            headers={"Content-Type": "application/json", "Origin": url})
        assert r.ok, r.text()
        self.headers = {"Content-Type": "application/json", "Origin": url,
                        "X-CSRF-Token": r.json()["csrf"]}

    def post(self, path: str, body: dict[str, Any]) -> None:
        r = self.request.post(self.url + path, data=json.dumps(body), headers=self.headers)
        assert r.ok, r.text()


def busy_room(browser: Any, d: Any) -> Floor:
    """daily running with 12 players, sat running with 9, sunday open, a fourth event."""
    td = Floor(browser.new_context().request, d.url, "td")
    td.post("/api/act?event=daily", {"kind": "start"})
    for i in range(9):
        td.post("/api/act?event=sat", {"kind": "register", "name": f"Satellite Player {i}"})
    td.post("/api/act?event=sat", {"kind": "start"})
    td.post("/api/room/act", {"kind": "set_event_state", "event": "sunday", "state": "open"})
    td.post("/api/room/events", {"name": "bounty", "title": "Thursday Bounty Hunter Deepstack",
                                 "structure": "turbo", "tables": 1})
    return td


def serve(d) -> Served:
    """The director's app over HTTP, given the time its logins take to check on a busy
    machine (every password hash is verified against the default ones at start)."""
    served = Served(d)
    assert served.ready.wait(180), "the web app did not start"
    return served
