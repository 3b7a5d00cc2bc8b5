"""The desk printer on the dashboard: its page (/printer), its queue (`/api/printer`), a
preview of every job, and reprint, print-the-results and retry-now.

Reading needs no login, like the rest of the dashboard (slips show what the floor sees
anyway); printing paper is an action through the door, open to every floor role.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from kiosk.base.texts import M_
from kiosk.director.web import pages
from kiosk.director.web.door import Action, Call, Refused, Route, get, post
from kiosk.director.web.site import Site
from kiosk.lang.active import N_
from kiosk.printer import preview


class PrinterRoutes:
    """The desk printer's queue, previews and paper."""

    def __init__(self, site: Site) -> None:
        self.printer = site.served.printer
        self.door = site.door
        self.repo = site.served.service.repo

    def routes(self) -> list[Route]:
        return [get("/printer", self.page), get("/api/printer", self.status),
                get(r"/api/printer/jobs/{job}.png", self.job_png),
                post(r"/api/printer/{what:reprint|results|retry}",
                     Action(kind="print", body="optional", login="print"), self.command)]

    async def page(self, request: web.Request) -> web.Response:
        return pages.reply(pages.render_plain("printer.html", N_("Printer"),
                                              self.door.reading(request)))

    async def status(self, request: web.Request) -> web.Response:
        p = self.printer
        if p is None:
            return web.json_response({"configured": False, "jobs": []})
        body = p.spooler.status()
        body["configured"] = True
        body["events"] = sorted(self.repo.events)
        return web.json_response(body)

    async def job_png(self, request: web.Request) -> web.Response:
        p = self.printer
        try:
            job = p.spooler.jobs.get(int(request.match_info["job"])) if p else None
        except ValueError:
            job = None
        if job is None or p is None:
            raise Refused(404, M_("print.no_job", "no such print job"))
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(None, preview.png, job.slip, p.spooler.config.columns)
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "max-age=3600"})

    async def command(self, call: Call) -> dict[str, Any]:
        p, body = self.printer, call.body
        if p is None:
            raise Refused(409, M_("print.no_printer", "no printer: set [printer] port in the "
                                  "director's config"))
        what = call.request.match_info["what"]
        try:
            if what == "reprint":
                return {"ok": True, "job": p.spooler.reprint(int(body["job"]))}
            if what == "results":
                event = body.get("event") or call.request.query.get("event")
                return {"ok": True, "job": p.results(
                    event if isinstance(event, str) and event else None)}
            p.spooler.retry_now()
            return {"ok": True}
        except (KeyError, TypeError, ValueError):
            raise Refused(404, M_("print.no_job_named", "no print job {job}",
                                  job=repr(body.get("job")))) from None
