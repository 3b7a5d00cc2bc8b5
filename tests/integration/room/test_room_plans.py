"""A room's director as a process over a real Mosquitto: every table of the pool has a
retained plan naming the event it serves (or none), and the events directory lists them."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from waiting import STARTUP_S, eventually

from kiosk.mqtt.broker import free_port, stop_process
from kiosk.mqtt.client import make_client

ROOM = """
[room]
name = "casino"
title = "Casino Hall"
tables = 6

[broker]
url = "mqtt://127.0.0.1:{port}"

[director]
db = "room.db"
http = "127.0.0.1:{http}"

[[events]]
name = "daily"
title = "Daily 50"
structure = "turbo"
tables = 2

[[events]]
name = "sunday"
title = "Sunday Main"
scheduled = true
"""


def test_every_table_of_the_pool_has_a_plan_naming_its_event(tmp_path: Path,
                                                             mosquitto) -> None:
    (tmp_path / "room.toml").write_text(ROOM.format(port=mosquitto.port, http=free_port()))
    got: dict[str, dict] = {}
    lock = threading.Lock()
    client = make_client("watcher", mosquitto.config)

    def on_message(c, u, msg) -> None:
        if msg.payload:
            with lock:
                got[msg.topic] = json.loads(msg.payload)

    client.on_message = on_message
    client.on_connect = lambda c, *a: c.subscribe([("pk/v2/casino/table/+/plan", 1),
                                                   ("pk/v2/casino/events", 1)])
    client.connect(mosquitto.config.host, mosquitto.port)
    client.loop_start()
    log = (tmp_path / "director.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "director", "--config",
                             str(tmp_path / "room.toml"), "--no-web"], stdout=log, stderr=log)
    try:
        # seven retained messages: six plans and the directory, once the director is up
        eventually(lambda: len(got), 7, STARTUP_S)
        plans = {int(t.split("/")[4]): p for t, p in got.items() if t.endswith("/plan")}
        assert {n: p["event"] for n, p in plans.items()} == {
            1: "daily", 2: "daily", 3: None, 4: None, 5: None, 6: None}
        assert plans[1]["title"] == "Daily 50" and plans[1]["room"] == "Casino Hall"
        assert plans[4]["room"] == "Casino Hall" and plans[4]["seats"] == {}
        directory = got["pk/v2/casino/events"]
        assert [(e["event"], e["state"]) for e in directory["events"]] == [
            ("daily", "open"), ("sunday", "scheduled")]
    finally:
        stop_process(proc, grace=10)
        client.loop_stop()
        client.disconnect()
        log.close()
