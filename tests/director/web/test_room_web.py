"""The room's HTTP API against a real room director (no broker needed): the room at a
glance, every event API taking its event, the room's actions and every refusal (a busy
table, an unknown event, a role that may not) answered with why and nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from room_kit import register, room
from web_kit import answer, login, room_director, served

from kiosk.base.errors import RuleError
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as re_
from kiosk.director.service import Director
from kiosk.director.views.room_views import room_snapshot


def test_the_room_snapshot_shows_every_event_table_call_and_ticket(tmp_path: Path) -> None:
    d = room_director(tmp_path)
    register(d, "daily", 12)
    d.act(commands.Start(), event="daily")
    p0 = d.room.find_player(card="p0").id  # type: ignore[union-attr]
    d.room_act(rc.IssueTicket(player=p0, target="sunday", value=300), user="td")

    async def go(client: TestClient) -> None:
        status, room = await answer(await client.get("/api/room"))
        assert status == 200 and room["title"] == "Casino Hall" and room["user"] is None
        events = {e["event"]: e for e in room["events"]}
        assert set(events) == {"daily", "sunday", "sat"}
        daily = events["daily"]
        assert (daily["state"], daily["players_left"], daily["entries"], daily["level"]) == \
            ("running", 12, 12, 1)
        assert daily["tables"] == [1, 2] and events["sunday"]["state"] == "scheduled"
        assert events["sat"]["target"] == "sunday" and events["sat"]["kind"] == "satellite"
        tables = {t["table"]: t for t in room["tables"]}
        assert sorted(tables) == list(range(1, 9))
        assert tables[1]["event"] == "daily" and tables[1]["players"] == 6
        assert tables[1]["title"] == "Daily 50" and tables[8]["event"] is None
        assert room["free_tables"] == [3, 4, 5, 6, 7, 8]
        assert [(t["name"], t["target"], t["state"]) for t in room["tickets"]] == \
            [("P0", "sunday", "held")]

    served(d, go)


def test_every_event_api_takes_its_event_and_an_unknown_one_is_a_404(tmp_path: Path) -> None:
    d = room_director(tmp_path)
    register(d, "sat", 3, "S")

    async def go(client: TestClient) -> None:
        default = await (await client.get("/api/snapshot")).json()
        assert default["event"] == "daily" and default["summary"]["title"] == "Daily 50"
        sat = await (await client.get("/api/snapshot?event=sat")).json()
        assert sat["summary"]["event"] == "sat" and sat["summary"]["entries"] == 3
        found = await (await client.get("/api/players?event=sat&q=S1")).json()
        assert [p["name"] for p in found["players"]] == ["S1"]
        results = await (await client.get("/api/results?event=sat")).json()
        assert results["event"] == "sat"
        for path in ("/api/snapshot", "/api/players?q=x&", "/api/results", "/api/audit",
                     "/api/results.csv", "/api/deal"):
            url = path + ("&" if "?" in path else "?") + "event=nowhere"
            status, body = await answer(await client.get(url.replace("&&", "&")))
            assert status == 404 and "no event 'nowhere'" in body["error"], path
        hdr = await login(client, "td")
        before = d.store.last_seq
        status, body = await answer(await client.post(
            "/api/act?event=nowhere", json={"kind": "clock", "action": "pause"}, headers=hdr))
        assert status == 404 and "no event 'nowhere'" in body["error"]
        status, body = await answer(await client.post(
            "/api/room/act", json={"kind": "assign_table", "table": 8, "event": "nowhere"},
            headers=hdr))
        assert status == 404 and "nowhere" in body["error"]
        page = await client.get("/event/sat")
        assert page.status == 200 and "dashboard.js" in await page.text()
        moved = await client.get("/?event=sat", allow_redirects=False)
        assert moved.status == 302 and moved.headers["Location"] == "/event/sat"
        status, body = await answer(await client.get("/event/nowhere"))
        assert status == 404 and "no event 'nowhere'" in body["error"]
        ws = await client.ws_connect("/ws?event=sat")
        first = await ws.receive_json()
        assert first["summary"]["event"] == "sat" and first["summary"]["title"] == \
            "Satellite to Sunday"
        await ws.close()
        assert d.store.last_seq == before

    served(d, go)


def test_room_actions_change_the_room_and_are_audited_with_the_user(tmp_path: Path) -> None:
    d = room_director(tmp_path)
    register(d, "daily", 12)

    async def go(client: TestClient) -> None:
        hdr = await login(client, "td")
        ok = await client.post("/api/act?event=daily", json={"kind": "start"}, headers=hdr)
        assert ok.status == 200 and d.events["daily"].tour.started
        status, _ = await answer(await client.post(
            "/api/room/act", json={"kind": "assign_table", "table": 8, "event": "sat"},
            headers=hdr))
        assert status == 200 and d.table_event(8) == "sat"
        status, _ = await answer(await client.post(
            "/api/room/act", json={"kind": "free_table", "table": 8}, headers=hdr))
        assert status == 200 and d.table_event(8) is None
        status, body = await answer(await client.post("/api/room/events", json={
            "name": "turbo", "title": "Late Turbo", "structure": "turbo",
            "scheduled": True}, headers=hdr))
        assert status == 200 and body["event"] == "turbo", body
        assert d.room.events["turbo"].title == "Late Turbo"
        for event, state in (("sunday", "open"), ("turbo", "archived")):
            status, body = await answer(await client.post("/api/room/act", json={
                "kind": "set_event_state", "event": event, "state": state}, headers=hdr))
            assert status == 200, body
            assert d.room.events[event].state == state
        paused = await client.post("/api/act?event=daily",
                                   json={"kind": "clock", "action": "pause"}, headers=hdr)
        assert paused.status == 200 and d.events["daily"].tour.clock.paused

    served(d, go)
    logged = [e for e in d.store.stream("room").read()
              if isinstance(e, (re_.TableAssigned, re_.TableFreed, re_.EventStateSet))]
    by_floor = [(type(e).__name__, e.by) for e in logged
                if getattr(e, "table", None) == 8 or getattr(e, "event", "") in ("sunday",
                                                                                 "turbo")]
    assert by_floor == [("TableAssigned", "td"), ("TableFreed", "td"),
                        ("EventStateSet", "td"), ("EventStateSet", "td")]


def test_a_busy_table_and_bad_room_commands_are_refused_and_change_nothing(
        tmp_path: Path) -> None:
    d = room_director(tmp_path)
    register(d, "daily", 12)
    d.act(commands.Start(), event="daily")

    async def go(client: TestClient) -> None:
        hdr = await login(client, "td")
        before = (d.store.last_seq, d.room.tables_of("daily"), d.room.free_tables())
        cases = [
            ({"kind": "assign_table", "table": 1, "event": "sat"}, "daily"),
            ({"kind": "free_table", "table": 2}, "player"),
            ({"kind": "assign_table", "table": 99, "event": "sat"}, "not in the room"),
            ({"kind": "set_event_state", "event": "daily", "state": "archived"},
             "finish it first"),
            ({"kind": "return_ticket", "ticket": "t-nope"}, "t-nope"),
            ({"kind": "no_such"}, "unknown room command"),
            ({"kind": "assign_table", "table": "one", "event": "sat"}, "bad assign_table"),
        ]
        for cmd, why in cases:
            status, body = await answer(await client.post("/api/room/act", json=cmd,
                                                          headers=hdr))
            assert status == 400 and why in body["error"], (cmd, body)
        status, body = await answer(await client.post("/api/room/events", json={
            "name": "sat2", "kind": "satellite", "target": "nowhere"}, headers=hdr))
        assert status == 400 and "nowhere" in body["error"]
        status, body = await answer(await client.post("/api/room/events", json={
            "name": "room"}, headers=hdr))
        assert status == 400 and "room" in body["error"]
        assert (d.store.last_seq, d.room.tables_of("daily"), d.room.free_tables()) == before
        refused = await client.post("/api/room/act",
                                    json={"kind": "free_table", "table": 8})
        assert refused.status == 401      # no CSRF token: not acting

    served(d, go)


def test_each_role_may_do_its_part_and_is_told_what_it_may_not(tmp_path: Path) -> None:
    d = room_director(tmp_path)
    register(d, "daily", 12)
    d.act(commands.Start(), event="daily")
    pid = next(iter(d.events["daily"].tour.players))

    async def go(client: TestClient) -> None:
        def post(path: str, cmd: dict[str, Any], hdr: dict[str, str]) -> Any:
            return client.post(path, json=cmd, headers=hdr)

        floor = await login(client, "fl")
        me = await (await client.get("/api/room")).json()
        assert (me["user"], me["role"]) == ("fl", "floor")
        allowed = [("/api/act?event=daily", {"kind": "clock", "action": "pause"}),
                   ("/api/act?event=daily", {"kind": "penalty", "player": pid,
                                             "type": "warning"}),
                   ("/api/act?event=sat", {"kind": "register", "name": "Walk In"}),
                   ("/api/room/act", {"kind": "assign_table", "table": 8, "event": "sat"})]
        for path, cmd in allowed:
            status, body = await answer(await post(path, cmd, floor))
            assert status == 200, (cmd, body)
        before = d.store.last_seq
        refused = [("/api/act?event=sat", {"kind": "start"}, "start events"),
                   ("/api/act?event=daily", {"kind": "rebuy", "player": pid}, "sell rebuys"),
                   ("/api/room/act", {"kind": "set_event_state", "event": "sunday",
                                      "state": "open"}, "open, finish or archive events"),
                   ("/api/room/act", {"kind": "refund_ticket", "ticket": "t1"},
                    "refund tickets"),
                   ("/api/room/events", {"name": "x"}, "open events")]
        for path, cmd, what in refused:
            status, body = await answer(await post(path, cmd, floor))
            assert status == 403 and body["error"].startswith(
                f"your role (floor) may not {what}"), (cmd, body)
        assert d.store.last_seq == before

        cash = await login(client, "cash")
        status, body = await answer(await post("/api/act?event=daily",
                                               {"kind": "clock", "action": "resume"}, cash))
        assert status == 403 and "your role (cashier) may not run the clock" in body["error"]
        status, body = await answer(await post(
            "/api/room/act", {"kind": "free_table", "table": 8}, cash))
        assert status == 403 and "your role (cashier) may not free tables" in body["error"]
        # a ticket is the cashier's: an unknown one is the room's refusal, not the role's
        status, body = await answer(await post(
            "/api/room/act", {"kind": "return_ticket", "ticket": "t-x"}, cash))
        assert status == 400 and "t-x" in body["error"]
        assert d.store.last_seq == before
        imported = await client.post("/api/import?event=sat", data="name\nCash Payer\n",
                                     headers={**cash, "Content-Type": "text/csv"})
        assert imported.status == 200 and (await imported.json())["added"] == 1
        assert "Cash Payer" in {p.name for p in d.events["sat"].tour.players.values()}

        old = await login(client, "old")          # a login from before roles: a director
        status, _ = await answer(await post("/api/act?event=sat", {"kind": "start"}, old))
        assert status == 200 and d.events["sat"].tour.started

    served(d, go)


def test_the_cashier_gives_a_ticket_back_or_refunds_it_once_audited(tmp_path: Path) -> None:
    d = room_director(tmp_path)
    register(d, "daily", 2)
    players = [d.room.find_player(card=f"p{i}").id for i in range(2)]  # type: ignore[union-attr]
    for pid in players:
        d.room_act(rc.IssueTicket(player=pid, target="sunday", value=300), user="td")
    first, second = sorted(d.room.tickets)

    async def go(client: TestClient) -> None:
        cash = await login(client, "cash")
        room = await (await client.get("/api/room")).json()
        assert [t["state"] for t in room["tickets"]] == ["held", "held"]
        status, body = await answer(await client.post("/api/room/act", json={
            "kind": "return_ticket", "ticket": first, "note": "cannot play Sunday"},
            headers=cash))
        assert status == 200, body
        status, body = await answer(await client.post("/api/room/act", json={
            "kind": "refund_ticket", "ticket": second, "amount": 250, "note": "cash"},
            headers=cash))
        assert status == 200, body
        before = d.store.last_seq
        for ticket in (first, second):
            status, body = await answer(await client.post("/api/room/act", json={
                "kind": "refund_ticket", "ticket": ticket}, headers=cash))
            assert status == 400 and ticket in body["error"], body
        assert d.store.last_seq == before
        room = await (await client.get("/api/room")).json()
        assert [(t["state"], t["amount"], t["note"]) for t in room["tickets"]] == [
            ("returned", 0, "cannot play Sunday"), ("refunded", 250, "cash")]

    served(d, go)
    audit = [(type(e).__name__, e.by) for e in d.store.stream("room").read()
             if isinstance(e, (re_.TicketReturned, re_.TicketRefunded))]
    assert audit == [("TicketReturned", "cash"), ("TicketRefunded", "cash")]


# ------------------------------------------------ what the room page offers per event
EVERY_ACTION = ("open", "start", "pause", "resume", "finished", "archived")
# event -> how the room gets it there -> the actions the room page must offer
STATES: dict[str, tuple[str, Callable[[Director], None], list[str]]] = {
    "scheduled": ("sunday", lambda d: None, ["open", "archived"]),
    "open, nobody in": ("sunday", lambda d: d.room_act(
        rc.SetEventState(event="sunday", state="open")), []),
    "open, 12 in": ("daily", lambda d: register(d, "daily", 12), ["start"]),
    "running": ("daily", lambda d: (register(d, "daily", 12),
                                    d.act(commands.Start(), event="daily")),
                ["pause", "finished"]),
    "running, paused": ("daily", lambda d: (
        register(d, "daily", 12), d.act(commands.Start(), event="daily"),
        d.act(commands.ClockAction(action="pause"), event="daily")), ["resume", "finished"]),
    "finished": ("daily", lambda d: (
        register(d, "daily", 12), d.act(commands.Start(), event="daily"),
        d.room_act(rc.SetEventState(event="daily", state="finished"))), ["archived"]),
}


def _take(d: Director, event: str, what: str) -> None:
    """One of the room page's actions, sent as the page sends it."""
    if what == "start":
        d.act(commands.Start(), event=event)
    elif what in ("pause", "resume"):
        d.act(commands.ClockAction(action=what), event=event)
    else:
        d.room_act(rc.SetEventState(event=event, state=what))  # type: ignore[arg-type]


