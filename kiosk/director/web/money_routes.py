"""Results, deal calculator and audit: pages and read-only JSON, registered by app.py.

Reading needs no login, like the rest of the dashboard; recording a deal or any other
money command goes through /api/act, which does.
"""

from __future__ import annotations

from aiohttp import web

from kiosk.base.errors import RuleError
from kiosk.core.event.results import to_csv
from kiosk.director.centre.repository import Repository
from kiosk.director.views.money_views import audit_view, deal_view, results_view
from kiosk.director.web import pages
from kiosk.director.web.events import desk_for

MONEY_PAGES = ("/results", "/deal", "/audit")


def add_money_routes(app: web.Application, repo: Repository) -> None:
    async def page(request: web.Request) -> web.Response:
        return web.Response(text=pages.render(request.path.rstrip("/")),
                            content_type="text/html", headers={"Cache-Control": "no-cache"})

    async def results(request: web.Request) -> web.Response:
        desk = desk_for(repo, request)
        return web.json_response({**results_view(desk.tour), "title": desk.title})

    async def results_csv(request: web.Request) -> web.Response:
        site = request.query.get("site") in ("1", "true", "yes")
        tour = desk_for(repo, request).tour
        rows = results_view(tour)["rows"]
        name = f"{tour.event}-results{'-site' if site else ''}.csv"
        return web.Response(text=to_csv(rows, site=site), content_type="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def audit(request: web.Request) -> web.Response:
        return web.json_response({"audit": audit_view(desk_for(repo, request).tour)})

    async def deal(request: web.Request) -> web.Response:
        tour = desk_for(repo, request).tour
        method = request.query.get("method", "icm")
        stacks: dict[str, int] | None = None
        if request.method == "POST":
            try:
                body = await request.json()
            except ValueError:
                return web.json_response({"ok": False, "error": "body is not JSON"}, status=400)
            raw = body.get("stacks") if isinstance(body, dict) else None
            if not isinstance(raw, dict):
                return web.json_response({"ok": False, "error": "stacks by player needed"},
                                         status=400)
            stacks = raw
            method = str(body.get("method", method))
        try:
            return web.json_response(deal_view(tour, method, stacks))
        except RuleError as exc:
            return web.json_response({"ok": False, "error": str(exc)}, status=400)

    for path in MONEY_PAGES:
        app.router.add_get(path, page)
    app.router.add_get("/api/results", results)
    app.router.add_get("/api/results.csv", results_csv)
    app.router.add_get("/api/audit", audit)
    app.router.add_get("/api/deal", deal)
    app.router.add_post("/api/deal", deal)
