"""The leagues' public pages, registered by app.py before the players' catch-all:
`/p/leagues.json`, `/p/league/NAME.json` and `/p/league/NAME` (read only, no login,
limited per address like every page under /p/). The TV's `/clock?league=NAME` reads the
same JSON (static/league-tv.js)."""

from __future__ import annotations

from aiohttp import web

from kiosk.base.errors import KioskError
from kiosk.director.centre.repository import Repository
from kiosk.director.views.leagues import LeagueBoard
from kiosk.director.web.players import _render
from kiosk.director.web.ratelimit import RateLimiter, retry_after

TOP_MAX = 500


def add_league_routes(app: web.Application, repo: Repository,
                      limiter: RateLimiter | None = None) -> LeagueBoard:
    board = LeagueBoard(repo)
    limits = limiter or RateLimiter()

    def limited(request: web.Request) -> web.Response | None:
        wait = limits.take(request.remote or "?")
        if wait <= 0:
            return None
        return web.json_response({"ok": False, "error": "too many requests from this "
                                  f"address: try again in {retry_after(wait)} s"},
                                 status=429, headers={"Retry-After": retry_after(wait)})

    async def index(request: web.Request) -> web.Response:
        return limited(request) or web.json_response(board.index())

    async def table(request: web.Request) -> web.Response:
        refused = limited(request)
        if refused is not None:
            return refused
        top = request.query.get("top", "")
        try:
            data = board.table(request.match_info["name"],
                               min(int(top), TOP_MAX) if top.isdigit() else None)
        except KioskError as exc:
            return web.json_response({"ok": False, "error": str(exc)}, status=404)
        return web.json_response(data, headers={"Cache-Control": "no-cache"})

    async def page(request: web.Request) -> web.Response:
        refused = limited(request)
        if refused is not None:
            return refused
        name = request.match_info["name"]
        spec = next((s for s in board.specs if s.name == name), None)
        if spec is None:
            return web.json_response({"ok": False, "error": f"no league {name!r} here"},
                                     status=404)
        return web.Response(text=_render("league.html", spec.title, league=name),
                            content_type="text/html", headers={"Cache-Control": "no-cache"})

    league = "/p/league/{name:[a-z0-9][a-z0-9_-]{0,47}}"
    app.router.add_get("/p/leagues.json", index)
    app.router.add_get(league + ".json", table)
    app.router.add_get(league, page)
    return board
