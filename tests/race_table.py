"""A raw MQTT client playing one table's kiosk for the colour-up tests: it reads the
table's plan and sends reports, with nothing of the kiosk's own logic in between."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import paho.mqtt.client as mqtt
from waiting import wait_for

from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import decode, encode
from kiosk.protocol.topics import SingleEventTopics
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import load_structure

BREAK_25_OFF = 6          # the turbo structure's first break: the 25s leave play
CHIPS = '[money]\nchip_set = [25, 100, 500, 1000, 5000]\n'   # chip_race: the default


def odd_turbo() -> Structure:
    """The turbo structure with a 25 in every starting stack: every table has odd 25s to
    race off at the break that takes them out of play."""
    return dataclasses.replace(load_structure("turbo"), start_stack=10025)


class RaceTable:
    """Table `table` of `event`: its latest plan, the reports acknowledged or refused."""

    def __init__(self, mosquitto: Any, event: str, table: int = 1) -> None:
        self.topics, self.table = SingleEventTopics(event), table
        self.plan: dict = {}
        self.rejected: dict[str, str] = {}
        self.acked: set[str] = set()
        self.client = make_client(f"race-table-{table}", mosquitto.config)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", mosquitto.port)
        self.client.subscribe([(self.topics.ack(table), 1), (self.topics.plan(table), 1)])
        self.client.loop_start()
        self.n = 0

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == self.topics.plan(self.table):
            self.plan = decode("plan", msg.payload)
        else:
            ack = json.loads(msg.payload)
            self.acked.update(ack["ids"])
            self.rejected.update(ack.get("rejected", {}))

    def send(self, kind: str, **data: object) -> str:
        self.n += 1
        rid = f"race-{self.table}-{self.n}"
        rep = {"table": self.table, "id": rid, "seq": self.n, "ts": time.time(),
               "kind": kind, "data": data}
        self.client.publish(self.topics.report(self.table), encode(rep),
                            qos=1).wait_for_publish(30)
        wait_for(lambda: rid in self.acked, 15)
        return rid

    def count(self, odd: dict[int, int] | None = None) -> dict[str, int]:
        """The colour-up's count: 20,000 a seat, plus `odd` chips by seat. The stacks sent."""
        wait_for(lambda: (self.plan.get("chip_count") or {}).get("purpose") == "colour_up",
                 15)
        stacks = {str(s): 20000 + (odd or {}).get(int(s), 0) for s in self.plan["seats"]}
        self.send("chip_count", round=self.plan["chip_count"]["round"], stacks=stacks)
        return stacks

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
