"""The players' pages as a phone in each shipped language first gets them, and an event's
start in the room file: the page and its texts under 20 KB in every language, a seat
lookup said in the phone's language, the start a real date and time (a free text refused
with the key, the reason and an example) written in each reader's language and the room's
zone. Against the room director's own HTTP app."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from player_kit import ROOM
from reservations_kit import room, served

from kiosk.base.errors import ConfigError
from kiosk.config.room import load_director_config
from kiosk.director.views.player_views import starts_said
from kiosk.lang.codes import SHIPPED

SCRIPT = re.compile(r'<script src="(/lang/[^"]+)"></script>')
LIMIT = 20_000
FIRST: dict[str, dict[str, int]] = {}      # page -> language -> bytes (printed at the end)


async def first_message(client: TestClient, path: str, code: str) -> int:
    """The bytes a phone reading `code` downloads first: the page and its texts' script."""
    r = await client.get(path, headers={"Accept": "text/html"}, params={"lang": code})
    page = await r.read()
    src = SCRIPT.search(page.decode()).group(1).replace("&amp;", "&")
    assert "for=player" in src and f"/lang/{code}.js" in src, src
    texts = await (await client.get(src)).read()
    return len(page) + len(texts)


def test_a_phones_first_message_is_under_20_kb_in_every_language(tmp_path: Path) -> None:
    d = room(tmp_path, ROOM)

    async def go(client: TestClient) -> None:
        r = await client.post("/p/sunday/register", json={"name": "Zoë"},
                              headers={"Origin": str(client.make_url(""))})
        assert r.status == 201, await r.text()
        code = (await r.json())["code"]
        for path in ("/p/daily", "/p/", f"/p/sunday/reservation/{code}", "/p/none"):
            for lang in SHIPPED:
                size = await first_message(client, path, lang)
                FIRST.setdefault(path, {})[lang] = size
                assert size < LIMIT, (path, lang, size)

    served(d, go)
    print("\nfirst message (page + /lang script for=player), bytes:")
    for path, sizes in FIRST.items():
        print(f"  {path}: " + ", ".join(f"{k} {v:,}" for k, v in sizes.items()))


def test_a_seat_lookup_and_a_reservation_speak_the_phones_language(tmp_path: Path) -> None:
    d = room(tmp_path, ROOM)
    for i in range(8):
        d.act({"kind": "register", "name": f"Player {i}"}, "td", "daily")
    d.act({"kind": "start"}, "td", "daily")

    async def go(client: TestClient) -> None:
        r = await client.get("/p/daily/seat", params={"name": "Player 3"},
                             headers={"Accept-Language": "de"})
        body = await r.json()
        assert re.fullmatch(r"Tisch \d+, Platz \d+", body["message"]), body
        assert body["message_msg"]["key"] == "seat.row_seated"
        r = await client.get("/p/daily/seat", params={"name": "Player"},
                             headers={"Accept-Language": "cs"})
        body = await r.json()
        assert all(re.fullmatch(r"stůl \d+, místo \d+", m["message"]) for m in body["matches"])
        assert "hráč" in body["message"], body["message"]
        # the event's part carries the numbers and the room's zone and currency, no words
        parts = (await (await client.get("/p/sunday/state.json")).json())["parts"]
        assert parts["event"]["starts_at"] == 1_796_554_800       # 2026-12-06 12:00 CET
        assert parts["event"]["currency"] == "EUR"
        assert parts["event"]["timezone"] == "Europe/Berlin"
        listing = await (await client.get("/p/events.json")).json()
        sunday = next(e for e in listing["events"] if e["name"] == "sunday")
        assert sunday["starts_at"] == 1_796_554_800 and sunday["buy_in"] == 300

    served(d, go)


def test_an_events_start_is_a_date_and_time_said_in_each_language(tmp_path: Path) -> None:
    (tmp_path / "room.toml").write_text(ROOM)
    cfg = load_director_config(tmp_path / "room.toml")
    starts = next(e.starts for e in cfg.events if e.name == "sunday")
    assert starts == "2026-12-06T12:00+01:00"            # the room's zone, kept with it
    assert starts_said(starts, "en", "Europe/Berlin") == "Sun 6 Dec, 12:00"
    assert starts_said(starts, "de", "Europe/Berlin") == "So., 6. Dez., 12:00"
    assert starts_said(starts, "en", "Europe/London") == "Sun 6 Dec, 11:00"
    # an offset of its own is kept; a free text is refused with the key and an example
    (tmp_path / "room.toml").write_text(ROOM.replace("2026-12-06T12:00", "2026-12-06T12:00Z"))
    cfg = load_director_config(tmp_path / "room.toml")
    assert next(e.starts for e in cfg.events if e.name == "sunday") == "2026-12-06T12:00+00:00"
    (tmp_path / "room.toml").write_text(ROOM.replace("2026-12-06T12:00", "Sunday 6 December"))
    with pytest.raises(ConfigError) as err:
        load_director_config(tmp_path / "room.toml")
    assert err.value.key == "events.1.starts"
    assert "'Sunday 6 December' is no date and time" in str(err.value)
    assert "ISO 8601" in str(err.value) and "2026-12-06T19:00" in str(err.value)
