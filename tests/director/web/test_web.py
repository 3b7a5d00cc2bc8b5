"""The dashboard's HTTP API and live feed, against a real Director (no broker needed)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from aiohttp.test_utils import TestClient
from web_kit import client_for

from kiosk.config.files import EventConfig
from kiosk.config.floor_users import hash_password
from kiosk.core.model import commands
from kiosk.director.service import Director

HASH = hash_password("s3cret")


def director(tmp_path: Path, players: int = 18) -> Director:
    cfg = EventConfig(name="web-test", structure="turbo", seed=3, db=str(tmp_path / "e.db"),
                      floor_users={"floor": HASH})
    d = Director(cfg)
    for i in range(players):
        d.act(commands.decode({"kind": "register", "name": f"Player {i + 1}"}))
    d.act(commands.decode({"kind": "start"}))
    return d


def run(coro):
    return asyncio.run(coro)


async def login(client: TestClient, password: str = "s3cret"):
    return await client.post("/api/login", json={"user": "floor", "password": password})


async def csrf(client: TestClient) -> dict[str, str]:
    """Log in; the header every action of that session must carry."""
    r = await login(client)
    assert r.status == 200, await r.text()
    return {"X-CSRF-Token": (await r.json())["csrf"]}


def test_reading_needs_no_login_and_acting_does(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        snap = await (await client.get("/api/snapshot")).json()
        assert snap["summary"]["players_left"] == 18 and len(snap["tables"]) == 2
        refused = await client.post("/api/act", json={"kind": "h4h", "on": True})
        assert refused.status == 401
        assert "log in" in (await refused.json())["error"]
        assert not d.tour.h4h_on
        assert (await login(client, "wrong")).status == 401
        hdr = await csrf(client)
        ok = await client.post("/api/act", json={"kind": "h4h", "on": True}, headers=hdr)
        assert ok.status == 200 and d.tour.h4h_on
        await client.close()

    run(go())


def test_refusals_and_bad_input_come_back_as_readable_errors(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        hdr = await csrf(client)
        before = d.log.last_seq
        cases = [
            ({"kind": "bust", "player": "p999"}, "unknown player"),
            ({"kind": "break_table", "table": 7}, "table 7 is not in play"),
            ({"kind": "report", "report": {}}, "not a floor command"),
            ({"kind": "set_chip_race", "chip_race": "draw"}, "not a floor command"),
            ({"kind": "clock", "action": "sideways"}, "unknown clock action"),
            ({"kind": "move", "player": "p1", "table": "two"}, "bad move command"),
            ({"kind": "deal", "amounts": {"p1": True}}, "bad deal command"),
            ({"kind": "teleport", "player": "p1"}, "unknown command"),
        ]
        for cmd, text in cases:
            r = await client.post("/api/act", json=cmd, headers=hdr)
            body = await r.json()
            assert r.status == 400 and text in body["error"], body
        r = await client.post("/api/act", data=b"{not json",
                              headers={"Content-Type": "application/json", **hdr})
        assert r.status == 400 and "not JSON" in (await r.json())["error"]
        assert d.log.last_seq == before, "refused commands change nothing"
        await client.close()

    run(go())


def test_csv_import_and_player_search(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        assert (await client.post("/api/import", data="name\nZed")).status == 401
        hdr = await csrf(client)
        r = await client.post("/api/import", data="name,card\nAnna Late,A1\n,B2\nBo Late,A1\n",
                              headers=hdr)
        body = await r.json()
        assert body["added"] == 1
        assert any("needs a name" in e for e in body["errors"])
        assert any("already belongs to Anna Late" in e for e in body["errors"])
        found = await (await client.get("/api/players", params={"q": "anna"})).json()
        assert found["players"][0]["name"] == "Anna Late"
        assert found["players"][0]["table"] == 3   # both tables were full: a table opens
        await client.close()

    run(go())


def test_live_feed_sends_a_snapshot_then_only_changed_tables(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        ws = await client.ws_connect("/ws")
        first = await ws.receive_json(timeout=30)
        assert first["type"] == "snapshot" and len(first["tables"]) == 2
        table = 2
        rep = {"v": 2, "table": table, "id": "t2-1", "seq": 1, "ts": time.time(),
               "kind": "floor_call", "data": {}}
        d.act(commands.decode({"kind": "report", "table": table, "report": rep}))
        while True:
            msg = await ws.receive_json(timeout=30)
            if msg["type"] == "tables":
                break
        assert [v["table"] for v in msg["tables"]] == [table]
        assert msg["tables"][0]["floor_calls"][0]["state"] == "open"
        assert msg["calls"]["floor"][0]["table"] == table
        await ws.close()
        await client.close()

    run(go())


def test_dashboard_and_schedule_show_the_breaking_order(tmp_path: Path) -> None:
    """TDA 10C: the floor and every table see which table breaks next. With the
    fewest-players procedure the order follows the counts: table 1, one player short,
    moves to the front."""
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        snap = await (await client.get("/api/snapshot")).json()
        assert snap["summary"]["break_order"] == [2, 1]
        assert (await login(client)).status == 200
        pid = d.tour.tables[1].seat_of[min(d.tour.tables[1].seat_of)]
        ok = await client.post("/api/act", json={"kind": "bust", "player": pid},
                                headers=await csrf(client))
        assert ok.status == 200
        snap = await (await client.get("/api/snapshot")).json()
        assert snap["summary"]["break_order"] == [1, 2]
        assert d.out.schedule_msg()["break_order"] == [1, 2]
        await client.close()

    run(go())
