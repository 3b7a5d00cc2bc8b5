"""State snapshots: start-up that does not grow with the log.

The event log stays the truth. Every SNAPSHOT_EVERY events the director also stores the
folded state (pickled) tagged with a hash of the rules code; a restart loads the newest
snapshot whose tag matches the running code and replays only the events after it. A
snapshot written by other code is ignored, so an upgrade simply replays from the start.
Each stream (an event, the room) has snapshots of its own, kept by a `Snapshots` of its view.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import pickle
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from kiosk.core.event.tournament import Tournament
from kiosk.core.model.events import Event
from kiosk.director.log.logstore import StreamLog

log = logging.getLogger("kiosk.director")
SNAPSHOT_EVERY = 100_000
_CODE = [Path(__file__).parents[1] / d for d in ("core", "rules")]


@cache
def code_version() -> str:
    """A hash of everything that decides how events fold into state."""
    h = hashlib.sha256()
    for folder in _CODE:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".toml"):
                h.update(path.relative_to(folder.parent).as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:16]


class Folded(Protocol):
    """What a stream folds into: a Tournament, or the Room."""

    def apply(self, ev: Event) -> Any: ...


class Snapshots:
    """Snapshots of one stream, kept beside its events in the same store.

    `fold` is the aggregate the stream replays into (`fold.replay(events)`): a Tournament
    by default, the Room for the room's stream."""

    def __init__(self, events: StreamLog, fold: Any = Tournament) -> None:
        self.store = events.store
        self.events = events
        self.fold = fold
        self.last_seq: int = self.store.snapshot_seq(events.stream)

    def due(self) -> bool:
        """SNAPSHOT_EVERY rows written since the last snapshot (counted in the whole file,
        so a busy room snapshots each of its events a little sooner)."""
        return self.events.last_seq - self.last_seq >= SNAPSHOT_EVERY

    def save(self, tour: Folded, seq: int | None = None) -> None:
        """Store `tour`, the state after event `seq` (by default the end of the stream)."""
        blob = pickle.dumps(tour, protocol=pickle.HIGHEST_PROTOCOL)
        seq = self.events.last_seq if seq is None else seq
        self.store.save_snapshot(self.events.stream, seq, code_version(), blob)
        self.last_seq = seq

    def load(self) -> Any:
        """The state at the end of the stream: newest usable snapshot plus the tail."""
        row = self.store.load_snapshot(self.events.stream, code_version())
        if row is None or row[0] > self.events.last_seq:
            return self.fold.replay(self.events.read())
        gc.disable()   # unpickling makes millions of long-lived objects: see Tournament.replay
        try:
            tour: Folded = pickle.loads(row[1])
        finally:
            gc.enable()
        for ev in self.events.read(after=row[0]):
            tour.apply(ev)
        log.info("%s: state from the snapshot at event %d plus the events after it",
                 self.events.stream or "event", row[0])
        return tour
