"""What the virtual dealers see of the tournament, and the in-process version of it.

The simulator keeps no copy of the table's bookkeeping: who sits where, the last
hand's button and blinds, the hand number and the clock all come from a Field. The
in-process field reads the Tournament; the MQTT field (kiosk.sim.mqtt_field) reads the
plans the director publishes and remembers its own hands, as a table kiosk does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kiosk.core.calc.button import Positions
from kiosk.core.calc.clock import Clock
from kiosk.core.chips import races
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.commands import AnyTableReport, Command, Report
from kiosk.core.model.events import Event


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
    def report(self, rep: AnyTableReport, t: float) -> bool | None: ...
    def settled(self, report: str) -> bool: ...
    def count_request(self, table: int) -> dict[str, Any] | None: ...
    def colour_up(self, table: int) -> dict[str, Any] | None: ...
    def idle(self) -> bool: ...
    def push_due(self, table: int, t: float) -> bool: ...


Executor = Callable[[Command, float], list[Event]]


class LocalField:
    """The tournament in this process: reports go through the simulator's command path.

    Read many times a hand, so it reads the owning parts (`tour.seating`...) directly
    rather than through the tournament's read-through names."""

    def __init__(self, tour: Tournament, execute: Executor) -> None:
        self.tour, self.execute = tour, execute

    def seats(self, table: int) -> dict[int, str]:
        return self.tour.seating.tables[table].seat_of

    def newcomers(self, table: int) -> set[int]:
        return self.tour.seating.tables[table].new_seats

    def redraw(self, table: int) -> bool:
        return self.tour.seating.tables[table].redraw_button

    def positions(self, table: int) -> Positions | None:
        return self.tour.seating.tables[table].positions

    def hand(self, table: int) -> int:
        return self.tour.seating.tables[table].hand

    def holding(self, table: int) -> bool:
        return self.tour.balancing.holding(self.tour.seating.tables[table])

    def push_due(self, table: int, t: float) -> bool:
        return False     # no roadmap in this process: whoever runs one pushes itself

    def halted(self, table: int) -> bool:
        return self.tour.balancing.halted(self.tour.seating.tables[table])

    def broken(self, table: int) -> bool:
        tab = self.tour.seating.tables.get(table)
        return tab is None or tab.broken

    def seat_count(self, table: int) -> int:
        return self.tour.seating.tables[table].seats

    def tables(self) -> list[int]:
        return sorted(t.id for t in self.tour.seating.tables.values() if not t.broken)

    def spread(self) -> int:
        b = self.tour.balancing.balancer
        return b.max() - b.min() if len(b.count) > 1 else 0   # once a hand: no __len__ call

    def finished(self) -> bool:
        return self.tour.busts.finished_at is not None

    def clock(self) -> Clock:
        return self.tour.levels.clock

    def bought(self, player: str) -> int | None:
        p = self.tour.registry.players.get(player)
        return None if p is None else p.chips_bought

    def arriving(self) -> list[tuple[int, int, str]]:
        moving = self.tour.seating.moving
        if not moving:
            return []
        players = self.tour.registry.players
        return sorted((players[pid].table or 0, players[pid].seat or 0, pid)
                      for pid in moving)

    def report(self, rep: AnyTableReport, t: float) -> None:
        self.execute(Report(report=rep, table=rep.table), t)

    def settled(self, report: str) -> bool:
        """Reports are decided as they are made here: a hand that started did start."""
        return True

    def count_request(self, table: int) -> dict[str, Any] | None:
        r = self.tour.chipcount.count_round
        if r is None or table not in r["tables"] or table in self.tour.chipcount.counts:
            return None
        return {"round": r["round"], "purpose": r["purpose"]}

    def colour_up(self, table: int) -> dict[str, Any] | None:
        """The colour-up as the table's plan shows it: the race the dealer owes, or its
        outcome."""
        return races.plan_view(self.tour.chipcount, table)

    def idle(self) -> bool:
        return False   # nothing outside this process can release a holding table
