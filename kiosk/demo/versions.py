"""The simulated tables' update state, said as a table kiosk's updater says it.

A kiosk with an updater (kiosk.table.updater) publishes, retained, on `table/<n>/update`
its version and what its updater does, and answers each wanted release on
`table/<n>/release`. The simulated tables say the same so the room page's Updates panel
reads them like real kiosks: this package's version, "current"; and when the floor rolls
a release out to one, "refused" with the reason, since a simulated table installs nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from kiosk import __version__
from kiosk.releases import messages as rm
from kiosk.sim.mqtt_field import MqttField

log = logging.getLogger("kiosk.sim")
NO_INSTALL = "a simulated table installs no release"


class SimVersions:
    """The updaters of the simulated `tables`, over the client of a field of simulated
    tables (kiosk.sim.mqtt_field), which subscribes again after a reconnect."""

    def __init__(self, field: MqttField, tables: Iterable[int], *, version: str = __version__,
                 clock: Callable[[], float] = time.time) -> None:
        self.client, self.topics = field.client, field.topics
        self.version, self.clock = version, clock
        self.tables = set(tables)
        self.wanted: dict[int, str | None] = {}
        self.topic = rm.release_topic(self.topics, "+")
        self.client.message_callback_add(self.topic, self._on_wanted)
        field.extra.append(self.topic)

    def start(self) -> None:
        """Say every table's state, and hear what the director wants of each."""
        self.client.subscribe(self.topic, qos=1)
        for table in sorted(self.tables):
            self.publish(table)

    def status(self, table: int) -> rm.UpdateStatus:
        wanted = self.wanted.get(table)
        if wanted is None or wanted == self.version:
            return rm.UpdateStatus(table=table, version=self.version, state="current",
                                   wanted=wanted, ts=self.clock())
        return rm.UpdateStatus(table=table, version=self.version, state="refused",
                               wanted=wanted, reason=NO_INSTALL, ts=self.clock())

    def publish(self, table: int) -> None:
        self.client.publish(rm.update_topic(self.topics, table), rm.encode(self.status(table)),
                            qos=1, retain=True)

    def _on_wanted(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            table = int(msg.topic.split("/")[-2])
            wanted = rm.decode_wanted(bytes(msg.payload))
        except (ValueError, msgspec.DecodeError) as exc:
            log.warning("%s: bad release message dropped: %s", msg.topic, exc)
            return
        if table in self.tables:
            self.wanted[table] = wanted.version
            self.publish(table)
