"""Virtual tables over MQTT: they see only the retained plans and talk only in reports.

Used by `pokerkiosk demo` and by the integration tests: the same dealers as the
in-process simulator, but every report travels through the broker to a running
director and waits for its acknowledgement, exactly as a table kiosk's outbox does.
With a `window`, up to that many reports are in flight at once across the tables (as a
room's kiosks report side by side), each table's in its order; a hand's start is then
settled when the dealer ends it (`settled`).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import msgspec
import paho.mqtt.client as mqtt

from kiosk.config.files import BrokerConfig
from kiosk.core.calc.button import Positions
from kiosk.core.calc.clock import Clock
from kiosk.core.model.commands import AnyTableReport, HandEndedReport
from kiosk.core.model.report_data import HandEndedData
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import VERSION, ProtocolError, decode, encode
from kiosk.protocol.topics import Topics

log = logging.getLogger("kiosk.sim")


class MqttField:
    """A Field (see kiosk.sim.engine) backed by a broker and a director: the virtual tables
    of one event of a room. A table belongs to the event while its plan names it, as a
    kiosk does; the room's other tables (free, or another event's) are not dealt here."""

    def __init__(self, broker: BrokerConfig, event: str, client_id: str = "sim-tables",
                 ack_timeout: float = 120.0, resend_every: float = 2.0, *,
                 room: str | None = None, window: int = 0) -> None:
        self.topics, self.event = Topics(room or event), event
        self.plans: dict[int, dict[str, Any]] = {}   # the tables serving this event
        self._revs: dict[int, tuple[float, int]] = {}   # every table's latest plan
        self.schedule: dict[str, Any] = {}
        self.ack_timeout = ack_timeout
        self.resend_every = resend_every
        self.resent = 0
        self.acked: set[str] = set()                 # every report id acknowledged
        self.live: dict[int, dict[str, Any]] = {}   # table -> live snapshot we publish
        self.dealt: dict[int, tuple[int, Positions]] = {}  # table -> our last hand, as a kiosk
        self.open_hands: dict[int, int] = {}        # table -> hand started and not yet ended
        self._clock: tuple[Any, Clock] = (None, Clock())
        self._acked: dict[str, threading.Event] = {}
        self.window = window                         # reports in flight at once (0: one)
        self._flight: dict[str, tuple[float, str, bytes, dict[str, Any]]] = {}
        self._landed = threading.Condition()
        self.ack_ms: list[float] = []                # each report: published until acked
        self.rejected: dict[str, str] = {}
        self._ready = threading.Event()
        self.seq = 0                                 # reports sent, as a kiosk numbers them
        self.extra: list[str] = []                   # more topics to hear (kiosk.sim.versions)
        self.client = make_client(client_id, broker)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.connect_async(broker.host, broker.port, keepalive=15)
        self.client.loop_start()

    def wait_ready(self, timeout: float = 15.0) -> None:
        """Wait for the event's schedule and the plan of every table it names.

        The director publishes an event's schedule before its tables' plans, and a field
        that subscribes in between has the schedule retained but the plans still to
        come: dealers that began then would see no table and take the event for over."""
        deadline = time.monotonic() + timeout
        if not self._ready.wait(timeout):
            raise TimeoutError("no schedule from the director")
        while (missing := self.unplanned()) and time.monotonic() < deadline:
            time.sleep(0.05)
        if missing:   # the dealers adopt them when they come (Simulator._wait_for_floor)
            log.warning("the schedule of %s names tables %s but no plan of theirs came "
                        "within %.0f s", self.event, ", ".join(map(str, missing)), timeout)

    def unplanned(self) -> list[int]:
        """The tables the schedule names (its breaking order: every open table) whose
        plan for this event has not come yet."""
        named = self.schedule.get("break_order", ())
        return sorted(t for t in named if t not in self.plans)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    props: Any = None) -> None:
        base = self.topics.base
        client.subscribe([(f"{base}/table/+/plan", 1), (self.topics.schedule(self.event), 1),
                          (f"{base}/director/ack/+", 1), *((t, 1) for t in self.extra)])

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            if msg.topic == self.topics.schedule(self.event):
                self.schedule = decode("schedule", msg.payload)
                self._ready.set()
            elif "/director/ack/" in msg.topic:
                body = decode("ack", msg.payload)
                self.rejected.update(body.get("rejected", {}))
                for rid in body["ids"]:
                    self.acked.add(rid)
                    self._landing(rid)
                    ev = self._acked.get(rid)
                    if ev:
                        ev.set()
            else:
                self._take_plan(decode("plan", msg.payload))
        except ProtocolError as exc:
            log.warning("dropped %s: %s", msg.topic, exc)

    def _take_plan(self, body: dict[str, Any]) -> None:
        """The newest plan of each table decides whether it deals for this event."""
        table, order = body["table"], (body["epoch"], body["rev"])
        if order < self._revs.get(table, (-1.0, -1)):
            return
        self._revs[table] = order
        if body["event"] == self.event:
            self.plans[table] = body
        else:
            self.plans.pop(table, None)

    # ------------------------------------------------------------- the Field
    def epoch(self) -> float:
        """The newest director epoch any plan carried (a new leader publishes a new one)."""
        return max((e for e, _rev in self._revs.values()), default=0.0)

    def _plan(self, table: int) -> dict[str, Any]:
        return self.plans.get(table, {})

    def seats(self, table: int) -> dict[int, str]:
        return {int(s): v["player"] for s, v in self._plan(table).get("seats", {}).items()}

    def newcomers(self, table: int) -> set[int]:
        return {int(s) for s, v in self._plan(table).get("seats", {}).items() if v.get("new")}

    def redraw(self, table: int) -> bool:
        return bool(self._plan(table).get("redraw_button"))

    def positions(self, table: int) -> Positions | None:
        """The button and blinds of the last hand this table dealt (a kiosk remembers)."""
        last = self.dealt.get(table)
        return None if last is None else last[1]

    def hand(self, table: int) -> int:
        last = self.dealt.get(table)
        return max(int(self._plan(table).get("hand", 0)), last[0] if last else 0)

    def clock(self) -> Clock:
        """The tournament clock the director publishes (parsed once per schedule)."""
        body = self.schedule.get("clock")
        if self._clock[0] is not body:
            self._clock = (body, Clock.from_dict(body) if body else Clock())
        return self._clock[1]

    def bought(self, player: str) -> int | None:
        return None    # the plans carry no stacks: the simulator goes by the rules

    def holding(self, table: int) -> bool:
        return bool(self._plan(table).get("hold", True))

    def halted(self, table: int) -> bool:
        return bool(self._plan(table).get("halt"))

    def broken(self, table: int) -> bool:
        return bool(self._plan(table).get("broken", True))

    def seat_count(self, table: int) -> int:
        return int(self._plan(table).get("max_seats", 10))

    def tables(self) -> list[int]:
        return sorted(t for t, p in self.plans.items() if not p.get("broken"))

    def spread(self) -> int:
        counts = [len(p["seats"]) for p in self.plans.values()
                  if not p.get("broken") and not p.get("breaking")]
        return max(counts) - min(counts) if len(counts) > 1 else 0

    def finished(self) -> bool:
        return bool(self.schedule.get("finished"))

    def arriving(self) -> list[tuple[int, int, str]]:
        return sorted((t, m["seat"], m["player"]) for t, p in self.plans.items()
                      if not p.get("broken") for m in p.get("moves_in", ()))

    def count_request(self, table: int) -> dict[str, Any] | None:
        req = self._plan(table).get("chip_count")
        return None if req is None or req.get("done") else req

    def colour_up(self, table: int) -> dict[str, Any] | None:
        cu = self._plan(table).get("colour_up")
        return cu if isinstance(cu, dict) else None

    def idle(self) -> bool:
        """Every table holds: the floor (another process) may release them; wait a bit."""
        time.sleep(0.05)
        return True

    def report(self, report: AnyTableReport, t: float) -> bool:
        """Publish a report and re-send it until the director acknowledges it, as a
        table's outbox does: a director or broker restart in between loses nothing.
        With a window, only a chip count or race (whose answer the dealer needs at
        once) waits here; the others wait only while the window is full."""
        self.seq += 1
        rep: dict[str, Any] = {**msgspec.to_builtins(report), "v": VERSION, "seq": self.seq,
                               "ts": t, "event": self.event}
        payload, topic = encode(rep), self.topics.report(rep["table"])
        if self.window and rep["kind"] not in ("chip_count", "chip_race", "addon"):
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
