"""A whole tournament over a real broker, with director and broker restarts."""

from __future__ import annotations

import json
import threading
import time

import paho.mqtt.client as mqtt
from waiting import wait_for
from wire_tap import WireTap

from kiosk.core.event.tournament import Tournament
from kiosk.director.log.store import EventLog
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import decode, encode
from kiosk.protocol.topics import SingleEventTopics
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

PLAYERS, SEED, STRUCTURE = 60, 7, "turbo"


def reference_places() -> list[str]:
    """The in-process simulator's finishing order for the same seed."""
    return Simulator(PLAYERS, seed=SEED, structure=STRUCTURE).run().places


def director_places(db: str) -> tuple[list[str], Tournament]:
    tour = Tournament.replay(EventLog(db).read())
    places = tour.places()
    return sorted(places, key=lambda p: (places[p], p)), tour


def play_over_mqtt(mosquitto, director, during=None) -> MqttField:
    field = MqttField(mosquitto.config, director.name, resend_every=1.0, ack_timeout=40)
    field.wait_ready()
    deadline = time.monotonic() + 10
    while len(field.tables()) < 7 and time.monotonic() < deadline:
        time.sleep(0.05)
    sim = Simulator(PLAYERS, seed=SEED, structure=STRUCTURE, field=field)
    if during is not None:
        threading.Thread(target=during, args=(sim,), daemon=True).start()
    res = sim.run()
    assert res.invariant_violations == 0, res.violations
    field.close()
    return field


def test_tournament_over_mqtt_matches_the_simulator(mosquitto, director_factory) -> None:
    director = director_factory(players=PLAYERS).start()
    tap = WireTap(mosquitto, director.name)
    play_over_mqtt(mosquitto, director)
    director.stop()
    places, tour = director_places(str(director.db))
    assert places == reference_places()
    assert tour.finished_at is not None and tour.alive == 1
    assert "rejected" not in director.log_text()
    # the simulated tables and the director: every message carries its schema version
    assert {"report", "live", "status", "plan", "ack", "schedule"} <= tap.leaves()
    assert tap.unversioned() == []
    tap.close()


def wait_for_hands(sim: Simulator, hands: int) -> None:
    while sim.res.hands < hands:
        time.sleep(0.01)


def test_kill_9_mid_tournament_loses_and_duplicates_nothing(mosquitto, director_factory) -> None:
    director = director_factory(players=PLAYERS).start()
    killed = threading.Event()

    def chaos(sim: Simulator) -> None:
        for hands in (60, 200):
            wait_for_hands(sim, hands)
            director.kill9()
            time.sleep(0.5)
            director.start(start_event=False)
        killed.set()

    field = play_over_mqtt(mosquitto, director, during=chaos)
    assert killed.is_set()
    director.stop()
    assert field.resent > 0, "reports sent while the director was down were re-sent"
    places, _ = director_places(str(director.db))
    assert places == reference_places()
    # every report id is in the log once: re-sent reports were applied a single time
    ids = [e["report"] for e in EventLog(director.db).read() if e.get("report")
           and e["kind"] in ("hand_started", "hand_ended", "busted", "all_in")]
    assert len(ids) == len(set(ids))
    assert director.log_text().count("replayed") == 2


def test_broker_restart_everyone_reconnects(mosquitto, director_factory) -> None:
    director = director_factory(players=PLAYERS).start()

    def bounce(sim: Simulator) -> None:
        wait_for_hands(sim, 100)
        mosquitto.stop()   # retained plans and sessions are gone with it
        time.sleep(1.0)
        mosquitto.start()

    play_over_mqtt(mosquitto, director, during=bounce)
    director.stop()
    places, _ = director_places(str(director.db))
    assert places == reference_places()
    assert director.log_text().count("connected to") >= 2


class Probe:
    """A raw MQTT client playing a misbehaving table."""

    def __init__(self, mosquitto, event: str) -> None:
        self.topics = SingleEventTopics(event)
        self.acks: list[dict] = []
        self.plans: dict[int, dict] = {}
        self.client = make_client("probe", mosquitto.config)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", mosquitto.port)
        self.client.subscribe([(f"{self.topics.base}/director/ack/+", 1),
                               (f"{self.topics.base}/table/+/plan", 1)])
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if "/ack/" in msg.topic:
            self.acks.append(json.loads(msg.payload))
        else:
            body = decode("plan", msg.payload)
            self.plans[body["table"]] = body

    def send(self, table: int, payload: bytes | dict) -> None:
        raw = payload if isinstance(payload, bytes) else encode(payload)
        self.client.publish(self.topics.report(table), raw, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def report(table: int, rid: str, kind: str, **data: object) -> dict:
    return {"table": table, "id": rid, "seq": 1, "ts": time.time(), "kind": kind, "data": data}


def test_bad_input_is_rejected_with_a_reason_and_changes_nothing(mosquitto,
                                                                 director_factory) -> None:
    director = director_factory(players=18).start()
    probe = Probe(mosquitto, director.name)
    deadline = time.monotonic() + 10
    while len(probe.plans) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    seat, who = next(iter(probe.plans[1]["seats"].items()))
    before = len(EventLog(director.db))

    probe.send(1, b"{not json")
    probe.send(1, b'{"v": 3, "table": 1}')
    probe.send(1, report(1, "r-h", "all_in", seat=int(seat)))           # no hand number
    probe.send(1, report(2, "r-x", "all_in", seat=int(seat), hand=0))   # table 2's report
    probe.send(1, report(1, "r-u", "bust", seat=int(seat), player="p999"))  # wrong player
    probe.send(1, report(9, "r-9", "floor_call"))                        # no such table
    probe.send(9, report(9, "r-9", "floor_call"))
    probe.send(1, json.dumps(report(1, "r-nov", "floor_call")).encode())  # no "v" at all
    for text in ("not JSON", "schema version 3 is not 2", "no schema version",
                 "missing required field `hand` - at `$.data`",
                 "names table 2", f"holds {who['player']}, not p999",
                 "table 9 is not in play"):
        director.wait_log(text)
    assert len(EventLog(director.db)) == before, "rejected reports must not add events"

    probe.send(1, report(1, "r-ok", "floor_call"))
    deadline = time.monotonic() + 10
    while len(EventLog(director.db)) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    after_one = len(EventLog(director.db))
    assert after_one == before + 1
    probe.send(1, report(1, "r-ok", "floor_call"))  # the same id again: acknowledged only
    director.wait_log("already applied")
    assert len(EventLog(director.db)) == after_one
    wait_for(lambda: [i for a in probe.acks for i in a["ids"]].count("r-ok") == 2, 10)
    rejected = {k: v for a in probe.acks for k, v in a.get("rejected", {}).items()}
    assert "p999" in rejected["r-u"]
    assert rejected["r-nov"] == 'no schema version: every payload carries "v": 2'
    assert "r-nov" not in [e.get("report") for e in EventLog(director.db).read()]
    probe.close()
