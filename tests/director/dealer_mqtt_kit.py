"""Dealers over a real Mosquitto: the `[dealers]` section a room file adds, the dealers
badged in at their tables, and a raw MQTT client speaking as the room's kiosks."""

from __future__ import annotations

import json
from typing import Any

import paho.mqtt.client as mqtt
from waiting import wait_for

from kiosk.config import dealers as dc
from kiosk.mqtt.client import make_client
from kiosk.protocol import dealer_messages as dm
from kiosk.protocol.messages import decode
from kiosk.protocol.topics import Topics

SALT = "00112233445566778899aabbccddeeff"


class Table:
    """A raw MQTT client speaking as the kiosks of the room: dealer requests out, the
    director's answers and the retained plans in."""

    def __init__(self, mosquitto: Any) -> None:
        self.topics = Topics("casino")
        self.answers: list[dict[str, Any]] = []
        self.plans: dict[int, dict[str, Any]] = {}
        self.raw: list[bytes] = []
        self.client = make_client("dealer-probe", mosquitto.config)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", mosquitto.port)
        self.client.subscribe([(dm.answer_topic(self.topics, "+"), 1),
                               (self.topics.plan("+"), 1)])
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: Any) -> None:
        self.raw.append(bytes(msg.payload))
        if "/director/dealer/" in msg.topic:
            self.answers.append(json.loads(msg.payload))
        else:
            body = decode("plan", msg.payload)
            self.plans[body["table"]] = body

    def badge(self, table: int, rid: str, badge: str) -> dict[str, Any]:
        req = dm.DealerRequest(id=rid, table=table, badge=badge)
        self.client.publish(dm.request_topic(self.topics, table), dm.encode(req),
                            qos=1).wait_for_publish(30)
        return wait_for(lambda: next((a for a in self.answers if a["id"] == rid), None),
                        timeout=15)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def dealers_toml() -> str:
    roster = "".join(f'\n[[dealers.roster]]\nname = "{n}"\n'
                     f'badge = "{dc.badge_hash(f"BADGE-{i}", SALT)}"\n'
                     for i, n in enumerate(("Ann", "Bob", "Cy")))
    return f'\n[dealers]\ndown_minutes = 20\nstring_size = 2\nsalt = "{SALT}"\n{roster}'


def dealers_in(mosquitto: Any) -> None:
    """Ann and Bob badge in at tables 1 and 2 over the broker, each let in."""
    table = Table(mosquitto)
    try:
        for n in (1, 2):
            assert table.badge(n, f"b{n}", f"BADGE-{n - 1}")["ok"]
    finally:
        table.close()
