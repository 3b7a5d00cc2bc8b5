"""Shared helpers for the core tests: a tournament driven the way table kiosks drive it.

`Room` plays hands through "report" commands (hand_started, bust, hand_ended), keeps
every event for replay checks, and computes button positions with kiosk.core.calc.button
exactly as a kiosk would.

Test modules import these helpers as `core_kit`: pytest drops every module named
`conftest` from sys.modules before loading the next directory's conftest, so a plain
`from conftest import ...` could pick up another directory's file.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from kiosk.core.calc import button as btn
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import IN_PLAY, MOVING
from kiosk.rules.structure import Period, Structure
from kiosk.rules.structure_files import load_structure

PROFILES = ("tda-2017", "tda-2015", "irish-open", "sheridans", "home-roberts", "tda-2024")


def flat_structure(levels: int = 12, minutes: float = 20, breaks_after: tuple[int, ...] = ()
                   ) -> Structure:
    """Levels of `minutes` each, blinds doubling, with 10-minute breaks after the given
    1-based levels: small and exact, so clock tests can count seconds."""
    periods: list[Period] = []
    for n in range(1, levels + 1):
        periods.append(Period(minutes, sb=50 * 2 ** (n - 1), bb=100 * 2 ** (n - 1)))
        if n in breaks_after:
            periods.append(Period(10, is_break=True))
    return Structure("flat", 10000, tuple(periods))


class Room:
    """One tournament plus the bookkeeping a set of table kiosks would do."""

    def __init__(self, players: int = 0, *, seats: int = 9, profile: str = "tda-2017",
                 structure: Structure | None = None, seed: int = 1, start: bool = True,
                 **extra: Any) -> None:
        self.tour = Tournament.create(event="test", profile=profile, seats=seats, seed=seed,
                                      structure=structure or load_structure("standard"),
                                      **extra)
        self.events: list[dict[str, Any]] = [self.tour.config]
        self.t = 0.0
        self.rid = 0
        self.rng = random.Random(seed)
        for i in range(players):
            self.do({"kind": "register", "name": f"Player {i + 1}", "player": f"p{i + 1}"})
        if start and players:
            self.do({"kind": "start"})

    # ------------------------------------------------------------------ commands
    def do(self, cmd: dict[str, Any], dt: float = 0.0) -> list[dict[str, Any]]:
        """Execute one command at the room's clock (advanced by `dt` first)."""
        self.t += dt
        evs = self.tour.execute(cmd, self.t)
        self.events.extend(evs)
        return evs

    def report(self, table: int, kind: str, rid: str | None = None, **data: Any
               ) -> list[dict[str, Any]]:
        if rid is None:
            self.rid += 1
            rid = f"r{self.rid}"
        rep = {"v": 2, "table": table, "id": rid, "kind": kind, "data": data}
        return self.do({"kind": "report", "table": table, "report": rep})

    # ------------------------------------------------------------------ hands
    def positions(self, table: int) -> btn.Positions:
        """Where the button and blinds go for the table's next hand."""
        tab = self.tour.tables[table]
        occupied = set(tab.seat_of)
        rules = self.tour.profile.button
        if tab.positions is None or tab.redraw_button:
            button, _ = btn.draw_button(sorted(occupied), rules.start, self.rng)
            return btn.first_hand(occupied, button, tab.seats)
        return btn.next_hand(tab.positions, occupied, tab.seats,
                             dead_button=rules.dead_button, newcomers=tab.new_seats,
                             waits=rules.newcomer_waits)

    def deal(self, table: int, pos: btn.Positions | None = None) -> btn.Positions:
        pos = pos or self.positions(table)
        tab = self.tour.tables[table]
        self.report(table, "hand_started", hand=tab.hand + 1, button=pos.button, sb=pos.sb,
                    bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting))
        return pos

    def bust(self, table: int, seat: int, stack: int | None = None) -> list[dict[str, Any]]:
        pid = self.tour.tables[table].seat_of[seat]
        return self.report(table, "bust", seat=seat, player=pid, stack=stack)

    def end(self, table: int, dt: float = 0.0) -> list[dict[str, Any]]:
        self.t += dt
        return self.report(table, "hand_ended", hand=self.tour.tables[table].hand)

    def hand(self, table: int, busts: tuple[int, ...] = (), dt: float = 0.0
             ) -> list[dict[str, Any]]:
        """A whole hand at `table`: deal, the given seats bust, end. Returns the events
        of the hand end (where moves and breaks are decided)."""
        self.deal(table)
        for seat in busts:
            self.bust(table, seat)
        return self.end(table, dt)

    def arrive_all(self) -> None:
        """Every moving player sits down (the kiosk's "present" report)."""
        for pid in sorted(self.tour.moving):
            p = self.tour.players[pid]
            self.report(p.table or 0, "present", seat=p.seat)

    def seat_of(self, pid: str) -> tuple[int | None, int | None]:
        p = self.tour.players[pid]
        return p.table, p.seat

    def playing(self) -> list[int]:
        return sorted(t.id for t in self.tour.tables.values() if not t.broken)

    def replay(self) -> Tournament:
        return Tournament.replay(self.events)


def digest(tour: Tournament) -> tuple:
    """Everything a person at the tournament could see, as one comparable value."""
    players = tuple(sorted((p.id, p.status, p.table, p.seat, p.from_table, p.moves,
                            p.chips_bought, p.penalty_hands, p.absent)
                           for p in tour.players.values()))
    tables = tuple(sorted((t.id, t.seats, tuple(sorted(t.seat_of.items())), t.hand, t.in_hand,
                           tuple(t.pending_out), t.pending_in, t.breaking, t.broken,
                           tuple(sorted(t.all_in)), t.positions)
                          for t in tour.tables.values()))
    return (players, tables, tour.clock, tuple(sorted(tour.places().items())), tour.alive,
            tour.h4h_on, tour.h4h_round, tour.final_table, tour.final_pending,
            tour.finished_at, tuple(sorted(tour.seen_reports)),
            tuple(sorted(tour.floor_calls)), tuple(sorted(tour.clock_calls)))


def seating_problems(tour: Tournament) -> list[str]:
    """Invariants every state must keep: each living player is seated once (or walking
    to the seat held for them) and no seat holds two players."""
    problems: list[str] = []
    holder: dict[tuple[int, int], str] = {}
    for tab in tour.tables.values():
        if tab.broken and tab.seat_of:
            problems.append(f"broken table {tab.id} still seats {tab.seat_of}")
        for seat, pid in tab.seat_of.items():
            if not 1 <= seat <= tab.seats:
                problems.append(f"table {tab.id} seat {seat} does not exist")
            holder[(tab.id, seat)] = pid
    alive = 0
    for p in tour.players.values():
        if p.status in IN_PLAY:
            alive += 1
            if holder.get((p.table or 0, p.seat or 0)) != p.id:
                problems.append(f"{p.id} at {p.table}/{p.seat} is not in that seat")
            if p.status == MOVING and p.id not in tour.moving:
                problems.append(f"{p.id} is moving but not in transit")
    held = list(holder.values())
    if len(held) != len(set(held)):
        problems.append("a player holds two seats")
    if len(held) != alive or alive != tour.alive:
        problems.append(f"{alive} alive, {len(held)} seated, count {tour.alive}")
    return problems


sys.modules.setdefault("core_kit", sys.modules[__name__])
