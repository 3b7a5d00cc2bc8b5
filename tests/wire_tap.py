"""Every payload on a room's topic tree, as a real broker passes it on: what the director,
the tables and the simulator actually put on the wire."""

from __future__ import annotations

import json
import threading
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import VERSION
from kiosk.protocol.topics import Topics


class WireTap:
    """A raw MQTT client subscribed to `pk/v2/<room>/#`, keeping (topic, payload)."""

    def __init__(self, mosquitto: Any, room: str) -> None:
        self.seen: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = make_client(f"tap-{room}", mosquitto.config)
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, *_: c.subscribe(f"{Topics(room).base}/#", 1)
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.connect("127.0.0.1", mosquitto.port)
        self.client.loop_start()
        assert subscribed.wait(10), "the broker never confirmed the subscription"

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.seen.append((msg.topic, bytes(msg.payload)))

    def leaves(self) -> set[str]:
        """The kinds of message seen: `report`, `plan`, `ack`, `schedule`, `events`..."""
        with self._lock:
            return {topic.rsplit("/", 2)[-2] if topic.rsplit("/", 1)[-1].isdigit()
                    else topic.rsplit("/", 1)[-1] for topic, _ in self.seen}

    def unversioned(self) -> list[tuple[str, str]]:
        """Every payload (a cleared retained message aside) without `"v": 2`."""
        with self._lock:
            seen = list(self.seen)
        return [(topic, raw.decode(errors="replace")[:200]) for topic, raw in seen
                if raw and json.loads(raw).get("v") != VERSION]

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
