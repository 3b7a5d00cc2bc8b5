"""Virtual tables over MQTT: they see only the retained plans and talk only in reports.

Used by `pokerkiosk demo` and by the integration tests: the same dealers as the
in-process simulator, but every report travels through the broker to a running
director and waits for its acknowledgement, exactly as a table kiosk's outbox does.
With a `window`, up to that many reports are in flight at once across the tables (as a
room's kiosks report side by side; kiosk.sim.mqtt_reports).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.config.files import BrokerConfig
from kiosk.core.calc.button import Positions
from kiosk.core.calc.clock import Clock
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import ProtocolError, decode
from kiosk.protocol.topics import Topics
from kiosk.sim.mqtt_reports import TableReports

log = logging.getLogger("kiosk.sim")


class MqttField(TableReports):
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
        self.extra: list[str] = []                   # more topics to hear (kiosk.demo.versions)
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

    def push_due(self, table: int, t: float) -> bool:
        """The plan says the dealer's push is due: the kiosk asks the dealer to wait for
        the relief before the next hand ("PUSH: Gia badges in")."""
        d = self._plan(table).get("dealer")
        if not isinstance(d, dict) or not d.get("dealer"):
            return False
        push_at = d.get("push_at")
        return isinstance(push_at, int | float) and t >= push_at

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
