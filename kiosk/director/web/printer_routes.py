"""The desk printer on the dashboard: its queue (`/api/printer`), a preview of every job,
and reprint, print-the-results and retry-now, registered by app.py.

Reading needs no login, like the rest of the dashboard (slips show what the floor sees
anyway); printing paper needs a floor login with the session's CSRF token, as /api/act.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from kiosk.base.errors import RuleError
from kiosk.director.adapters.printing import DeskPrinter
from kiosk.director.centre.repository import Repository
from kiosk.director.web import pages
from kiosk.printer import preview

UserOf = Callable[[web.Request], "str | None"]


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


def add_printer_routes(app: web.Application, printer: DeskPrinter | None, repo: Repository,
                       acting_user: UserOf) -> None:
    async def page(request: web.Request) -> web.Response:
        return web.Response(text=pages.render_plain("printer.html", "Printer"),
                            content_type="text/html", headers={"Cache-Control": "no-cache"})

    async def status(request: web.Request) -> web.Response:
        p = printer
        if p is None:
            return web.json_response({"configured": False, "jobs": []})
        body = p.spooler.status()
        body["configured"] = True
        body["events"] = sorted(repo.desks)
        return web.json_response(body)

    async def job_png(request: web.Request) -> web.Response:
        p = printer
        try:
            job = p.spooler.jobs.get(int(request.match_info["job"])) if p else None
        except ValueError:
            job = None
        if job is None or p is None:
            return _error(404, "no such print job")
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(None, preview.png, job.slip, p.spooler.config.columns)
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "max-age=3600"})

    async def command(request: web.Request) -> web.Response:
        if acting_user(request) is None:
            return _error(401, "log in as floor staff to print")
        p = printer
        if p is None:
            return _error(409, "no printer: set [printer] port in the director's config")
        try:
            sent = await request.json()
        except ValueError:
            sent = None
        body: dict[str, Any] = sent if isinstance(sent, dict) else {}
        what = request.match_info["what"]
        try:
            if what == "reprint":
                return web.json_response({"ok": True,
                                          "job": p.spooler.reprint(int(body["job"]))})
            if what == "results":
                event = body.get("event") or request.query.get("event")
                return web.json_response({"ok": True, "job": p.results(
                    event if isinstance(event, str) and event else None)})
            p.spooler.retry_now()
            return web.json_response({"ok": True})
        except (KeyError, TypeError, ValueError):
            return _error(404, f"no print job {body.get('job')!r}")
        except RuleError as exc:
            return _error(400, str(exc))

    app.router.add_get("/printer", page)
    app.router.add_get("/api/printer", status)
    app.router.add_get(r"/api/printer/jobs/{job}.png", job_png)
    app.router.add_post(r"/api/printer/{what:reprint|results|retry}", command)
