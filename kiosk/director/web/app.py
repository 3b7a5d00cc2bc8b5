"""The floor dashboard and the TV clock, served by the director (aiohttp, no JS build).

Reading needs no login: the pages, /api/room, /api/snapshot, /api/players and the /ws
live feed. Acting (/api/act, /api/import, /api/room/...) needs a floor login (see auth.py):
an HttpOnly session cookie plus the session's CSRF token in a header, from a page of this
very origin, and a role that allows the action (see kiosk.director.web.roles).

The room page is `/`; one event's dashboard is `/event/NAME` (or `/event?event=NAME`);
every one-event API takes `?event=NAME` and reads the room's first event without it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from aiohttp import WSCloseCode, WSMsgType, web

from kiosk.base.errors import KioskError
from kiosk.config.room import RoomConfig
from kiosk.core.model import commands
from kiosk.director.adapters.bookings import Bookings
from kiosk.director.adapters.csv_import import import_players
from kiosk.director.adapters.printing import DeskPrinter
from kiosk.director.adapters.release_desk import ReleaseDesk
from kiosk.director.centre.desk import Desk
from kiosk.director.centre.ports import Clock
from kiosk.director.centre.room_service import RoomService
from kiosk.director.standby.leadership import Leadership
from kiosk.director.views import views
from kiosk.director.views.hub import Hub
from kiosk.director.views.room_views import EventView
from kiosk.director.views.table_feed import TableFeed
from kiosk.director.web import pages, roles
from kiosk.director.web.auth import SESSION_SECONDS, FloorUsers, LoginLimiter, SessionStore
from kiosk.director.web.dealer_routes import add_dealer_routes
from kiosk.director.web.events import desk_for
from kiosk.director.web.league_routes import add_league_routes
from kiosk.director.web.money_routes import add_money_routes
from kiosk.director.web.players import add_player_routes
from kiosk.director.web.printer_routes import add_printer_routes
from kiosk.director.web.release_routes import add_release_routes
from kiosk.director.web.reservations import DESK_KINDS, add_reservation_routes, desk_act
from kiosk.director.web.room_routes import add_room_routes
from kiosk.director.web.section_routes import add_chosen_section_routes, add_section_routes

STATIC = Path(__file__).with_name("static")
COOKIE = "pk_floor"
CSRF_HEADER = "X-CSRF-Token"
# No inline script or handler runs, whatever text reaches the page.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'self'")
# commands only tables and the director itself send (the house settings: from the config)
INTERNAL = {"report", "tick", "set_chip_race", "set_chip_set", "set_h4h_at_bubble",
            "set_satellite_leftover"}
SUMMARY_EVERY = 0.25            # the header's clock is local; summaries need not flood


class Served(Protocol):
    """What the dashboard serves: the room's service (reads and commands) and what its
    adapters show: the change notes, the tables' feed, the broker connection, the health
    lines, the printer and the leadership."""

    @property
    def config(self) -> RoomConfig: ...     # as the director runs with it
    @property
    def service(self) -> RoomService: ...
    @property
    def hub(self) -> Hub: ...
    @property
    def feed(self) -> TableFeed: ...
    @property
    def connected(self) -> asyncio.Event: ...
    @property
    def health(self) -> dict[str, str]: ...    # background task -> how it failed
    @property
    def printer(self) -> DeskPrinter | None: ...
    @property
    def ha(self) -> Leadership | None: ...
    @property
    def bookings(self) -> Bookings: ...     # reservations and alternates
    @property
    def releases(self) -> ReleaseDesk: ...  # the tables' updates


def role_refusal(users: FloorUsers, user: str, kind: str) -> web.Response | None:
    """A 403 saying which role may not do what, or None when the user's role may."""
    why = roles.refusal(users.role(user), kind)
    return None if why is None else _error(403, why)


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


_INLINE = re.compile(r"<script>(.*?)</script>", re.S)


