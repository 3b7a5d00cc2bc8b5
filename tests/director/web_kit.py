"""The room's HTTP app over a real director in process (no broker): the room with one
floor login per role and one without a role, a login, and a test client to drive it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from room_kit import ROOM

from kiosk.config import floor_users
from kiosk.config.room import load_director_config
from kiosk.director.service import Director
from kiosk.director.web.app import make_app
from kiosk.director.web.routes.reservations import FORMS

PASSWORD = "a-long-one-9"
LOGINS = {"td": "director", "fl": "floor", "cash": "cashier", "old": None}
Go = Callable[[TestClient], Awaitable[None]]


def room_director(tmp_path: Path) -> Director:
    """The room of room_kit, with one login per role and one without a role."""
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in LOGINS},
                     {u: r for u, r in LOGINS.items() if r})
    (tmp_path / "room.toml").write_text(ROOM)
    return Director(load_director_config(tmp_path / "room.toml"), clock=lambda: 1000.0)


def served(d: Director, go: Go, forms: int | None = None) -> None:
    """The director's app served to `go`'s client; `forms`: how many reservation forms
    one address may post at once (all a test's requests come from one address)."""
    async def main() -> None:
        app = make_app(d)
        if forms is not None:
            app[FORMS].burst = forms
        client = TestClient(TestServer(app))
        await client.start_server()
        try:
            await go(client)
        finally:
            await client.close()

    asyncio.run(main())


async def client_for(d: Director) -> TestClient:
    """A started client of the director's app (the caller closes it)."""
    client = TestClient(TestServer(make_app(d)))
    await client.start_server()
    return client


async def login(client: TestClient, user: str) -> dict[str, str]:
    r = await client.post("/api/login", json={"user": user, "password": PASSWORD})
    body = await r.json()
    assert r.status == 200 and body["role"] == (LOGINS[user] or "director"), body
    return {"X-CSRF-Token": body["csrf"]}


async def answer(resp: Any) -> tuple[int, dict[str, Any]]:
    return resp.status, await resp.json()
