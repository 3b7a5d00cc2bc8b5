"""The dealers in the soak: a crew clocked in as the room opens, and at every hand's end a
push where one is due, by whoever the roadmap sends; a push tried mid-hand too, which the
director must refuse; dealers back from break when it ends. Through every table break,
end of a day, hand-for-hand and director kill of the soaked room, the roadmap must hold:
one dealer at one table, no table dealt by two, no push mid-hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.base.errors import RuleError
from kiosk.director.service import Director
from kiosk.sim.room_loop import LoopRoom

CREW = 12
TOML = "\n[dealers]\ndown_minutes = 10\nbreak_minutes = 5\nstring_size = 3\n"


class SoakDealers:
    """The soaked room's dealers; `violation(where, what)` takes what breaks the roadmap."""

    def __init__(self, room: LoopRoom, violation: Callable[[str, str], None]) -> None:
        self.room, self.violation = room, violation
        self.pushes = 0
        self.refused_mid_hand = 0

    def act(self, cmd: dict[str, Any]) -> bool:
        try:
            self.room.d.room_act(cmd, user="soak")
        except RuleError:
            return False
        return True

    def start(self) -> None:
        for i in range(CREW):
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
        self.check()

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
