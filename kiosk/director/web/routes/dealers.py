"""The dealers' pages and API.

GET /api/dealers (floor login) is the board: each table's dealer, minutes into the down,
the next push, the strings with their reliefs, the break queue, the EO list and the alerts.
POST /api/dealers/roster adds or removes a dealer in room.toml (a director's login; the
badge and the PIN kept only as hashes). POST /api/dealers/act takes the floor's dealer
commands (clock in and out, the EO list and a release, back from break, a push the floor
makes, a PIN lockout cleared), audited in the room's log with the user. GET /dealers is
the break room's big-screen roadmap and, with `?dealer=NAME`, a dealer's own phone page;
like /clock it needs no login, and its data (GET /api/dealers/public) holds names and
tables only.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from kiosk.base.texts import M_
from kiosk.core.model import room_commands
from kiosk.director.web import pages
from kiosk.director.web.door import Action, Call, Refused, Route, get, post
from kiosk.director.web.site import Site
from kiosk.lang.active import N_

FLOOR_KINDS = frozenset({"dealer_clock_in", "dealer_clock_out", "dealer_sign_early_out",
                         "dealer_release", "dealer_back", "dealer_push", "dealer_pin_clear"})


def dealer_kind(body: dict[str, Any]) -> str:
    """The kind of the floor's dealer command `body` holds; 400 for any other."""
    kind = str(room_commands.decode(body).kind)
    if kind not in FLOOR_KINDS:
        raise Refused(400, M_("web.not_dealer_command", "{kind} is not a dealer command the "
                              "floor gives", kind=kind))
    return kind


class DealerRoutes:
    """The rotation (kiosk.director.services.dealers) on the floor's pages."""

    def __init__(self, site: Site) -> None:
        self.dealers = site.served.dealers
        self.door = site.door

    def routes(self) -> list[Route]:
        return [get("/api/dealers", self.door.reader("see the dealers", self.board)),
                get("/api/dealers/public", self.public),
                post("/api/dealers/act", Action(kind=dealer_kind), self.act),
                post("/api/dealers/roster", Action(kind="dealer_roster"), self.edit_roster),
                get("/dealers", self.page)]

    async def board(self, request: web.Request, user: str) -> web.Response:
        return web.json_response({"ok": True, **self.dealers.board()})

    async def public(self, request: web.Request) -> web.Response:
        out: dict[str, Any] = self.dealers.public()
        name = request.query.get("dealer", "")
        if name:
            out["me"] = self.dealers.where(name)
        return web.json_response(out)

    async def act(self, call: Call) -> dict[str, Any]:
        events = self.dealers.act(room_commands.decode(call.body), call.user)
        return {"ok": True, "events": len(events)}

    async def edit_roster(self, call: Call) -> dict[str, Any]:
        """Add (with a badge or PIN, kept only as hashes) or remove a dealer: a director's."""
        body = call.body
        if body.get("action") not in ("add", "remove") or not isinstance(body.get("name"), str):
            raise Refused(400, M_("web.roster_body", "send {{action: add|remove, name, badge?, "
                                  "pin?}}"))
        badge, pin = body.get("badge") or None, body.get("pin") or None
        done = self.dealers.edit_roster(body["action"], body["name"],
                                        str(badge) if badge else None,
                                        str(pin) if pin else None)
        return self.door.speak(call.request, {"ok": True, "done": done}, "done")

    async def page(self, request: web.Request) -> web.Response:
        return pages.reply(pages.render_plain("dealers.html", N_("Dealers"),
                                              self.door.reading(request)))
