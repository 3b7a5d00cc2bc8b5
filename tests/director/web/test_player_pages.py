"""The players' public pages over HTTP, against a real Director (no broker needed):
what they show and hide, the seat lookup, bad input, the live feed, limits, QR codes."""

from __future__ import annotations

import asyncio
import io
import json
import struct
import time
import zlib
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from player_kit import EMOJI, HTML_NAME, count_every_table, director
from web_kit import client_for

from kiosk.base.errors import ConfigError
from kiosk.config.files import EventConfig, load_event_config
from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.director.web.qr import player_page_url, qr_png
from kiosk.director.web.ratelimit import RateLimiter
from kiosk.director.web.routes.players import public_counts


def run(coro):
    return asyncio.run(coro)


def test_the_page_shows_the_clock_field_money_counts_and_hides_the_floors_data(
        tmp_path: Path) -> None:
    d = director(tmp_path, extra=(HTML_NAME,))
    count_every_table(d)
    victim = next(p.id for p in d.tour.players.values() if p.name == "Player 3")
    d.act(commands.decode({"kind": "bust", "player": victim}), "floor")

    async def go() -> None:
        c = await client_for(d)
        try:
            r = await c.get("/p/open-7")
            assert r.status == 200 and "text/html" in r.headers["Content-Type"]
            assert "script-src 'self'" in r.headers["Content-Security-Policy"]
            assert "unsafe-inline" not in r.headers["Content-Security-Policy"].split(
                "script-src")[1].split(";")[0]
            raw = await (await c.get("/p/open-7/state.json")).text()
            parts = json.loads(raw)["parts"]
            clock = parts["clock"]
            assert clock["level"] == 1 and clock["blinds"] and clock["ends_at"] > time.time()
            assert clock["break_at"] is None or clock["break_at"] > clock["ends_at"]
            assert (clock["players_left"], clock["entries"]) == (18, 19)
            assert clock["prize_pool"] == 19 * 100 and clock["average_stack"] > 0
            assert parts["payouts"]["places_paid"] == len(parts["payouts"]["payouts"]) >= 2
            counts = parts["counts"]                   # [name, chips, table] by key
            assert counts["shown"] and len(counts["rows"]) == 18
            assert counts["label"] == "level 1"
            seated = {p.name: p.table for p in d.tour.players.values() if p.table}
            assert all(seated[name] == table and chips > 9000
                       for name, chips, table in counts["rows"].values())
            assert list(parts["results"]["rows"].values()) == [[19, "Player 3", 0, 0]]
            assert parts["bounties"]["mode"] == "pko"
            assert all(head >= 50 for _, head, _ in parts["bounties"]["rows"].values())
            # names are data, never markup: the JSON carries them as text
            assert HTML_NAME in [r[0] for r in counts["rows"].values()]
            for secret in ("C0001", "SECRET-CARD", victim, "floor_calls", "audit", "csrf"):
                assert secret not in raw, secret
        finally:
            await c.close()
    run(go())


def test_an_event_can_keep_its_chip_counts_off_the_public_pages(tmp_path: Path) -> None:
    d = director(tmp_path, public_counts=False)
    count_every_table(d)

    async def go() -> None:
        c = await client_for(d)
        try:
            parts = (await (await c.get("/p/open-7/state.json")).json())["parts"]
            assert parts["counts"] == {"shown": False, "label": "", "rows": {}}
            assert parts["clock"]["average_stack"] > 0       # the average is still shown
        finally:
            await c.close()
    run(go())


