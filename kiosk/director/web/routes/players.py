"""The players' own pages under /p/: public, read only.

Nothing here acts: these routes only read the director, and take no cookie or token
into account, so a phone holds none of the floor's powers. Every route is limited per
address (429 with Retry-After); the live feed is server-sent events, one encoded
message per change for all phones (player_feed.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiohttp import web

from kiosk.base.texts import M_
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.repository import Repository
from kiosk.director.views.player_views import event_parts, seat_lookup, start_of, starts_at
from kiosk.director.web import pages
from kiosk.director.web.door import Refused, Route, get, limited
from kiosk.director.web.events import no_event_here
from kiosk.director.web.player_feed import Phone, PlayerFeed
from kiosk.director.web.qr import player_page_url, qr_png, qr_svg
from kiosk.director.web.ratelimit import RateLimiter, retry_after
from kiosk.director.web.site import Site
from kiosk.lang.active import N_
from kiosk.lang.catalogue import catalogue

PING = 15.0             # seconds between keep-alives: a phone sees a dead link by them


def public_counts(config: Any, event: str) -> bool:
    """Whether the event shows its chip counts to players (`public_counts`, default on)."""
    for spec in getattr(config, "events", ()):
        if spec.name == event:
            return bool(getattr(spec.config, "public_counts", True))
    return True


def events_index(repo: Repository) -> dict[str, Any]:
    """The room's events a player can follow, with how far each is."""
    out = []
    for name, desk in repo.events.items():
        info = repo.room.events.get(name)
        state = info.state if info is not None else ""
        if state == "archived":
            continue
        tour = desk.tour
        out.append({"name": name, "title": desk.title, "state": state,
                     "kind": info.kind if info is not None else "event",
                     "started": tour.started, "finished": tour.finished_at is not None,
                     "players_left": tour.alive, "entries": tour.entries,
                     "starts_at": starts_at(start_of(repo.config, name)),
                     "buy_in": tour.prize.buy_in, "url": f"/p/{name}"})
    return {"room": repo.config.title or repo.config.name, "events": out,
            "timezone": str(getattr(repo.config, "timezone", "")),
            "currency": str(getattr(repo.config, "currency", ""))}


class PlayerPages:
    """/p/: the room's events, each event's page, its state, a seat lookup, its QR code and
    its live stream; the feed starts and stops with the app."""

    def __init__(self, site: Site, app: web.Application,
                 limiter: RateLimiter | None = None) -> None:
        self.repo = site.served.service.repo
        self.hub = site.served.hub
        self.limits = limiter or RateLimiter()
        self.door = site.door
        self.now = self.repo.clock
        self.feed = PlayerFeed(self.build, self.now)
        self.tasks: list[tuple[asyncio.Task[None], Any]] = []
        app.on_startup.append(self.start)
        app.on_shutdown.append(self.stop)
        app.on_cleanup.append(self.cleanup)

    def routes(self) -> list[Route]:
        event = "{event:[A-Za-z0-9_-]+}"
        reads = [("/p/", self.index), ("/p/events.json", self.index_json),
                 (f"/p/{event}", self.page), (f"/p/{event}/", self.page),
                 (f"/p/{event}/state.json", self.state), (f"/p/{event}/events", self.stream),
                 (f"/p/{event}/seat", self.seat), (f"/p/{event}/qr.{{kind:svg|png}}", self.qr),
                 ("/p/{rest:.+}", self.missing)]
        return [get("/p", self.slash),
                *(get(path, limited(self.limits, handler)) for path, handler in reads)]

    def build(self, event: str, t: float) -> dict[str, Any] | None:
        desk = self.repo.events.get(event)
        if desk is None:
            return None
        config = self.repo.config
        return event_parts(desk.tour, desk.title, public_counts(config, event), t,
                           start_of(config, event), str(getattr(config, "timezone", "")),
                           str(getattr(config, "currency", "")))

    async def start(self, app: web.Application) -> None:
        q = self.hub.subscribe()
        self.tasks.append((asyncio.create_task(self.feed.run(q)), q))
        self.tasks.append((asyncio.create_task(self.feed.keep_alive(PING)), None))

    async def stop(self, app: web.Application) -> None:
        self.feed.close()

    async def cleanup(self, app: web.Application) -> None:
        for task, q in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if q is not None:
                self.hub.unsubscribe(q)

    def desk_of(self, request: web.Request) -> EventAggregate | None:
        return self.repo.events.get(request.match_info["event"])

    async def index(self, request: web.Request) -> web.Response:
        return pages.reply(pages.render_public("players-index.html", N_("Live events"),
                                               self.door.reading(request, "player"),
                                               ours=True))

    async def index_json(self, request: web.Request) -> web.Response:
        return web.json_response(events_index(self.repo))

    async def missing(self, request: web.Request) -> web.Response:
        name = request.match_info.get("event") or request.match_info.get("rest", "")
        reading = self.door.reading(request, "player")
        said = catalogue(reading.code).gettext(N_("There is no event called {event} in this "
                                                  "room.")).replace("{event}", name[:200])
        return pages.reply(pages.render_public("players-missing.html", N_("No such event"),
                                               reading, ours=True, said=said), status=404)

    async def page(self, request: web.Request) -> web.Response:
        desk, name = self.desk_of(request), request.match_info["event"]
        if desk is None:
            return await self.missing(request)
        return pages.reply(pages.render_public("players.html", desk.title,
                                               self.door.reading(request, "player"), event=name))

    async def state(self, request: web.Request) -> web.Response:
        parts = self.build(request.match_info["event"], self.now())
        if parts is None:
            raise Refused(404, no_event_here(request.match_info["event"]))
        return web.json_response({"t": self.now(), "parts": parts})

    async def seat(self, request: web.Request) -> web.Response:
        desk = self.desk_of(request)
        if desk is None:
            raise Refused(404, no_event_here(request.match_info["event"]))
        status, body = seat_lookup(desk.tour, request.query.get("name", ""))
        for row in body.get("matches", ()):
            self.door.speak(request, row, "message")
        return web.json_response(self.door.speak(request, body, "error", "message"),
                                 status=status)

    async def qr(self, request: web.Request) -> web.Response:
        name = request.match_info["event"]
        if self.desk_of(request) is None:
            raise Refused(404, no_event_here(name))
        url = player_page_url(self.repo.config, name)
        png = request.match_info["kind"] == "png"
        return web.Response(body=qr_png(url) if png else qr_svg(url),
                            content_type="image/png" if png else "image/svg+xml",
                            headers={"Cache-Control": "max-age=300", "X-Player-Url": url})

    async def stream(self, request: web.Request) -> web.StreamResponse:
        name, who = request.match_info["event"], request.remote or "?"
        ch = self.feed.channel(name)
        if ch is None:
            raise Refused(404, no_event_here(name))
        if not self.limits.open_stream(who):
            raise Refused(429, M_("web.too_many_pages", "too many live pages open from this "
                                  "address"), {"Retry-After": retry_after(PING)})
        resp = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        try:
            await resp.prepare(request)
            version, full = ch.version, ch.full
            await resp.write(b"retry: 3000\n" + full)
            if request.transport is None or self.feed.closing:
                return resp
            phone = Phone(request.transport,
                          resp.headers.get("Transfer-Encoding") == "chunked", version)
            ch.join(phone)
            await phone.done                   # until it leaves, or the director stops
        except ConnectionError:
            pass
        finally:
            self.limits.close_stream(who)
        return resp

    async def slash(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("/p/")
