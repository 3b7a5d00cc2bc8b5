"""Entries and players: who registered, who bought chips again, who is still in.

Owns the players and their cards, the number of entries, the chips sold and the count of
players still in play; other parts ask it for a player (`_player`) and read the counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.core import commands as cmd_
from kiosk.core import events as ev_
from kiosk.core.component import Component
from kiosk.core.registration import current_big_blind, late_reg_open, late_stack
from kiosk.core.state import BUSTED, WAITING, Player
from kiosk.errors import RuleError


@dataclass(eq=False)
class Registry(Component):
    """The entries of one event and the players behind them."""

    players: dict[str, Player] = field(default_factory=dict)
    by_card: dict[str, str] = field(default_factory=dict)
    entries: int = 0
    chips: int = 0
    alive: int = 0

    def player(self, pid: Any) -> Player:
        p = self.players.get(pid) if isinstance(pid, str) else None
        if p is None:
            raise RuleError(f"unknown player {pid!r}")
        return p

    def _on_registered(self, ev: ev_.Registered) -> None:
        p = Player(ev.player, ev.name, ev.card, chips_bought=ev.stack, country=ev.country)
        self.players[p.id] = p
        if p.card:
            self.by_card[p.card] = p.id
        self.entries += 1
        self.chips += ev.stack
        self.t.seating_dirty = True

    def _on_rebuy(self, ev: ev_.Rebuy) -> None:
        self._buy_again(ev).rebuys += 1

    def _on_reentered(self, ev: ev_.Reentered) -> None:
        self._buy_again(ev).entries += 1

    def _buy_again(self, ev: ev_.Rebuy | ev_.Reentered) -> Player:
        """A busted player buys a new stack: out of the places, waiting for a seat."""
        p = self.players[ev.player]
        self.t.busts.drop_bust(p)
        p.chips_bought += ev.stack
        self.chips += ev.stack
        self.entries += 1
        p.status = WAITING
        return p

    def _do_register(self, cmd: cmd_.Register, t: float) -> None:
        name = str(cmd.get("name", "")).strip()
        if not name:
            raise RuleError("a player needs a name")
        card = cmd.get("card") or None
        if card and card in self.by_card:
            owner = self.players[self.by_card[card]].name
            raise RuleError(f"card {card} already belongs to {owner}")
        pid = cmd.get("player") or f"p{len(self.players) + 1}"
        if pid in self.players:
            raise RuleError(f"player id {pid} is taken")
        if self.t.max_entries is not None and self.entries >= self.t.max_entries:
            raise RuleError(f"no stacks left: all {self.t.max_entries} entries are sold")
        period = self.t.levels.clock.read(self.t.structure, t).period
        rules = self.t.profile.late_reg
        if not late_reg_open(rules, self.t.structure, period, self.t.levels.started):
            raise RuleError("late registration is closed")
        stack = self.t.start_stack
        if self.t.levels.started:
            stack = late_stack(rules, self.t.start_stack,
                               current_big_blind(self.t.structure, period))
        self.t._emit("registered", t, player=pid, name=name, card=card, stack=stack,
                     **({"country": str(cmd["country"])[:40]} if cmd.get("country") else {}))
        if self.t.levels.started:
            self.t.seating.seat_new(pid, t, "late")

    def _do_rebuy(self, cmd: cmd_.Rebuy, t: float) -> None:
        p = self.player(cmd.get("player"))
        e = self.t.profile.entries
        period = self.t.levels.clock.read(self.t.structure, t).period
        if not e.rebuy:
            raise RuleError("this profile has no rebuys")
        if p.status != BUSTED:
            raise RuleError(f"{p.name} still has chips: a rebuy needs an empty stack")
        if period > self.t.structure.index_of_level(e.rebuy_levels):
            raise RuleError(f"the rebuy period ended after level {e.rebuy_levels}")
        self.t._emit("rebuy", t, player=p.id, stack=self.t.start_stack)
        tab = self.t.seating.tables.get(p.table) if p.table is not None else None
        if e.playing_behind and tab is not None and not (tab.broken or tab.breaking) \
                and p.seat is not None and p.seat not in tab.seat_of \
                and tab.hand == p.bust_hand and not self.t.balancing.final_pending:
            # re-bought before the next deal: the seat is still theirs (playing behind),
            # so they take the blind they were due rather than a fresh random seat
            self.t._emit("seated", t, player=p.id, table=tab.id, seat=p.seat, reason="rebuy",
                         same_seat=True)
        else:
            self.t.seating.seat_new(p.id, t, "rebuy")

    def _do_reenter(self, cmd: cmd_.Reenter, t: float) -> None:
        p = self.player(cmd.get("player"))
        if not self.t.profile.entries.reentry:
            raise RuleError("this profile has no re-entry")
        if p.status != BUSTED:
            raise RuleError(f"{p.name} is still in play")
        period = self.t.levels.clock.read(self.t.structure, t).period
        if not late_reg_open(self.t.profile.late_reg, self.t.structure, period,
                             self.t.levels.started):
            raise RuleError("late registration is closed; no re-entry")
        stack = late_stack(self.t.profile.late_reg, self.t.start_stack,
                           current_big_blind(self.t.structure, period))
        self.t._emit("reentered", t, player=p.id, stack=stack)
        self.t.seating.seat_new(p.id, t, "reentry")

    def _do_seat_waiting(self, cmd: cmd_.SeatWaiting, t: float) -> None:
        """Seat alternates (players registered but without a seat)."""
        for p in list(self.players.values()):
            if p.status == WAITING and self.t.levels.started:
                self.t.seating.seat_new(p.id, t, "alternate")

    def _on_absent(self, ev: ev_.Absent) -> None:
        self.players[ev.player].absent = ev.absent
        self.t._touch(ev.table)