def test_seat_lookup_one_several_none_and_bad_names(tmp_path: Path) -> None:
    d = director(tmp_path, players=20, extra=(EMOJI, HTML_NAME, "Zo\u00eb Kelly"))
    pid = next(p.id for p in d.tour.players.values() if p.name == "Player 7")
    d.act(commands.decode({"kind": "bust", "player": pid}), "floor")

    async def seat(c: TestClient, name: str) -> tuple[int, dict]:
        r = await c.get("/p/open-7/seat", params={"name": name})
        return r.status, await r.json()

    async def go() -> None:
        c = await client_for(d)
        try:
            status, body = await seat(c, "player 12")
            p = next(p for p in d.tour.players.values() if p.name == "Player 12")
            assert status == 200 and (body["table"], body["seat"]) == (p.table, p.seat)
            assert body["message"] == f"table {p.table}, seat {p.seat}"
            status, body = await seat(c, "zoe kelly")           # accents and case folded
            assert status == 200 and body["name"] == "Zo\u00eb Kelly" and body["table"]
            status, body = await seat(c, "Player 1")            # the whole name wins
            assert status == 200 and body["name"] == "Player 1"
            status, body = await seat(c, "Player")             # twenty match: a list
            assert status == 200 and body["count"] == 20 and len(body["matches"]) == 20
            assert body["message"].startswith("20 players match")
            assert all("card" not in m and "player" not in m for m in body["matches"])
            status, body = await seat(c, "Player 7")
            assert status == 200 and body["table"] is None
            assert body["message"] == "finished in place 23"
            status, body = await seat(c, "Nobody Here")
            assert status == 404 and "no player named" in body["error"]
            assert body["matches"] == []
            status, body = await seat(c, EMOJI)
            assert status == 200 and body["name"] == EMOJI and body["seat"]
            status, body = await seat(c, "<img")
            assert status == 200 and body["name"] == HTML_NAME
            for bad in ("", " ", "x", "y" * 500):
                status, body = await seat(c, bad)
                assert status == 400 and body["error"], bad
            r = await c.get("/p/no-such-event/seat", params={"name": "Player 1"})
            assert r.status == 404 and "no event" in (await r.json())["error"]
        finally:
            await c.close()
    run(go())


def test_unknown_events_and_odd_paths_get_a_clear_404(tmp_path: Path) -> None:
    d = director(tmp_path, players=4)

    async def go() -> None:
        c = await client_for(d)
        try:
            for path in ("/p/nope", "/p/nope/", "/p/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
                         "/p/open-7/what/ever"):
                r = await c.get(path)
                text = await r.text()
                assert r.status == 404 and "No such event" in text, path
                assert "<script>alert" not in text
            for path in ("/p/nope/state.json", "/p/nope/qr.svg", "/p/nope/events"):
                r = await c.get(path)
                assert r.status == 404 and "no event 'nope'" in (await r.json())["error"]
            r = await c.get("/p/events.json")
            body = await r.json()
            assert [e["name"] for e in body["events"]] == ["open-7"]
            assert body["events"][0]["players_left"] == 4
        finally:
            await c.close()
    run(go())


def test_the_live_feed_sends_everything_then_only_what_changed(tmp_path: Path) -> None:
    d = director(tmp_path, players=9)

    async def next_message(stream) -> dict:
        while True:
            line = await asyncio.wait_for(stream.content.readline(), 30)
            if line.startswith(b"data: "):
                return json.loads(line[6:])

    async def go() -> None:
        c = await client_for(d)
        try:
            r = await c.get("/p/open-7/events")
            assert r.headers["Content-Type"] == "text/event-stream"
            first = await next_message(r)
            assert set(first["parts"]) == {"event", "clock", "payouts", "counts", "results",
                                           "bounties"}
            pid = next(p.id for p in d.tour.players.values() if p.name == "Player 2")
            d.act(commands.decode({"kind": "bust", "player": pid}), "floor")
            second = await next_message(r)
            assert second["v"] == first["v"] + 1 and first["full"] and "full" not in second
            assert second["parts"]["clock"]["players_left"] == 8
            assert set(second["parts"]) == {"clock"}              # the rest row by row
            results = second["rows"]["results"]
            assert list(results["set"].values()) == [[9, "Player 2", 0, 0]]
            assert results["del"] == []
            gone = second["rows"]["bounties"]["del"]
            assert len(gone) == 1 and gone[0] in first["parts"]["bounties"]["rows"]
            assert second["rows"]["bounties"]["set"] == {}        # the floor named no eliminator
            r.close()
        finally:
            await c.close()
    run(go())


def test_a_flood_from_one_address_is_refused_with_retry_after(tmp_path: Path) -> None:
    d = director(tmp_path, players=4)

    async def go() -> None:
        c = await client_for(d)
        try:
            statuses = []
            for _ in range(80):
                r = await c.get("/p/open-7/seat", params={"name": "Player 1"})
                statuses.append(r.status)
            assert statuses[:50] == [200] * 50
            assert statuses[-1] == 429
            assert int(r.headers["Retry-After"]) >= 1
            assert "too many requests" in (await r.json())["error"]
            r = await c.get("/api/snapshot")              # the floor's pages are not limited
            assert r.status == 200
        finally:
            await c.close()
    run(go())


