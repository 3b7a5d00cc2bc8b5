"""The director's HTML pages, each built from one shared head (static/page.html) around
its own body, and the money pages (results, deal, audit) from one shared header and
navigation (static/money-page.html): a change to the head or the links is made once."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from string import Template

STATIC = Path(__file__).with_name("static")


@dataclass(frozen=True)
class Page:
    file: str             # the page's own part, in static/
    title: str
    heading: str = ""     # a money page's heading (HTML); empty for the floor and the TV


PAGES = {
    "/": Page("room.html", "Room"),
    "/event": Page("dashboard.html", "Floor"),
    "/clock": Page("clock.html", "Clock"),
    "/results": Page("results.html", "Results", '<span id="event">-</span> results'),
    "/deal": Page("deal.html", "Deal calculator", "Deal calculator"),
    "/audit": Page("audit.html", "Audit", "Audit log"),
}
_MONEY_LINKS = {"/results": "Results", "/deal": "Deal", "/audit": "Audit"}


def render(route: str) -> str:
    """The whole page served at `route` (one of PAGES), read afresh when a file changed."""
    files = ("page.html", "money-page.html", PAGES[route].file)
    return _render(route, tuple((STATIC / f).stat().st_mtime for f in files))


@functools.cache
def _render(route: str, mtimes: tuple[float, ...]) -> str:
    page = PAGES[route]
    body = (STATIC / page.file).read_text(encoding="utf-8")
    styles = ""
    if page.heading:
        nav = " ".join(f'<a href="{href}">{text}</a>' for href, text in
                       [("/", "Room"), ("/event", "Floor"), *_MONEY_LINKS.items()] if href != route)
        body = _template("money-page.html").substitute(
            page=route.strip("/"), heading=page.heading, nav=nav, main=body)
        styles = '<link rel="stylesheet" href="/static/money.css">\n'
    return _template("page.html").substitute(title=page.title, styles=styles, body=body)


def _template(name: str) -> Template:
    return Template((STATIC / name).read_text(encoding="utf-8"))
