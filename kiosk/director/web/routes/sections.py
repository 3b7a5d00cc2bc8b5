"""The floor's sections on the web: the room's sections, each login's own, one section's
phone page and the room's player search.

GET /api/room/sections lists them (no login, like every read): each with its tables as
ranges, the section of every table, and who set them. POST /api/room/sections sets them
all at once from the room page's form, tables written as ranges ("1-60"): parsed here,
decided by the room (each table in one section at most) and logged as a room event with
the user; only a login whose role may `set_sections` (a director) may.

GET /api/room/my-section is the section the logged-in user works in ("" for the whole
room), kept with the floor's sessions so a fresh browser or phone of that login opens on
it; POST /api/room/my-section {"section": "Pavilion"} chooses it ("" the whole room).

GET /api/room/find?q=... finds players across the room's events (name, id or card).
GET /api/room/section?name=NAME is one section for its staff's phone (/floor/section):
its calls, running clocks, moves in transit and tables that need the floor.

POST /api/room/break-order {"event": ..., "sections": ["Pavilion", "Amazon Blue"]} gives
an event the floor's break order of sections by name: resolved here to their tables and
logged in the event's stream (`set_break_order`), so a replay needs no room file.
"""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.model.commands import SetBreakOrder
from kiosk.core.model.room_events import Section
from kiosk.core.room.sections import RoomSections, SetSections, parse_ranges, ranges
from kiosk.director.views.section_view import room_find, section_view
from kiosk.director.web import pages
from kiosk.director.web.door import Action, Call, Refused, Route, get, post, refusal_of
from kiosk.director.web.site import Site
from kiosk.lang.active import N_


def sections_view(secs: RoomSections) -> dict[str, Any]:
    """The sections as the room page and the phones read them."""
    return {"sections": [{"name": n, "tables": ts, "ranges": ranges(ts), "count": len(ts)}
                         for n, ts in secs.sections.items()],
            "set_by": secs.set_by}


def _parse(body: dict[str, Any]) -> SetSections:
    raw = body.get("sections")
    if not isinstance(raw, list):
        raise RuleError(M_("section.body", "send {{\"sections\": [{{\"name\": ..., "
                           "\"tables\": \"1-60\"}}, ...]}}"))
    out = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise RuleError(M_("section.item", "section {i}: a name and its tables", i=i))
        tables = item.get("tables", "")
        if not isinstance(tables, str | list):
            raise RuleError(M_("section.tables_shape", "section '{name}': tables as ranges "
                               "such as 1-60", name=item["name"]))
        try:
            nums = parse_ranges(tables)
        except RuleError as exc:
            raise RuleError(M_("section.bad_tables", "section '{name}': {why}",
                               name=item["name"], why=refusal_of(exc))) from None
        out.append(Section(name=item["name"].strip()[:40], tables=nums))
    return SetSections(sections=out)


def order_of(secs: RoomSections, names: Any) -> SetBreakOrder:
    """Section names (a list, or "Pavilion, then Amazon Blue") as the event's command."""
    if isinstance(names, str):
        names = [n.strip() for n in re.split(r",|\bthen\b", names)]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RuleError(M_("break.order_names", "name the sections in the order they break"))
    wanted = [n for n in names if n]
    unknown = [n for n in wanted if n not in secs.sections]
    if unknown:
        raise RuleError(M_("section.unknown", "no section '{name}' (sections: {sections})",
                           name=unknown[0], sections=", ".join(secs.sections))
                        if secs.sections else
                        M_("section.unknown_none", "no section '{name}' (sections: none)",
                           name=unknown[0]))
    return SetBreakOrder(sections=[Section(name=n, tables=secs.sections[n])
                                   for n in dict.fromkeys(wanted)])


class SectionRoutes:
    """The room's sections, set by a director; each login's own section; one section's
    page for its staff's phones."""

    def __init__(self, site: Site) -> None:
        self.served = site.served
        self.service = site.served.service
        self.door = site.door

    def routes(self) -> list[Route]:
        return [get("/api/room/find", self.find), get("/api/room/sections", self.listed),
                get("/api/room/section", self.one_section), get("/floor/section", self.page),
                get("/api/room/my-section", self.mine),
                post("/api/room/my-section",
                     Action(kind="choose_section", login="choose your section"), self.choose),
                post("/api/room/break-order", Action(kind="set_break_order"),
                     self.break_order),
                post("/api/room/sections", Action(kind="set_sections"), self.set_them)]

    @property
    def sections(self) -> RoomSections:
        return self.service.repo.room.floor_sections

    async def listed(self, request: web.Request) -> web.Response:
        return web.json_response(sections_view(self.sections))

    async def set_them(self, call: Call) -> dict[str, Any]:
        self.service.room_act(_parse(call.body), call.user)
        return {"ok": True, **sections_view(self.sections)}

    async def break_order(self, call: Call) -> dict[str, Any]:
        event = call.body.get("event")
        if not isinstance(event, str) or event not in self.service.repo.room.events:
            raise Refused(404, M_("web.no_event_in_room", "no event {event} in this room",
                                  event=repr(event)))
        cmd = order_of(self.sections, call.body.get("sections"))
        self.service.act(cmd, call.user, event=event)
        return {"ok": True, "sections": [s.name for s in cmd.sections]}

    async def mine(self, request: web.Request) -> web.Response:
        """The section the logged-in user works in ("" for the whole room)."""
        user = self.door.user(request)
        chosen = self.door.store.section(user) if user else ""
        return web.json_response({"user": user, "section": chosen
                                  if chosen in self.sections.sections else ""})

    async def choose(self, call: Call) -> dict[str, Any]:
        name = call.body.get("section")
        if not isinstance(name, str) or (name and name not in self.sections.sections):
            raise Refused(400, M_("section.no_such", "no section {name}", name=repr(name)))
        self.door.store.choose_section(call.user, name)
        return {"ok": True, "section": name}

    async def one_section(self, request: web.Request) -> web.Response:
        name = request.query.get("name") or None
        if name is not None and name not in self.sections.sections:
            raise Refused(404, M_("section.no_such", "no section {name}", name=repr(name)))
        return web.json_response(section_view(self.service.repo, self.served.feed,
                                              self.service.now(), name))

    async def page(self, request: web.Request) -> web.Response:
        return pages.reply(pages.render_plain("section.html", N_("Section"),
                                              self.door.reading(request)))

    async def find(self, request: web.Request) -> web.Response:
        return web.json_response({"players": room_find(
            self.service.repo, self.served.feed, request.query.get("q", "")[:60])})
