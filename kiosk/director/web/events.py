"""Which event a request is about: `?event=NAME`, or the room's first event.

Every one-event page and API takes the event this way, so today's URLs (no event named)
keep reading the room's first event; a name the room does not know is a 404 with why.
"""

from __future__ import annotations

from aiohttp import web

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Msg
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.repository import Repository
from kiosk.director.web.door import Refused, refusal_of


def event_for(repo: Repository, request: web.Request) -> EventAggregate:
    """The EventAggregate the request names; Refused (404, the one error reply) for an
    unknown event."""
    name = request.query.get("event") or request.match_info.get("event") or None
    try:
        return repo.event(name)
    except RuleError as exc:
        raise Refused(404, refusal_of(exc)) from None


def no_event_here(name: str) -> Msg:
    """What a page's read says of an event the room does not know."""
    return M_("web.no_event_here", "no event '{event}' here", event=name)
