"""The simulator's virtual tables over a real Mosquitto follow the room's plans: a table
deals for the event its newest plan names, and its reports say which event they are for."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from waiting import holds, wait_for

from kiosk.core.event import plans
from kiosk.core.model.commands import HandEndedReport
from kiosk.core.model.report_data import HandEndedData
from kiosk.protocol.messages import encode
from kiosk.protocol.topics import Topics
from kiosk.sim.mqtt_field import MqttField

ROOM = "main-room"
T = Topics(ROOM)


class Floor:
    """Stands in for the director's plans and acks (a retained plan per table)."""

    def __init__(self, port: int) -> None:
        self.reports: list[dict[str, Any]] = []
        self.ready = threading.Event()
        c = self.client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                                      client_id=f"floor-{time.monotonic_ns()}",
                                      protocol=mqtt.MQTTv5)
        c.on_connect = lambda cl, *_: cl.subscribe(T.all_reports, 1)
        c.on_subscribe = lambda *_: self.ready.set()
        c.on_message = self._report
        c.connect("127.0.0.1", port, keepalive=10)
        c.loop_start()
        assert self.ready.wait(10)

    def _report(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        body = json.loads(msg.payload)
        self.reports.append(body)
        client.publish(T.ack(body["table"]), encode({"ids": [body["id"]]}), qos=1)

    def plan(self, table: int, rev: int, event: str | None) -> None:
        body = {"rev": rev, "epoch": 1.0, **plans.free_plan(table, "Main Room")}
        if event is not None:
            body.update(event=event, title=event, seats={"1": {"player": "p1", "name": "A"}})
        self.client.publish(T.plan(table), encode(body), qos=1, retain=True).wait_for_publish(30)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_virtual_tables_deal_for_the_event_their_plan_names(mosquitto) -> None:
    floor = Floor(mosquitto.port)
    field = MqttField(mosquitto.config, "daily", room=ROOM, resend_every=1.0, ack_timeout=20)
    try:
        floor.plan(1, 1, "daily")
        floor.plan(2, 2, None)
        floor.plan(3, 3, "sat")
        wait_for(lambda: field.tables() == [1])
        holds(lambda: field.tables() == [1] and field.seats(3) == {}, 0.3,
              "free and 'sat' tables stay idle")
        floor.plan(2, 4, "daily")                 # a free table joins the daily
        floor.plan(1, 5, None)                    # and table 1 goes back to the pool
        wait_for(lambda: field.tables() == [2])
        assert field.seats(2) == {1: "p1"} and field.seats(1) == {}
        floor.plan(2, 3, "sat")                   # an older plan changes nothing
        holds(lambda: field.tables() == [2], 0.3, "an older plan changed the table")
        assert field.report(HandEndedReport(table=2, id="e1", data=HandEndedData(hand=1)), 0.0)
        assert [(r["id"], r["event"]) for r in floor.reports] == [("e1", "daily")]
    finally:
        field.close()
        floor.close()
