"""Updates on the dashboard, and the release files for the tables.

GET /api/releases: the releases, the rollout and every table's version and update state
(no login, like every read). POST /api/releases: the floor steers the rollout
({"action": "rollout", "version", "tables"}, "hold", "resume", "now" with "tables"); a
director's login. GET /releases/VERSION/FILE: one file of a release, to a table's login
only (HTTP Basic, the table's broker user and password).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.base.errors import KioskError
from kiosk.director.adapters.release_desk import ReleaseDesk

Refusal = Callable[[str, str], "web.Response | None"]
ACTIONS = ("rollout", "hold", "resume", "now")


def _error(status: int, message: str, **headers: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status, headers=headers)


def _basic(request: web.Request) -> tuple[str, str] | None:
    kind, _, value = request.headers.get("Authorization", "").partition(" ")
    if kind.lower() != "basic":
        return None
    try:
        user, sep, password = base64.b64decode(value, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return (user, password) if sep else None


def _tables(value: Any) -> list[int] | None:
    if value is None or value == []:
        return None
    if not isinstance(value, list) or not all(isinstance(n, int) and not isinstance(n, bool)
                                              and 0 < n < 1000 for n in value):
        raise KioskError("tables must be a list of table numbers")
    return value


def steer(desk: ReleaseDesk, body: dict[str, Any]) -> dict[str, Any]:
    """Apply one floor action to the store; KioskError (ReleaseError) says why not."""
    action, store = body.get("action"), desk.store
    if action not in ACTIONS:
        raise KioskError(f"action must be one of {', '.join(ACTIONS)}")
    r = store.rollout()
    if action == "rollout":
        version = body.get("version")
        if not isinstance(version, str) and version is not None:
            raise KioskError("version must be a release's version, or null for none")
        r = store.set_rollout(version, _tables(body.get("tables")))
    elif action == "now":
        r = store.set_rollout(r.version, r.tables, hold=r.hold,
                              now=r.now + (_tables(body.get("tables")) or []))
    else:
        r = store.set_rollout(r.version, r.tables, hold=action == "hold", now=r.now)
    desk.tick()
    return vars(r)


def add_release_routes(app: web.Application, desk: ReleaseDesk,
                       acting_user: Callable[[web.Request], str | None],
                       refusal: Refusal) -> None:

    async def view(request: web.Request) -> web.Response:
        return web.json_response(desk.view())

    async def act(request: web.Request) -> web.Response:
        user = acting_user(request)
        if user is None:
            return _error(401, "log in as floor staff to steer updates")
        refused = refusal(user, "release")
        if refused is not None:
            return refused
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error(400, "body is not JSON")
        if not isinstance(body, dict):
            return _error(400, "body must be a JSON object")
        try:
            rollout = steer(desk, body)
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, "rollout": rollout})

    async def download(request: web.Request) -> web.StreamResponse:
        login = _basic(request)
        if login is None or not desk.login_ok(*login):
            return _error(401, "a table's login is required",
                          **{"WWW-Authenticate": 'Basic realm="pokerkiosk releases"'})
        try:
            path = desk.store.file(request.match_info["version"], request.match_info["name"])
        except KioskError as exc:
            return _error(404, str(exc))
        return web.FileResponse(path, headers={"Cache-Control": "no-store"})

    app.router.add_get("/api/releases", view)
    app.router.add_post("/api/releases", act)
    app.router.add_get("/releases/{version}/{name}", download)
