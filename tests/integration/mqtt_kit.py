"""A whole tournament played over a real Mosquitto by the simulator's virtual tables
against a director process, the places it must end with (the in-process simulator's for
the same seed), a kill -9 and restart in the middle, and a probe that reads what the
director publishes."""

from __future__ import annotations

import json
import threading
import time

import paho.mqtt.client as mqtt
from waiting import wait_for

from kiosk.core.event.tournament import Tournament
from kiosk.director.log.store import EventLog
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import decode, encode
from kiosk.protocol.topics import SingleEventTopics
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

PLAYERS, SEED, STRUCTURE = 60, 7, "turbo"
HANDS_S = 240.0   # for the simulated tables to deal so far: a whole tournament takes less


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
        self.client.publish(self.topics.report(table), raw, qos=1).wait_for_publish(30)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


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
    wait_for(lambda: len(field.tables()) >= 7)
    sim = Simulator(PLAYERS, seed=SEED, structure=STRUCTURE, field=field)
    if during is not None:
        threading.Thread(target=during, args=(sim,), daemon=True).start()
    res = sim.run()
    assert res.invariant_violations == 0, res.violations
    field.close()
    return field


def wait_for_hands(sim: Simulator, hands: int, timeout: float = HANDS_S) -> None:
    wait_for(lambda: sim.res.hands >= hands, timeout, step=0.01)


def kill_9_and_restart(director, sim: Simulator) -> None:
    """kill -9, and a new director once a table has sent a report the dead one could not
    acknowledge (a fixed pause may pass on a loaded machine without one)."""
    sent = sim.field.seq + sim.field.resent
    director.kill9()
    wait_for(lambda: sim.field.seq + sim.field.resent > sent)
    director.start(start_event=False)


def report(table: int, rid: str, kind: str, **data: object) -> dict:
    return {"table": table, "id": rid, "seq": 1, "ts": time.time(), "kind": kind, "data": data}
