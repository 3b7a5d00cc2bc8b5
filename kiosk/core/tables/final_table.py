"""The final table (TDA 11): once the field fits one table, every order is cancelled and
everyone left is redrawn at the final table as soon as every hand is over.

Owns whether the draw is ordered and which table is the final one; balancing asks for it
(`order`, `draw`) and counts no other table while it is pending.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import IN_PLAY

if TYPE_CHECKING:
    from kiosk.core.model.host import BalancingView, RegistryView, SeatingView


@dataclass(eq=False)
class FinalTable(Component):
    """The final-table draw: ordered, then seated."""

    pending: bool = False          # ordered: the draw waits for every hand to end
    table: int | None = None       # the final table (from the order on)

    seating: SeatingView = peer()
    registry: RegistryView = peer()
    balancing: BalancingView = peer()

    def order(self, t: float) -> None:
        """The field fits the final table: cancel every order, then draw it (TDA 11)."""
        active = self.seating.active_tables()
        self.balancing.cancel_orders(t, active)
        self.t.emit("final_ordered", t, final_table=min(x.id for x in active))
        self.draw(t)

    def draw(self, t: float) -> None:
        """TDA 11: everyone left is redrawn at the final table once all hands are over."""
        size = self.t.profile.balance.final_table_size(self.t.seats)
        alive = self.registry.alive
        if alive > size or any(x.in_hand for x in self.seating.active_tables()):
            return
        tables = self.seating.tables
        final = tables[self.table or 0]
        rng = self.t.rng("final", alive)
        players = sorted((p for p in self.registry.players.values() if p.status in IN_PLAY),
                         key=lambda p: p.id)
        seats = rng.sample(range(1, size + 1), len(players))
        self.t.emit("final_seated", t, final_table=final.id, seats=size)
        here = {p.id for p in players if p.table == final.id}
        due = {p.id for p in players
               if p.table is not None and tables[p.table].due_seat() == p.seat}
        for pid in sorted(here):
            self.t.emit("unseated", t, player=pid)
        for p, seat in zip(players, seats, strict=True):
            if p.id in here:
                self.t.emit("seated", t, player=p.id, table=final.id, seat=seat, reason="final")
            else:
                self.t.emit("moved", t, player=p.id, table=p.table, seat=p.seat,
                            to_table=final.id, to_seat=seat, reason="final",
                            due_bb=p.id in due)
        for x in self.seating.active_tables():
            if x.id != final.id:
                self.t.emit("table_broken", t, table=x.id)

    def called_off(self) -> None:
        """The next day's redraw seats everyone afresh: the draw that waited is off."""
        self.pending, self.table = False, None

    def _on_final_ordered(self, ev: ev_.FinalOrdered) -> None:
        self.pending = True
        self.table = ev.final_table
        self.changes.touch_all(tab.id for tab in self.seating.active_tables())

    def _on_final_cancelled(self, ev: ev_.FinalCancelled) -> None:
        self.called_off()
        self.balancing.rebuild()
        self.changes.touch_all(tab.id for tab in self.seating.active_tables())

    def _on_final_seated(self, ev: ev_.FinalSeated) -> None:
        self.pending = False
        tab = self.seating.tables[ev.final_table]
        # broken by the floor mid-hand, then drawn as the final table: it deals on
        self.balancing.stop_breaking(tab)
        self.seating.seated_afresh(tab, ev.seats)
        self.balancing.rebuild()
