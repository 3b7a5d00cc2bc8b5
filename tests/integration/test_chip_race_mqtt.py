"""The dealer's chip race over a real Mosquitto and a real director process: the
colour-up's count, the pending race in the table's plan, a wrong entry refused with
its reason, the dealer's entry taken, and the outcome still there after a restart."""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.request

import paho.mqtt.client as mqtt
from waiting import wait_for

from kiosk.director.store import EventLog
from kiosk.mqttclient import make_client
from kiosk.protocol.messages import decode, encode
from kiosk.protocol.topics import SingleEventTopics

BREAK_25_OFF = 6          # the turbo structure's first break: the 25s leave play
CHIPS = '[money]\nchip_set = [25, 100, 500, 1000, 5000]\n'   # chip_race: the default


class Table:
    """A raw MQTT client playing table 1's kiosk: reads its plan, sends reports."""

    def __init__(self, mosquitto, event: str) -> None:
        self.topics = SingleEventTopics(event)
        self.plan: dict = {}
        self.rejected: dict[str, str] = {}
        self.acked: set[str] = set()
        self.client = make_client("race-table", mosquitto.config)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", mosquitto.port)
        self.client.subscribe([(self.topics.ack(1), 1), (self.topics.plan(1), 1)])
        self.client.loop_start()
        self.n = 0

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == self.topics.plan(1):
            self.plan = decode("plan", msg.payload)
        else:
            ack = json.loads(msg.payload)
            self.acked.update(ack["ids"])
            self.rejected.update(ack.get("rejected", {}))

    def send(self, kind: str, **data: object) -> str:
        self.n += 1
        rid = f"race-{self.n}"
        rep = {"table": 1, "id": rid, "seq": self.n, "ts": time.time(), "kind": kind,
               "data": data}
        self.client.publish(self.topics.report(1), encode(rep), qos=1).wait_for_publish(5)
        wait_for(lambda: rid in self.acked, 15)
        return rid

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def floor_act(port: int, cmd: dict) -> dict:
    """The tournament director at the dashboard: log in, send one command."""
    url = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def post(path: str, body: dict, csrf: str = "") -> dict:
        req = urllib.request.Request(url + path, json.dumps(body).encode(), headers={
            "Content-Type": "application/json", "X-CSRF-Token": csrf})
        with opener.open(req, timeout=10) as r:
            return json.loads(r.read())

    csrf = post("/api/login", {"user": "td", "password": "pw"})["csrf"]
    return post("/api/act", cmd, csrf)


def test_dealer_race_over_mqtt(mosquitto, director_factory) -> None:
    director = director_factory(players=18, web=True, floor_users={"td": "pw"},
                                extra_toml=CHIPS).start()
    table = Table(mosquitto, director.name)
    wait_for(lambda: table.plan.get("seats"), 15)
    assert floor_act(director.http_port, {"kind": "clock", "action": "jump",
                                          "period": BREAK_25_OFF})["ok"]
    wait_for(lambda: (table.plan.get("chip_count") or {}).get("purpose") == "colour_up", 15)
    rnd = table.plan["chip_count"]["round"]
    seats = sorted(int(s) for s in table.plan["seats"])
    a, b = seats[:2]
    stacks = {str(s): 20000 for s in seats}
    stacks[str(a)], stacks[str(b)] = 20075, 20050      # 125 in 25s: one chip of 100
    table.send("chip_count", round=rnd, stacks=stacks)
    wait_for(lambda: (table.plan.get("colour_up") or {}).get("pending"), 15)
    cu = table.plan["colour_up"]
    assert (cu["race"], cu["deal_cards"], cu["to_give"], cu["max_each"]) == \
        ("dealer", {a: 3, b: 2}, 1, 1)

    before = EventLog(director.db).last_seq
    wrong = table.send("chip_race", round=rnd, winners=[a, b])
    assert "enter 1 winning card, not 2" in table.rejected[wrong]
    assert EventLog(director.db).last_seq == before and table.plan["colour_up"]["pending"]

    table.send("chip_race", round=rnd, winners=[b])     # seat b's card is the highest
    wait_for(lambda: not table.plan["colour_up"]["pending"], 15)
    cu = table.plan["colour_up"]
    assert cu["winners"] == [b] and cu["won"] == {b: 1}
    assert cu["after"][a] == 20000 and cu["after"][b] == 20100
    director.stop()

    epoch = table.plan["epoch"]
    director.start(start_event=False)                    # the outcome is in the log
    wait_for(lambda: table.plan.get("epoch") != epoch, 30)   # the restarted director's plan
    assert table.plan["colour_up"] == cu
    ev = next(e for e in EventLog(director.db).read() if e["kind"] == "coloured_up"
              and e["table"] == 1)
    assert (ev["race"], ev["winners"]) == ("dealer", [b])
    table.close()
