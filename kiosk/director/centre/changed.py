"""What one commit changed, as every outbox reads it: a value the room's service takes once
per commit from each event's change set (kiosk.core.model.changes), which then starts
empty again.

No outbox clears another's marks: the MQTT publishing, the pages' notes and the printer
each read the same value, in any order, and keep their own pacing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class EventChanged:
    """One event's part of a commit."""

    tables: frozenset[int] = frozenset()   # the tables whose plans changed
    schedule: bool = False    # the schedule (the field, the breaking order, the money)
    seating: bool = False     # the seating directory (a card's table and seat)
    written: bool = False     # the event's stream got rows (a clock pause, an entry...)

    def __bool__(self) -> bool:
        return bool(self.tables) or self.schedule or self.seating or self.written


NOTHING = EventChanged()


@dataclass(frozen=True)
class Changed:
    """A commit's changes: each event that changed, and whether the room's stream did."""

    events: Mapping[str, EventChanged] = field(default_factory=dict)
    room: bool = False

    def of(self, event: str) -> EventChanged:
        """What the commit changed in `event` (NOTHING when it did not touch it)."""
        return self.events.get(event, NOTHING)
