"""Reservations from the phone and the alternates list, against a real room director over
its real HTTP app: a code reserved, shown, confirmed at the desk (registered, then seated),
lapsed and cancelled; a full event's alternates called in order as seats open; and every
abuse of the public form refused with why and nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from reservations_kit import PASSWORD, SCHEDULED, Clock, room, served

from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director


async def login(client: TestClient, user: str) -> dict[str, str]:
    r = await client.post("/api/login", json={"user": user, "password": PASSWORD})
    return {"X-CSRF-Token": (await r.json())["csrf"]}


async def answer(resp: Any) -> tuple[int, dict[str, Any]]:
    return resp.status, await resp.json()


async def reserve(client: TestClient, name: str, event: str = "sunday",
                  **extra: Any) -> tuple[int, dict[str, Any]]:
    return await answer(await client.post(f"/p/{event}/register",
                                          json={"name": name, **extra}))


async def confirm(client: TestClient, headers: dict[str, str], code: str,
                  event: str = "sunday") -> tuple[int, dict[str, Any]]:
    return await answer(await client.post(f"/api/act?event={event}", headers=headers,
                                          json={"kind": "confirm_reservation", "code": code}))


async def status(client: TestClient, code: str, event: str = "sunday"
                 ) -> tuple[int, dict[str, Any]]:
    return await answer(await client.get(f"/p/{event}/reservation/{code}"))


async def register(client: TestClient, headers: dict[str, str], players: int) -> None:
    """P0, P1, ... registered at the desk of sunday."""
    for i in range(players):
        r = await client.post("/api/act?event=sunday", headers=headers,
                              json={"kind": "register", "name": f"P{i}"})
        assert r.status == 200


def names(d: Director, event: str = "sunday") -> list[str]:
    return [p.name for p in d.events[event].tour.players.values()]


def test_a_reservation_is_confirmed_at_the_desk_seated_lapsed_or_cancelled(
        tmp_path: Path) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        code, ann = await reserve(client, "  Ann   Lee ")
        assert code == 201 and ann["state"] == "reserved" and ann["name"] == "Ann Lee"
        assert ann["url"] == f"/p/sunday/reservation/{ann['code']}" and len(ann["code"]) == 8
        ok, seen = await status(client, ann["code"])
        assert ok == 200 and seen["state"] == "reserved" and seen["position"] is None
        # a reservation seats nobody by itself
        assert names(d) == []
        # confirming needs a login with its CSRF token
        r = await client.post("/api/act?event=sunday",
                              json={"kind": "confirm_reservation", "code": ann["code"]})
        assert r.status == 401 and names(d) == []
        cash = await login(client, "cash")
        r = await client.post("/api/act?event=sunday", headers={**cash,
                              "Origin": "http://evil.example"},
                              json={"kind": "confirm_reservation", "code": ann["code"]})
        assert r.status == 403 and names(d) == []
        ok, body = await confirm(client, cash, ann["code"])
        assert ok == 200 and body["state"] == "confirmed" and not body["already"]
        assert names(d) == ["Ann Lee"]
        entries = d.events["sunday"].tour.entries
        # twice: nothing changes
        ok, body = await confirm(client, cash, ann["code"].lower())
        assert ok == 200 and body["already"] and d.events["sunday"].tour.entries == entries
        # an unknown code is a 404 that says so
        ok, body = await confirm(client, cash, "ZZZZ9999")
        assert ok == 404 and "no reservation with the code 'ZZZZ9999'" in body["error"]
        ok, body = await status(client, "ZZZZ9999")
        assert ok == 404 and "ZZZZ9999" in body["error"]
        # the player cancels his own; a used code cannot be cancelled again
        _, bob = await reserve(client, "Bob")
        r = await client.post(f"/p/sunday/reservation/{bob['code']}/cancel")
        assert r.status == 200 and (await r.json())["state"] == "cancelled"
        r = await client.post(f"/p/sunday/reservation/{bob['code']}/cancel")
        body = await r.json()
        assert r.status == 404 and "already cancelled" in body["error"]
        ok, body = await confirm(client, cash, bob["code"])
        assert ok == 404 and "cancelled" in body["error"] and "Bob" not in names(d)
        # one more registered at the desk, then a reservation left unconfirmed
        td = await login(client, "td")
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "register", "name": "Cat"})
        assert r.status == 200
        _, dan = await reserve(client, "Dan")
        r = await client.post("/api/act?event=sunday", headers=td, json={"kind": "start"})
        assert r.status == 200, await r.text()
        # the hold is the start: Dan's reservation lapsed, Ann sits at her seat
        _, dan = await status(client, dan["code"])
        assert dan["state"] == "lapsed" and "Dan" not in names(d)
        _, ann = await status(client, ann["code"])
        p = next(p for p in d.events["sunday"].tour.players.values() if p.name == "Ann Lee")
        assert (ann["state"], ann["table"], ann["seat"]) == ("confirmed", p.table, p.seat)
        assert p.seat is not None

    served(d, go)
    # the same reservations after a restart: they are the room's own log
    before = {c: (r.state, r.player) for c, r in d.room.bookings.codes.items()}
    d.store.close()
    again = Director(load_director_config(tmp_path / "room.toml"), clock=Clock())
    assert {c: (r.state, r.player) for c, r in again.room.bookings.codes.items()} == before
    again.store.close()


def test_a_full_event_keeps_alternates_in_order_and_calls_them_as_seats_open(
        tmp_path: Path) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        td = await login(client, "td")
        await register(client, td, 5)
        _, held = await reserve(client, "Held")          # the sixth seat, held
        _, amy = await reserve(client, "Amy")
        assert (amy["state"], amy["position"]) == ("alternate", 1)
        # a desk registration into the full event goes on the list too, behind Amy
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "register", "name": "Eve"})
        assert r.status == 200 and "Eve" not in names(d)
        pub = await (await client.get("/p/sunday/reservations.json")).json()
        assert [(a["position"], a["name"], a["called"]) for a in pub["alternates"]] == \
            [(1, "Amy", False), (2, "Eve", False)]
        assert pub["full"] and "code" not in str(pub["alternates"])
        eve = next(r for r in d.room.bookings.alternates("sunday") if r.name == "Eve")
        # out of order: refused, nothing changed
        ok, body = await confirm(client, td, eve.code)
        assert ok == 400 and "alternate 2 and not called yet" in body["error"]
        # the held seat is cancelled: Amy, first, is called
        await client.post(f"/p/sunday/reservation/{held['code']}/cancel")
        _, amy = await status(client, amy["code"])
        assert (amy["state"], amy["position"], amy["called"]) == ("alternate", 1, True)
        pub = await (await client.get("/p/sunday/reservations.json")).json()
        assert pub["called"] == [{"position": 1, "name": "Amy"}]
        ok, _ = await confirm(client, td, amy["code"])
        assert ok == 200 and "Amy" in names(d)
        assert not d.room.bookings.codes[eve.code].called
        # play starts; a bust opens a seat while late registration is open: Eve is called
        r = await client.post("/api/act?event=sunday", headers=td, json={"kind": "start"})
        assert r.status == 200
        out = next(p.id for p in d.events["sunday"].tour.players.values() if p.name == "P0")
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "bust", "player": out})
        assert r.status == 200, await r.text()
        _, e = await status(client, eve.code)
        assert (e["state"], e["position"], e["called"]) == ("alternate", 1, True)
        ok, body = await confirm(client, td, eve.code)
        assert ok == 200 and body["table"] is not None and body["seat"] is not None

    served(d, go)


def test_the_public_form_refuses_abuse_with_why_and_keeps_nothing(tmp_path: Path) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        for bad, why in [("", "needs a name"), ("x" * 61, "at most 60"),
                         ("Ann\u0007", "plain text"), ("<b>Ann</b>", "plain text"),
                         ("12345", "at least one letter")]:
            ok, body = await reserve(client, bad)
            assert ok == 400 and why in body["error"], (bad, body)
        ok, body = await answer(await client.post("/p/sunday/register", data="name=Ann"))
        assert ok == 415
        ok, body = await reserve(client, "Ann", event="daily")
        assert ok == 400 and "takes no reservations" in body["error"]
        ok, body = await reserve(client, "Ann", event="nope")
        assert ok == 404
        assert d.room.bookings.codes == {}

    served(d, go)


def test_one_address_is_capped_per_event_and_rate_limited(tmp_path: Path) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        got = [await reserve(client, f"Guest {c}") for c in "abcdef"]
        assert [s for s, _ in got[:3]] == [201, 201, 201]
        assert got[3][0] == 400 and "at most 3 reservations from one address" in \
            got[3][1]["error"]
        assert got[5][0] == 429
        assert len(d.room.bookings.codes) == 3

    served(d, go, forms=5)


def test_the_desk_list_needs_a_login_and_the_director_sets_the_terms(tmp_path: Path) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        await reserve(client, "Ann")
        r = await client.get("/api/reservations?event=sunday")
        assert r.status == 401
        fl = await login(client, "fl")
        body = await (await client.get("/api/reservations?event=sunday", headers=fl)).json()
        assert [o["name"] for o in body["open"]] == ["Ann"] and body["free"] == 5
        r = await client.post("/api/act?event=daily", headers=fl,
                              json={"kind": "set_reservations", "per_day": 2})
        assert r.status == 403
        td = await login(client, "td")
        r = await client.post("/api/act?event=daily", headers=td,
                              json={"kind": "set_reservations", "per_day": 1})
        assert r.status == 200
        assert (await reserve(client, "Bo", event="daily"))[0] == 201
        ok, body = await reserve(client, "Cy", event="daily")
        assert ok == 400 and "today's 1 reservation is taken" in body["error"]

    served(d, go)


def test_the_demo_room_takes_reservations_for_sunday_and_keeps_a_league(
        tmp_path: Path) -> None:
    import argparse

    from kiosk.demo import room as demo
    args = argparse.Namespace(players=12, profile="tda-2017", structure="turbo", seed=1,
                              printer=None)
    path = demo._write_config(tmp_path, args, "mqtt://127.0.0.1:1", "127.0.0.1", 8080)
    d = Director(load_director_config(path), clock=Clock())
    try:
        assert d.bookings.takes(demo.TARGET) and not d.bookings.takes(demo.DAILY)
        res = d.bookings.reserve(demo.TARGET, "New Face", "", "10.0.0.9")
        assert res.state == "reserved"
        assert [lg.name for lg in d.config.leagues] == [demo.LEAGUE]
    finally:
        d.store.close()


def test_a_reentry_into_a_full_event_waits_behind_the_alternates(tmp_path: Path) -> None:
    """A busted player who re-enters while alternates wait is not seated ahead of them:
    the re-entry goes on the list, and is made (a new stack, a seat) once its turn comes
    and the desk confirms it."""
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        td = await login(client, "td")
        await register(client, td, 6)
        _, amy = await reserve(client, "Amy")          # full: Amy waits, first
        assert (amy["state"], amy["position"]) == ("alternate", 1)
        assert (await client.post("/api/act?event=sunday", headers=td,
                                  json={"kind": "start"})).status == 200
        tour = d.events["sunday"].tour
        p0, p1 = (next(p for p in tour.players.values() if p.name == n) for n in ("P0", "P1"))
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "bust", "player": p0.id})
        assert r.status == 200
        _, amy = await status(client, amy["code"])
        assert amy["called"]                          # the seat P0 left is Amy's
        entries = tour.registry.entries
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "reenter", "player": p0.id})
        assert r.status == 200, await r.text()
        # not seated, no new stack: P0's re-entry is on the list behind Amy
        assert tour.players[p0.id].status == "busted" and tour.registry.entries == entries
        mine = [r for r in d.room.bookings.of("sunday") if r.reenter == p0.id]
        assert [(r.state, r.called, r.source, r.name) for r in mine] == \
            [("alternate", False, "desk", "P0")]
        # asking again is refused with why, and nothing is added
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "reenter", "player": p0.id})
        assert r.status == 400 and "alternates list already" in (await r.json())["error"]
        ok, _ = await confirm(client, td, amy["code"])
        assert ok == 200 and "Amy" in names(d)
        # the next bust opens the next seat: P0's turn; confirming it is the re-entry
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "bust", "player": p1.id})
        assert r.status == 200
        assert d.room.bookings.codes[mine[0].code].called
        # its turn: the re-entry is made by confirming the code, not by another press
        r = await client.post("/api/act?event=sunday", headers=td,
                              json={"kind": "reenter", "player": p0.id})
        assert r.status == 400 and f"confirm the code {mine[0].code}" in \
            (await r.json())["error"]
        ok, body = await confirm(client, td, mine[0].code)
        assert ok == 200, body
        assert tour.players[p0.id].status != "busted"
        assert tour.registry.entries == entries + 2    # Amy's entry and P0's re-entry
        assert tour.players[p0.id].table is not None and body["seat"] is not None

    served(d, go)


DAY = 86400.0


def ticket_of(d: Director, code: str) -> Any:
    res = d.room.bookings.codes[code]
    assert res.ticket is not None
    return d.room.tickets[res.ticket]


async def room_act(client: TestClient, headers: dict[str, str], **cmd: Any) -> None:
    r = await client.post("/api/room/act", headers=headers, json=cmd)
    assert r.status == 200, await r.text()


def test_paid_on_friday_for_a_scheduled_sunday_entered_once_when_it_opens(
        tmp_path: Path) -> None:
    """Sunday is only announced. On Friday the desk confirms a reservation and takes the
    buy-in: the player leaves confirmed, holding a ticket worth the entry (his seat kept
    among the few the event has), nobody is registered in an event that is not open. On
    Sunday the floor opens it: he is entered, the pool counts his buy-in once, and the
    draw seats him. One who cannot come gets his money back before; he is never entered."""
    d = room(tmp_path, SCHEDULED)
    price = d.events["sunday"].tour.prize.entry_price

    async def go(client: TestClient) -> None:
        cash = await login(client, "cash")
        _, ann = await reserve(client, "Ann Friday")
        _, bob = await reserve(client, "Bob Friday")
        free = d.bookings.free("sunday")
        ok, body = await confirm(client, cash, ann["code"])
        assert ok == 200 and body["state"] == "confirmed" and not body["already"]
        assert body["note"] == ("Paid, entered when Sunday Main opens; the seat is drawn "
                                "when play starts")
        assert names(d) == [] and d.events["sunday"].tour.money_pool().collected == 0
        tk = ticket_of(d, ann["code"])
        assert (tk.target, tk.value, tk.state) == ("sunday", price, "issued")
        assert d.room.players[tk.player].name == "Ann Friday"
        assert d.bookings.free("sunday") == free              # her seat stays kept
        _, seen = await status(client, ann["code"])          # her phone says so
        assert seen["state"] == "confirmed" and seen["note"] == body["note"]
        ok, again = await confirm(client, cash, ann["code"])  # twice: nothing more
        assert ok == 200 and again["already"] and len(d.room.tickets) == 1
        # the desk still takes no plain entry into an event that is not open
        r = await client.post("/api/act?event=sunday", headers=cash,
                              json={"kind": "register", "name": "Walk In"})
        assert r.status == 400 and "takes entries once the floor opens it" in \
            (await r.json())["error"]
        ok, _ = await confirm(client, cash, bob["code"])
        assert ok == 200
        await room_act(client, cash, kind="refund_ticket",
                       ticket=ticket_of(d, bob["code"]).id, note="cannot come on Sunday")
        assert ticket_of(d, bob["code"]).amount == price
        # Sunday: the floor opens the event; Ann is entered by her ticket, Bob is not
        d.clock.t += 2 * DAY  # type: ignore[attr-defined]
        td = await login(client, "td")
        await room_act(client, td, kind="set_event_state", event="sunday", state="open")
        assert names(d) == ["Ann Friday"]
        assert ticket_of(d, ann["code"]).state == "used"
        _, seen = await status(client, ann["code"])
        assert seen["note"] == "" and seen["seat"] is None
        await register(client, td, 2)
        r = await client.post("/api/act?event=sunday", headers=td, json={"kind": "start"})
        assert r.status == 200, await r.text()
        _, seen = await status(client, ann["code"])
        assert seen["table"] is not None and seen["seat"] is not None
        tour = d.events["sunday"].tour
        assert tour.entries == 3 and tour.money_pool().collected == 3 * price

    served(d, go)


def test_a_scheduled_event_started_at_once_seats_the_entries_paid_ahead(
        tmp_path: Path) -> None:
    """The floor may start a scheduled event without opening it first: the entries paid
    ahead are entered before the draw, not left holding their tickets."""
    d = room(tmp_path, SCHEDULED)
    paid = [d.bookings.reserve("sunday", name, "", "10.0.0.9") for name in ("Ann", "Bo")]
    for res in paid:
        d.bookings.confirm(res.code, None, "cash")
    assert d.room.events["sunday"].state == "scheduled" and names(d) == []
    try:
        d.act(commands.Start(), event="sunday")
        assert all(p.seat is not None for p in d.events["sunday"].tour.players.values())
        assert sorted(names(d)) == ["Ann", "Bo"]
        assert all(ticket_of(d, res.code).state == "used" for res in paid)
        assert d.room.events["sunday"].state == "running"
    finally:
        d.store.close()
