"""The room's actions over the dashboard's API, against a real room director: an event's
command names its event, a room command moves a table, a new event opens while the room
runs; every refusal says why and changes nothing."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from test_room_director import register, room

from kiosk.core import commands
from kiosk.director.web.app import make_app
from kiosk.floor_users import hash_password


def test_the_floor_runs_the_room_over_http(tmp_path: Path) -> None:
    d = room(tmp_path)
    d.config = dataclasses.replace(d.config, director=dataclasses.replace(
        d.config.director, floor_users={"td": hash_password("s3cret")}))
    register(d, "daily", 12)
    d.act(commands.Start(), event="daily")

    async def go() -> None:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        try:
            refused = await client.post("/api/room/act", json={
                "kind": "assign_table", "table": 8, "event": "sat"})
            assert refused.status == 401
            r = await client.post("/api/login", json={"user": "td", "password": "s3cret"})
            h = {"X-CSRF-Token": (await r.json())["csrf"]}

            async def post(path: str, body: dict) -> tuple[int, dict]:
                r = await client.post(path, json=body, headers=h)
                return r.status, await r.json()

            status, body = await post("/api/act?event=sat", {"kind": "register",
                                                             "name": "Sam"})
            assert status == 200 and body["ok"]
            assert len(d.desks["sat"].tour.players) == 1
            status, body = await post("/api/act?event=nowhere", {"kind": "register", "name": "X"})
            assert status == 400 and "no event 'nowhere'" in body["error"]
            before = d.store.last_seq
            status, body = await post("/api/room/act", {"kind": "assign_table", "table": 1,
                                                        "event": "sat"})
            assert status == 400 and "daily" in body["error"]
            status, body = await post("/api/room/act", {"kind": "issue_ticket"})
            assert status == 400 and "not a floor room command" in body["error"]
            status, body = await post("/api/room/events", {"name": "sat2", "kind": "satellite",
                                                           "target": "nowhere"})
            assert status == 400 and "nowhere" in body["error"]
            assert d.store.last_seq == before
            status, body = await post("/api/room/act", {"kind": "assign_table", "table": 8,
                                                        "event": "sat"})
            assert status == 200 and body["ok"]
            assert d.table_event(8) == "sat"
            status, body = await post("/api/room/events", {"name": "turbo", "title": "Turbo",
                                                           "structure": "turbo"})
            assert (status, body) == (200, {"ok": True, "event": "turbo"})
            assert d.room.events["turbo"].title == "Turbo"
        finally:
            await client.close()

    asyncio.run(go())
