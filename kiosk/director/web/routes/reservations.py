"""Reservations over HTTP, registered before the players' pages.

Public (the room's Wi-Fi, no login): an event's terms and alternates
(`/p/EVENT/reservations.json`), the form's `POST /p/EVENT/register`, a reservation's own
page and status (`/p/EVENT/reservation/CODE`: HTML for a browser, JSON otherwise), its
QR code and its cancellation. Each is rate-limited per address, the form and the
cancellation more strictly; those two are public actions through the door (its origin
check, its body).
At the desk, `POST /api/act?event=NAME` takes confirm_reservation, cancel_reservation and
set_reservations from a floor login (see `desk_act`); `GET /api/reservations` is the
desk's list with the codes.
"""

from __future__ import annotations

from typing import Any

import msgspec
from aiohttp import web

from kiosk.base.texts import M_
from kiosk.core.model import room_commands as rc
from kiosk.core.room import reservations as rs
from kiosk.director.services.bookings import Bookings
from kiosk.director.web import pages, roles
from kiosk.director.web.door import Action, Call, Refused, Route, get, limited, post, refusal_of
from kiosk.director.web.events import no_event_here
from kiosk.director.web.qr import qr_svg
from kiosk.director.web.ratelimit import RateLimiter
from kiosk.director.web.site import Site
from kiosk.lang.codes import SHIPPED, negotiate

DESK_KINDS = frozenset({"confirm_reservation", "cancel_reservation", "set_reservations"})
FORMS = web.AppKey("reservation_forms", RateLimiter)   # the form's limiter, per address
# a reservation's state as its page heads it, where the word differs from the same English
# elsewhere (de: a reservation "Storniert", a table screen's undone action "Abgebrochen")
HEADINGS = {"cancelled": M_("reservation.cancelled", "Cancelled")}


def desk_act(book: Bookings, body: dict[str, Any], user: str, event: str) -> dict[str, Any]:
    """A reservation command from the desk (role already checked): confirm a code (the
    player registered, seated and his card printed), cancel one, or set the terms."""
    try:
        cmd = rc.decode({**body, **({"event": event} if body["kind"] == "set_reservations"
                                    else {})})
        if isinstance(cmd, rs.ConfirmReservation):
            res, events = book.confirm(cmd.code, cmd.card, user, event)
            return {"ok": True, "events": len(events), "already": not events,
                    **book.status(res)}
        if isinstance(cmd, rs.CancelReservation):
            res = book.cancel(cmd.code, event, user, cmd.why or "by the desk")
            return {"ok": True, **book.status(res)}
        assert isinstance(cmd, rs.SetReservations)
        events = book.set_terms(msgspec.structs.replace(cmd, by=user))
        return {"ok": True, "events": len(events)}
    except rs.NoSuchCode as exc:
        raise Refused(404, refusal_of(exc)) from None


class ReservationRoutes:
    """An event's reservations: public by phone (rate-limited), the codes at the desk."""

    def __init__(self, site: Site, app: web.Application, reads: RateLimiter | None = None,
                 forms: RateLimiter | None = None) -> None:
        self.book = site.served.bookings
        self.door = site.door
        self.reads = reads or RateLimiter()
        self.forms = app[FORMS] = forms or RateLimiter(burst=5, rate=1 / 30)

    def routes(self) -> list[Route]:
        base = "/p/{event:[A-Za-z0-9_-]+}"
        code = base + "/reservation/{code:[A-Za-z0-9-]{1,40}}"
        return [get(base + "/reservations.json", limited(self.reads, self.terms)),
                post(base + "/register", Action(public=True, limit=self.forms), self.register),
                get(code, limited(self.reads, self.status)),
                post(code + "/cancel", Action(public=True, body="none", limit=self.forms),
                     self.cancel),
                get(code + "/qr.svg", limited(self.reads, self.qr)),
                get("/api/reservations", self.desk_list)]

    def event(self, request: web.Request) -> str:
        """The event the address names; Refused (404) for one the room does not hold."""
        name = request.match_info["event"]
        if name not in self.book.repo.events:
            raise Refused(404, no_event_here(name))
        return name

    def found(self, request: web.Request) -> rs.Reservation:
        """The reservation the address names; Refused (404) for none."""
        try:
            return self.book.book.get(request.match_info["code"], self.event(request))
        except rs.NoSuchCode as exc:
            raise Refused(404, refusal_of(exc)) from None

    async def terms(self, request: web.Request) -> web.Response:
        return web.json_response(self.book.public(self.event(request)))

    async def register(self, call: Call) -> web.Response:
        event = self.event(call.request)
        name, contact = call.body.get("name"), call.body.get("contact", "")
        language = call.body.get("language") or negotiate(
            call.request.headers.get("Accept-Language", ""), SHIPPED, "")   # for the slips
        if not (isinstance(name, str) and isinstance(contact, str)
                and isinstance(language, str)):
            raise Refused(400, M_("reservation.form_text", "name (and contact, if asked, and "
                                  "language) are text"))
        res = self.book.reserve(event, name, contact, call.request.remote or "?", language)
        return web.json_response(self.said(call.request, {"ok": True, **self.book.status(res)}),
                                 status=201)

    async def status(self, request: web.Request) -> web.Response:
        res = self.found(request)
        accept = request.headers.get("Accept", "")
        if "text/html" in accept and request.query.get("format") != "json":
            desk = self.book.repo.events[res.event]
            return pages.reply(pages.render_public("reservation.html", desk.title,
                                               self.door.reading(request, "player"),
                                                   event=res.event, code=res.code))
        return web.json_response(self.said(request, self.book.status(res)),
                                 headers={"Cache-Control": "no-cache"})

    async def cancel(self, call: Call) -> dict[str, Any]:
        res = self.found(call.request)
        try:
            if res.state not in rs.OPEN:
                raise rs.NoSuchCode(M_("reservation.code_state", "the code {code} is already "
                                       "{state}", code=res.code,
                                       state=rs.STATE_WORDS[res.state]))
            self.book.cancel(res.code, res.event, None, "cancelled by the player")
        except rs.NoSuchCode as exc:
            raise Refused(404, refusal_of(exc)) from None
        return self.said(call.request, {"ok": True, **self.book.status(res)})

    def said(self, request: web.Request, body: dict[str, Any]) -> dict[str, Any]:
        """A reservation's status with its note in the reader's language (an entry paid
        before its event opened), and its state's heading where the page's own word
        would read as a table screen's ("Cancelled": a reservation is "Storniert", an
        undone action "Abgebrochen")."""
        if body.get("note"):
            title = self.book.repo.room.events[body["event"]].title
            body["note"] = M_("reservation.paid_ahead", "Paid, entered when {title} opens; "
                              "the seat is drawn when play starts", title=title)
        if body.get("state") in HEADINGS:
            body["state_word"] = HEADINGS[body["state"]]
        return self.door.speak(request, body, "note", "state_word")

    async def qr(self, request: web.Request) -> web.Response:
        return web.Response(body=qr_svg(self.found(request).code),
                            content_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=3600"})

    async def desk_list(self, request: web.Request) -> web.Response:
        name = request.query.get("event", "")
        if name not in self.book.repo.events:
            raise Refused(404, M_("web.no_event_in_room", "no event {event} in this room",
                                  event=repr(name)))
        who = self.door.session(request)
        if who is None:
            raise Refused(401, roles.login_needed("see the codes"))
        return web.json_response({**self.book.desk_view(name), "user": who[0], "csrf": who[1]})
