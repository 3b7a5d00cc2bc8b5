"""The room's API from the other side: one floor login's session at a director's
dashboard address, as `pokerkiosk room` uses it (the same logins, roles and audit as the
dashboard's pages)."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import msgspec

from kiosk.base.errors import KioskError
from kiosk.base.texts import as_msg
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.lang.catalogue import catalogue
from kiosk.lang.codes import SOURCE


def english_reason(reply: Any) -> str:
    """A refusal as the command line prints it, in English: from its message key
    (`error_msg`) when it has one, since `error` is in the login's language."""
    if not isinstance(reply, dict):
        return ""
    found = as_msg(reply.get("error_msg"))
    if found is not None:
        return catalogue(SOURCE).render(found, str(reply.get("error") or ""))
    return str(reply.get("error") or "")


class RoomClient:
    """One floor login's session at a director's dashboard address."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON answer; KioskError with the director's reason for a refusal."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}{path}", data, method=method, headers={
            "Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(req, timeout=15) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as exc:
            try:
                why = english_reason(json.loads(exc.read())) or exc.reason
            except ValueError:
                why = exc.reason
            raise KioskError(f"refused ({exc.code}): {why}") from None
        except urllib.error.URLError as exc:
            raise KioskError(f"cannot reach the director at {self.url}: {exc.reason}") \
                from None

    def login(self, user: str, password: str) -> str:
        answer = self.call("POST", "/api/login", {"user": user, "password": password})
        self.csrf = answer["csrf"]
        return str(answer.get("role", "director"))

    def act(self, event: str, cmd: commands.Command) -> Any:
        return self.call("POST", "/api/act?event=" + urllib.parse.quote(event),
                         msgspec.to_builtins(cmd))

    def room_act(self, cmd: rc.RoomCommand) -> Any:
        return self.call("POST", "/api/room/act", msgspec.to_builtins(cmd))
