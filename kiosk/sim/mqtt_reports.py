"""The reports of the virtual tables over MQTT (kiosk.sim.mqtt_field): each published
and re-sent until the director acknowledges it, as a table kiosk's outbox does.

One at a time by default. With a `window`, up to that many are in flight at once across
the tables, as a room's kiosks report side by side: each table's go out in their order,
and a hand's start is settled when the dealer ends that hand (`settled`), its blinds
given back by the dealer if the director refused it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import msgspec
import paho.mqtt.client as mqtt

from kiosk.core.calc.button import Positions
from kiosk.core.model.commands import AnyTableReport, HandEndedReport
from kiosk.core.model.report_data import HandEndedData
from kiosk.protocol.messages import VERSION, encode
from kiosk.protocol.topics import Topics

WAITS_HERE = frozenset({"chip_count", "chip_race", "addon"})   # answers the dealer needs


class TableReports:
    """The reporting side of MqttField: its outbox, the answers, the live snapshots."""

    client: mqtt.Client
    topics: Topics
    event: str
    ack_timeout: float
    resend_every: float
    resent: int
    seq: int
    acked: set[str]
    rejected: dict[str, str]
    live: dict[int, dict[str, Any]]
    dealt: dict[int, tuple[int, Positions]]
    open_hands: dict[int, int]
    _acked: dict[str, threading.Event]
    window: int
    _flight: dict[str, tuple[float, str, bytes, dict[str, Any]]]
    _landed: threading.Condition
    ack_ms: list[float]

    def report(self, report: AnyTableReport, t: float) -> bool:
        """Publish a report and re-send it until the director acknowledges it, as a
        table's outbox does: a director or broker restart in between loses nothing.
        With a window, only a chip count or race (whose answer the dealer needs at
        once) waits here; the others wait only while the window is full."""
        self.seq += 1
        rep: dict[str, Any] = {**msgspec.to_builtins(report), "v": VERSION, "seq": self.seq,
                               "ts": t, "event": self.event}
        payload, topic = encode(rep), self.topics.report(rep["table"])
        if self.window and rep["kind"] not in WAITS_HERE:
            with self._landed:
                if rep["kind"] == "present" and self._announced(rep):
                    return True      # the plan that seats them is still on its way
                while len(self._flight) >= self.window:
                    self._wait_landing()
                self._flight[rep["id"]] = (time.perf_counter(), topic, payload, rep)
            self.publish(rep["table"], topic, payload)
            self._publish_live(rep)
            return True
        done = self._acked[rep["id"]] = threading.Event()
        sent = time.perf_counter()
        waited = 0.0
        self.publish(rep["table"], topic, payload)
        while not done.wait(self.resend_every):
            waited += self.resend_every
            if waited >= self.ack_timeout:
                raise TimeoutError(f"no acknowledgement for report {rep['id']}")
            self.resent += 1
            self.publish(rep["table"], topic, payload)
        self.ack_ms.append((time.perf_counter() - sent) * 1000)
        del self._acked[rep["id"]]
        self._publish_live(rep)
        return self._took(rep)

    def publish(self, table: int, topic: str, payload: bytes) -> None:
        """Send one of `table`'s reports (a subclass may give each table its connection)."""
        self.client.publish(topic, payload, qos=1)

    def settled(self, report: str) -> bool:
        """Whether the director took report `report`, once it has answered (at once when
        no window holds it in flight)."""
        with self._landed:
            while report in self._flight:
                self._wait_landing()
        return report not in self.rejected

    def _announced(self, rep: dict[str, Any]) -> bool:
        """A player's arrival already in flight (the stale plan still shows them moving)."""
        key = (rep["table"], rep["data"]["seat"])
        return any(v[3]["kind"] == "present" and (v[3]["table"], v[3]["data"]["seat"]) == key
                   for v in self._flight.values())

    def _wait_landing(self) -> None:
        """Wait (holding `_landed`) for an acknowledgement; re-send what waits too long."""
        if self._landed.wait(self.resend_every):
            return
        now = time.perf_counter()
        late = [v for v in self._flight.values() if now - v[0] >= self.resend_every]
        if any(now - v[0] >= self.ack_timeout for v in late):
            raise TimeoutError("no acknowledgement for reports in flight")
        for _sent, topic, payload, rep in sorted(late, key=lambda v: v[3]["seq"]):
            self.resent += 1
            self.publish(rep["table"], topic, payload)

    def _landing(self, rid: str) -> None:
        """An acknowledgement came (on the network thread): a report in flight lands."""
        if not self._flight:
            return
        with self._landed:
            entry = self._flight.pop(rid, None)
            if entry is None:
                return
            self.ack_ms.append((time.perf_counter() - entry[0]) * 1000)
            self._took(entry[3])
            self._landed.notify_all()

    def _took(self, rep: dict[str, Any]) -> bool:
        """What an acknowledged report means for the dealer: the hand it dealt."""
        accepted = rep["id"] not in self.rejected
        if accepted and rep["kind"] == "hand_started":
            d = rep["data"]
            self.dealt[rep["table"]] = (d["hand"], Positions(
                d["button"], d["sb"], d["bb"], tuple(d["dealt"]), tuple(d["waiting"])))
            self.open_hands[rep["table"]] = d["hand"]
        elif accepted and rep["kind"] == "hand_ended":
            self.open_hands.pop(rep["table"], None)
        return accepted

    def end_open_hands(self, t: float) -> None:
        """Dealers that stopped mid-hand leave hands open; end them so new dealers can
        deal (the director refuses a hand while the last one runs)."""
        for n, (table, hand) in enumerate(sorted(self.open_hands.items())):
            self.report(HandEndedReport(table=table, id=f"end{time.monotonic_ns()}-{n}",
                                        data=HandEndedData(hand=hand)), t)

    def _publish_live(self, rep: dict[str, Any]) -> None:
        """Keep each virtual table's retained status and live snapshot current, as a
        kiosk does, so the floor dashboard shows them like real tables."""
        table, kind, data = rep["table"], rep["kind"], rep["data"]
        snap = self.live.get(table)
        if snap is None:
            snap = self.live[table] = {"table": table, "hand": 0, "in_hand": False,
                                       "all_in": [], "clock_call": None, "floor_call": None}
            self.client.publish(self.topics.table_status(table),
                                encode({"state": "online", "ts": rep["ts"]}), qos=1,
                                retain=True)
        if kind == "hand_started":
            snap.update(hand=data["hand"], in_hand=True, all_in=[])
        elif kind == "hand_ended":
            snap.update(in_hand=False, all_in=[])
        elif kind == "all_in":
            snap["all_in"] = [*snap["all_in"], data["seat"]]
        else:
            return
        snap["ts"] = rep["ts"]
        self.client.publish(self.topics.live(table), encode(snap), qos=0, retain=True)
