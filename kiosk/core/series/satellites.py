"""Satellites: the event ends at the seats, and who won one.

A satellite's payout table is seats of `seat_value` and what is left as cash
(kiosk.core.calc.payouts.satellite_table). Once the seats are fixed (the payouts locked, or
nothing can be bought any more) the event finishes as soon as the players left all win a
seat: playing on could only take a seat from someone who has already won one. It waits
for the end of the hand of the last bust (at that table, or of the hand-for-hand round), so
that every bust of that hand is in and the bust rules rank them; hands in progress at other
tables then count for nothing.

Places: every player who finishes at the seats shares place 1. A seat is one prize of
one value, whoever holds more chips; ranking the winners by chips would give them places
that pay the same but read as if they did not, and push them to gamble for a rank that
means nothing. A player who went out on the hand that decided the last seats keeps the
place the bust rules give him, and wins a seat when that place (shared or not) lies
wholly within the seats.

The cash left over (`Created.satellite_leftover`): "next" pays it to the next finisher
(the place after the last seat, as the payout table says); "split" shares it equally
among the seat winners, the odd units to the first by player id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.calc.payouts import pid_key, seats_won, split_ties
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import IN_PLAY

if TYPE_CHECKING:
    from kiosk.core.model.host import BustsView, LevelsView, MoneyView, RegistryView, SeatingView


LEFTOVER = {"next": M_("satellite.leftover_next", "the cash after the seats already goes to "
                       "the next finisher"),
            "split": M_("satellite.leftover_split", "the cash after the seats already goes "
                        "to the seat winners, shared")}   # as a refusal says it


@dataclass(eq=False)
class Satellites(Component):
    """The seats of a satellite and who won them."""

    winners: list[str] = field(default_factory=list)
    leftover: str = field(init=False)     # "next" | "split": the cash after the last seat

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    levels: LevelsView = peer()
    busts: BustsView = peer()
    money: MoneyView = peer()

    def __post_init__(self) -> None:
        self.leftover = self.t.config.satellite_leftover

    def _do_set_satellite_leftover(self, cmd: cmd_.SetSatelliteLeftover, t: float) -> None:
        """A house setting, changed until the payouts are locked: once the players were
        told what each place pays, who gets the cash after the seats is part of it."""
        if cmd.leftover == self.leftover:
            raise RuleError(LEFTOVER[cmd.leftover])
        if self.money.locked is not None:
            raise RuleError(M_("satellite.payouts_locked", "the payouts are locked: who gets the "
                               "cash after the seats was announced with them"))
        self.t.emit("satellite_leftover_set", t, leftover=cmd.leftover, before=self.leftover,
                    source=cmd.source)

    def _on_satellite_leftover_set(self, ev: ev_.SatelliteLeftoverSet) -> None:
        self.leftover = ev.leftover
        self.changes.schedule_changed()

    def seats(self) -> int:
        """Seats the payouts give now (0 for an event that is not a satellite)."""
        return seats_won(self.money.prize, self.money.current_payouts())

    def done(self, t: float) -> bool:
        """Every player left wins a seat, and the seats can no longer change."""
        seats = self.seats()
        money = self.money
        return (bool(seats) and self.levels.started and self.busts.finished_at is None
                and 1 <= self.registry.alive <= seats
                and (money.locked is not None or not money.buying_open(t))
                and self._deciding_hand_over())

    def _deciding_hand_over(self) -> bool:
        """The hand of the last bust is over, so every bust that shares its places is in
        (hand-for-hand: every table's hand of the round)."""
        key = self.busts.last_group()
        tables = self.seating.tables
        if key is None:
            return True
        if key[0] == "h4h":
            return not any(tab.in_hand for tab in self.seating.active_tables())
        tab = tables.get(key[1]) if key[0] == "hand" else None
        return tab is None or not (tab.in_hand and tab.hand == key[2])

    def finish(self, t: float) -> None:
        """The event is over: the seats won (satellites), then the finish."""
        alive = [p.id for p in self.registry.players.values() if p.status in IN_PLAY]
        seats = self.seats()
        if seats:
            won = alive + self._seats_by_place(seats)
            self.t.emit("seats_won", t, players=won, value=self.money.prize.seat_value)
        self.t.emit("finished", t, winner=alive[0])

    def _seats_by_place(self, seats: int) -> list[str]:
        """Players already out whose place lies wholly within the seats (out on the hand
        that decided the last seats, with fewer chips than those left)."""
        places = self.busts.places()
        shared = Counter(places.values())
        return sorted((pid for pid, place in places.items()
                       if place + shared[place] - 1 <= seats),
                      key=lambda pid: (places[pid], pid))

    def _on_seats_won(self, ev: ev_.SeatsWon) -> None:
        self.winners = list(ev.players)
        self.changes.schedule_changed()

    def seat_winners(self) -> list[str]:
        """Who won a seat in the target event (empty until the satellite is over)."""
        return list(self.winners)

    def prizes(self, payouts: list[int], places: dict[str, int]) -> dict[str, int]:
        """Each player's prize: seats at their value, the cash left over per the rule."""
        seats = self.seats()
        if not (seats and self.winners and self.leftover == "split"):
            return split_ties(payouts, places)
        out = split_ties(payouts[:seats], places)
        rest = sum(payouts[seats:])
        share, odd = divmod(rest, len(self.winners))
        for i, pid in enumerate(sorted(self.winners, key=pid_key)):
            out[pid] = out.get(pid, 0) + share + (1 if i < odd else 0)
        return out

