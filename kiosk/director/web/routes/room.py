"""The room page and the room's API.

GET / is the room page (`/?event=NAME` goes to that event's dashboard); GET /api/room its
snapshot and GET /api/health the director's health (no login, like every read). POST
/api/room/act takes one room command (kiosk.core.model.room_commands: assign_table,
free_table, set_event_state, return_ticket, refund_ticket...) and POST /api/room/events
opens a new event from the keys of a room.toml `[[events]]` entry; both are actions
through the door (a floor login whose role allows the command) and both are audited in
the room's log with the user.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from aiohttp import web

from kiosk.base.texts import M_, Msg
from kiosk.core.model import room_commands
from kiosk.director.views.room_views import room_snapshot
from kiosk.director.web import pages
from kiosk.director.web.door import Action, Call, Refused, Route, get, post
from kiosk.director.web.site import Site


def room_kind(body: dict[str, Any]) -> str:
    """The kind of the room command `body` holds (RuleError when it holds none)."""
    return str(room_commands.decode(body).kind)


# the health line's tasks by name; any other (a demo's simulated tables) reads as it is
TASKS = {"director": M_("health.task_director", "director"),
         "leader": M_("health.task_leader", "leader"),
         "standby": M_("health.task_standby", "standby"),
         "printer": M_("health.task_printer", "printer")}


def task_name(task: str) -> Msg | str:
    """A failed task's name in the reader's words: "table 12", "printer"."""
    number = task.removeprefix("table ")
    if number != task and number.isdigit():
        return M_("health.task_table", "table {table}", table=int(number))
    return TASKS.get(task, task)


class RoomRoutes:
    """The room at a glance, and its commands."""

    def __init__(self, site: Site) -> None:
        self.served = site.served
        self.service = site.served.service
        self.door = site.door

    def routes(self) -> list[Route]:
        return [get("/", self.page), get("/api/room", self.room),
                get("/api/health", self.health),
                post("/api/room/act", Action(kind=room_kind), self.act),
                post("/api/room/events", Action(kind="add_event"), self.open_event)]

    async def page(self, request: web.Request) -> web.Response:
        if request.query.get("event"):     # the one-event dashboard's old address
            raise web.HTTPFound("/event/" + quote(request.query["event"], safe=""))
        return pages.reply(pages.render("/", self.door.reading(request)), own_scripts=True)

    async def room(self, request: web.Request) -> web.Response:
        snap = room_snapshot(self.service.repo, self.served.feed, self.service.now())
        return web.json_response({**snap, **self.door.who(request),
                                  "languages": list(self.door.readers.languages)})

    async def health(self, request: web.Request) -> web.Response:
        """For `pokerkiosk doctor` and the dashboard's health line: which event runs here,
        is the broker connected, which background task failed (and how), and how many
        commands a bug refused (each in the log with its traceback). `failed` stays
        English (`pokerkiosk doctor`, the logs); `problems` says each in the reader's words."""
        ha = self.served.ha
        failed = dict(self.served.health)
        return web.json_response(self.door.speak(request, {
            "service": "pokerkiosk-director", "event": self.served.config.name,
            "broker_connected": self.served.connected.is_set(),
            "failed": {task: str(why) for task, why in failed.items()},   # English: doctor
            "problems": [M_("health.line", "{task}: {why}", task=task_name(task), why=why)
                         for task, why in failed.items()],
            "internal_errors": self.service.tx.internal_errors,
            "untranslated": self.served.feed.untranslated(),
            "leadership": ha.status() if ha is not None else None}, "problems"))

    async def act(self, call: Call) -> dict[str, Any]:
        cmd = room_commands.decode(call.body)
        event = getattr(cmd, "event", None)
        known = self.service.repo.room.events
        if event is not None and event not in known:
            raise Refused(404, M_("event.not_here", "no event '{event}' in this room (events: "
                                  "{events})", event=event, events=", ".join(known))
                          if known else
                          M_("event.not_here_none", "no event '{event}' in this room "
                             "(events: none)", event=event))
        return {"ok": True, "events": len(self.service.room_act(cmd, call.user))}

    async def open_event(self, call: Call) -> dict[str, Any]:
        return {"ok": True, "event": self.service.open_event(call.body, call.user).name}
