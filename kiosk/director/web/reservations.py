"""Reservations over HTTP, registered by app.py before the players' pages.

Public (the room's Wi-Fi, no login): an event's terms and alternates
(`/p/EVENT/reservations.json`), the form's `POST /p/EVENT/register`, a reservation's own
page and status (`/p/EVENT/reservation/CODE`: HTML for a browser, JSON otherwise), its
QR code and its cancellation. Each is rate-limited per address, the form more strictly.
At the desk, `POST /api/act?event=NAME` takes confirm_reservation, cancel_reservation and
set_reservations from a floor login (see `desk_act`); `GET /api/reservations` is the
desk's list with the codes.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from aiohttp import web

from kiosk.base.errors import KioskError, RuleError
from kiosk.core.model import room_commands as rc
from kiosk.core.room import reservations as rs
from kiosk.director.adapters.bookings import Bookings
from kiosk.director.web.players import _render
from kiosk.director.web.qr import qr_svg
from kiosk.director.web.ratelimit import RateLimiter, retry_after

DESK_KINDS = frozenset({"confirm_reservation", "cancel_reservation", "set_reservations"})
FORMS = web.AppKey("reservation_forms", RateLimiter)   # the form's limiter, per address
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Session = Callable[[web.Request], "tuple[str, str] | None"]


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "error": message}, status=status)


async def _object(request: web.Request) -> dict[str, Any] | web.Response:
    if request.content_type != "application/json":
        return _error(415, "send the form as application/json")
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _error(400, "body is not JSON")
    return body if isinstance(body, dict) else _error(400, "body must be a JSON object")


def desk_act(book: Bookings, body: dict[str, Any], user: str, event: str) -> web.Response:
    """A reservation command from the desk (role already checked): confirm a code (the
    player registered, seated and his card printed), cancel one, or set the terms."""
    try:
        cmd = rc.decode({**body, **({"event": event} if body["kind"] == "set_reservations"
                                    else {})})
        if isinstance(cmd, rs.ConfirmReservation):
            res, events = book.confirm(cmd.code, cmd.card, user, event)
            return web.json_response({"ok": True, "events": len(events),
                                      "already": not events, **book.status(res)})
        if isinstance(cmd, rs.CancelReservation):
            res = book.cancel(cmd.code, event, user, cmd.why or "by the desk")
            return web.json_response({"ok": True, **book.status(res)})
        assert isinstance(cmd, rs.SetReservations)
        events = book.set_terms(msgspec.structs.replace(cmd, by=user))
        return web.json_response({"ok": True, "events": len(events)})
    except rs.NoSuchCode as exc:
        return _error(404, str(exc))
    except KioskError as exc:
        return _error(400, str(exc))


def add_reservation_routes(app: web.Application, book: Bookings, session: Session,
                           reads: RateLimiter | None = None,
                           forms: RateLimiter | None = None) -> None:
    """Register the public reservation routes and the desk's list on `app`."""
    reads = reads or RateLimiter()
    forms = forms or RateLimiter(burst=5, rate=1 / 30)
    app[FORMS] = forms

    def limited(limiter: RateLimiter, handler: Handler) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            wait = limiter.take(request.remote or "?")
            if wait > 0:
                return web.json_response(
                    {"ok": False, "error": f"too many requests from this address: try "
                                           f"again in {retry_after(wait)} s"},
                    status=429, headers={"Retry-After": retry_after(wait)})
            if request.match_info["event"] not in book.repo.desks:
                return _error(404, f"no event {request.match_info['event']!r} here")
            return await handler(request)
        return guarded

    def found(request: web.Request) -> rs.Reservation:
        return book.book.get(request.match_info["code"], request.match_info["event"])

    async def terms(request: web.Request) -> web.Response:
        return web.json_response(book.public(request.match_info["event"]))

    async def register(request: web.Request) -> web.Response:
        body = await _object(request)
        if isinstance(body, web.Response):
            return body
        name, contact = body.get("name"), body.get("contact", "")
        if not isinstance(name, str) or not isinstance(contact, str):
            return _error(400, "name (and contact, if asked) are text")
        try:
            res = book.reserve(request.match_info["event"], name, contact,
                               request.remote or "?")
        except KioskError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, **book.status(res)}, status=201)

    async def status(request: web.Request) -> web.Response:
        try:
            res = found(request)
        except rs.NoSuchCode as exc:
            return _error(404, str(exc))
        accept = request.headers.get("Accept", "")
        if "text/html" in accept and request.query.get("format") != "json":
            desk = book.repo.desks[res.event]
            return web.Response(text=_render("reservation.html", desk.title, event=res.event,
                                             code=res.code),
                                content_type="text/html", headers={"Cache-Control": "no-cache"})
        return web.json_response(book.status(res), headers={"Cache-Control": "no-cache"})

    async def cancel(request: web.Request) -> web.Response:
        try:
            res = found(request)
            if res.state not in rs.OPEN:
                raise rs.NoSuchCode(f"the code {res.code} is already {res.state}")
            book.cancel(res.code, res.event, None, "cancelled by the player")
        except rs.NoSuchCode as exc:
            return _error(404, str(exc))
        except RuleError as exc:
            return _error(400, str(exc))
        return web.json_response({"ok": True, **book.status(res)})

    async def qr(request: web.Request) -> web.Response:
        try:
            res = found(request)
        except rs.NoSuchCode as exc:
            return _error(404, str(exc))
        return web.Response(body=qr_svg(res.code), content_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=3600"})

    async def desk_list(request: web.Request) -> web.Response:
        name = request.query.get("event", "")
        if name not in book.repo.desks:
            return _error(404, f"no event {name!r} in this room")
        who = session(request)
        if who is None:
            return _error(401, "log in as floor staff to see the codes")
        return web.json_response({**book.desk_view(name), "user": who[0], "csrf": who[1]})

    base = "/p/{event:[A-Za-z0-9_-]+}"
    code = base + "/reservation/{code:[A-Za-z0-9-]{1,40}}"
    app.router.add_get(base + "/reservations.json", limited(reads, terms))
    app.router.add_post(base + "/register", limited(forms, register))
    app.router.add_get(code, limited(reads, status))
    app.router.add_post(code + "/cancel", limited(forms, cancel))
    app.router.add_get(code + "/qr.svg", limited(reads, qr))
    app.router.add_get("/api/reservations", desk_list)
