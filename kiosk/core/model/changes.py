"""What the decisions changed, for whoever publishes it: the outbox of a tournament.

The parts note here which tables' plans changed, and whether the schedule (the clock,
the field, the breaking order, the money) or the seating directory did. The core never
publishes anything: the director reads these marks after its commit and clears them.
"""

from __future__ import annotations

from collections.abc import Iterable


class Changes:
    """The tables whose plans changed, and whether the schedule or the seating did."""

    __slots__ = ("schedule", "seating", "tables")

    def __init__(self, schedule: bool = True, seating: bool = True) -> None:
        self.tables: set[int] = set()
        self.schedule = schedule
        self.seating = seating

    def __getstate__(self) -> tuple[bool, bool]:
        """A snapshot keeps whether the schedule and seating are due, not the tables: the
        director that loads it republishes every plan anyway."""
        return self.schedule, self.seating

    def __setstate__(self, state: tuple[bool, bool]) -> None:
        self.tables = set()
        self.schedule, self.seating = state

    def touch(self, table: int | None, other: int | None = None) -> None:
        """The plan of `table` (and of `other`, when given) changed."""
        if table is not None:
            self.tables.add(table)
        if other is not None:
            self.tables.add(other)

    def touch_all(self, tables: Iterable[int]) -> None:
        self.tables.update(tables)

    def schedule_changed(self) -> None:
        self.schedule = True

    def seating_changed(self) -> None:
        self.seating = True
