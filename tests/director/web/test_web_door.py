"""Every route that changes something goes through the door: the whole router of a real
room director's app is walked. Each POST (PUT, PATCH, DELETE) refuses a request without a
session, with a role that may not, without the session's CSRF token and from another
site's page, and those refusals change nothing; the same request with a director's login
passes the door, so the refusals were the door's. Every GET changes nothing. A route
added without the door fails the walk, and the app is not built with an action that
names no `Action`."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from room_kit import register
from web_kit import LOGINS, PASSWORD, room_director

from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.director.web import roles
from kiosk.director.web.app import make_app
from kiosk.director.web.auth import FloorUsers, SessionStore
from kiosk.director.web.door import READS, Door, Route

# a value for each part of a route's path the walk meets
PARAMS = {"event": "daily", "code": "NOPE-0000", "job": "1", "version": "0.0.1",
          "name": "nobody", "kind": "svg", "what": "reprint", "rest": "nothing-here"}
JSON = "application/json"
# the body an action is tried with, where the role's check needs one: something a role
# below the director's may not do (otherwise an empty JSON object)
SAMPLES: dict[str, tuple[str, bytes]] = {
    "/api/act": (JSON, b'{"kind": "start"}'),                        # start an event
    "/api/room/act": (JSON, b'{"kind": "set_event_state", "event": "sunday", '
                            b'"state": "open"}'),
    "/api/dealers/act": (JSON, b'{"kind": "dealer_clock_in", "dealer": "Dee"}'),  # floor's
    "/api/import": ("text/csv", b"name\nWalk In\n"),
}
# open to everyone on purpose: no session is asked (the origin still is)
PUBLIC = {
    "/api/login": "the login itself: it is what makes a session",
    "/api/deal": "the deal calculator: it computes from the stacks sent and records nothing",
    "/p/{event}/register": "a player reserves a seat by phone on the room's Wi-Fi",
    "/p/{event}/reservation/{code}/cancel": "a player cancels his own reservation by its code",
}
# open to every floor login on purpose: no role is refused
ANY_LOGIN = {
    "/api/import": "every role registers players, from a CSV too",
    "/api/logout": "every login may end its own session",
    "/api/room/my-section": "every login chooses the section it works in",
    "/api/printer/{what}": "a reprint or a retry: paper for whoever is at the desk",
}
ROLES = {"fl": "floor", "cash": "cashier"}     # the logins below the director's
EVIL = "http://evil.example:8080"
Logins = dict[str | None, tuple[aiohttp.ClientSession, dict[str, str]]]


def fingerprint(d: Director, folder: Path) -> tuple[Any, ...]:
    """What an action could change: the log, the room's files, the floor's sessions and
    chosen sections, the releases' rollout."""
    with sqlite3.connect(folder / "floor.db") as db:
        sessions = db.execute("SELECT id FROM sessions ORDER BY id").fetchall()
        sections = db.execute("SELECT * FROM chosen_sections ORDER BY user").fetchall()
    files = {p.name: p.read_text() for p in sorted(folder.glob("*.toml"))}
    return (d.store.last_seq, files, sessions, sections,
            json.dumps(d.releases.view()["rollout"], sort_keys=True, default=str))


