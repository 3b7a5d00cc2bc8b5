"""The leagues' public pages, registered before the players' catch-all:
`/p/leagues.json`, `/p/league/NAME.json` and `/p/league/NAME` (read only, no login,
limited per address like every page under /p/). The TV's `/clock?league=NAME` reads the
same JSON (static/league-tv.js)."""

from __future__ import annotations

from aiohttp import web

from kiosk.base.errors import KioskError
from kiosk.base.texts import M_
from kiosk.director.views.leagues import LeagueBoard
from kiosk.director.web import pages
from kiosk.director.web.door import Refused, Route, get, limited, refusal_of
from kiosk.director.web.ratelimit import RateLimiter
from kiosk.director.web.site import Site

TOP_MAX = 500
LEAGUE = "/p/league/{name:[a-z0-9][a-z0-9_-]{0,47}}"


class LeagueRoutes:
    """The standings of the room's leagues, for players' phones and the TV."""

    def __init__(self, site: Site, limiter: RateLimiter | None = None) -> None:
        self.board = LeagueBoard(site.served.service.repo)
        self.door = site.door
        self.limits = limiter or RateLimiter()

    def routes(self) -> list[Route]:
        return [get("/p/leagues.json", limited(self.limits, self.index)),
                get(LEAGUE + ".json", limited(self.limits, self.table)),
                get(LEAGUE, limited(self.limits, self.page))]

    async def index(self, request: web.Request) -> web.Response:
        return web.json_response(self.board.index())

    async def table(self, request: web.Request) -> web.Response:
        top = request.query.get("top", "")
        try:
            data = self.board.table(request.match_info["name"],
                                    min(int(top), TOP_MAX) if top.isdigit() else None)
        except KioskError as exc:
            raise Refused(404, refusal_of(exc)) from None
        return web.json_response(data, headers={"Cache-Control": "no-cache"})

    async def page(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        spec = next((s for s in self.board.specs if s.name == name), None)
        if spec is None:
            raise Refused(404, M_("web.no_league_here", "no league '{name}' here", name=name))
        return pages.reply(pages.render_public("league.html", spec.title,
                                               self.door.reading(request, "player"), league=name))
