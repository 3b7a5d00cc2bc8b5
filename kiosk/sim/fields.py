"""What the virtual dealers see of the tournament, and the in-process version of it.

The simulator keeps no copy of the table's bookkeeping: who sits where, the last
hand's button and blinds, the hand number and the clock all come from a Field. The
in-process field reads the Tournament; the MQTT field (kiosk.sim.mqtt_field) reads the
plans the director publishes and remembers its own hands, as a table kiosk does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kiosk.core.button import Positions
from kiosk.core.clock import Clock
from kiosk.core.tournament import Tournament


class Field(Protocol):
    """The tables' plans and the director, as the virtual dealers see them."""

    def seats(self, table: int) -> dict[int, str]: ...
    def newcomers(self, table: int) -> set[int]: ...
    def redraw(self, table: int) -> bool: ...
    def positions(self, table: int) -> Positions | None: ...
    def hand(self, table: int) -> int: ...
    def holding(self, table: int) -> bool: ...
    def halted(self, table: int) -> bool: ...
    def broken(self, table: int) -> bool: ...
    def seat_count(self, table: int) -> int: ...
    def tables(self) -> list[int]: ...
    def spread(self) -> int: ...
    def finished(self) -> bool: ...
    def clock(self) -> Clock: ...
    def bought(self, player: str) -> int | None: ...
    def arriving(self) -> list[tuple[int, int, str]]: ...
    def report(self, rep: dict[str, Any], t: float) -> bool | None: ...
    def count_request(self, table: int) -> dict[str, Any] | None: ...
    def colour_up(self, table: int) -> dict[str, Any] | None: ...
    def idle(self) -> bool: ...


Sender = Callable[[str, float, dict[str, Any]], object]


class LocalField:
    """The tournament in this process: reports go through the simulator's command path."""

    def __init__(self, tour: Tournament, send: Sender) -> None:
        self.tour, self.send = tour, send

    def seats(self, table: int) -> dict[int, str]:
        return self.tour.tables[table].seat_of

    def newcomers(self, table: int) -> set[int]:
        return self.tour.tables[table].new_seats

    def redraw(self, table: int) -> bool:
        return self.tour.tables[table].redraw_button

    def positions(self, table: int) -> Positions | None:
        return self.tour.tables[table].positions

    def hand(self, table: int) -> int:
        return self.tour.tables[table].hand

    def holding(self, table: int) -> bool:
        return self.tour.holding(self.tour.tables[table])

    def halted(self, table: int) -> bool:
        return self.tour.halted(self.tour.tables[table])

    def broken(self, table: int) -> bool:
        tab = self.tour.tables.get(table)
        return tab is None or tab.broken

    def seat_count(self, table: int) -> int:
        return self.tour.tables[table].seats

    def tables(self) -> list[int]:
        return sorted(t.id for t in self.tour.tables.values() if not t.broken)

    def spread(self) -> int:
        b = self.tour.balancer
        return b.max() - b.min() if len(b) > 1 else 0

    def finished(self) -> bool:
        return self.tour.finished_at is not None

    def clock(self) -> Clock:
        return self.tour.clock

    def bought(self, player: str) -> int | None:
        p = self.tour.players.get(player)
        return None if p is None else p.chips_bought

    def arriving(self) -> list[tuple[int, int, str]]:
        if not self.tour.moving:
            return []
        players = self.tour.players
        return sorted((players[pid].table or 0, players[pid].seat or 0, pid)
                      for pid in self.tour.moving)

    def report(self, rep: dict[str, Any], t: float) -> None:
        self.send("report", t, {"table": rep["table"], "report": rep})

    def count_request(self, table: int) -> dict[str, Any] | None:
        r = self.tour.count_round
        if r is None or table not in r["tables"] or table in self.tour.counts:
            return None
        return {"round": r["round"], "purpose": r["purpose"]}

    def colour_up(self, table: int) -> dict[str, Any] | None:
        ev = self.tour.colour_ups.get(table)
        return None if ev is None else {"after": ev["after"], "before": ev["before"]}

    def idle(self) -> bool:
        return False   # nothing outside this process can release a holding table
