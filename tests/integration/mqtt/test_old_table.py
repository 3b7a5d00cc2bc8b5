"""A kiosk still on protocol v1 is held with a reason on its own screen, and the director
says so in its log; nothing it sends reaches an event."""

from __future__ import annotations

import json
import threading

from kiosk.director.log.store import EventLog
from kiosk.mqtt.client import make_client


def test_an_old_version_table_is_held_with_a_clear_message(mosquitto, director_factory) -> None:
    director = director_factory(players=12).start()
    got: dict[str, dict] = {}
    arrived = threading.Event()
    client = make_client("old-table-3", mosquitto.config)

    def on_message(c, u, msg) -> None:
        got[msg.topic] = json.loads(msg.payload)
        arrived.set()

    client.on_message = on_message
    client.on_connect = lambda c, *a: c.subscribe("pk/v1/test-event/table/3/plan", 1)
    client.connect(mosquitto.config.host, mosquitto.port)
    client.loop_start()
    try:
        before = len(EventLog(director.db))
        client.publish("pk/v1/test-event/table/3/status",
                       json.dumps({"v": 1, "state": "online", "ts": 1.0}), qos=1, retain=True)
        client.publish("pk/v1/test-event/table/3/report", json.dumps(
            {"v": 1, "table": 3, "id": "old-1", "seq": 1, "ts": 1.0, "kind": "floor_call",
             "data": {}}), qos=1)
        assert arrived.wait(15), "the old table got no answer"
        plan = got["pk/v1/test-event/table/3/plan"]
        assert plan["v"] == 1 and plan["hold"] is True and plan["seats"] == {}
        assert "update the kiosk" in plan["hold_reason"]
        director.wait_log("runs protocol v1 and was refused")
        assert len(EventLog(director.db)) == before, "an old table's report changes nothing"
    finally:
        client.loop_stop()
        client.disconnect()
