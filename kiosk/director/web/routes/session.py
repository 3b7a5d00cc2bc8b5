"""Logging in and out of the dashboard (POST /api/login, POST /api/logout).

The login is open to everyone (it is what makes a session) behind the door's origin
check, and a limit of failed tries per address (kiosk.director.web.auth:LoginLimiter);
logging out is an action of the session it ends, any role's.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from kiosk.base.texts import M_
from kiosk.director.web import roles
from kiosk.director.web.auth import SESSION_SECONDS, LoginLimiter
from kiosk.director.web.door import COOKIE, Action, Call, Refused, Route, post
from kiosk.director.web.site import Site


class SessionRoutes:
    """A floor login's session: its cookie, its CSRF token, its role's controls."""

    def __init__(self, site: Site) -> None:
        self.door = site.door
        self.limiter = LoginLimiter()
        self.secure = bool(getattr(site.served.config, "https", False))

    def routes(self) -> list[Route]:
        return [post("/api/login", Action(public=True), self.login),
                post("/api/logout", Action(kind="logout", body="none"), self.logout)]

    async def login(self, call: Call) -> web.Response:
        user, password = call.body.get("user"), call.body.get("password")
        if not isinstance(user, str) or not isinstance(password, str):
            raise Refused(400, M_("login.both", "user and password are required"))
        who = call.request.remote or "?"
        wait = self.limiter.retry_after(who)
        if wait > 0:
            raise Refused(429, M_("login.too_many", "too many failed logins: try again in "
                                  "{seconds} s", seconds=round(wait)),
                          {"Retry-After": str(int(wait) + 1)})
        users = self.door.users
        users.refresh()
        loop = asyncio.get_running_loop()
        problem = await loop.run_in_executor(None, users.check, user, password)
        if problem is not None:
            self.limiter.failed(who)
            raise Refused(403 if problem.key == "login.weak" else 401, problem)
        self.limiter.succeeded(who)
        cookie, csrf = self.door.store.create(user)
        resp = web.json_response({"ok": True, "user": user, "csrf": csrf,
                                  "role": users.role(user), "language": users.language(user),
                                  "may": roles.offered(users.role(user))})
        resp.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict", secure=self.secure,
                        max_age=SESSION_SECONDS, path="/")
        return resp

    async def logout(self, call: Call) -> web.Response:
        self.door.store.revoke(call.request.cookies.get(COOKIE, ""))
        resp = web.json_response({"ok": True})
        resp.del_cookie(COOKIE, path="/")
        return resp
