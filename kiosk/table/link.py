"""The table's MQTT link (paho-mqtt 2.x): subscriptions, status, reports, live snapshot.

The outbox is the truth for reports: paho's own in-memory queue is dropped on every
connect and the outbox re-published instead, so a report is sent again only when the
broker never took it, or when the director has not acked it after `resend_s`. With
several brokers configured the client moves to the next when one is gone
(`kiosk.mqtt.client`), and on a broker other than the last one every unacked report is
sent again at once, and again when the director arrives there after the table: the new
broker never saw them, and the director's dedup keeps a report that did arrive twice
from counting twice. A table on a broker where no director is online for `hunt_s`
moves on to the next one.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import msgspec
import paho.mqtt.client as mqtt

from kiosk.config.files import TableConfig
from kiosk.mqtt.client import make_client
from kiosk.protocol import dealer_messages
from kiosk.protocol.messages import ProtocolError, decode, encode
from kiosk.protocol.topics import Topics
from kiosk.table.outbox import Outbox, StorageFull
from kiosk.table.view import REFUSED, REFUSED_LOGIN

log = logging.getLogger(__name__)

Handler = Callable[[str, dict[str, Any]], None]   # (kind, decoded message)


LOGIN_REFUSED = (134, 135)   # CONNACK: bad user name or password; not authorized


def refusal(reason: Any) -> str:
    """What the screen says when the broker turns the table down: a wrong password or a
    missing ACL entry is the operator's to fix, so it is named plainly (in English here,
    for the log; the screen says it in the dealer's language: kiosk.table.ui.texts)."""
    if getattr(reason, "value", None) in LOGIN_REFUSED:
        return REFUSED_LOGIN
    return REFUSED.format(reason=reason)