def test_a_phone_without_a_floor_session_cannot_act(tmp_path: Path) -> None:
    d = director(tmp_path, players=4)

    async def go() -> None:
        c = await client_for(d)
        try:
            await c.get("/p/open-7")
            origin = {"Origin": str(c.make_url("")).rstrip("/"),
                      "Referer": str(c.make_url("/p/open-7"))}
            for path, body in (("/api/act", {"kind": "clock", "action": "pause"}),
                               ("/api/import", "name\nMallory\n"),
                               ("/p/open-7/seat", {"name": "Player 1"}),
                               ("/p/open-7", {"kind": "bust"})):
                r = await c.post(path, data=json.dumps(body) if isinstance(body, dict)
                                 else body, headers={**origin,
                                                     "Content-Type": "application/json"})
                assert r.status in (401, 405), (path, r.status)
            assert not d.tour.clock.paused and d.tour.entries == 4
        finally:
            await c.close()
    run(go())


def test_the_public_address_comes_from_the_config(tmp_path: Path) -> None:
    path = tmp_path / "event.toml"
    path.write_text('[event]\nname = "open-7"\n\n[director]\n'
                    'public_url = "https://poker.example.org/room/"\n\n'
                    "[money]\npublic_counts = false\n")
    cfg = load_event_config(path)
    assert cfg.public_url == "https://poker.example.org/room" and not cfg.public_counts
    assert player_page_url(cfg, "open-7") == "https://poker.example.org/room/p/open-7"
    assert player_page_url(EventConfig(name="x"), "open-7") == "http://127.0.0.1:8080/p/open-7"
    path.write_text('[event]\nname = "open-7"\n\n[director]\npublic_url = "poker.example"\n')
    with pytest.raises(ConfigError, match=r"director\.public_url"):
        load_event_config(path)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and zlib.crc32(data[12:16 + length]) == struct.unpack(
        ">I", data[16 + length:20 + length])[0]
    return struct.unpack(">II", data[16:24])


def test_qr_codes_point_at_the_event_page(tmp_path: Path) -> None:
    d = director(tmp_path, players=4, public_url="https://poker.example.org")
    url = player_page_url(d.config, "open-7")
    assert url == "https://poker.example.org/p/open-7"
    png = qr_png(url)
    w, h = _png_size(png)
    assert w == h and w % 8 == 0 and w >= 29 * 8         # version 3: 29 modules + border

    async def go() -> None:
        c = await client_for(d)
        try:
            r = await c.get("/p/open-7/qr.png")
            assert r.status == 200 and r.headers["Content-Type"] == "image/png"
            assert r.headers["X-Player-Url"] == url and await r.read() == png
            r = await c.get("/p/open-7/qr.svg")
            svg = await r.text()
            assert r.headers["Content-Type"] == "image/svg+xml" and svg.startswith("<svg")
            assert "viewBox" in svg
        finally:
            await c.close()
    run(go())
    assert io.BytesIO(png).getbuffer().nbytes < 4000


def test_the_limit_refills_per_address_and_caps_live_pages() -> None:
    now = [0.0]
    limits = RateLimiter(burst=3, rate=0.5, max_streams=2, clock=lambda: now[0])
    assert [limits.take("10.0.0.7") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limits.take("10.0.0.7") == pytest.approx(2.0)     # one token a 2 s
    assert limits.take("10.0.0.8") == 0.0                    # another phone is not held
    now[0] += 2.0
    assert limits.take("10.0.0.7") == 0.0
    assert limits.open_stream("10.0.0.7") and limits.open_stream("10.0.0.7")
    assert not limits.open_stream("10.0.0.7")
    limits.close_stream("10.0.0.7")
    assert limits.open_stream("10.0.0.7")


def test_a_room_lists_its_events_and_each_keeps_its_own_counts_setting(
        tmp_path: Path) -> None:
    (tmp_path / "room.toml").write_text(
        '[room]\nname = "casino"\ntables = 6\n\n'
        '[[events]]\nname = "main"\ntitle = "Main Event"\nstructure = "turbo"\n\n'
        '[[events]]\nname = "high"\ntitle = "High Roller <b>"\nstructure = "turbo"\n'
        "[events.money]\npublic_counts = false\n")
    d = Director(load_director_config(tmp_path / "room.toml"))
    assert (public_counts(d.config, "main"), public_counts(d.config, "high")) == (True, False)

    async def go() -> None:
        c = await client_for(d)
        try:
            body = await (await c.get("/p/events.json")).json()
            assert {e["name"]: e["title"] for e in body["events"]} == {
                "main": "Main Event", "high": "High Roller <b>"}
            page = await (await c.get("/p/high")).text()
            assert "High Roller &lt;b&gt;" in page and "High Roller <b>" not in page
            parts = (await (await c.get("/p/high/state.json")).json())["parts"]
            assert parts["counts"]["shown"] is False
            assert parts["event"]["title"] == "High Roller <b>"
        finally:
            await c.close()
    run(go())
