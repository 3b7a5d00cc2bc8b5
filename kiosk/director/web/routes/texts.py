"""The pages' texts in each language (GET /lang/CODE.js?for=player|floor): a script that
adds one catalogue to `PK_LANGS`, which static/i18n.js reads. A script, not JSON fetched
later, so a page's first paint is already in its reader's language; its address carries
the texts' digest (kiosk.director.web.pages), so it is cached until they change.
Reading: no login; an unknown code is a 404 naming the shipped ones.
"""

from __future__ import annotations

import json

from aiohttp import web

from kiosk.base.texts import M_
from kiosk.director.web import pages
from kiosk.director.web.door import Refused, Route, get
from kiosk.director.web.site import Site
from kiosk.lang.codes import PSEUDO, SHIPPED, normal

YEAR = 365 * 24 * 3600


class TextRoutes:
    """Each shipped language's texts, as the pages load them."""

    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list[Route]:
        return [get("/lang/{code}.js", self.texts)]

    async def texts(self, request: web.Request) -> web.Response:
        code = normal(request.match_info["code"])
        if code is None or code not in (*SHIPPED, PSEUDO):
            raise Refused(404, M_("web.no_language", "no such language: {code} (one of "
                                  "{shipped})", code=request.match_info["code"][:20],
                                  shipped=", ".join(SHIPPED)))
        which = "player" if request.query.get("for") == "player" else "floor"
        data = json.dumps(pages.texts(code, which), ensure_ascii=False, separators=(",", ":"))
        body = f"(window.PK_LANGS=window.PK_LANGS||{{}})[{json.dumps(code)}]={data};\n"
        cache = f"public, max-age={YEAR}, immutable" if request.query.get("v") else "no-cache"
        return web.Response(text=body, content_type="application/javascript",
                            headers={"Cache-Control": cache})
