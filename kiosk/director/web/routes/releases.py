"""Updates on the dashboard, and the release files for the tables.

GET /api/releases: the releases, the rollout and every table's version and update state
(no login, like every read). POST /api/releases: the floor steers the rollout
({"action": "rollout", "version", "tables"}, "hold", "resume", "now" with "tables"); an
action through the door, a director's. GET /releases/VERSION/FILE: one file of a release,
to a table's login only (HTTP Basic, the table's broker user and password).
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from aiohttp import web

from kiosk.base.errors import KioskError
from kiosk.base.texts import M_
from kiosk.director.adapters.release_desk import ReleaseDesk
from kiosk.director.web.door import Action, Call, Route, error, get, post
from kiosk.director.web.site import Site

ACTIONS = ("rollout", "hold", "resume", "now")


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
        raise KioskError(M_("release.tables", "tables must be a list of table numbers"))
    return value


def steer(desk: ReleaseDesk, body: dict[str, Any]) -> dict[str, Any]:
    """Apply one floor action to the store; KioskError (ReleaseError) says why not."""
    action, store = body.get("action"), desk.store
    if action not in ACTIONS:
        raise KioskError(M_("release.action", "action must be one of {actions}",
                            actions=", ".join(ACTIONS)))
    r = store.rollout()
    if action == "rollout":
        version = body.get("version")
        if not isinstance(version, str) and version is not None:
            raise KioskError(M_("release.version", "version must be a release's version, or "
                                "null for none"))
        r = store.set_rollout(version, _tables(body.get("tables")))
    elif action == "now":
        r = store.set_rollout(r.version, r.tables, hold=r.hold,
                              now=r.now + (_tables(body.get("tables")) or []))
    else:
        r = store.set_rollout(r.version, r.tables, hold=action == "hold", now=r.now)
    desk.tick()
    return vars(r)


class ReleaseRoutes:
    """The rollout the floor steers, and the release files the tables fetch."""

    def __init__(self, site: Site) -> None:
        self.desk = site.served.releases

    def routes(self) -> list[Route]:
        return [get("/api/releases", self.view),
                post("/api/releases", Action(kind="release", login="steer updates"),
                     self.act),
                get("/releases/{version}/{name}", self.download)]

    async def view(self, request: web.Request) -> web.Response:
        return web.json_response(self.desk.view())

    async def act(self, call: Call) -> dict[str, Any]:
        return {"ok": True, "rollout": steer(self.desk, call.body)}

    async def download(self, request: web.Request) -> web.StreamResponse:
        login = _basic(request)
        if login is None or not self.desk.login_ok(*login):
            return error(401, "a table's login is required",
                         {"WWW-Authenticate": 'Basic realm="pokerkiosk releases"'})
        try:
            path = self.desk.store.file(request.match_info["version"],
                                        request.match_info["name"])
        except KioskError as exc:
            return error(404, str(exc))
        return web.FileResponse(path, headers={"Cache-Control": "no-store"})
