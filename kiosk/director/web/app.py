"""The floor dashboard, the TV clock and the players' pages, served by the director
(aiohttp, no JS build): one app of the pages' routes (kiosk.director.web.routes).

Reading needs no login: the pages, /api/room, /api/snapshot, /api/players, the /ws live
feed, the players' pages and a reservation by phone. Acting needs the door
(kiosk.director.web.door): a floor login (an HttpOnly session cookie plus the session's
CSRF token in a header, see auth.py), from a page of this very origin, with a role that
allows the action (kiosk.director.web.roles); every route that acts is declared with its
`Action`, and the app is not built with one that is not.

The room page is `/`; one event's dashboard is `/event/NAME` (or `/event?event=NAME`);
every one-event API takes `?event=NAME` and reads the room's first event without it.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from kiosk.base.texts import M_
from kiosk.director.standby.leadership import Leadership
from kiosk.director.web.auth import FloorUsers, SessionStore
from kiosk.director.web.door import Door, Refused, error
from kiosk.director.web.pages import CSP
from kiosk.director.web.readers import Readers
from kiosk.director.web.routes.dealers import DealerRoutes
from kiosk.director.web.routes.event import EventRoutes
from kiosk.director.web.routes.leagues import LeagueRoutes
from kiosk.director.web.routes.live import LiveFeed
from kiosk.director.web.routes.money import MoneyRoutes
from kiosk.director.web.routes.players import PlayerPages
from kiosk.director.web.routes.printer import PrinterRoutes
from kiosk.director.web.routes.releases import ReleaseRoutes
from kiosk.director.web.routes.reservations import ReservationRoutes
from kiosk.director.web.routes.room import RoomRoutes
from kiosk.director.web.routes.sections import SectionRoutes
from kiosk.director.web.routes.session import SessionRoutes
from kiosk.director.web.routes.texts import TextRoutes
from kiosk.director.web.site import Served, Site

STATIC = Path(__file__).with_name("static")


def make_app(served: Served) -> web.Application:
    """The director's web app: every page's routes, their actions through one door."""
    cfg = served.config
    users = FloorUsers(dict(cfg.floor_users or {}), getattr(cfg, "floor_users_file", None),
                       allow_defaults=getattr(cfg, "allow_default_logins", False))
    store = SessionStore(getattr(cfg, "state_dir", None) if cfg.db != ":memory:" else None)
    site = Site(served, Door(users, store, Readers.of(cfg)))
    app = web.Application(client_max_size=4 * 1024 * 1024,
                          middlewares=[guard(served.ha, site.door)])
    # in this order: the reservations and the leagues before the players' catch-all
    for page in (SessionRoutes(site), RoomRoutes(site), EventRoutes(site),
                 LiveFeed(site, app), MoneyRoutes(site), PrinterRoutes(site),
                 ReservationRoutes(site, app), LeagueRoutes(site), ReleaseRoutes(site),
                 DealerRoutes(site), TextRoutes(site), PlayerPages(site, app),
                 SectionRoutes(site)):
        site.door.register(app, page.routes())
    app.router.add_static("/static/", STATIC)

    async def close_store(app: web.Application) -> None:
        store.close()

    app.on_cleanup.append(close_store)
    return app


def guard(ha: Leadership | None, door: Door) -> Middleware:
    """Every response: a standby sends it to the leader; a read's refusal (`Refused`)
    becomes the one error reply, in its reader's language; and the page's security
    headers."""
    @web.middleware
    async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        resp: web.StreamResponse | None = standby_redirect(ha, request)
        if resp is None:
            try:
                resp = await handler(request)
            except Refused as refused:
                resp = door.refuse(request, refused)
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp
    return guarded


def standby_redirect(ha: Leadership | None, request: web.Request) -> web.Response | None:
    """A standby sends the dashboard and the clock to the leader (its own health stays
    here, so the floor sees both machines); None when this director serves the request."""
    url = ha.leader_url() if ha is not None else None
    if url is None or request.path in ("/api/health",) or \
            request.path.startswith(("/static/", "/lang/")):
        return None
    target = url.rstrip("/") + request.path_qs
    if request.method == "GET" and request.path != "/ws":
        return web.Response(status=307, headers={"Location": target},
                            text=f"this director is the standby; the leader is at {url}")
    return error(503, M_("web.standby", "this director is the standby; the leader is at "
                         "{url}", url=url))