class Walk:
    """One app, served; a session per login; what the walk found wrong."""

    def __init__(self, d: Director, folder: Path, server: TestServer) -> None:
        self.d, self.folder, self.server = d, folder, server
        self.problems: list[str] = []
        self.sessions: list[aiohttp.ClientSession] = []
        self.logins: Logins = {}     # one session each, kept: no refusal ends one

    def url(self, resource: web.AbstractResource) -> str:
        info = resource.get_info()
        if "formatter" in info:
            return str(self.server.make_url(info["formatter"].format(**PARAMS)))
        return str(self.server.make_url(info["path"]))

    async def login(self, user: str | None) -> tuple[aiohttp.ClientSession, dict[str, str]]:
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.sessions.append(http)
        if user is None:
            return http, {}
        async with http.post(self.server.make_url("/api/login"),
                             json={"user": user, "password": PASSWORD}) as r:
            assert r.status == 200, await r.text()
            return http, {"X-CSRF-Token": (await r.json())["csrf"]}

    async def close(self) -> None:
        for http in self.sessions:
            await http.close()

    async def post(self, http: aiohttp.ClientSession, method: str, url: str, sample:
                   tuple[str, bytes], headers: dict[str, str]) -> tuple[int, str]:
        async with http.request(method, url, data=sample[1],
                                headers={"Content-Type": sample[0], **headers}) as r:
            return r.status, (await r.text())[:200]

    def expect(self, route: str, what: str, got: tuple[int, str], *statuses: int) -> None:
        if got[0] not in statuses:
            self.problems.append(f"{route}: {what}: {got[0]} {got[1]}")

    async def routes(self, app: web.Application) -> None:
        self.logins = {user: await self.login(user) for user in (None, "td", *ROLES)}
        for route in app.router.routes():
            res = route.resource
            if res is None or isinstance(res, web.StaticResource) or route.method == "HEAD":
                continue
            if route.method in READS:
                await self.read(route.method, res)
            else:
                await self.action(route, res)

    async def read(self, method: str, res: web.AbstractResource) -> None:
        """A read, anonymous and a director's: it answers and changes nothing."""
        before = fingerprint(self.d, self.folder)
        for http in (self.logins[None][0], self.logins["td"][0]):
            async with http.request(method, self.url(res)) as r:
                if r.status >= 500:
                    self.problems.append(f"GET {res.canonical}: {r.status}")
        if fingerprint(self.d, self.folder) != before:
            self.problems.append(f"GET {res.canonical} changed the director's state")

    async def action(self, route: web.AbstractRoute, res: web.AbstractResource) -> None:
        name, url, method = res.canonical, self.url(res), route.method
        sample = SAMPLES.get(name, (JSON, b"{}"))
        logins = self.logins
        before = fingerprint(self.d, self.folder)
        td, token = logins["td"]
        self.expect(name, "from another site", await self.post(
            td, method, url, sample, {**token, "Origin": EVIL}), 403)
        if name not in PUBLIC:
            await self.refusals(method, name, url, sample, logins)
            await self.role_refusal(route, name, url, sample, logins)
        if fingerprint(self.d, self.folder) != before:
            self.problems.append(f"{name}: a refused request changed the director's state")
        for user in ("td", *ROLES) if name in ANY_LOGIN else () if name in PUBLIC else ("td",):
            http, mine = await self.login(user)      # a fresh session: this one acts
            got = await self.post(http, method, url, sample, mine)
            if got[0] in (401, 403, 415):
                self.problems.append(f"{name}: {user}'s request did not pass the door: {got}")

    async def refusals(self, method: str, name: str, url: str, sample: tuple[str, bytes],
                       logins: Logins) -> None:
        anonymous, td = logins[None][0], logins["td"][0]
        self.expect(name, "without a session", await self.post(
            anonymous, method, url, sample, {}), 401)
        self.expect(name, "without the CSRF token", await self.post(
            td, method, url, sample, {}), 401, 403)
        self.expect(name, "with a forged token", await self.post(
            td, method, url, sample, {"X-CSRF-Token": "forged"}), 401, 403)

    async def role_refusal(self, route: web.AbstractRoute, name: str, url: str,
                           sample: tuple[str, bytes], logins: Logins) -> None:
        """A login whose role may not take the action (as kiosk.director.web.roles says)
        is refused with why; a route every role may take is listed in ANY_LOGIN."""
        action = getattr(route.handler, "action", None)
        if action is None:
            return      # no door at all: the session's refusal above already failed
        kind = action.kind if isinstance(action.kind, str) else action.kind(
            json.loads(sample[1]))
        user = next((u for u, role in ROLES.items() if not roles.may(role, kind)), None)
        if user is None:
            if name not in ANY_LOGIN:
                self.problems.append(f"{name}: every role may {kind!r}: give SAMPLES a body "
                                     "a role may not send, or list it in ANY_LOGIN with why")
            return
        if name in ANY_LOGIN:
            self.problems.append(f"{name}: listed as open to every login, yet {user} may not")
        http, mine = logins[user]
        status, text = await self.post(http, route.method, url, sample, mine)
        if status != 403 or f"your role ({ROLES[user]}) may not" not in text:
            self.problems.append(f"{name}: {user} may not {kind}, yet: {status} {text}")


def walk(d: Director, folder: Path, app: web.Application) -> list[str]:
    async def go() -> list[str]:
        server = TestServer(app)
        await server.start_server()
        w = Walk(d, folder, server)
        try:
            await w.routes(app)
        finally:
            await w.close()
            await server.close()
        return w.problems

    return asyncio.run(go())


def started_room(tmp_path: Path) -> Director:
    d = room_director(tmp_path)
    register(d, "daily", 12)
    d.act(commands.Start(), event="daily")
    return d


def test_every_route_that_acts_refuses_what_the_door_refuses_and_every_read_changes_nothing(
        tmp_path: Path) -> None:
    d = started_room(tmp_path)
    app = make_app(d)
    actions = {r.resource.canonical for r in app.router.routes()
               if r.resource is not None and r.method not in READS}
    assert set(PUBLIC) | set(ANY_LOGIN) | set(SAMPLES) <= actions   # no stale name here
    assert len(actions) >= 16
    problems = walk(d, tmp_path, app)
    assert problems == [], "\n".join(problems)
    assert set(LOGINS) >= set(ROLES)


def test_a_route_added_without_the_door_fails_the_walk(tmp_path: Path) -> None:
    d = started_room(tmp_path)
    app = make_app(d)

    async def pause(request: web.Request) -> web.Response:    # no session, role or token
        d.act(commands.ClockAction(action="pause"), "someone", event="daily")
        return web.json_response({"ok": True})

    app.router.add_post("/api/pause", pause)
    problems = walk(d, tmp_path, app)
    assert any(p.startswith("/api/pause: without a session") for p in problems), problems
    assert any(p.startswith("/api/pause: from another site") for p in problems), problems
    assert all(p.startswith("/api/pause") for p in problems), problems


def test_the_app_is_not_built_with_a_route_that_acts_without_an_action() -> None:
    """A POST declared without its `Action` is refused when the routes are registered,
    before anyone could reach it; the reads beside it are registered as declared."""
    async def handler(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    door = Door(FloorUsers({}, None), SessionStore(None))
    app = web.Application()
    with pytest.raises(ValueError, match="POST /api/undeclared changes state: declare"):
        door.register(app, [Route("GET", "/api/read", handler),
                            Route("POST", "/api/undeclared", handler)])
    assert sorted((r.method, r.resource.canonical) for r in app.router.routes()
                  if r.resource is not None) == [("GET", "/api/read"), ("HEAD", "/api/read")]
    door.store.close()
