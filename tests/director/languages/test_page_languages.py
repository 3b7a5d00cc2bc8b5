"""Which language each page is served in, and the texts it downloads: a phone's by its
`Accept-Language` among the room's, its chooser's cookie, `?lang=`; a floor login's own;
the head naming it (`<html lang>`) and loading that language's texts, a phone's small set
under 20 KB in every shipped language. Against the room director's own HTTP app."""

from __future__ import annotations

import json
import re
from pathlib import Path

from aiohttp.test_utils import TestClient
from languages_kit import PASSWORD, room
from reservations_kit import served

from kiosk.lang.codes import SHIPPED
from kiosk.lang.pseudo import is_marked

SCRIPT = re.compile(r'<script src="(/lang/[^"]+)"></script>')


async def page(client: TestClient, path: str, **headers: str) -> tuple[str, str]:
    """The page's `<html lang>` and the address of the texts it loads."""
    body = await (await client.get(path, headers=headers)).text()
    found = re.search(r'<html lang="([^"]+)"', body)
    assert found, body[:200]
    return found.group(1), SCRIPT.search(body).group(1).replace("&amp;", "&")


async def texts(client: TestClient, src: str) -> tuple[dict, int, str]:
    r = await client.get(src)
    assert r.status == 200 and r.content_type == "application/javascript"
    raw = await r.read()
    code, data = re.match(r'.*\["([^"]+)"\]=(.*);\s*$', raw.decode(), re.S).groups()
    return json.loads(data), len(raw), code


def test_each_reader_gets_the_page_in_their_language_and_its_texts(tmp_path: Path) -> None:
    d = room(tmp_path)        # the room's languages: de (default), en

    async def go(client: TestClient) -> None:
        # a phone: by Accept-Language among the room's; an unshipped one reads the default
        assert (await page(client, "/p/sunday", **{"Accept-Language": "en-GB,en"}))[0] == "en"
        lang, src = await page(client, "/p/sunday", **{"Accept-Language": "ja,fr;q=0.8"})
        assert lang == "de" and "for=player" in src
        data, size, code = await texts(client, src)
        assert code == "de" and size < 20_000
        assert data["messages"]["Language"] == "Sprache"
        assert "role.clock" not in data["keys"]           # the floor's refusals stay home
        # the chooser's cookie, then the address, win over the phone's header
        client.session.cookie_jar.update_cookies({"pk_lang": "en"})
        assert (await page(client, "/p/sunday", **{"Accept-Language": "de"}))[0] == "en"
        client.session.cookie_jar.update_cookies({"pk_lang": "fr"})   # not the room's
        assert (await page(client, "/p/sunday", **{"Accept-Language": "de"}))[0] == "de"
        lang, src = await page(client, "/p/sunday?lang=en_XA")
        data, _, _ = await texts(client, src)
        assert lang == "en-XA" and is_marked(data["messages"]["Language"])
        # the floor's pages: every key; a login reads its own language (fl: Czech)
        lang, src = await page(client, "/")
        assert lang == "de" and "for=floor" in src
        assert "role.clock" in (await texts(client, src))[0]["keys"]
        await client.post("/api/login", json={"user": "fl", "password": PASSWORD})
        for path in ("/", "/event/sunday", "/clock?event=sunday", "/results", "/dealers"):
            assert (await page(client, path))[0] == "cs", path
        # a phone's first download stays small in every shipped language
        for code in SHIPPED:
            _, size, got = await texts(client, f"/lang/{code}.js?for=player")
            assert got == code and size < 20_000, (code, size)
        r = await client.get("/lang/klingon.js")
        assert r.status == 404 and "takový jazyk není" in (await r.json())["error"]   # in hers

    try:
        served(d, go)
    finally:
        d.store.close()


def test_the_floors_problems_audit_and_a_cancelled_reservation_read_in_the_readers_words(
        tmp_path: Path) -> None:
    """A failed task on the health line in German (the log's English kept for `doctor`);
    the room's languages for the TV link; the audit's action names and the page's
    "director answered" among the floor's German texts; a reservation "Storniert", not a
    table screen's "Abgebrochen"."""
    d = room(tmp_path)        # the room's languages: de (default), en
    d.task_failed("director", RuntimeError("paper jam"), restarted=True)

    async def go(client: TestClient) -> None:
        h = await (await client.get("/api/health")).json()
        assert h["failed"] == {"director": "restarted after RuntimeError: paper jam"}
        assert h["problems"] == ["Director: neu gestartet nach RuntimeError: paper jam"]
        assert h["problems_msg"][0]["key"] == "health.line"
        h = await (await client.get("/api/health", headers={"Accept-Language": "en"})).json()
        assert h["problems"] == ["director: restarted after RuntimeError: paper jam"]
        assert (await (await client.get("/api/room")).json())["languages"] == ["de", "en"]
        _, src = await page(client, "/audit")
        words = (await texts(client, src))[0]["messages"]
        assert words["clock paused"] == "Uhr angehalten"
        assert words["The director answered {status}"] == "Der Director antwortete {status}"
        r = await client.post("/p/sunday/register", json={"name": "Bea"})
        code = (await r.json())["code"]
        r = await client.post(f"/p/sunday/reservation/{code}/cancel")
        body = await r.json()
        assert r.status == 200 and body["state"] == "cancelled"
        assert body["state_word"] == "Storniert"
        r = await client.get(f"/p/sunday/reservation/{code}", headers={"Accept-Language": "en"})
        assert (await r.json())["state_word"] == "Cancelled"
        _, src = await page(client, f"/p/sunday/reservation/{code}", Accept="text/html")
        assert "reservation.cancelled" in (await texts(client, src))[0]["keys"]

    try:
        served(d, go)
    finally:
        d.store.close()
