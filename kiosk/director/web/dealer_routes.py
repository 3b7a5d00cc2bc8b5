"""The dealers' pages and API, registered by app.py.

GET /api/dealers (floor login) is the board: each table's dealer, minutes into the down,
the next push, the strings with their reliefs, the break queue, the EO list and the alerts.
POST /api/dealers/roster adds or removes a dealer in room.toml (a director's login; the
badge and the PIN kept only as hashes). POST /api/dealers/act takes the floor's dealer
commands (clock in and out, the EO list and
a release, back from break, a push the floor makes, a PIN lockout cleared), audited in the
room's log with the user. GET /dealers is the break room's big-screen roadmap and, with
`?dealer=NAME`, a dealer's own phone page; like /clock it needs no login, and its data
(GET /api/dealers/public) holds names and tables only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.base.errors import KioskError, RuleError
from kiosk.core.model import room_commands
from kiosk.director.adapters.dealers import Dealers
from kiosk.director.web import pages

FLOOR_KINDS = frozenset({"dealer_clock_in", "dealer_clock_out", "dealer_sign_early_out",
                         "dealer_release", "dealer_back", "dealer_push", "dealer_pin_clear"})


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


def add_dealer_routes(app: web.Application, dealers: Dealers,
                      user_of: Callable[[web.Request], str | None],
                      acting_user: Callable[[web.Request], str | None],
                      refusal: Callable[[str, str], web.Response | None]) -> None:
    async def board(request: web.Request) -> web.Response:
        if user_of(request) is None:
            return _error(401, "log in as floor staff to see the dealers")
        return web.json_response({"ok": True, **dealers.board()})

    async def public(request: web.Request) -> web.Response:
        out: dict[str, Any] = dealers.public()
        name = request.query.get("dealer", "")
        if name:
            out["me"] = dealers.where(name)
        return web.json_response(out)

    async def act(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        try:
            body = await request.json()
            cmd = room_commands.decode(body if isinstance(body, dict) else {})
        except (ValueError, RuleError) as exc:
            return _error(400, str(exc))
        if cmd.kind not in FLOOR_KINDS:
            return _error(400, f"{cmd.kind} is not a dealer command the floor gives")
        refused = refusal(user, cmd.kind)
        if refused is not None:
            return refused
        try:
            events = dealers.service.room_act(cmd, user)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "events": len(events)})

    async def edit_roster(request: web.Request) -> web.Response:
        """Add (with a badge or PIN, kept only as hashes) or remove a dealer: a director's."""
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to act")
        refused = refusal(user, "dealer_roster")
        if refused is not None:
            return refused
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "body is not JSON")
        if not isinstance(body, dict) or body.get("action") not in ("add", "remove") \
                or not isinstance(body.get("name"), str):
            return _error(400, "send {action: add|remove, name, badge?, pin?}")
        badge, pin = body.get("badge") or None, body.get("pin") or None
        try:
            done = dealers.edit_roster(body["action"], body["name"],
                                       str(badge) if badge else None,
                                       str(pin) if pin else None)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "done": done})

    async def page(request: web.Request) -> web.Response:
        html = pages.render_plain("dealers.html", "Dealers")
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    app.router.add_get("/api/dealers", board)
    app.router.add_get("/api/dealers/public", public)
    app.router.add_post("/api/dealers/act", act)
    app.router.add_post("/api/dealers/roster", edit_roster)
    app.router.add_get("/dealers", page)
