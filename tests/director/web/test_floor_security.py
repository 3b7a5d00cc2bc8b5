"""Floor logins against a real Director and its dashboard app: what an attacker in the
room tries, and what a floor person needs to keep working."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from kiosk.config.files import EventConfig
from kiosk.config.floor_users import hash_password
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.director.web.app import make_app
from kiosk.director.web.door import COOKIE

GOOD = "Dealer-7-long"
USERS = {"floor": hash_password(GOOD), "anne.b": hash_password("anne-b-secret")}


def director(tmp_path: Path, **kw: object) -> Director:
    cfg = EventConfig(name="sec-test", structure="turbo", seed=3, db=str(tmp_path / "e.db"),
                      floor_users=kw.pop("users", USERS), **kw)  # type: ignore[arg-type]
    d = Director(cfg)
    if not d.tour.players:
        for i in range(18):
            d.act(commands.decode({"kind": "register", "name": f"Player {i + 1}"}))
        d.act(commands.decode({"kind": "start"}))
    return d


async def client_for(d: Director) -> TestClient:
    client = TestClient(TestServer(make_app(d)))
    await client.start_server()
    return client


async def login(client: TestClient, user: str = "floor", password: str = GOOD):
    return await client.post("/api/login", json={"user": user, "password": password})


async def token(client: TestClient, user: str = "floor", password: str = GOOD) -> dict:
    r = await login(client, user, password)
    assert r.status == 200, await r.text()
    return {"X-CSRF-Token": (await r.json())["csrf"]}


PAUSE = {"kind": "clock", "action": "pause"}


def test_a_dotted_user_name_stays_logged_in(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        hdr = await token(client, "anne.b", "anne-b-secret")
        assert (await (await client.get("/api/snapshot")).json())["user"] == "anne.b"
        r = await client.post("/api/act", json=PAUSE, headers=hdr)
        assert r.status == 200, await r.text()
        assert d.tour.clock.paused
        await client.close()

    asyncio.run(go())


def test_logout_ends_the_session_on_the_server(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        hdr = await token(client)
        cookie = client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value
        assert (await client.post("/api/logout", headers=hdr)).status == 200
        # the stolen (or simply kept) cookie no longer works
        client.session.cookie_jar.update_cookies({COOKIE: cookie})
        r = await client.post("/api/act", json=PAUSE, headers=hdr)
        assert r.status == 401 and not d.tour.clock.paused
        await client.close()

    asyncio.run(go())


def test_a_director_restart_keeps_the_floor_logged_in(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def first() -> tuple[str, dict]:
        client = await client_for(d)
        hdr = await token(client)
        cookie = client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value
        await client.close()
        return cookie, hdr

    cookie, hdr = asyncio.run(first())
    d.log.close()
    again = director(tmp_path)              # a new process: same state directory

    async def second() -> None:
        client = await client_for(again)
        client.session.cookie_jar.update_cookies({COOKIE: cookie})
        assert (await (await client.get("/api/snapshot")).json())["user"] == "floor"
        r = await client.post("/api/act", json=PAUSE, headers=hdr)
        assert r.status == 200, await r.text()
        await client.close()

    asyncio.run(second())
    assert (tmp_path / "floor.db").stat().st_mode & 0o077 == 0


def test_guessing_is_limited(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        for i in range(5):
            assert (await login(client, "floor", f"guess-{i}")).status == 401
        r = await login(client)                 # even the right password must wait now
        assert r.status == 429 and int(r.headers["Retry-After"]) > 0
        assert "too many failed logins" in (await r.json())["error"]
        await client.close()

    asyncio.run(go())


def test_default_password_is_refused_outside_the_demo(tmp_path: Path) -> None:
    users = {"floor": hash_password("floor")}
    d = director(tmp_path, users=users)

    async def go(dir_: Director, expect: int) -> str:
        client = await client_for(dir_)
        r = await login(client, "floor", "floor")
        body = await r.json()
        await client.close()
        assert r.status == expect, body
        return body.get("error", "")

    error = asyncio.run(go(d, 403))
    assert "anyone could guess" in error and "pokerkiosk floor-user add floor" in error
    d.config = dataclasses.replace(   # the demo
        d.config, director=dataclasses.replace(d.config.director, allow_default_logins=True))
    asyncio.run(go(d, 200))


def test_actions_need_this_origin_and_the_session_token(tmp_path: Path) -> None:
    d = director(tmp_path)

    async def go() -> None:
        client = await client_for(d)
        hdr = await token(client)
        own = f"http://{client.host}:{client.port}"
        evil = {"Origin": f"http://{client.host}:{client.port + 1}"}
        r = await client.post("/api/act", json=PAUSE, headers={**hdr, **evil})
        assert r.status == 403 and "another site" in (await r.json())["error"]
        r = await client.post("/api/act", json=PAUSE, headers={"Origin": own})
        assert r.status == 401                        # logged in, but no CSRF token
        r = await client.post("/api/act", data='{"kind": "clock", "action": "pause"}',
                              headers={**hdr, "Content-Type": "text/plain"})
        assert r.status == 415                        # a form cannot send JSON
        r = await client.post("/api/import", data="name\nMallory", headers=evil)
        assert r.status == 403
        assert not d.tour.clock.paused
        r = await client.post("/api/act", json=PAUSE, headers={**hdr, "Origin": own})
        assert r.status == 200 and d.tour.clock.paused
        page = await client.get("/")
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        await client.close()

    asyncio.run(go())


def test_users_file_changes_apply_without_a_restart(tmp_path: Path) -> None:
    from kiosk.config import floor_users

    path = tmp_path / "floor-users.toml"
    floor_users.save(path, dict(USERS))
    d = director(tmp_path, floor_users_file=str(path))

    async def go() -> None:
        client = await client_for(d)
        hdr = await token(client, "anne.b", "anne-b-secret")
        floor_users.save(path, {"floor": USERS["floor"]})      # anne.b removed
        r = await client.post("/api/act", json=PAUSE, headers=hdr)
        assert r.status == 401 and not d.tour.clock.paused
        await client.close()

    asyncio.run(go())
