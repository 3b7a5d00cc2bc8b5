"""The director's broker connection: connect, subscribe, reconnect, say goodbye.

paho runs its network loop in its own thread and only hands messages over to the asyncio
loop (kiosk.director.mqtt.inbox); on every (re)connect everything retained goes out again
(kiosk.director.mqtt.publisher), because the broker may have lost it.

Every director of a room connects as `director-<room>` to a session the broker keeps
for SESSION_S: reports sent while no director is connected (a restart, a hand-over to
the standby, a takeover) wait there and reach the next one in the order the tables sent
them, instead of coming back only with the outboxes' re-sends, after newer ones.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.config.files import BrokerConfig
from kiosk.director.mqtt.inbox import Inbox
from kiosk.director.mqtt.publisher import Publishing
from kiosk.director.mqtt.wire import Wire
from kiosk.mqtt.client import connect_session, make_client
from kiosk.protocol.messages import encode
from kiosk.protocol.topics import V1Topics

log = logging.getLogger("kiosk.director")
SESSION_S = 600    # seconds the broker keeps the directors' session with no director on it


class MqttLink:
    """One client for the room's director; `connected` is set while it is connected."""

    def __init__(self, broker: BrokerConfig, room: str, wire: Wire, inbox: Inbox,
                 publishing: Publishing, subscriptions: Sequence[str] = (),
                 reconnected: Callable[[], None] | None = None) -> None:
        self.broker = broker
        self.subscriptions = tuple(subscriptions)   # more topics (QoS 1): tables' updates
        self.reconnected = reconnected              # after the republish on each connect
        self.room = room
        self.wire = wire
        self.inbox = inbox
        self.publishing = publishing
        self.connected = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._unreachable = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = self.inbox.loop = loop
        b = self.broker
        offline = encode({"state": "offline", "ts": 0})
        client = make_client(f"director-{self.room}", b,
                             will_topic=self.wire.topics.director_status,
                             will_payload=offline, session=True)
        self.wire.client = client
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self.inbox.on_message
        client.max_queued_messages_set(0)
        connect_session(client, b, 15, SESSION_S)
        client.loop_start()

    def pause(self) -> None:
        """Take no more messages (a hand-over): paho's loop stops, so nothing more is
        acknowledged to the broker; what it did take is already on the asyncio loop's
        queue, and the rest waits in the session for the next director."""
        client = self.wire.client
        if client is not None:
            client.loop_stop()

    def stop(self) -> None:
        client = self.wire.client
        if client is not None:
            self._stopping = True
            self.wire.send(self.wire.topics.director_status,
                           {"state": "offline", "ts": self.wire.clock()})
            client.disconnect()
            client.loop_stop()
            self.wire.client = None

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    props: Any = None) -> None:
        if reason.is_failure:
            log.error("broker refused the director: %s", reason)
            return
        t = self.wire.topics
        client.subscribe([(t.all_reports, 1), (t.all_live, 0), (t.all_status, 1),
                          (V1Topics.all_status, 1),
                          *((topic, 1) for topic in self.subscriptions)])
        if self.loop:
            self.loop.call_soon_threadsafe(self._connected)

    def _connected(self) -> None:
        self._unreachable = False
        log.info("connected to %s", self.broker.url)
        self.publishing.republish_all()
        if self.reconnected is not None:
            self.reconnected()
        self.connected.set()

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if not self._unreachable:   # once per outage, not every retry
            self._unreachable = True
            log.warning("cannot reach the broker at %s; retrying", self.broker.url)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       props: Any = None) -> None:
        if self._stopping:
            log.info("disconnected from the broker")
            return
        log.warning("broker connection lost (%s); retrying", reason)
        if self.loop:
            self.loop.call_soon_threadsafe(self.connected.clear)
