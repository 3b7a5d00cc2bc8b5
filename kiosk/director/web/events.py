"""Which event a request is about: `?event=NAME`, or the room's first event.

Every one-event page and API takes the event this way, so today's URLs (no event named)
keep reading the room's first event; a name the room does not know is a 404 with why.
"""

from __future__ import annotations

import json

from aiohttp import web

from kiosk.base.errors import RuleError
from kiosk.director.centre.desk import Desk
from kiosk.director.centre.repository import Repository


def desk_for(repo: Repository, request: web.Request) -> Desk:
    """The Desk the request names; HTTPNotFound (JSON body) for an unknown event."""
    name = request.query.get("event") or request.match_info.get("event") or None
    try:
        return repo.desk(name)
    except RuleError as exc:
        raise web.HTTPNotFound(text=json.dumps({"ok": False, "error": str(exc)}),
                               content_type="application/json") from None
