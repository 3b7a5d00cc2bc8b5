"""The one door of every request that changes something on the director's web.

A route that acts is declared with its `Action` (kiosk.director.web.routes) and registered
through `Door.register`, which wraps it in the door: the page's origin, the address's rate
(when the action has a limit), the floor login and its session's CSRF token, the role,
the body, then the route itself, whose refusals (`Refused`, a `KioskError`) come back
through `error`, the one error reply: `error` in the reader's language (a floor login's
own, else the room's; a phone's by its `Accept-Language`: kiosk.director.web.readers) and
`error_msg`, the refusal's message key and arguments, for a page that renders it from its
own catalogue. A POST, PUT, PATCH or DELETE without an `Action` is
refused when the app is built, and tests/director/web/test_web_door.py walks the whole router
to prove each such route refuses a request without a session, with a role that may not,
without the token and from another site. Reading routes (GET) change nothing and stay
open, a few behind a login (`Door.reader`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
from aiohttp import web

from kiosk.base.errors import KioskError
from kiosk.base.texts import M_, Msg
from kiosk.director.web import roles
from kiosk.director.web.auth import FloorUsers, SessionStore
from kiosk.director.web.ratelimit import RateLimiter, retry_after
from kiosk.director.web.readers import CHOSEN, Readers, Reading

COOKIE = "pk_floor"
CSRF_HEADER = "X-CSRF-Token"
READS = frozenset({"GET", "HEAD"})   # the methods that change nothing
Body = Literal["json", "csv", "optional", "none"]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Refused(Exception):
    """A request turned down: its status and the sentence for the person who sent it (a
    message key; `message` is its English)."""

    def __init__(self, status: int, message: Msg | str,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(str(message))
        self.status, self.message, self.headers = status, str(message), dict(headers or {})
        self.msg = message

    def reply(self, said: str | None = None) -> web.Response:
        return error(self.status, self.msg, self.headers, said=said)


def error(status: int, message: Msg | str, headers: Mapping[str, str] | None = None, *,
          said: str | None = None) -> web.Response:
    """The director's one error reply: `{"ok": false, "error": why}`, why `said` in the
    reader's language (else English), and `error_msg`, its key and arguments, when the
    refusal has one."""
    body: dict[str, Any] = {"ok": False, "error": said or str(message)}
    if isinstance(message, Msg):
        body["error_msg"] = msgspec.to_builtins(message)
    return web.json_response(body, status=status, headers=headers)


def refusal_of(exc: KioskError) -> Msg | str:
    """What a refusal says: its message key, else its English line."""
    return exc.msg if exc.msg is not None else str(exc)


def too_many(wait: float) -> Refused:
    """429, and when to try again, for an address over its rate."""
    return Refused(429, M_("web.too_many", "too many requests from this address: try again "
                           "in {seconds} s", seconds=retry_after(wait)),
                   {"Retry-After": retry_after(wait)})


def limited(limiter: RateLimiter, handler: Handler) -> Handler:
    """A public read behind a per-address rate (`limiter`): 429 beyond it."""
    async def within(request: web.Request) -> web.StreamResponse:
        wait = limiter.take(request.remote or "?")
        if wait > 0:
            raise too_many(wait)     # said in its reader's language by the app's guard
        return await handler(request)
    return within


def same_origin(request: web.Request) -> bool:
    """A POST from a browser names its page's origin; it must be this server's.

    Another program on the same host (another port) is the same *site*, so SameSite
    cookies alone do not stop it; the Origin (or Referer) check does.
    """
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if origin is None:
        return True        # not a browser: the CSRF token still has to match
    own = f"{request.scheme}://{request.host}"
    return origin == own or origin.startswith(own + "/")


@dataclass(frozen=True)
class Action:
    """What the door checks before a route that acts runs.

    `kind` is the action a login's role must allow (kiosk.director.web.roles): a name,
    checked before the body is read, or a function of the body that names it (and refuses
    a body that names none). `public` opens the action to everyone on purpose (the login
    itself, a player's reservation by phone): no login, the origin and the body still
    checked. `body` is what the route reads: a JSON object, UTF-8 CSV text, a JSON object
    if one is sent, or nothing; `login` ends "log in as floor staff to ..."."""

    kind: str | Callable[[dict[str, Any]], str] | None = None
    body: Body = "json"
    login: str = "act"
    public: bool = False
    limit: RateLimiter | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.public == (self.kind is not None):
            raise ValueError("an action names the kind a role must allow, or is public")


@dataclass(frozen=True)
class Call:
    """A request the door let in: who sent it ("" on a public action) and its body."""

    request: web.Request
    user: str
    body: Any


Acting = Callable[[Call], Awaitable[web.StreamResponse | dict[str, Any]]]


@dataclass(frozen=True)
class Route:
    """One route of a page: a read (no action) or an action, through the door."""

    method: str
    path: str
    handler: Callable[..., Awaitable[Any]]
    action: Action | None = None


def get(path: str, handler: Handler) -> Route:
    return Route("GET", path, handler)


def post(path: str, action: Action, handler: Acting) -> Route:
    return Route("POST", path, handler, action)


class Door:
    """The floor's logins and sessions, and every action's way in."""

    def __init__(self, users: FloorUsers, store: SessionStore,
                 readers: Readers | None = None) -> None:
        self.users = users
        self.store = store
        self.readers = readers or Readers()

    def session(self, request: web.Request) -> tuple[str, str] | None:
        """(user, CSRF token) of the request's session, for a user who still exists."""
        found = self.store.lookup(request.cookies.get(COOKIE, ""))
        if found is None or not self.users.known(found[0]):
            return None
        return found

    def user(self, request: web.Request) -> str | None:
        found = self.session(request)
        return found[0] if found else None

    def who(self, request: web.Request) -> dict[str, Any]:
        """Who a page's reader is: the user, the session's token, the role, the login's
        own language (None: the room's) and the controls the page shows that role (none
        before login)."""
        found = self.session(request)
        role = self.users.role(found[0]) if found else None
        return {"user": found[0] if found else None, "csrf": found[1] if found else None,
                "role": role, "language": self.users.language(found[0]) if found else None,
                "may": roles.offered(role)}

    def language(self, request: web.Request) -> str:
        """The language the request's reader reads (kiosk.director.web.readers)."""
        user = self.user(request)
        return self.readers.language(request.headers.get("Accept-Language", ""),
                                     self.users.language(user) if user else None,
                                     logged_in=user is not None,
                                     chosen=request.cookies.get(CHOSEN, ""),
                                     address=request.query.get("lang", ""))

    def reading(self, request: web.Request, texts: str = "floor") -> Reading:
        """How a page served to `request` reads (kiosk.director.web.pages): a login with a
        language of its own is offered no other (its chooser would change nothing)."""
        user = self.user(request)
        code = self.language(request)
        own = user is not None and bool(self.users.language(user))
        return Reading(code, (code,) if own else self.readers.languages, texts)

    def speak(self, request: web.Request, body: dict[str, Any], *fields: str
              ) -> dict[str, Any]:
        """`body`'s message keys in `fields` said in the reader's language, each key kept
        beside its words (kiosk.director.web.readers)."""
        return self.readers.speak(body, self.language(request), *fields)

    def refuse(self, request: web.Request, refused: Refused) -> web.Response:
        """The one error reply for `refused`, said in the request's reader's language."""
        return refused.reply(self.readers.say(refused.msg, self.language(request)))

    def acting(self, request: web.Request, login: str) -> str:
        """The logged-in user, if the request also carries the session's CSRF token."""
        found = self.session(request)
        if found is None or request.headers.get(CSRF_HEADER, "") != found[1]:
            raise Refused(401, roles.login_needed(login))
        return found[0]

    def allow(self, user: str, kind: str) -> None:
        """Refused (403, which role may not do what) unless `user`'s role may `kind`."""
        why = roles.refusal(self.users.role(user), kind)
        if why is not None:
            raise Refused(403, why)

    def reader(self, login: str, handler: Callable[[web.Request, str], Awaitable[
            web.StreamResponse]]) -> Handler:
        """A read only a floor login may see (no token: it changes nothing)."""
        async def read(request: web.Request) -> web.StreamResponse:
            user = self.user(request)
            if user is None:
                raise Refused(401, roles.login_needed(login))
            return await handler(request, user)
        return read

    def register(self, app: web.Application, routes: Iterable[Route]) -> None:
        """Add `routes` to `app`, every action through the door; a route that may change
        something without an action is a bug, refused here."""
        for r in routes:
            if r.action is None and r.method not in READS:
                raise ValueError(f"{r.method} {r.path} changes state: declare its Action")
            if r.action is None:
                add = app.router.add_get if r.method == "GET" else app.router.add_head
                add(r.path, r.handler)    # a GET answers HEAD too
            else:
                app.router.add_route(r.method, r.path, self.guard(r.action, r.handler))

    def guard(self, action: Action, handler: Acting) -> Handler:
        """`handler` behind the door of `action`."""
        async def door(request: web.Request) -> web.StreamResponse:
            try:
                out = await self._through(action, handler, request)
            except Refused as refused:
                return self.refuse(request, refused)
            except KioskError as exc:   # the room's refusal, or a body that does not fit
                return self.refuse(request, Refused(400, refusal_of(exc)))
            return web.json_response(out) if isinstance(out, dict) else out
        door.action = action  # type: ignore[attr-defined]  # which door (the router's test)
        return door

    async def _through(self, action: Action, handler: Acting,
                       request: web.Request) -> web.StreamResponse | dict[str, Any]:
        if not same_origin(request):
            raise Refused(403, M_("web.other_site", "refused: the request came from another "
                                  "site's page"))
        if action.limit is not None:
            wait = action.limit.take(request.remote or "?")
            if wait > 0:
                raise too_many(wait)
        user = ""
        if not action.public:
            user = self.acting(request, action.login)
            if isinstance(action.kind, str):
                self.allow(user, action.kind)
        body = await read_body(request, action)
        if callable(action.kind):
            self.allow(user, action.kind(body))
        return await handler(Call(request, user, body))


async def read_body(request: web.Request, action: Action) -> Any:
    """The body the action reads; Refused (415, 400) when it is not that."""
    if action.body == "none":
        return None
    if action.body == "csv":
        try:
            return await request.text()
        except UnicodeDecodeError:
            raise Refused(400, M_("web.csv_utf8", "the CSV must be UTF-8 text")) from None
    if action.body == "optional":     # a JSON object if one is sent, else nothing asked
        try:
            sent = await request.json() if request.can_read_body else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            sent = None
        return sent if isinstance(sent, dict) else {}
    return await json_object(request, "form" if action.public else "command")


async def json_object(request: web.Request, what: str) -> dict[str, Any]:
    """The request's JSON object: 415 unless sent as JSON (no HTML form can), 400 unless
    it parses to an object. `what`: the form (a player's) or the command (the floor's)."""
    if request.content_type != "application/json":
        raise Refused(415, M_("web.send_form_json", "send the form as application/json")
                      if what == "form" else
                      M_("web.send_command_json", "send the command as application/json"))
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Refused(400, M_("web.not_json", "body is not JSON")) from None
    if not isinstance(body, dict):
        raise Refused(400, M_("web.not_object", "body must be a JSON object"))
    return body
