"""What the tables send the director, one message at a time, never trusted: the MQTT inbox.

Messages arrive on paho's network thread; a table over its budget is dropped there, the
rest are handed to the asyncio loop and handled in batches (`drain`): decide each report
(routed to the event its table serves), let the room's service write the whole batch in
one fsynced transaction, then acknowledge the reports. Nothing is acknowledged before it
is on disk.

A report is routed to the event it names (the event its table served when it was
written), or to the event the table serves now; it is applied and logged whole, or
acknowledged as rejected with the reason. Live snapshots and statuses are decoded against
their schema and kept for the dashboard (kiosk.director.views.table_feed). An old-version kiosk
is told, on its own screen, that it must be updated.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Msg
from kiosk.core.model import commands
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.room_service import RoomService
from kiosk.director.log.logstore import Fenced
from kiosk.director.mqtt.budget import Budget
from kiosk.director.mqtt.speech import Speech
from kiosk.director.mqtt.wire import Wire
from kiosk.director.views.hub import Hub
from kiosk.director.views.table_feed import TableFeed
from kiosk.protocol.messages import ProtocolError, decode, parse, report_id, v1_refusal
from kiosk.protocol.topics import V1Topics

log = logging.getLogger("kiosk.director")
Acks = dict[int, list[str]]
Refusals = dict[int, dict[str, Any]]    # table -> report id -> (words, message key)


class Inbox:
    """The tables' messages, from the broker's thread to the room's service."""

    def __init__(self, service: RoomService, wire: Wire, hub: Hub, feed: TableFeed,
                 health: dict[str, Msg | str],
                 updates: Callable[[int, bytes], None] | None = None,
                 dealer: Callable[[int, bytes], None] | None = None) -> None:
        self.service = service
        self.updates = updates      # a table's update status (leaf "update"), when served
        self.dealer = dealer        # a dealer's badge or PIN (leaf "dealer"), when served
        self.dealer_waiting: list[tuple[int, bytes]] = []   # taken after the batch's write
        self.wire = wire
        self.hub = hub
        self.feed = feed
        self.health = health
        self.queue: deque[tuple[str, bytes]] = deque()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.budget = Budget()
        self.rejected = 0
        self.dropped = 0            # messages over a table's budget (the table re-sends)
        self.old_tables: set[tuple[str, int]] = set()   # v1 kiosks told to update
        self._draining = False
        self.speech = Speech(service.repo.config)   # refusals in the room's language

    # ---------------------------------------------------------------- the threads
    def on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """On paho's thread: a table over its budget is dropped here, before it costs the
        loop anything (its outbox re-sends what mattered, later)."""
        if not self.budget.take(msg.topic, time.monotonic()):
            self.dropped += 1
            return
        if self.loop:
            self.loop.call_soon_threadsafe(self._enqueue, msg.topic, bytes(msg.payload))

    def _enqueue(self, topic: str, payload: bytes) -> None:
        self.queue.append((topic, payload))
        if not self._draining:
            self._draining = True
            assert self.loop is not None
            self.loop.call_soon(self.drain)

    def drain(self) -> None:
        """Handle every waiting message, commit once, then publish and acknowledge."""
        self._draining = False
        batch = Batch()
        acks: Acks = {}
        rejected: Refusals = {}
        tables_changed: set[int] = set()
        while self.queue:
            topic, payload = self.queue.popleft()
            try:
                self.take(topic, payload, batch, acks, rejected, tables_changed)
            except Exception as exc:   # a bug: this message is lost, never the batch
                self.service.tx.internal(f"a message on {topic}", exc)
        try:
            self.service.commit(batch)
        except Fenced:   # no longer the leader: acknowledge nothing
            return
        waiting, self.dealer_waiting = self.dealer_waiting, []
        for table, payload in waiting:   # each its own transaction, after the reports'
            if self.dealer is not None:
                self.dealer(table, payload)
        for table, ids in acks.items():
            body: dict[str, Any] = {"ids": ids}
            if rejected.get(table):
                body["rejected"] = {rid: why for rid, (why, _) in rejected[table].items()}
                keys = {rid: m for rid, (_, m) in rejected[table].items() if m is not None}
                if keys:
                    body["rejected_msgs"] = keys
            self.wire.send(self.wire.topics.ack(table), body, retain=False)
        if tables_changed:
            self.hub.publish({"type": "tables", "tables": sorted(tables_changed)})

    # ---------------------------------------------------------------- one message
    def take(self, topic: str, payload: bytes, batch: Batch, acks: Acks,
             rejected: Refusals, changed: set[int]) -> None:
        """One message off the broker, by its topic."""
        parsed = self.wire.topics.parse_table_topic(topic)
        if parsed is None:
            self.old_table(topic, payload)
            return
        table, leaf = parsed
        if leaf == "report":
            self.report(table, payload, batch, acks, rejected)
        elif leaf == "live":
            msg = decode_from(table, "live", payload)
            if msg is not None:
                self.feed.live[table] = msg
                changed.add(table)
        elif leaf == "status":
            self.status(table, payload, changed)
        elif leaf == "update" and self.updates is not None:
            self.updates(table, payload)
        elif leaf == "dealer" and self.dealer is not None:
            self.dealer_waiting.append((table, payload))

    def report(self, table: int, payload: bytes, batch: Batch, acks: Acks,
               rejected: Refusals) -> None:
        """One report: applied and logged whole, or acknowledged as rejected with why."""

        def refuse(rid: str | None, exc: Exception) -> None:
            self.rejected += 1
            log.warning("table %d: report %s rejected: %s", table, rid or "(no id)", exc)
            if rid:  # a refused report never gets better: tell the table to stop sending it
                acks.setdefault(table, []).append(rid)
                words, key = self.speech.refusal(exc)
                rejected.setdefault(table, {})[rid] = (words[:500], key)

        try:
            msg = parse("report", payload)
        except ProtocolError as exc:
            refuse(report_id(payload), exc)
            return
        tx = self.service.tx
        try:
            duplicate = tx.atomic(batch, lambda: self._apply(table, msg, payload, batch),
                                  f"table {table}'s report {msg.id}")
        except RuleError as exc:   # a bug too, as InternalError: the director carries on
            refuse(msg.id, exc)
            return
        if duplicate:
            log.info("table %d: report %s was already applied; acknowledged again", table,
                     msg.id)
        acks.setdefault(table, []).append(msg.id)

    def _apply(self, table: int, msg: Any, payload: bytes, batch: Batch) -> bool:
        """Route a parsed report to its event and decide it into `batch`; whether it was a
        re-send of one already applied. RuleError with why it is refused."""
        if msg.table != table:
            raise RuleError(M_("report.other_table", "names table {named} but came from table "
                               "{table}", named=msg.table, table=table))
        repo = self.service.repo
        event = getattr(msg, "event", None) or repo.table_event(table)
        if event is None and not repo.config.pool and len(repo.events) == 1:
            event = next(iter(repo.events))   # a room of one: its event says why (as ever)
        if event is None:
            raise RuleError(M_("report.table_free", "table {table} is free: it serves no "
                               "event", table=table))
        desk = repo.events.get(event)
        if desk is None:
            raise RuleError(M_("report.no_event", "no event '{event}' in this room",
                               event=event))
        duplicate = (table, msg.id) in desk.tour.seen_reports
        self.service.tx.event(desk, commands.report_command(table, payload), batch)
        return duplicate

    def status(self, table: int, payload: bytes, changed: set[int]) -> None:
        msg = decode_from(table, "status", payload)
        if msg is None:
            return
        online = msg["state"] == "online"
        if self.feed.online.get(table) != online:
            log.info("table %d is %s", table, msg["state"])
        self.feed.online[table] = online
        changed.add(table)

    def old_table(self, topic: str, payload: bytes) -> None:
        """A v1 kiosk came online: hold it with a plan its own schema reads, saying why."""
        found = V1Topics.parse_status_topic(topic)
        if found is None:
            log.warning("ignored message on unexpected topic %s", topic)
            return
        event, table = found
        if b"online" not in payload:
            return
        if (event, table) not in self.old_tables:
            self.old_tables.add((event, table))
            log.error("table %d (event %s) runs protocol v1 and was refused: update its "
                      "kiosk software", table, event)
            self.health[f"table {table}"] = M_("health.old_kiosk", "old kiosk software "
                                                "(protocol v1): update it")
        self.wire.send(V1Topics(event).plan(table), v1_refusal(table, self.wire.clock()))


def decode_from(table: int, kind: str, payload: bytes) -> dict[str, Any] | None:
    """A table's retained message, or None (logged) when it is empty or invalid."""
    if not payload:   # a cleared retained message
        return None
    try:
        msg = decode(kind, payload)
    except ProtocolError as exc:
        log.warning("table %d: dropped a %s message: %s", table, kind, exc)
        return None
    if msg.get("table", table) != table:
        log.warning("table %d: %s message names table %s; dropped", table, kind, msg["table"])
        return None
    return msg
