"""The ports of the room's service: what the centre needs from the world, as small
Protocols the adapters fill.

The service (kiosk.director.centre.room_service) reads the time from a `Clock`, writes and
reads its streams through a `RoomLog`, and says what changed to its `Outbox`es. The
composition root (kiosk.director.service) hands it the real ones: `time.time`, the SQLite
or PostgreSQL store, the pages' notes, the MQTT publishing and the receipt printer. A test
or the simulator hands it others (a clock it moves by hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from kiosk.director.centre.batch import Batch
from kiosk.director.centre.changed import Changed
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.log.logstore import Row, StreamLog


class Clock(Protocol):
    """The time, in seconds since the epoch: the service has no clock of its own."""

    def __call__(self) -> float: ...


class RoomLog(Protocol):
    """The log store as the service uses it: streams by name, one write for a batch."""

    @property
    def last_seq(self) -> int: ...

    def stream(self, name: str) -> StreamLog: ...
    def event_streams(self) -> list[str]: ...
    def append_many(self, rows: Mapping[str, Sequence[Row]]) -> int: ...


class Outbox(Protocol):
    """Where the service says what changed: a desk it now holds (loaded, opened, or
    followed from another director's log), and every batch once it is written, with what
    it changed (the same value to every outbox: none clears another's marks)."""

    def opened(self, desk: EventAggregate) -> None: ...
    def committed(self, batch: Batch, changed: Changed) -> None: ...
