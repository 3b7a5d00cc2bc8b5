"""The floor dashboard and the TV clock, served by the director (aiohttp, no JS build).

Reading needs no login: the pages, /api/snapshot, /api/players and the /ws live feed.
Acting (/api/act, /api/import) needs a floor login: a signed, HttpOnly session cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import os
import time
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from kiosk.director import views
from kiosk.director.hub import Hub
from kiosk.director.web.money_routes import add_money_routes
from kiosk.errors import KioskError, RuleError

STATIC = Path(__file__).with_name("static")
COOKIE = "pk_floor"
SESSION_SECONDS = 12 * 3600
INTERNAL = {"report", "tick"}   # commands only tables and the director itself send
SUMMARY_EVERY = 0.25            # the header's clock is local; summaries need not flood


class ServedDirector(views.DirectorLike, Protocol):
    hub: Hub
    config: Any

    def now(self) -> float: ...
    def act(self, cmd: dict[str, Any], user: str | None = None) -> list[dict[str, Any]]: ...
    def import_csv(self, text: str) -> tuple[int, list[str]]: ...


class Sessions:
    """Signed cookies: `user.expiry.signature`, HMAC-SHA256 with a per-process secret."""

    def __init__(self, users: dict[str, str]) -> None:
        self.users = users
        self.secret = os.urandom(32)

    def check_password(self, user: str, password: str) -> bool:
        expected = self.users.get(user, "")
        ok = hmac.compare_digest(password.encode(), expected.encode())
        return bool(expected) and ok

    def issue(self, user: str) -> str:
        expiry = str(int(time.time()) + SESSION_SECONDS)
        return f"{user}.{expiry}.{self._sign(user, expiry)}"

    def user(self, request: web.Request) -> str | None:
        token = request.cookies.get(COOKIE, "")
        user, _, rest = token.partition(".")
        expiry, _, sig = rest.partition(".")
        if not (user and expiry.isdigit() and sig) or int(expiry) < time.time():
            return None
        if not hmac.compare_digest(sig, self._sign(user, expiry)) or user not in self.users:
            return None
        return user

    def _sign(self, user: str, expiry: str) -> str:
        return hmac.new(self.secret, f"{user}.{expiry}".encode(), hashlib.sha256).hexdigest()


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


async def _json_body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise web.HTTPBadRequest(text=json.dumps({"ok": False, "error": "body is not JSON"}),
                                 content_type="application/json") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text=json.dumps({"ok": False,
                                                  "error": "body must be a JSON object"}),
                                 content_type="application/json")
    return body


def make_app(director: ServedDirector) -> web.Application:
    sessions = Sessions(dict(director.config.floor_users or {}))
    app = web.Application(client_max_size=4 * 1024 * 1024)
    sockets: set[web.WebSocketResponse] = set()

    async def close_sockets(app: web.Application) -> None:
        """Open dashboards would hold a shutdown for a minute: tell them we are going."""
        for sock in list(sockets):
            await sock.close(code=WSCloseCode.GOING_AWAY, message=b"director stopping")

    app.on_shutdown.append(close_sockets)

    async def page(request: web.Request) -> web.FileResponse:
        name = "clock.html" if request.path.rstrip("/") == "/clock" else "dashboard.html"
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    async def snapshot(request: web.Request) -> web.Response:
        snap = views.snapshot(director, director.now())
        snap["user"] = sessions.user(request)
        return web.json_response(snap)

    async def players(request: web.Request) -> web.Response:
        return web.json_response({"players": views.find_player(director,
                                                               request.query.get("q", ""))})

    async def login(request: web.Request) -> web.Response:
        body = await _json_body(request)
        user, password = body.get("user"), body.get("password")
        if not isinstance(user, str) or not isinstance(password, str):
            return _error(400, "user and password are required")
        if not sessions.check_password(user, password):
            await asyncio.sleep(0.5)   # slow down guessing
            return _error(401, "wrong user or password")
        resp = web.json_response({"ok": True, "user": user})
        resp.set_cookie(COOKIE, sessions.issue(user), httponly=True, samesite="Strict",
                        max_age=SESSION_SECONDS)
        return resp

    async def logout(request: web.Request) -> web.Response:
        resp = web.json_response({"ok": True})
        resp.del_cookie(COOKIE)
        return resp

    async def act(request: web.Request) -> web.Response:
        user = sessions.user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        cmd = await _json_body(request)
        kind = cmd.get("kind")
        if not isinstance(kind, str) or not kind or kind in INTERNAL:
            return _error(400, f"not a floor command: {kind!r}")
        try:
            events = director.act(cmd, user)
        except (RuleError, KioskError) as exc:
            return _error(400, str(exc))
        except (TypeError, ValueError, KeyError) as exc:
            return _error(400, f"bad {kind} command: {exc}")
        return web.json_response({"ok": True, "events": len(events)})

    async def import_csv(request: web.Request) -> web.Response:
        if sessions.user(request) is None:
            return _error(401, "log in as floor staff to import players")
        try:
            text = await request.text()
        except UnicodeDecodeError:
            return _error(400, "the CSV must be UTF-8 text")
        added, errors = director.import_csv(text)
        return web.json_response({"ok": not errors, "added": added, "errors": errors[:50]})

    async def ws(request: web.Request) -> web.WebSocketResponse:
        sock = web.WebSocketResponse(heartbeat=20)
        await sock.prepare(request)
        sockets.add(sock)
        q = director.hub.subscribe()
        sender = asyncio.create_task(_feed(director, sock, q))
        try:
            async for msg in sock:
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            sockets.discard(sock)
            sender.cancel()
            director.hub.unsubscribe(q)
            with contextlib.suppress(asyncio.CancelledError):
                await sender
        return sock

    app.router.add_get("/", page)
    app.router.add_get("/clock", page)
    app.router.add_get("/api/snapshot", snapshot)
    app.router.add_get("/api/players", players)
    app.router.add_post("/api/login", login)
    app.router.add_post("/api/logout", logout)
    app.router.add_post("/api/act", act)
    app.router.add_post("/api/import", import_csv)
    app.router.add_get("/ws", ws)
    add_money_routes(app, director)
    app.router.add_static("/static/", STATIC)
    return app


async def _feed(director: ServedDirector, sock: web.WebSocketResponse,
                q: asyncio.Queue[dict[str, Any]]) -> None:
    """A snapshot first, then only what changed: the tables named by the notes waiting
    (merged), and the header at most every SUMMARY_EVERY seconds."""
    await sock.send_json(views.snapshot(director, director.now()))
    last_summary = 0.0
    summary_due = False
    while not sock.closed:
        timeout = None if not summary_due else max(0.0, SUMMARY_EVERY -
                                                   (time.monotonic() - last_summary))
        try:
            notes = [await asyncio.wait_for(q.get(), timeout)]
        except TimeoutError:
            notes = []
        while not q.empty():
            notes.append(q.get_nowait())
        t = director.now()
        tables = sorted({n for note in notes for n in note.get("tables", ())})
        live = [n for n in tables if n in director.tour.tables]
        if live:
            await sock.send_json({"type": "tables",
                                  "tables": [views.table_view(director, n, t) for n in live],
                                  "calls": views.calls(director, t),
                                  "moves": views.moves_in_transit(director)})
        summary_due = summary_due or any(note.get("type") == "summary" for note in notes)
        if summary_due and time.monotonic() - last_summary >= SUMMARY_EVERY:
            await sock.send_json({"type": "summary", "summary": views.summary(director, t),
                                  "calls": views.calls(director, t)})
            last_summary, summary_due = time.monotonic(), False
