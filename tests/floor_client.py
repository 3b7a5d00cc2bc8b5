"""The floor at a running director's dashboard over plain HTTP: logged in, acting with the
session's CSRF token; a refusal is read from its body, as the dashboard shows it."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any

# a reply's deadline: a login's password hash on a machine loaded by the whole suite, the
# demo's tables and the appliance's VMs took longer than 10 s
DEADLINE = 60


class FloorClient:
    """One floor login's session at `url` (the dashboard's address)."""

    def __init__(self, url: str, user: str, password: str) -> None:
        self.url = url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.csrf = self.post("api/login", {"user": user, "password": password})["csrf"]

    def _at(self, path: str) -> str:
        return f"{self.url}/{path.lstrip('/')}"

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(self._at(path), json.dumps(body).encode(),
                                     {"Content-Type": "application/json",
                                      "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(req, timeout=DEADLINE) as r:
                return json.loads(r.read())  # type: ignore[no-any-return]
        except urllib.error.HTTPError as exc:   # a refusal: its reason is in the body
            return json.loads(exc.read())  # type: ignore[no-any-return]

    def get(self, path: str) -> dict[str, Any]:
        with self.opener.open(self._at(path), timeout=DEADLINE) as r:
            return json.loads(r.read())  # type: ignore[no-any-return]
