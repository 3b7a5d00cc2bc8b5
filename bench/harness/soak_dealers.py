"""The dealers in the soak: a crew sized to the room clocked in as the room opens, and at
every hand's end a push where one is due, by whoever the roadmap sends; a push tried
mid-hand too, which the director must refuse; dealers back from break when it ends.
Through every table break, end of a day, hand-for-hand and director kill of the soaked
room, the roadmap must hold: one dealer at one table, no table dealt by two, no push
mid-hand, and no push that never comes: a table still dealt by the same dealer a
`NEVER` past its push is trouble, and so is one past its push by more than `ALERT`
that the floor's board does not name in its alerts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.room_loop import LoopRoom
from kiosk.base.errors import RuleError
from kiosk.core.dealers import board
from kiosk.director.service import Director

TOML = "\n[dealers]\ndown_minutes = 10\nbreak_minutes = 5\nstring_size = 3\n"
NEVER = 15 * 60.0      # of play past the push at a hand's end: the push never came
ALERT = 3 * 60.0       # of play past the push: the floor's board must name the table


def crew(tables: int) -> int:
    """Dealers enough for every table of the room at once: one a table, a relief a
    string of three, those on break, and two to spare."""
    return tables + tables // 3 + tables // 4 + 2


class SoakDealers:
    """The soaked room's dealers; `violation(where, what)` takes what breaks the roadmap."""

    def __init__(self, room: LoopRoom, violation: Callable[[str, str], None]) -> None:
        self.room, self.violation = room, violation
        self.pushes = 0
        self.refused_mid_hand = 0
        self.never: set[tuple[int, float]] = set()     # (table, down's start) never pushed
        self.unalerted: set[tuple[int, float]] = set()

    def act(self, cmd: dict[str, Any]) -> bool:
        try:
            self.room.d.room_act(cmd, user="soak")
        except RuleError:
            return False
        return True

    def start(self) -> None:
        for i in range(crew(len(self.room.d.room.pool))):
            self.act({"kind": "dealer_clock_in", "dealer": f"Crew {i + 1:02d}"})

    def after(self, kind: str, table: int, t: float) -> None:
        """A table's report went through: the crew does what is due at `t`."""
        road = self.room.d.room.roadmap
        for name, until in road.breaks():
            if t >= until:
                self.act({"kind": "dealer_back", "dealer": name})
        tb = road.tables.get(table)
        who = road.incoming(table, t)
        if tb is not None and tb.dealer and who and tb.push_at is not None and t >= tb.push_at:
            if kind == "hand_started":
                if self.act({"kind": "dealer_push", "table": table, "dealer": who,
                             "in_hand": True}):
                    self.violation("dealers", f"a push at table {table} cut a hand")
                else:
                    self.refused_mid_hand += 1
            elif kind == "hand_ended" and self.act(
                    {"kind": "dealer_push", "table": table, "dealer": who}):
                self.pushes += 1
        if kind == "hand_ended" and table in road.tables:
            self.late(table, t)
        self.check()

    def late(self, table: int, t: float) -> None:
        """At a hand's end, the table's push has not come: trouble once it is `NEVER`
        late, or `ALERT` late with no alert naming the table on the floor's board."""
        road = self.room.d.room.roadmap
        tb = road.tables[table]
        late = board.overdue(road, table, t)
        key = (table, tb.since)      # the down whose push is late
        if late > NEVER and key not in self.never:
            self.never.add(key)
            self.violation("dealers", f"table {table}: the push never came ({tb.dealer} "
                                      f"still deals, {late / 60:.0f} min past it; "
                                      f"incoming {road.incoming(table, t)})")
        if late > ALERT and key not in self.unalerted and table not in {
                a.get("table") for a in board.alerts(road, t) if a["kind"] == "push_late"}:
            self.unalerted.add(key)
            self.violation("dealers", f"table {table}: push {late / 60:.0f} min late and "
                                      "no alert names it")

    def check(self) -> None:
        road = self.room.d.room.roadmap
        dealt = [tb.dealer for tb in road.tables.values() if tb.dealer]
        if len(dealt) != len(set(dealt)):
            self.violation("dealers", f"one dealer at two tables: {sorted(dealt)}")
        for name, d in road.dealers.items():
            if d.status == "dealing" and road.tables.get(d.table) is None:
                self.violation("dealers", f"{name} deals table {d.table}, not in play")


def snapshot_of(d: Director) -> Any:
    """The roadmap as a replay must give it back."""
    road = d.room.roadmap
    return (sorted((n, tb.dealer, tb.push_at) for n, tb in road.tables.items()),
            road.strings, sorted(road.reliefs.items()), road.breaks(),
            [(x.dealer, x.table, x.start, x.end) for x in road.downs])
