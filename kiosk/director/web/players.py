"""The players' own pages under /p/: public, read only, registered by app.py.

Nothing here acts: these routes only read the director, and take no cookie or token
into account, so a phone holds none of the floor's powers. Every route is limited per
address (429 with Retry-After); the live feed is server-sent events, one encoded
message per change for all phones (player_feed.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
from collections.abc import Awaitable, Callable
from pathlib import Path
from string import Template
from typing import Any

from aiohttp import web

from kiosk.director.centre.desk import Desk
from kiosk.director.centre.repository import Repository
from kiosk.director.views.hub import Hub
from kiosk.director.views.player_views import event_parts, seat_lookup
from kiosk.director.web.player_feed import Phone, PlayerFeed
from kiosk.director.web.qr import player_page_url, qr_png, qr_svg
from kiosk.director.web.ratelimit import RateLimiter, retry_after

STATIC = Path(__file__).with_name("static")
PING = 15.0             # seconds between keep-alives: a phone sees a dead link by them
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def public_counts(config: Any, event: str) -> bool:
    """Whether the event shows its chip counts to players (`public_counts`, default on)."""
    for spec in getattr(config, "events", ()):
        if spec.name == event:
            return bool(getattr(spec.config, "public_counts", True))
    return True


def events_index(repo: Repository) -> dict[str, Any]:
    """The room's events a player can follow, with how far each is."""
    out = []
    for name, desk in repo.desks.items():
        info = repo.room.events.get(name)
        state = info.state if info is not None else ""
        if state == "archived":
            continue
        tour = desk.tour
        out.append({"name": name, "title": desk.title, "state": state,
                     "kind": info.kind if info is not None else "event",
                     "started": tour.started, "finished": tour.finished_at is not None,
                     "players_left": tour.alive, "entries": tour.entries,
                     "url": f"/p/{name}"})
    return {"room": repo.config.title or repo.config.name, "events": out}


def _error(status: int, message: str, **extra: Any) -> web.Response:
    return web.json_response({"ok": False, "error": message, **extra}, status=status)


def _too_many(message: str, wait: float) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=429,
                             headers={"Retry-After": retry_after(wait)})


@functools.cache
def _file(name: str, mtime: float) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def _render(body_file: str, title: str, **values: str) -> str:
    """A page from the dashboard's shared head around a body of static/, values escaped."""
    def read(name: str) -> str:
        return _file(name, (STATIC / name).stat().st_mtime)
    safe = {k: html.escape(v, quote=True) for k, v in values.items()}
    body = Template(read(body_file)).substitute(title=html.escape(title), **safe)
    return Template(read("page.html")).substitute(
        title=html.escape(title), body=body,
        styles='<link rel="stylesheet" href="/static/players.css">\n')


def add_player_routes(app: web.Application, repo: Repository, hub: Hub,
                      limiter: RateLimiter | None = None) -> PlayerFeed:
    """Register /p/ on `app`; its feed starts and stops with the app."""
    limits = limiter or RateLimiter()
    now = repo.clock

    def build(event: str, t: float) -> dict[str, Any] | None:
        desk = repo.desks.get(event)
        if desk is None:
            return None
        return event_parts(desk.tour, desk.title, public_counts(repo.config, event), t)

    feed = PlayerFeed(build, now)
    tasks: list[tuple[asyncio.Task[None], Any]] = []

    async def start(app: web.Application) -> None:
        q = hub.subscribe()
        tasks.append((asyncio.create_task(feed.run(q)), q))
        tasks.append((asyncio.create_task(feed.keep_alive(PING)), None))

    async def stop(app: web.Application) -> None:
        feed.close()

    async def cleanup(app: web.Application) -> None:
        for task, q in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if q is not None:
                hub.unsubscribe(q)

    app.on_startup.append(start)
    app.on_shutdown.append(stop)
    app.on_cleanup.append(cleanup)

    def limited(handler: Handler) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            wait = limits.take(request.remote or "?")
            if wait > 0:
                return _too_many(f"too many requests from this address: try again in "
                                 f"{retry_after(wait)} s", wait)
            return await handler(request)
        return guarded

    def desk_of(request: web.Request) -> Desk | None:
        return repo.desks.get(request.match_info["event"])

    async def index(request: web.Request) -> web.Response:
        return web.Response(text=_render("players-index.html", "Live events"),
                            content_type="text/html", headers={"Cache-Control": "no-cache"})

    async def index_json(request: web.Request) -> web.Response:
        return web.json_response(events_index(repo))

    async def missing(request: web.Request) -> web.Response:
        name = request.match_info.get("event") or request.match_info.get("rest", "")
        return web.Response(text=_render("players-missing.html", "No such event",
                                         event=name[:200]), status=404,
                            content_type="text/html")

    async def page(request: web.Request) -> web.Response:
        desk, name = desk_of(request), request.match_info["event"]
        if desk is None:
            return await missing(request)
        return web.Response(text=_render("players.html", desk.title, event=name),
                            content_type="text/html", headers={"Cache-Control": "no-cache"})

    async def state(request: web.Request) -> web.Response:
        parts = build(request.match_info["event"], now())
        if parts is None:
            return _error(404, f"no event {request.match_info['event']!r} here")
        return web.json_response({"t": now(), "parts": parts})

    async def seat(request: web.Request) -> web.Response:
        desk = desk_of(request)
        if desk is None:
            return _error(404, f"no event {request.match_info['event']!r} here")
        status, body = seat_lookup(desk.tour, request.query.get("name", ""))
        return web.json_response(body, status=status)

    async def qr(request: web.Request) -> web.Response:
        name = request.match_info["event"]
        if desk_of(request) is None:
            return _error(404, f"no event {name!r} here")
        url = player_page_url(repo.config, name)
        png = request.match_info["kind"] == "png"
        return web.Response(body=qr_png(url) if png else qr_svg(url),
                            content_type="image/png" if png else "image/svg+xml",
                            headers={"Cache-Control": "max-age=300", "X-Player-Url": url})

    async def stream(request: web.Request) -> web.StreamResponse:
        name, who = request.match_info["event"], request.remote or "?"
        ch = feed.channel(name)
        if ch is None:
            return _error(404, f"no event {name!r} here")
        if not limits.open_stream(who):
            return _too_many("too many live pages open from this address", PING)
        resp = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        try:
            await resp.prepare(request)
            version, full = ch.version, ch.full
            await resp.write(b"retry: 3000\n" + full)
            if request.transport is None or feed.closing:
                return resp
            phone = Phone(request.transport,
                          resp.headers.get("Transfer-Encoding") == "chunked", version)
            ch.join(phone)
            await phone.done                   # until it leaves, or the director stops
        except ConnectionError:
            pass
        finally:
            limits.close_stream(who)
        return resp

    async def slash(request: web.Request) -> web.Response:
        raise web.HTTPFound("/p/")

    event = "{event:[A-Za-z0-9_-]+}"
    app.router.add_get("/p", slash)
    app.router.add_get("/p/", limited(index))
    app.router.add_get("/p/events.json", limited(index_json))
    app.router.add_get(f"/p/{event}", limited(page))
    app.router.add_get(f"/p/{event}/", limited(page))
    app.router.add_get(f"/p/{event}/state.json", limited(state))
    app.router.add_get(f"/p/{event}/events", limited(stream))
    app.router.add_get(f"/p/{event}/seat", limited(seat))
    app.router.add_get(f"/p/{event}/qr.{{kind:svg|png}}", limited(qr))
    app.router.add_get("/p/{rest:.+}", limited(missing))
    return feed
