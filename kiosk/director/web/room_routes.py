"""The room's actions over HTTP: a room command (a table moved or freed, an event's state, a
ticket given back) and a new event opened while the room runs, both by floor login."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.core import room_commands
from kiosk.errors import KioskError, RuleError

INTERNAL = {"provision_tables", "add_event", "issue_ticket", "use_ticket", "add_player"}


def add_room_routes(app: web.Application, director: Any,
                    acting_user: Callable[[web.Request], str | None]) -> None:
    async def body_of(request: web.Request) -> tuple[str | None, Any]:
        user = acting_user(request)
        if user is None:
            return None, _error(401, "log in as floor staff to act")
        try:
            body = await request.json()
        except ValueError:
            return None, _error(400, "the body is not JSON")
        if not isinstance(body, dict):
            return None, _error(400, "the body must be a JSON object")
        return user, body

    async def room_act(request: web.Request) -> web.Response:
        user, body = await body_of(request)
        if user is None:
            return body  # type: ignore[no-any-return]
        kind = body.get("kind")
        if not isinstance(kind, str) or kind in INTERNAL:   # the room decides these itself
            return _error(400, f"not a floor room command: {kind!r}")
        try:
            events = director.room_act(room_commands.decode(body), user)
        except (RuleError, KioskError) as exc:
            return _error(400, str(exc))
        except (TypeError, ValueError, KeyError) as exc:
            return _error(400, f"bad {kind} command: {exc}")
        return web.json_response({"ok": True, "events": len(events)})

    async def open_event(request: web.Request) -> web.Response:
        user, body = await body_of(request)
        if user is None:
            return body  # type: ignore[no-any-return]
        try:
            desk = director.open_event(body, user)
        except (RuleError, KioskError) as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "event": desk.name})

    app.router.add_post("/api/room/act", room_act)
    app.router.add_post("/api/room/events", open_event)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)
