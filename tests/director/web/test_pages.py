"""Every page is served whole from the one shared head, the money pages with their shared
header and links, and the clock's inline script is allowed by its CSP, nothing else."""

from __future__ import annotations

import asyncio
import re
from html.parser import HTMLParser
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from money_helpers import money_director

from kiosk.director.web.app import make_app

TITLES = {"/": "Room", "/event": "Floor", "/event/money-test": "Floor", "/clock": "Clock",
          "/results": "Results", "/deal": "Deal calculator", "/audit": "Audit"}
MONEY = ("/results", "/deal", "/audit")


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def served(tmp_path: Path) -> dict[str, tuple[str, str]]:
    d = money_director(tmp_path)

    async def go() -> dict[str, tuple[str, str]]:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        try:
            out = {}
            for route in TITLES:
                r = await client.get(route)
                assert r.status == 200 and r.content_type == "text/html"
                out[route] = (await r.text(), r.headers["Content-Security-Policy"])
            return out
        finally:
            await client.close()

    return asyncio.run(go())


def test_each_page_is_a_whole_document_with_the_shared_head(tmp_path: Path) -> None:
    for route, (html, _) in served(tmp_path).items():
        assert html.startswith('<!doctype html>\n<html lang="en" data-lang="en" '
                               'data-langs="en:English">\n<head>\n')
        assert html.rstrip().endswith("</body>\n</html>")
        assert html.count("<head>") == html.count("<body") == 1
        assert f"<title>{TITLES[route]} - poker-kiosk</title>" in html
        p = Tags()
        p.feed(html)
        links = [a["href"] for t, a in p.tags if t == "link"]
        assert links[:2] == ["/static/favicon.svg", "/static/style.css"]
        scripts = [a.get("src") for t, a in p.tags if t == "script"]
        # its language's texts, then the script that puts them in place, before its own
        assert scripts[0].startswith("/lang/en.js?for=floor&v=") and \
            scripts[1] == "/static/i18n.js"
        navs = [a["href"] for t, a in p.tags if t == "a" and a.get("href", "").startswith("/")
                and not a["href"].startswith("/api")]
        if route in MONEY:
            assert links[2:] == ["/static/money.css"] and scripts[-1] == "/static/money.js"
            assert navs == ["/", "/event", *[m for m in MONEY if m != route]]
            assert f'data-page="{route[1:]}"' in html
        else:
            assert "/static/money.css" not in links


def test_no_page_runs_an_inline_script_and_the_csp_allows_none(tmp_path: Path) -> None:
    for route, (html, csp) in served(tmp_path).items():
        assert not re.findall(r"<script>(.*?)</script>", html, re.S), route
        assert "sha256-" not in csp and "script-src 'self';" in csp, route
