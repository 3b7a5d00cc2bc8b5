"""What a command decided and the director has not written yet: the unit of one transaction.

Every step of a command (an event's decision, the room's, what one sets off in another)
adds its rows here; the room's service writes the whole batch in one transaction, then
tells its outboxes what changed. A refused step is taken back out (`undo_to`), so the batch
holds all of a command or none of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk.core.model.events import Event

Rows = list[tuple[str, bytes]]


@dataclass
class Batch:
    """Decided and not yet written: rows and events per stream, in order, plus the tables
    the batch gave back to the pool (their free plans go out after the write) and those it
    gave to an event."""

    rows: dict[str, Rows] = field(default_factory=dict)
    events: dict[str, list[Event]] = field(default_factory=dict)
    freed: set[int] = field(default_factory=set)
    assigned: set[int] = field(default_factory=set)

    def add(self, stream: str, events: list[Event], rows: Rows) -> None:
        if rows:
            self.rows.setdefault(stream, []).extend(rows)
            self.events.setdefault(stream, []).extend(events)

    def pending(self, stream: str) -> list[Event]:
        return self.events.get(stream, [])

    def mark(self) -> dict[str, int]:
        return {s: len(r) for s, r in self.rows.items()}

    def undo_to(self, mark: dict[str, int]) -> list[str]:
        """Forget what was added after `mark`; the streams that lost something."""
        touched = []
        for stream in list(self.rows):
            keep = mark.get(stream, 0)
            if len(self.rows[stream]) > keep:
                touched.append(stream)
                del self.rows[stream][keep:]
                del self.events[stream][keep:]
                if not keep:
                    del self.rows[stream], self.events[stream]
        return touched
