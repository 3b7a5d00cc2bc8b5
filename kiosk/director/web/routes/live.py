"""The live feed of the event dashboard and the TV clock (GET /ws?event=NAME): a websocket
that sends the event's snapshot, then only what changed, as the hub's notes say
(kiosk.director.views.hub, fed by the pages' outbox of each commit). Reading: no login.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.ports import Clock
from kiosk.director.views import views
from kiosk.director.views.room_views import EventView
from kiosk.director.views.table_feed import TableFeed
from kiosk.director.web.door import Route, get
from kiosk.director.web.events import event_for
from kiosk.director.web.site import Site

SUMMARY_EVERY = 0.25            # the header's clock is local; summaries need not flood


class LiveFeed:
    """Every open page's websocket, each fed by a task of its own."""

    def __init__(self, site: Site, app: web.Application) -> None:
        self.served = site.served
        self.sockets: set[web.WebSocketResponse] = set()
        app.on_shutdown.append(self.close_all)

    def routes(self) -> list[Route]:
        return [get("/ws", self.ws)]

    async def close_all(self, app: web.Application) -> None:
        """Open dashboards would hold a shutdown for a minute: tell them we are going."""
        for sock in list(self.sockets):
            await sock.close(code=WSCloseCode.GOING_AWAY, message=b"director stopping")

    async def ws(self, request: web.Request) -> web.WebSocketResponse:
        service, hub = self.served.service, self.served.hub
        desk = event_for(service.repo, request)
        sock = web.WebSocketResponse(heartbeat=20)
        await sock.prepare(request)
        self.sockets.add(sock)
        q = hub.subscribe()
        sender = asyncio.create_task(feed(desk, self.served.feed, service.clock, sock, q))
        try:
            async for msg in sock:
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sockets.discard(sock)
            sender.cancel()
            hub.unsubscribe(q)
            with contextlib.suppress(asyncio.CancelledError):
                await sender
        return sock


async def feed(desk: EventAggregate, tables: TableFeed, now: Clock,
               sock: web.WebSocketResponse, q: asyncio.Queue[dict[str, Any]]) -> None:
    """One event's feed: a snapshot first, then only what changed: its tables named by the
    notes waiting (merged), and the header at most every SUMMARY_EVERY seconds."""
    snap = views.snapshot(EventView.of(desk, tables), now())
    snap["summary"]["title"] = desk.title
    await sock.send_json(snap)
    last_summary = 0.0
    summary_due = False
    while not sock.closed:
        timeout = None if not summary_due else max(0.0, SUMMARY_EVERY -
                                                   (time.monotonic() - last_summary))
        try:
            notes = [await asyncio.wait_for(q.get(), timeout)]
        except TimeoutError:
            notes = []
        while not q.empty():
            notes.append(q.get_nowait())
        t = now()
        view = EventView.of(desk, tables)     # the desk's tournament, as it is now
        await send_tables(sock, view, notes, t)
        summary_due = summary_due or any(note.get("type") == "summary" and
                                         note.get("event", desk.name) == desk.name
                                         for note in notes)
        if summary_due and time.monotonic() - last_summary >= SUMMARY_EVERY:
            await sock.send_json({"type": "summary",
                                  "summary": {**views.summary(view, t), "title": desk.title},
                                  "calls": views.calls(view, t)})
            last_summary, summary_due = time.monotonic(), False


async def send_tables(sock: web.WebSocketResponse, view: EventView,
                      notes: list[dict[str, Any]], t: float) -> None:
    """The tiles of the event's tables the notes name, with the calls and the moves."""
    named = sorted({n for note in notes for n in note.get("tables", ())})
    live = [n for n in named if n in view.tour.tables]
    if live:
        await sock.send_json({"type": "tables",
                              "tables": [views.table_view(view, n, t) for n in live],
                              "calls": views.calls(view, t),
                              "moves": views.moves_in_transit(view)})
