"""State snapshots: start-up that does not grow with the log.

The event log stays the truth. Every SNAPSHOT_EVERY events the director also stores the
folded state (pickled) tagged with a hash of the rules code; a restart loads the newest
snapshot whose tag matches the running code and replays only the events after it. A
snapshot written by other code is ignored, so an upgrade simply replays from the start.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import pickle
import sqlite3
from functools import cache
from pathlib import Path

from kiosk.core.tournament import Tournament
from kiosk.director.store import EventLog

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


class Snapshots:
    """Snapshots kept beside the events, in the same SQLite file."""

    def __init__(self, events: EventLog) -> None:
        self.db: sqlite3.Connection = events.db
        self.events = events
        self.db.execute("CREATE TABLE IF NOT EXISTS snapshots ("
                        "seq INTEGER PRIMARY KEY, version TEXT NOT NULL, state BLOB NOT NULL)")
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM snapshots").fetchone()
        self.last_seq: int = row[0]

    def due(self) -> bool:
        return self.events.last_seq - self.last_seq >= SNAPSHOT_EVERY

    def save(self, tour: Tournament, seq: int | None = None) -> None:
        """Store `tour`, the state after event `seq` (by default the end of the log)."""
        blob = pickle.dumps(tour, protocol=pickle.HIGHEST_PROTOCOL)
        seq = self.events.last_seq if seq is None else seq
        self.db.execute("INSERT OR REPLACE INTO snapshots(seq, version, state) VALUES (?, ?, ?)",
                        (seq, code_version(), blob))
        self.db.execute("DELETE FROM snapshots WHERE seq < ?", (seq,))
        self.last_seq = seq

    def load(self) -> Tournament:
        """The state at the end of the log: newest usable snapshot plus the tail."""
        row = self.db.execute("SELECT seq, state FROM snapshots WHERE version = ? "
                              "ORDER BY seq DESC LIMIT 1", (code_version(),)).fetchone()
        if row is None or row[0] > self.events.last_seq:
            return Tournament.replay(self.events.read())
        gc.disable()   # unpickling makes millions of long-lived objects: see Tournament.replay
        try:
            tour: Tournament = pickle.loads(row[1])
        finally:
            gc.enable()
        for ev in self.events.read(after=row[0]):
            tour.apply(ev)
        log.info("state from the snapshot at event %d plus %d events", row[0],
                 self.events.last_seq - row[0])
        return tour
