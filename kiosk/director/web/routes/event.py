"""One event's dashboard and the TV clock: their pages, the event's snapshot and player
search (no login, like every read), and the floor's commands for the event.

The dashboard is `/event/NAME` (or `/event?event=NAME`); every one-event API takes
`?event=NAME` and reads the room's first event without it (kiosk.director.web.events).
POST /api/act takes one floor command of the event (its kind checked against the
login's role by the door; the tables' own and the house settings are no floor command),
the desk's reservation commands included; POST /api/import registers players from CSV.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from kiosk.base.texts import M_
from kiosk.core.model import commands
from kiosk.director.adapters.csv_import import import_players
from kiosk.director.views import views
from kiosk.director.views.room_views import EventView
from kiosk.director.web import pages
from kiosk.director.web.door import Action, Call, Refused, Route, get, post
from kiosk.director.web.events import event_for
from kiosk.director.web.routes.reservations import DESK_KINDS, desk_act
from kiosk.director.web.site import Site

# commands only tables and the director itself send (the house settings: from the config)
INTERNAL = {"report", "tick", "set_chip_race", "set_chip_set", "set_h4h_at_bubble",
            "set_satellite_leftover"}


def floor_kind(body: dict[str, Any]) -> str:
    """The kind of the floor command `body` holds; 400 for one the floor never gives."""
    kind = body.get("kind")
    if not isinstance(kind, str) or not kind or kind in INTERNAL:
        raise Refused(400, M_("web.not_floor_command", "not a floor command: {kind}",
                              kind=repr(kind)))
    return kind


class EventRoutes:
    """One event's pages, reads and commands."""

    def __init__(self, site: Site) -> None:
        self.served = site.served
        self.service = site.served.service
        self.door = site.door

    def routes(self) -> list[Route]:
        return [get("/event", self.page), get("/event/{event}", self.page),
                get("/clock", self.clock), get("/api/snapshot", self.snapshot),
                get("/api/players", self.players),
                post("/api/act", Action(kind=floor_kind), self.act),
                post("/api/import", Action(kind="import", body="csv", login="import players"),
                     self.import_csv)]

    async def page(self, request: web.Request) -> web.Response:
        event_for(self.service.repo, request)   # an event the room does not know: 404, why
        return pages.reply(pages.render("/event", self.door.reading(request)), own_scripts=True)

    async def clock(self, request: web.Request) -> web.Response:
        return pages.reply(pages.render("/clock", self.door.reading(request)), own_scripts=True)

    async def snapshot(self, request: web.Request) -> web.Response:
        desk = event_for(self.service.repo, request)
        snap = views.snapshot(EventView.of(desk, self.served.feed), self.service.now())
        snap.update(self.door.who(request))
        snap["event"], snap["room"] = desk.name, self.served.config.title
        snap["summary"]["title"] = desk.title
        return web.json_response(snap)

    async def players(self, request: web.Request) -> web.Response:
        view = EventView.of(event_for(self.service.repo, request), self.served.feed)
        return web.json_response({"players": views.find_player(view,
                                                               request.query.get("q", ""))})

    async def act(self, call: Call) -> dict[str, Any]:
        desk = event_for(self.service.repo, call.request)
        if call.body["kind"] in DESK_KINDS:
            return desk_act(self.served.bookings, call.body, call.user, desk.name)
        # decoded here, once: a command that does not fit never reaches the core
        events = self.service.act(commands.decode(call.body), call.user, event=desk.name)
        return {"ok": True, "events": len(events)}

    async def import_csv(self, call: Call) -> dict[str, Any]:
        desk = event_for(self.service.repo, call.request)
        added, errors = import_players(self.service, call.body, desk.name)
        return self.door.speak(call.request, {"ok": not errors, "added": added,
                                              "errors": errors[:50]}, "errors")
