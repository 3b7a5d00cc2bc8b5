"""The floor's sections on the web, registered by app.py.

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
from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.base.errors import KioskError, RuleError
from kiosk.core.model.commands import SetBreakOrder
from kiosk.core.model.room_events import Section
from kiosk.core.room.sections import RoomSections, SetSections, parse_ranges, ranges
from kiosk.director.centre.room_service import RoomService
from kiosk.director.views.section_view import room_find, section_view
from kiosk.director.views.table_feed import TableFeed
from kiosk.director.web.auth import SessionStore
from kiosk.director.web.pages import render_plain
from kiosk.director.web.room_routes import _body, _error


def sections_view(secs: RoomSections) -> dict[str, Any]:
    """The sections as the room page and the phones read them."""
    return {"sections": [{"name": n, "tables": ts, "ranges": ranges(ts), "count": len(ts)}
                         for n, ts in secs.sections.items()],
            "set_by": secs.set_by}


def _parse(body: dict[str, Any]) -> SetSections:
    raw = body.get("sections")
    if not isinstance(raw, list):
        raise RuleError("send {\"sections\": [{\"name\": ..., \"tables\": \"1-60\"}, ...]}")
    out = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise RuleError(f"section {i}: a name and its tables")
        tables = item.get("tables", "")
        if not isinstance(tables, str | list):
            raise RuleError(f"section {item['name']!r}: tables as ranges such as 1-60")
        try:
            nums = parse_ranges(tables)
        except RuleError as exc:
            raise RuleError(f"section {item['name']!r}: {exc}") from None
        out.append(Section(name=item["name"].strip()[:40], tables=nums))
    return SetSections(sections=out)


def order_of(secs: RoomSections, names: Any) -> SetBreakOrder:
    """Section names (a list, or "Pavilion, then Amazon Blue") as the event's command."""
    if isinstance(names, str):
        names = [n.strip() for n in re.split(r",|\bthen\b", names)]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RuleError("name the sections in the order they break")
    wanted = [n for n in names if n]
    unknown = [n for n in wanted if n not in secs.sections]
    if unknown:
        raise RuleError(f"no section {unknown[0]!r} (sections: "
                        f"{', '.join(secs.sections) or 'none'})")
    return SetBreakOrder(sections=[Section(name=n, tables=secs.sections[n])
                                   for n in dict.fromkeys(wanted)])


def add_chosen_section_routes(app: web.Application, service: RoomService,
                              store: SessionStore,
                              session_user: Callable[[web.Request], str | None],
                              acting_user: Callable[[web.Request], str | None]) -> None:
    """Each floor login's own section, on the server."""
    def known(name: str) -> bool:
        return name in service.repo.room.floor_sections.sections

    async def mine(request: web.Request) -> web.Response:
        user = session_user(request)
        chosen = store.section(user) if user else ""
        return web.json_response({"user": user, "section": chosen if known(chosen) else ""})

    async def choose(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to choose your section")
        body = await _body(request)
        if isinstance(body, web.Response):
            return body
        name = body.get("section")
        if not isinstance(name, str) or (name and not known(name)):
            return _error(400, f"no section {name!r}")
        store.choose_section(user, name)
        return web.json_response({"ok": True, "section": name})

    app.router.add_get("/api/room/my-section", mine)
    app.router.add_post("/api/room/my-section", choose)


def add_section_routes(app: web.Application, service: RoomService, feed: TableFeed,
                       acting_user: Callable[[web.Request], str | None],
                       refusal: Callable[[str, str], web.Response | None]) -> None:
    async def listed(request: web.Request) -> web.Response:
        return web.json_response(sections_view(service.repo.room.floor_sections))

    async def set_them(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        refused = refusal(user, "set_sections")
        if refused is not None:
            return refused
        body = await _body(request)
        if isinstance(body, web.Response):
            return body
        try:
            cmd = _parse(body)
            service.room_act(cmd, user)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, **sections_view(
            service.repo.room.floor_sections)})

    async def break_order(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        refused = refusal(user, "set_break_order")
        if refused is not None:
            return refused
        body = await _body(request)
        if isinstance(body, web.Response):
            return body
        event = body.get("event")
        if not isinstance(event, str) or event not in service.repo.room.events:
            return _error(404, f"no event {event!r} in this room")
        try:
            cmd = order_of(service.repo.room.floor_sections, body.get("sections"))
            service.act(cmd, user, event=event)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "sections": [s.name for s in cmd.sections]})

    async def one_section(request: web.Request) -> web.Response:
        name = request.query.get("name") or None
        if name is not None and name not in service.repo.room.floor_sections.sections:
            return _error(404, f"no section {name!r}")
        return web.json_response(section_view(service.repo, feed, service.now(), name))

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=render_plain("section.html", "Section"),
                            content_type="text/html")

    async def find(request: web.Request) -> web.Response:
        return web.json_response({"players": room_find(service.repo, feed,
                                                       request.query.get("q", "")[:60])})

    app.router.add_get("/api/room/find", find)
    app.router.add_get("/api/room/sections", listed)
    app.router.add_get("/api/room/section", one_section)
    app.router.add_get("/floor/section", page)
    app.router.add_post("/api/room/break-order", break_order)
    app.router.add_post("/api/room/sections", set_them)
