"""The pages' live feed is an outbox of the commit, beside the MQTT publishing: the pages
follow a floor action with the broker away, the tables still get their plans when the
pages heard of the commit first, and a standby's warm fold and takeover feed both."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
from small_room import ROOM
from waiting import wait_for
from wire_tap import WireTap

from kiosk.config.files import BrokerConfig, EventConfig
from kiosk.config.floor_users import hash_password
from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.centre.room_service import RoomService
from kiosk.director.log.lease import TTL
from kiosk.director.mqtt.publisher import Publishing
from kiosk.director.service import Director
from kiosk.director.views.page_notes import PageNotes
from kiosk.mqtt.broker import free_port
from kiosk.protocol.messages import decode

PASSWORD = "pages-s3cret-9"
WAIT = 30.0      # seconds for anything a loaded machine does in its own time


def outbox_order(service: RoomService) -> list[type]:
    return [type(o) for o in service.outboxes]


def seated(plan: dict[str, Any]) -> set[str]:
    """The players a table's plan seats (moving in or sitting)."""
    return {s["player"] for s in plan["seats"].values()}


def drain(q: asyncio.Queue[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


class Plans:
    """The plans a director hands its wire (the one door to the broker), by table."""

    def __init__(self, d: Director) -> None:
        self.sent: list[dict[str, Any]] = []
        d.wire.send = self._send  # type: ignore[method-assign]

    def _send(self, topic: str, body: dict[str, Any], retain: bool = True) -> int:
        if topic.endswith("/plan"):
            self.sent.append(body)
        return 1

    def tables(self) -> set[int]:
        return {p["table"] for p in self.sent}


def test_the_pages_follow_a_floor_action_with_the_broker_down(tmp_path: Path) -> None:
    """No broker listens: the director serves its dashboard anyway, and a bust the floor
    enters reaches the event page's websocket (the table and the header) and the players'
    page stream, while the MQTT link still waits for its broker."""
    port = free_port()
    cfg = EventConfig(name="nobroker", structure="turbo", seed=3, db=str(tmp_path / "e.db"),
                      broker=BrokerConfig(host="127.0.0.1", port=free_port()),
                      http_port=port, floor_users={"floor": hash_password(PASSWORD)})
    d = Director(cfg)
    for i in range(12):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    serving = asyncio.run_coroutine_threadsafe(d.serve(web=True), loop)
    base = f"http://127.0.0.1:{port}"

    async def go() -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            deadline = time.monotonic() + WAIT
            while True:      # the dashboard comes up without the broker
                try:
                    async with http.get(base + "/api/health") as r:
                        health = await r.json()
                        break
                except aiohttp.ClientConnectionError:
                    assert time.monotonic() < deadline, "the dashboard never answered"
                    await asyncio.sleep(0.1)
            assert health["broker_connected"] is False
            r = await http.post(base + "/api/login",
                                json={"user": "floor", "password": PASSWORD})
            token = {"X-CSRF-Token": (await r.json())["csrf"]}
            ws = await http.ws_connect(base + "/ws")
            first = await ws.receive_json(timeout=WAIT)
            assert first["type"] == "snapshot" and first["summary"]["players_left"] == 12
            phone = await http.get(base + "/p/nobroker/events")
            seen = json.loads((await phone.content.readuntil(b"\n\n")).split(b"data: ")[1])
            assert seen["parts"]["clock"]["players_left"] == 12
            table, seat = 1, min(d.tour.tables[1].seat_of)
            who = d.tour.tables[table].seat_of[seat]
            r = await http.post(base + "/api/act", json={"kind": "bust", "player": who},
                                headers=token)
            assert r.status == 200, await r.text()
            tiles, header = None, None
            while tiles is None or header is None:
                msg = await ws.receive_json(timeout=WAIT)
                if msg["type"] == "tables":
                    tiles = {t["table"]: t for t in msg["tables"]}
                elif msg["type"] == "summary":
                    header = msg["summary"]
            assert header["players_left"] == 11
            assert who not in {s.get("player") for s in tiles[table]["seats"]}
            while seen.get("parts", {}).get("clock", {}).get("players_left") != 11:
                line = await asyncio.wait_for(phone.content.readuntil(b"\n\n"), WAIT)
                if b"data: " in line:
                    seen = json.loads(line.split(b"data: ")[1])
            assert not d.connected.is_set()      # all the while, no broker
            phone.close()
            await ws.close()

    try:
        asyncio.run(go())
    finally:
        loop.call_soon_threadsafe(serving.cancel)
        wait_for(serving.done, timeout=WAIT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        d.store.close()


def test_the_plans_still_go_out_after_the_pages_outbox_was_fed(
        tmp_path: Path, mosquitto: Any) -> None:
    """The pages' outbox hears each commit before the MQTT publishing: the floor moves a
    player and the hub names both tables, and both tables' plans reach the broker with
    the player where the floor put him (the pages took nothing from the publishing)."""
    from served import Served

    cfg = EventConfig(name="both", structure="turbo", seed=3, db=str(tmp_path / "e.db"),
                      broker=BrokerConfig(host="127.0.0.1", port=mosquitto.port))
    d = Director(cfg)
    for i in range(14):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    assert outbox_order(d.service)[:2] == [PageNotes, Publishing]
    served = Served(d)
    tap = WireTap(mosquitto, "both")
    try:
        q = served.call(d.hub.subscribe)
        mover = d.tour.tables[1].seat_of[min(d.tour.tables[1].seat_of)]
        seat = min(set(range(1, 10)) - set(d.tour.tables[2].seat_of))
        served.call(lambda: d.act(commands.Move(player=mover, table=2, seat=seat), "floor"))
        notes = served.call(lambda: drain(q))
        noted = {n for note in notes if note["type"] == "tables" for n in note["tables"]}
        assert {1, 2} <= noted
        assert {"type": "summary", "event": "both"} in notes

        def plan_seats(table: int) -> set[str] | None:
            topic = d.topics.plan(table)
            got = [p for t, p in list(tap.seen) if t == topic]
            return seated(decode("plan", got[-1])) if got else None
        wait_for(lambda: mover in (plan_seats(2) or set()), timeout=WAIT)
        wait_for(lambda: mover not in (plan_seats(1) or {mover}), timeout=WAIT)
    finally:
        tap.close()
        served.close()


def standby_room(folder: Path, db: str, standby: bool = False) -> Director:
    folder.mkdir(exist_ok=True)
    (folder / "room.toml").write_text(ROOM.format(db=db))
    return Director(load_director_config(folder / "room.toml"), clock=lambda: 1000.0,
                    standby=standby)


def test_a_standbys_warm_fold_and_takeover_feed_the_pages_and_the_plans(
        tmp_path: Path, pg_dsn: str) -> None:
    """What the standby folds from the leader's log is marked once; the takeover's commit
    hands it to both outboxes (the pages hear the busted player's table, the tables get
    its plan), and the new leader's own action feeds both again."""
    a = standby_room(tmp_path / "a", pg_dsn)
    for i in range(10):
        a.act(commands.Register(name=f"P{i}", card=f"c{i}"), event="daily")
    a.act(commands.Start(), event="daily")
    b = standby_room(tmp_path / "b", pg_dsn, standby=True)
    assert a.ha is not None and b.ha is not None and b.ha.role == "standby"
    plans = Plans(b)

    async def go() -> None:
        q = b.hub.subscribe()
        tour = a.events["daily"].tour
        table = min(tour.tables)
        out = tour.tables[table].seat_of[min(tour.tables[table].seat_of)]
        a.act(commands.Bust(player=out), "floor", event="daily")
        b.ha.apply(b.ha.fetch())                       # the warm fold
        assert b.events["daily"].tour.players[out].status != "seated"
        assert drain(q) == [] and plans.sent == []     # a standby says nothing yet
        a.ha.lease.stop_renewing()
        await asyncio.sleep(TTL + 0.2)
        assert b.ha.look()
        await b.ha.take_over()
        notes = drain(q)
        assert table in {n for note in notes if note["type"] == "tables"
                         for n in note["tables"]}
        assert table in plans.tables()
        folded = next(p for p in reversed(plans.sent) if p["table"] == table)
        assert out not in seated(folded)
        plans.sent.clear()
        mine = b.events["daily"].tour
        other = max(mine.tables)
        gone = mine.tables[other].seat_of[min(mine.tables[other].seat_of)]
        b.act(commands.Bust(player=gone), "floor", event="daily")
        notes = drain(q)
        assert other in {n for note in notes if note["type"] == "tables" for n in note["tables"]}
        assert {"type": "summary", "event": "daily"} in notes
        assert gone not in seated(next(p for p in plans.sent if p["table"] == other))

    try:
        asyncio.run(go())
    finally:
        b.ha.close()
        a.ha.close()