@functools.cache
def page_csp(html: str) -> str:
    """The CSP, allowing exactly the page's own inline scripts (by hash) and nothing else."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _INLINE.findall(html))
    return CSP.replace("script-src 'self'", f"script-src 'self' {hashes}".rstrip())


def same_origin(request: web.Request) -> bool:
    """A POST from a browser names its page's origin; it must be this server's.

    Another program on the same host (another port) is the same *site*, so SameSite
    cookies alone do not stop it; the Origin (or Referer) check does.
    """
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if origin is None:
        return True        # not a browser: the CSRF token still has to match
    own = f"{request.scheme}://{request.host}"
    return origin == own or origin.startswith(own + "/")


def standby_redirect(ha: Leadership | None, request: web.Request) -> web.Response | None:
    """A standby sends the dashboard and the clock to the leader (its own health stays
    here, so the floor sees both machines); None when this director serves the request."""
    url = ha.leader_url() if ha is not None else None
    if url is None or request.path in ("/api/health",) or request.path.startswith("/static/"):
        return None
    target = url.rstrip("/") + request.path_qs
    if request.method == "GET" and request.path != "/ws":
        return web.Response(status=307, headers={"Location": target},
                            text=f"this director is the standby; the leader is at {url}")
    return _error(503, f"this director is the standby; the leader is at {url}")


def make_app(served: Served) -> web.Application:
    service, feed, hub = served.service, served.feed, served.hub
    repo, cfg = service.repo, served.config
    users = FloorUsers(dict(cfg.floor_users or {}), getattr(cfg, "floor_users_file", None),
                       allow_defaults=getattr(cfg, "allow_default_logins", False))
    state = getattr(cfg, "state_dir", None) if cfg.db != ":memory:" else None
    store = SessionStore(state)
    limiter = LoginLimiter()
    secure = bool(getattr(cfg, "https", False))

    @web.middleware
    async def guard(request: web.Request,
                    handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                    ) -> web.StreamResponse:
        leader = standby_redirect(served.ha, request)
        if request.method == "POST" and not same_origin(request):
            resp: web.StreamResponse = _error(403, "refused: the request came from another "
                                                   "site's page")
        elif leader is not None:
            resp = leader
        else:
            resp = await handler(request)
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp

    app = web.Application(client_max_size=4 * 1024 * 1024, middlewares=[guard])
    sockets: set[web.WebSocketResponse] = set()

    def session(request: web.Request) -> tuple[str, str] | None:
        found = store.lookup(request.cookies.get(COOKIE, ""))
        if found is None or not users.known(found[0]):
            return None
        return found

    def acting_user(request: web.Request) -> str | None:
        """The logged-in user, if the request also carries the session's CSRF token."""
        found = session(request)
        if found is None or request.headers.get(CSRF_HEADER, "") != found[1]:
            return None
        return found[0]

    async def close_store(app: web.Application) -> None:
        store.close()

    app.on_cleanup.append(close_store)

    async def close_sockets(app: web.Application) -> None:
        """Open dashboards would hold a shutdown for a minute: tell them we are going."""
        for sock in list(sockets):
            await sock.close(code=WSCloseCode.GOING_AWAY, message=b"director stopping")

    app.on_shutdown.append(close_sockets)

    async def page(request: web.Request) -> web.Response:
        path = request.path.rstrip("/")
        if path == "" and request.query.get("event"):     # the one-event dashboard's
            raise web.HTTPFound("/event/" + quote(request.query["event"], safe=""))
        if path.startswith("/event"):
            desk_for(repo, request)     # an event the room does not know: 404, why
        html = pages.render("/clock" if path == "/clock" else
                            "/event" if path.startswith("/event") else "/")
        return web.Response(text=html, content_type="text/html", headers={
            "Cache-Control": "no-cache", "Content-Security-Policy": page_csp(html)})

    async def snapshot(request: web.Request) -> web.Response:
        desk = desk_for(repo, request)
        snap = views.snapshot(EventView.of(desk, feed), service.now())
        found = session(request)
        snap["user"], snap["csrf"] = found if found else (None, None)
        snap["role"] = users.role(found[0]) if found else None
        snap["may"] = roles.offered(snap["role"])     # the controls the page shows
        snap["event"], snap["room"] = desk.name, cfg.title
        snap["summary"]["title"] = desk.title
        return web.json_response(snap)

    async def health(request: web.Request) -> web.Response:
        """For `pokerkiosk doctor` and the dashboard's health line: which event runs here,
        is the broker connected, which background task failed (and how), and how many
        commands a bug refused (each in the log with its traceback)."""
        ha = served.ha
        return web.json_response({"service": "pokerkiosk-director", "event": cfg.name,
                                  "broker_connected": served.connected.is_set(),
                                  "failed": dict(served.health),
                                  "internal_errors": service.tx.internal_errors,
                                  "leadership": ha.status() if ha is not None else None})

    async def players(request: web.Request) -> web.Response:
        view = EventView.of(desk_for(repo, request), feed)
        return web.json_response({"players": views.find_player(view,
                                                               request.query.get("q", ""))})

    async def login(request: web.Request) -> web.Response:
        body = await _json_body(request)
        user, password = body.get("user"), body.get("password")
        if not isinstance(user, str) or not isinstance(password, str):
            return _error(400, "user and password are required")
        who = request.remote or "?"
        wait = limiter.retry_after(who)
        if wait > 0:
            return web.json_response(
                {"ok": False, "error": f"too many failed logins: try again in {wait:.0f} s"},
                status=429, headers={"Retry-After": str(int(wait) + 1)})
        loop = asyncio.get_running_loop()
        users.refresh()
        problem = await loop.run_in_executor(None, users.check, user, password)
        if problem is not None:
            limiter.failed(who)
            return _error(403 if "guess" in problem else 401, problem)
        limiter.succeeded(who)
        cookie, csrf = store.create(user)
        resp = web.json_response({"ok": True, "user": user, "csrf": csrf,
                                  "role": users.role(user),
                                  "may": roles.offered(users.role(user))})
        resp.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", secure=secure,
                        max_age=SESSION_SECONDS, path="/")
        return resp

    async def logout(request: web.Request) -> web.Response:
        store.revoke(request.cookies.get(COOKIE, ""))
        resp = web.json_response({"ok": True})
        resp.del_cookie(COOKIE, path="/")
        return resp

    async def act(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        if request.content_type != "application/json":
            return _error(415, "send the command as application/json")
        cmd = await _json_body(request)
        kind = cmd.get("kind")
        if not isinstance(kind, str) or not kind or kind in INTERNAL:
            return _error(400, f"not a floor command: {kind!r}")
        desk = desk_for(repo, request)
        refused = role_refusal(users, user, kind)
        if refused is not None:
            return refused
        if kind in DESK_KINDS:
            return desk_act(served.bookings, cmd, user, desk.name)
        try:   # decoded here, once: a command that does not fit never reaches the core
            events = service.act(commands.decode(cmd), user, event=desk.name)
        except KioskError as exc:   # a refusal, a bad command, or a bug (internal error)
            return _error(400, str(exc))
        return web.json_response({"ok": True, "events": len(events)})

    async def import_csv(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to import players")
        desk = desk_for(repo, request)
        refused = role_refusal(users, user, "import")
        if refused is not None:
            return refused
        try:
            text = await request.text()
        except UnicodeDecodeError:
            return _error(400, "the CSV must be UTF-8 text")
        added, errors = import_players(service, text, desk.name)
        return web.json_response({"ok": not errors, "added": added, "errors": errors[:50]})

    async def ws(request: web.Request) -> web.WebSocketResponse:
        desk = desk_for(repo, request)
        sock = web.WebSocketResponse(heartbeat=20)
        await sock.prepare(request)
        sockets.add(sock)
        q = hub.subscribe()
        sender = asyncio.create_task(_feed(desk, feed, service.clock, sock, q))
        try:
            async for msg in sock:
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            sockets.discard(sock)
            sender.cancel()
            hub.unsubscribe(q)
            with contextlib.suppress(asyncio.CancelledError):
                await sender
        return sock

    app.router.add_get("/", page)
    app.router.add_get("/event", page)
    app.router.add_get("/event/{event}", page)
    app.router.add_get("/clock", page)
    app.router.add_get("/api/snapshot", snapshot)
    app.router.add_get("/api/players", players)
    app.router.add_get("/api/health", health)
    app.router.add_post("/api/login", login)
    app.router.add_post("/api/logout", logout)
    app.router.add_post("/api/act", act)
    app.router.add_post("/api/import", import_csv)
    app.router.add_get("/ws", ws)
    add_money_routes(app, repo)
    add_room_routes(app, service, feed, session, acting_user, users.role,
                    lambda user, kind: role_refusal(users, user, kind))
    add_printer_routes(app, served.printer, repo, acting_user)
    add_reservation_routes(app, served.bookings, session)   # before the players' catch-all
    add_league_routes(app, repo)
    add_release_routes(app, served.releases, acting_user,
                       lambda user, kind: role_refusal(users, user, kind))
    dealers = getattr(served, "dealers", None)     # the rotation (kiosk.director.adapters.dealers)
    if dealers is not None:
        add_dealer_routes(app, dealers, lambda r: (session(r) or (None,))[0], acting_user,
                          lambda user, kind: role_refusal(users, user, kind))
    add_player_routes(app, repo, hub)
    add_section_routes(app, service, feed, acting_user,
                       lambda user, kind: role_refusal(users, user, kind))
    add_chosen_section_routes(app, service, store, lambda r: (session(r) or (None,))[0],
                              acting_user)
    app.router.add_static("/static/", STATIC)
    return app


async def _feed(desk: Desk, feed: TableFeed, now: Clock, sock: web.WebSocketResponse,
                q: asyncio.Queue[dict[str, Any]]) -> None:
    """One event's feed: a snapshot first, then only what changed: its tables named by the
    notes waiting (merged), and the header at most every SUMMARY_EVERY seconds."""
    snap = views.snapshot(EventView.of(desk, feed), now())
    snap["summary"]["title"] = desk.title
    await sock.send_json(snap)
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
        t = now()
        view = EventView.of(desk, feed)     # the desk's tournament, as it is now
        tables = sorted({n for note in notes for n in note.get("tables", ())})
        live = [n for n in tables if n in view.tour.tables]
        if live:
            await sock.send_json({"type": "tables",
                                  "tables": [views.table_view(view, n, t) for n in live],
                                  "calls": views.calls(view, t),
                                  "moves": views.moves_in_transit(view)})
        summary_due = summary_due or any(note.get("type") == "summary" for note in notes)
        if summary_due and time.monotonic() - last_summary >= SUMMARY_EVERY:
            await sock.send_json({"type": "summary",
                                  "summary": {**views.summary(view, t), "title": desk.title},
                                  "calls": views.calls(view, t)})
            last_summary, summary_due = time.monotonic(), False
