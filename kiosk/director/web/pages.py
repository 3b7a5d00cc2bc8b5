"""The director's HTML pages, each built from one shared head (static/page.html) around
its own body, and the money pages (results, deal, audit) from one shared header and
navigation (static/money-page.html): a change to the head or the links is made once. The
players' public pages (`render_public`) take the same head with their own style, and
every page's Content-Security-Policy is made here (`CSP`, `page_csp`).

Every page is served for its reader (`Reading`: kiosk.director.web.readers): the head
names the language (`<html lang>`), loads that language's texts (`/lang/CODE.js`, the
player's small set or every page's) and the script that puts them in place
(static/i18n.js); the title is said here."""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

from aiohttp import web

from kiosk.director.web.readers import Reading
from kiosk.lang.active import N_
from kiosk.lang.catalogue import catalogue
from kiosk.lang.codes import NAMES
from kiosk.lang.pages import PAGE_FILES, PLAYER_FILES, PLAYER_KEYS, catalogue_json

STATIC = Path(__file__).with_name("static")
# No inline script or handler runs, whatever text reaches the page.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'self'")
_INLINE = re.compile(r"<script>(.*?)</script>", re.S)


def reply(page: str, status: int = 200, own_scripts: bool = False) -> web.Response:
    """A page as HTML, never cached stale; `own_scripts`: its inline scripts may run."""
    headers = {"Cache-Control": "no-cache"}
    if own_scripts:
        headers["Content-Security-Policy"] = page_csp(page)
    return web.Response(text=page, status=status, content_type="text/html", headers=headers)


@functools.cache
def page_csp(page: str) -> str:
    """The CSP, allowing exactly the page's own inline scripts (by hash) and nothing else."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _INLINE.findall(page))
    return CSP.replace("script-src 'self'", f"script-src 'self' {hashes}".rstrip())


@dataclass(frozen=True)
class Page:
    file: str             # the page's own part, in static/
    title: str
    heading: str = ""     # a money page's heading (HTML); empty for the floor and the TV


def _said(text: str) -> str:
    """A heading of ours, put in the reader's language by the page (static/i18n.js)."""
    return f'<span data-i18n>{html.escape(text)}</span>'


PAGES = {
    "/": Page("room.html", N_("Room")),
    "/event": Page("dashboard.html", N_("Floor")),
    "/clock": Page("clock.html", N_("Clock")),
    "/results": Page("results.html", N_("Results"),
                     '<span id="event" data-i18n>Results</span>'),
    "/deal": Page("deal.html", N_("Deal calculator"), _said(N_("Deal calculator"))),
    "/audit": Page("audit.html", N_("Audit"), _said(N_("Audit log"))),
}
_MONEY_LINKS = {"/results": N_("Results"), "/deal": N_("Deal"), "/audit": N_("Audit")}


def texts(code: str, which: str) -> dict[str, object]:
    """A language's texts for the pages: `player` (a phone's page) or `floor` (any)."""
    if which == "player":
        return catalogue_json(code, PLAYER_KEYS, PLAYER_FILES)
    return catalogue_json(code, None, PAGE_FILES)


@functools.cache
def _version(code: str, which: str) -> str:
    """A short digest of those texts: the script's address changes when they do."""
    return hashlib.sha256(repr(texts(code, which)).encode()).hexdigest()[:10]


def _head(reading: Reading, title: str, ours: bool = True) -> dict[str, str]:
    """The shared head's values for `reading`: its language, its texts' script and the
    title (`ours`: a text of ours, said in that language)."""
    code, which = reading.code, reading.texts
    offered = ",".join(f"{c}:{NAMES.get(c, c)}" for c in reading.offered)
    return {"title": html.escape(catalogue(code).gettext(title) if ours else title),
            "lang": code, "html_lang": code.replace("_", "-"),
            "offered": html.escape(offered, quote=True),
            "texts": f"/lang/{code}.js?for={which}&amp;v={_version(code, which)}"}


FLOOR, PLAYER = Reading(), Reading(texts="player")     # English, as a test reads


def render(route: str, reading: Reading = FLOOR) -> str:
    """The whole page served at `route` (one of PAGES) for `reading`, read afresh when a
    file changed."""
    files = ("page.html", "money-page.html", PAGES[route].file)
    return _render(route, reading, tuple((STATIC / f).stat().st_mtime for f in files))


@functools.cache
def _render(route: str, reading: Reading, mtimes: tuple[float, ...]) -> str:
    page = PAGES[route]
    body = (STATIC / page.file).read_text(encoding="utf-8")
    styles = ""
    if page.heading:
        nav = " ".join(f'<a href="{href}" data-i18n>{text}</a>' for href, text in
                       [("/", PAGES["/"].title), ("/event", PAGES["/event"].title),
                        *_MONEY_LINKS.items()] if href != route)
        body = _template("money-page.html").substitute(
            page=route.strip("/"), heading=page.heading, nav=nav, main=body)
        styles = '<link rel="stylesheet" href="/static/money.css">\n'
    return _template("page.html").substitute(styles=styles, body=body,
                                             **_head(reading, page.title))


def render_plain(file: str, title: str, reading: Reading = FLOOR) -> str:
    """A page of its own (static/`file`) in the shared head, outside PAGES and the money
    pages' navigation (the printer page)."""
    return _template("page.html").substitute(
        styles="", body=(STATIC / file).read_text(encoding="utf-8"), **_head(reading, title))


def _template(name: str) -> Template:
    return Template((STATIC / name).read_text(encoding="utf-8"))


@functools.cache
def _file(name: str, mtime: float) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def render_public(body_file: str, title: str, reading: Reading = PLAYER, *,
                  ours: bool = False, **values: str) -> str:
    """A players' page (static/`body_file`) in the shared head, its values escaped, read
    afresh when a file changed; `title` is the event's own, or (`ours`) a text of ours,
    said in the reader's language."""
    def read(name: str) -> str:
        return _file(name, (STATIC / name).stat().st_mtime)
    safe = {k: html.escape(v, quote=True) for k, v in values.items()}
    body = Template(read(body_file)).substitute(title=html.escape(title), **safe)
    return Template(read("page.html")).substitute(
        body=body, styles='<link rel="stylesheet" href="/static/players.css">\n',
        **_head(reading, title, ours))
