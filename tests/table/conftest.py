"""Fixtures for the table tests: a private Mosquitto, gpiozero mock pins, a subscriber."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from kiosk.mqtt.broker import Mosquitto

sys.path.insert(0, str(Path(__file__).parent))  # table_helpers, also used by the bench

@pytest.fixture
def broker(mosquitto: Mosquitto) -> Mosquitto:
    """The suite's private Mosquitto; stop() and start() simulate an outage."""
    return mosquitto


class Subscriber:
    """A plain paho client that records what the broker carries on some topics."""

    def __init__(self, port: int, *topics: str) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self.topics = topics
        self.hook: Callable[[str, dict[str, Any]], None] | None = None  # e.g. a director ack
        self.client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=f"observer-{port}-{time.monotonic_ns()}",
                                  protocol=mqtt.MQTTv5)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *a: self._ready.set()
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(1, 1)
        self.client.connect_async("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        assert self._ready.wait(10), "observer could not subscribe"

    def _on_connect(self, client: mqtt.Client, *_: Any) -> None:
        client.subscribe([(t, 1) for t in self.topics])

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        body = json.loads(msg.payload)
        with self._lock:
            self.messages.append((msg.topic, body))
        if self.hook is not None:
            self.hook(msg.topic, body)

    def on(self, topic: str) -> list[dict[str, Any]]:
        with self._lock:
            return [m for t, m in self.messages if t == topic]

    def publish(self, topic: str, msg: dict[str, Any], retain: bool = False) -> None:
        self.client.publish(topic, json.dumps(msg), qos=1, retain=retain).wait_for_publish(30)

    def ack_reports(self, ack_topic: str, hold: set[str] | None = None) -> set[str]:
        """Stand in for the director: ack each report on arrival unless its id is held."""
        held = hold if hold is not None else set()

        def hook(topic: str, msg: dict[str, Any]) -> None:
            if topic.endswith("/report") and msg.get("id") not in held:
                self.client.publish(ack_topic, json.dumps({"v": 2, "ids": [msg["id"]]}), qos=1)

        self.hook = hook
        return held

    def count(self, topic: str) -> dict[str, int]:
        """How many times each report id arrived."""
        out: dict[str, int] = {}
        for m in self.on(topic):
            out[m["id"]] = out.get(m["id"], 0) + 1
        return out

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def observer(broker: Mosquitto) -> Iterator[Callable[..., Subscriber]]:
    made: list[Subscriber] = []

    def make(*topics: str) -> Subscriber:
        sub = Subscriber(broker.port, *topics)
        made.append(sub)
        return sub

    yield make
    for sub in made:
        sub.close()


@pytest.fixture
def mock_pins() -> Iterator[Any]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    old = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    yield factory
    factory.reset()
    Device.pin_factory = old
