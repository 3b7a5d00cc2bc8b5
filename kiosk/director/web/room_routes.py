"""The room's API, registered by app.py: the room at a glance and the room's actions.

GET /api/room is the room page's snapshot (no login, like every read). POST /api/room/act
takes one room command (kiosk.core.model.room_commands: assign_table, free_table,
set_event_state, return_ticket, refund_ticket...) and POST /api/room/events opens a new
event from the keys of a room.toml `[[events]]` entry; both need a floor login whose role
allows the action, and both are audited in the room's log with the user.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.base.errors import KioskError, RuleError
from kiosk.core.model import room_commands
from kiosk.director.centre.room_service import RoomService
from kiosk.director.views.room_views import room_snapshot
from kiosk.director.views.table_feed import TableFeed
from kiosk.director.web import roles

Session = Callable[[web.Request], "tuple[str, str] | None"]


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


async def _body(request: web.Request) -> dict[str, Any] | web.Response:
    if request.content_type != "application/json":
        return _error(415, "send the command as application/json")
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _error(400, "body is not JSON")
    return body if isinstance(body, dict) else _error(400, "body must be a JSON object")


def add_room_routes(app: web.Application, service: RoomService, feed: TableFeed,
                    session: Session, acting_user: Callable[[web.Request], str | None],
                    role: Callable[[str], str],
                    refusal: Callable[[str, str], web.Response | None]) -> None:
    async def room(request: web.Request) -> web.Response:
        snap = room_snapshot(service.repo, feed, service.now())
        found = session(request)
        snap["user"], snap["csrf"] = found if found else (None, None)
        snap["role"] = role(found[0]) if found else None
        snap["may"] = roles.offered(snap["role"])     # the controls the page shows
        return web.json_response(snap)

    async def act(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        body = await _body(request)
        if isinstance(body, web.Response):
            return body
        try:
            cmd = room_commands.decode(body)
        except RuleError as exc:
            return _error(400, str(exc))
        refused = refusal(user, cmd.kind)
        if refused is not None:
            return refused
        event = getattr(cmd, "event", None)
        known = service.repo.room.events
        if event is not None and event not in known:
            return _error(404, f"no event {event!r} in this room (events: "
                               f"{', '.join(known) or 'none'})")
        try:
            events = service.room_act(cmd, user)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "events": len(events)})

    async def open_event(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        refused = refusal(user, "add_event")
        if refused is not None:
            return refused
        body = await _body(request)
        if isinstance(body, web.Response):
            return body
        try:
            desk = service.open_event(body, user)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "event": desk.name})

    app.router.add_get("/api/room", room)
    app.router.add_post("/api/room/act", act)
    app.router.add_post("/api/room/events", open_event)
