"""Results, deal calculator and audit: pages and read-only JSON.

Reading needs no login, like the rest of the dashboard; POST /api/deal only computes a
deal from the stacks sent (public, it changes nothing); recording a deal or any other
money command goes through /api/act, which needs a floor login.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.event.results import to_csv
from kiosk.director.views.money_views import audit_view, deal_view, results_view
from kiosk.director.web import pages
from kiosk.director.web.door import Action, Call, Refused, Route, get, post, refusal_of
from kiosk.director.web.events import event_for
from kiosk.director.web.site import Site

MONEY_PAGES = ("/results", "/deal", "/audit")


class MoneyRoutes:
    """An event's results, deal and audit."""

    def __init__(self, site: Site) -> None:
        self.repo = site.served.service.repo
        self.door = site.door

    def routes(self) -> list[Route]:
        return [*(get(path, self.page) for path in MONEY_PAGES),
                get("/api/results", self.results), get("/api/results.csv", self.results_csv),
                get("/api/audit", self.audit), get("/api/deal", self.deal),
                post("/api/deal", Action(public=True), self.computed_deal)]

    async def page(self, request: web.Request) -> web.Response:
        return pages.reply(pages.render(request.path.rstrip("/"),
                                         self.door.reading(request)))

    async def results(self, request: web.Request) -> web.Response:
        desk = event_for(self.repo, request)
        return web.json_response({**results_view(desk.tour), "title": desk.title,
                                  **self.formats()})

    def formats(self) -> dict[str, str]:
        """The room's currency and time zone: each page writes money and times with them
        in its reader's language."""
        config = self.repo.config
        return {"currency": str(getattr(config, "currency", "")),
                "timezone": str(getattr(config, "timezone", ""))}

    async def results_csv(self, request: web.Request) -> web.Response:
        site = request.query.get("site") in ("1", "true", "yes")
        tour = event_for(self.repo, request).tour
        rows = results_view(tour)["rows"]
        name = f"{tour.event}-results{'-site' if site else ''}.csv"
        return web.Response(text=to_csv(rows, site=site), content_type="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def audit(self, request: web.Request) -> web.Response:
        return web.json_response({"audit": audit_view(event_for(self.repo, request).tour),
                                  **self.formats()})

    async def deal(self, request: web.Request) -> web.Response:
        """The deal as the event's chip counts stand (ICM, or `?method=`)."""
        tour = event_for(self.repo, request).tour
        try:
            deal = deal_view(tour, request.query.get("method", "icm"), None)
        except RuleError as exc:    # a method the calculator does not know
            raise Refused(400, refusal_of(exc)) from None
        return web.json_response(self.door.speak(request, {**deal, **self.formats()}, "error"))

    async def computed_deal(self, call: Call) -> dict[str, Any]:
        """The deal for the stacks the calculator sends (a what-if: nothing is recorded)."""
        tour = event_for(self.repo, call.request).tour
        stacks = call.body.get("stacks")
        if not isinstance(stacks, dict):
            raise Refused(400, M_("money_deal.stacks_needed", "stacks by player needed"))
        method = str(call.body.get("method", call.request.query.get("method", "icm")))
        return self.door.speak(call.request, {**deal_view(tour, method, stacks), **self.formats()},
                               "error")