class TableLink:
    """One table's connection to the broker; callbacks run on paho's network thread."""

    def __init__(self, cfg: TableConfig, outbox: Outbox, on_message: Handler,
                 on_state: Callable[[bool], None] | None = None, *, resend_s: float = 10.0,
                 reconnect: tuple[int, int] = (1, 16), keepalive: int = 15,
                 hunt_s: float = 15.0) -> None:
        self.cfg, self.outbox, self.on_message, self.on_state = cfg, outbox, on_message, on_state
        self.resend_s = resend_s
        self.hunt_s = hunt_s    # several brokers: no director on this one this long, move on
        self.keepalive = keepalive
        self.topics = t = Topics(cfg.room)
        n = cfg.table
        # fixed subscriptions; every event's seating (card check-in looks across events)
        # and the schedule of the event the plan names come on top (`follow`)
        self._routes = {t.plan(n): "plan", t.ack(n): "ack", t.director_status: "director",
                        t.events: "events", dealer_messages.answer_topic(t, n): "dealer_answer"}
        self._event: str | None = None
        self.extra: list[str] = []     # more topics (the updater's), each with its callback
        self._follow_lock = threading.Lock()
        self._connected = threading.Event()
        self._mids: dict[int, str] = {}    # message id -> report id ("" for others)
        self._early: set[int] = set()      # PUBACKs that beat the bookkeeping
        self._send_lock = threading.RLock()
        self._sent: set[str] = set()       # report ids published on this connection
        self._mid_lock = threading.Lock()
        self._live: bytes | None = None
        self._last_broker: str | None = None   # the broker of the last connection
        self._moved = False    # on a new broker, until its director says it is online
        self._since = 0.0      # when this connection came up
        self._alone: float | None = None   # since when no director is online on this broker
        self.refused = ""      # why the broker turned the last login down ("" = it did not)
        self._stopping = threading.Event()
        self._resender: threading.Thread | None = None
        c = make_client(f"table-{n}-{cfg.room}", cfg.broker,
                        will_topic=self.topics.table_status(n),
                        will_payload=encode({"state": "offline"}), reconnect=reconnect)
        c.on_connect, c.on_disconnect = self._on_connect, self._on_disconnect
        c.on_message, c.on_publish = self._on_message, self._on_publish
        self.client = c

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self) -> None:
        """Connect in the background; paho keeps retrying while the broker is away, and a
        small thread re-sends unacked reports whichever front end is running."""
        b = self.cfg.broker
        self.client.connect_async(b.host, b.port, keepalive=self.keepalive)
        self.client.loop_start()
        self._resender = threading.Thread(target=self._resend_loop, daemon=True,
                                          name=f"table-{self.cfg.table}-resend")
        self._resender.start()

    def _resend_loop(self) -> None:
        while not self._stopping.wait(max(0.2, min(self.resend_s, self.hunt_s) / 4)):
            try:
                self.resend_due()
                self.hunt_due()
            except Exception:   # a full disk or a closed db must not kill the thread
                log.exception("table %s: re-send failed", self.cfg.table)

    def stop(self) -> None:
        """Say goodbye cleanly (retained offline status) and stop the network thread."""
        self._stopping.set()
        if self._resender is not None:
            self._resender.join(timeout=2)
        if self.connected:
            info = self.client.publish(self.topics.table_status(self.cfg.table),
                                       encode({"state": "offline", "ts": time.time()}),
                                       qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(1.0)
        self.client.disconnect()
        self.client.loop_stop()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def follow(self, event: str | None) -> None:
        """Listen to the schedule of `event` (the one the plan names; None: a free table)
        instead of the last one's: the room moves tables between events live."""
        with self._follow_lock:
            old, self._event = self._event, event
            if old == event or not self.connected:
                return
            if old is not None:
                self.client.unsubscribe(self.topics.schedule(old))
            if event is not None:
                self.client.subscribe(self.topics.schedule(event), qos=1)
        log.info("table %s: following %s", self.cfg.table, event or "no event (free)")

    def _subscriptions(self) -> list[str]:
        with self._follow_lock:
            event = self._event
        extra = [self.topics.schedule(event)] if event is not None else []
        return [*self._routes, self.topics.all_seating, *extra, *self.extra]

    def _route(self, topic: str) -> tuple[str, str | None] | None:
        """(kind, event) of a message on `topic`, or None when it is not for us (an
        old event's schedule still in flight after a switch)."""
        kind = self._routes.get(topic)
        if kind is not None:
            return kind, None
        parsed = self.topics.parse_event_topic(topic)
        if parsed is None:
            return None
        event, leaf = parsed
        if leaf == "seating" or (leaf == "schedule" and event == self._event):
            return leaf, event
        return None

    # ---------------------------------------------------------------- publishing
    def send(self, rid: str, payload: bytes, *, again: bool = False) -> bool:
        """Publish one committed report if connected; otherwise it waits for reconnect.

        Without `again`, a report already sent on this connection is not sent twice
        (the reconnect flush and a fresh action can race for the same report)."""
        with self._send_lock:
            if not self.connected or (rid in self._sent and not again):
                return False
            if not self._publish(self.topics.report(self.cfg.table), payload, 1, False, rid):
                return False
            self._sent.add(rid)
        with contextlib.suppress(StorageFull):   # the re-send clock waits for a write
            self.outbox.mark_sent(rid, time.time())
        return True

    def _publish(self, topic: str, payload: bytes, qos: int, retain: bool, rid: str = "") -> bool:
        """Publish and remember which report a message id carries (never under our lock:
        paho calls on_publish while holding its own lock)."""
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False
        with self._mid_lock:
            early = info.mid in self._early
            if early:
                self._early.discard(info.mid)
            else:
                self._mids[info.mid] = rid
        if early and rid:
            with contextlib.suppress(StorageFull):
                self.outbox.mark_delivered(rid)
        return True

    def send_dealer(self, request: dict[str, Any]) -> bool:
        """A dealer's badge or PIN to the director, once (QoS 1, never retained, never
        queued on disk); False when offline."""
        if not self.connected:
            return False
        req = dealer_messages.DealerRequest(id=uuid.uuid4().hex[:16], table=self.cfg.table,
                                            **request)
        return self._publish(dealer_messages.request_topic(self.topics, self.cfg.table),
                             dealer_messages.encode(req), 1, False)

    def publish_live(self, live: dict[str, Any]) -> None:
        """Retained live snapshot; remembered so a reconnect republishes the latest."""
        self._live = encode(live)
        if self.connected:
            self._publish(self.topics.live(self.cfg.table), self._live, 0, True)

    def resend_due(self, now: float | None = None) -> int:
        """Re-publish reports the director has not acked within `resend_s`."""
        if not self.connected:
            return 0
        due = self.outbox.due(time.time() if now is None else now, self.resend_s)
        for rid, payload in due:
            log.info("table %s: re-sending report %s (no ack yet)", self.cfg.table, rid)
            self.send(rid, payload, again=True)
        return len(due)

    def hunt_due(self, now: float | None = None) -> bool:
        """With several brokers: when no director has been online on this one for
        `hunt_s`, try the next (a broker that came back after the director moved on
        still answers, but nobody acknowledges there). True when moving on."""
        alone = self._alone
        now = time.time() if now is None else now
        if not self.connected or alone is None or now - alone < self.hunt_s \
                or len(self.cfg.broker.addresses) < 2:
            return False
        log.warning("table %s: no director on %s for %.0f s; trying the next broker",
                    self.cfg.table, self.client.address, now - alone)
        self._alone = None
        self.client.move_on()
        return True

    # ---------------------------------------------------------------- paho callbacks
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("table %s: broker refused the connection: %s", self.cfg.table, reason)
            self.refused = refusal(reason)
            if self.on_state:
                self.on_state(False)
            return
        self.refused = ""
        n = self.cfg.table
        client.subscribe([(t, mqtt.SubscribeOptions(qos=1)) for t in self._subscriptions()])
        with self._send_lock:
            client.drop_out_messages()   # the outbox re-sends what the broker has not taken
            with self._mid_lock:
                self._mids.clear()
                self._early.clear()
            self._sent.clear()
            self._connected.set()
            here = self.client.address
            moved = self._last_broker not in (None, here)
            self._last_broker = here
            self._moved, self._since = self._moved or moved, time.time()
            self._alone = self._since
            for rid, payload in self.outbox.unacked() if moved else self.outbox.unsent():
                self.send(rid, payload)
        self._publish(self.topics.table_status(n), encode({"state": "online", "ts": time.time()}),
                      1, True)
        log.info("table %s: connected to %s%s", n, here,
                 ", re-sending every unacked report there" if moved else "")
        if self._live is not None:
            self._publish(self.topics.live(n), self._live, 0, True)
        if self.on_state:
            self.on_state(True)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        was = self.connected
        self._connected.clear()
        if was:
            log.warning("table %s: disconnected from the broker (%s)", self.cfg.table, reason)
        if self.on_state:
            self.on_state(False)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        with self._mid_lock:
            rid = self._mids.pop(mid, None)
            if rid is None:
                self._early.add(mid)
        if rid and not reason.is_failure:
            with contextlib.suppress(StorageFull):   # not recorded: sent again on reconnect
                self.outbox.mark_delivered(rid)

    def _director_here(self, since: float) -> None:
        """The director is on the broker this table moved to. If it came after the table
        (it moves too, maybe later), what was sent here before it came was lost: send it
        again now rather than after `resend_s`."""
        self._moved = False
        if since < self._since:
            return     # it was here first: the reports sent on connect reached it
        with self._send_lock:
            for rid, payload in self.outbox.unacked():
                self.send(rid, payload, again=True)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        route = self._route(msg.topic)
        if route is None:
            return
        kind, event = route
        try:
            data = msgspec.to_builtins(dealer_messages.parse_answer(msg.payload)) \
                if kind == "dealer_answer" else \
                decode("status" if kind == "director" else kind, msg.payload)
        except ProtocolError as exc:
            log.warning("table %s: dropped %s on %s: %s", self.cfg.table, kind, msg.topic, exc)
            return
        if kind == "seating":
            data["event"] = event       # the topic says whose seats these are
        if kind == "ack":
            try:
                n = self.outbox.ack(data["ids"])
            except StorageFull as exc:   # kept: the re-send is acked as a duplicate later
                log.warning("table %s: ack not recorded: %s", self.cfg.table, exc)
            else:
                log.debug("table %s: ack for %d report(s)", self.cfg.table, n)
        if kind == "director":
            online = data.get("state") == "online"
            self._alone = None if online else (self._alone or time.time())
            if online and self._moved:
                self._director_here(data.get("ts") or 0.0)
        try:
            self.on_message(kind, data)
        except Exception:   # a bad message must never kill the network thread
            log.exception("table %s: handling %s failed", self.cfg.table, kind)