def _offered(d: Director, event: str) -> list[str]:
    rows = room_snapshot(d.service.repo, d.feed, 1000.0)["events"]
    row = next(e for e in rows if e["event"] == event)
    return list(row["actions"])


@pytest.mark.parametrize("state", list(STATES))
def test_the_room_offers_exactly_the_actions_an_event_takes_in_its_state(
        tmp_path: Path, state: str) -> None:
    event, setup, expected = STATES[state]
    d = room(tmp_path)
    setup(d)
    assert _offered(d, event) == expected
    for what in set(EVERY_ACTION) - set(expected) - {"pause", "resume"}:
        seq = d.store.last_seq
        with pytest.raises(RuleError):     # not offered: the director would refuse it
            _take(d, event, what)
        assert d.store.last_seq == seq
    d.store.close()
    for n, what in enumerate(expected):    # offered: each one is taken
        (tmp_path / f"again-{n}").mkdir()
        again = room(tmp_path / f"again-{n}")
        setup(again)
        _take(again, event, what)
        rows = room_snapshot(again.service.repo, again.feed, 1000.0)["events"]
        after = next(e for e in rows if e["event"] == event)
        if what in ("pause", "resume"):
            assert after["paused"] == (what == "pause")
            assert _offered(again, event) == [{"pause": "resume", "resume": "pause"}[what],
                                              "finished"]
        elif what == "start":
            assert after["started"] and after["state"] == "running"
        else:
            assert after["state"] == what
        again.store.close()
