"""Knockouts and bounties: who eliminated whom, and the bounty each head carries.

Owns the knockouts by entry and the bounty cash won; a bust names its eliminators here
before anything is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import BUSTED, IN_PLAY, Event, Player
from kiosk.core.money.bounties import knockout

if TYPE_CHECKING:
    from kiosk.core.model.host import MoneyView, RegistryView, ReportsView, SeatingView


@dataclass(eq=False)
class Knockouts(Component):
    """Who knocked out whom, and the bounties paid."""

    # (player, entry) -> knockout
    knocked: dict[tuple[str, int], Event] = field(default_factory=dict)
    # PKO: bounty added to a head
    head_extra: dict[tuple[str, int], int] = field(default_factory=dict)
    bounty_cash: dict[str, int] = field(default_factory=dict)
    eliminated_by: dict[str, list[str]] = field(default_factory=dict)

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    reports: ReportsView = peer()
    money: MoneyView = peer()

    def head(self, pid: str) -> int:
        """The bounty on a player's current entry (0 once paid, or in events without)."""
        key = self._entry(self.registry.players[pid])
        if not self.money.prize.bounty or key in self.knocked:
            return 0
        return self.money.prize.bounty + self.head_extra.get(key, 0)

    @staticmethod
    def _entry(p: Player) -> tuple[str, int]:
        return (p.id, p.entries + p.rebuys)

    def bust_extras(self, p: Player, t: float, eliminators: Any, rebuy: bool) -> list[str]:
        """Check a bust's eliminators and rebuy before anything is recorded; the
        eliminators' player ids."""
        seats = eliminators if isinstance(eliminators, list) else \
            [eliminators] if eliminators is not None else []
        if p.seat in seats:
            raise RuleError(M_("bounty.self", "{name} cannot eliminate himself", name=p.name))
        by = [self.reports.seat_player(self.seating.tables[p.table or 0], s).id for s in seats]
        if rebuy:
            self.money.check_rebuy(t)
        return by

    def after_bust(self, p: Player, t: float, by: list[str], rebuy: bool,
                   rid: str | None) -> None:
        """Record who won the pot (and pay the bounty), then a rebuy in the same seat."""
        if by:
            self._knockout(p, by, t, rid)
        if rebuy:
            self.money.rebuy_here(p, t, rid)

    def _knockout(self, p: Player, by: list[str], t: float, rid: str | None) -> None:
        if p.id in by:
            raise RuleError(M_("bounty.self", "{name} cannot eliminate himself", name=p.name))
        if len(set(by)) != len(by):
            raise RuleError(M_("bounty.eliminator_twice", "an eliminator is named twice"))
        for pid in by:
            if self.registry.players[pid].status not in IN_PLAY:
                raise RuleError(M_("player.not_in_play", "{name} is not in play",
                                   name=self.registry.players[pid].name))
        key = self._entry(p)
        if key in self.knocked:
            raise RuleError(M_("bounty.paid", "{name}'s bounty is already paid", name=p.name))
        prize = self.money.prize
        head = prize.bounty + self.head_extra.get(key, 0) if prize.bounty else 0
        awards = knockout(head, by, prize.bounty_mode or "fixed", prize.pko_percent)
        self.t.emit("knockout", t, player=p.id, table=p.table, entry=key[1], bounty=head,
                    eliminators=by, entries=[self._entry(self.registry.players[e])[1] for e in by],
                    cash=[a.cash for a in awards], head=[a.head for a in awards], report=rid)

    def _on_knockout(self, ev: ev_.Knockout) -> None:
        self.knocked[(ev["player"], ev["entry"])] = ev
        self.eliminated_by[ev["player"]] = list(ev["eliminators"])
        for pid, n, cash, head in zip(ev["eliminators"], ev["entries"], ev["cash"], ev["head"],
                                      strict=True):
            self.bounty_cash[pid] = self.bounty_cash.get(pid, 0) + cash
            if head:
                self.head_extra[(pid, n)] = self.head_extra.get((pid, n), 0) + head
            self.changes.touch(self.registry.players[pid].table)

    def reverse_knockout(self, p: Player, t: float, rid: str | None) -> None:
        """An undone bust takes its bounty back, unless it has since been passed on."""
        ev = self.knocked.get(self._entry(p))
        if ev is None:
            return
        for pid, n, head in zip(ev["eliminators"], ev["entries"], ev["head"], strict=True):
            passed_on = self._entry(self.registry.players[pid]) != (pid, n) \
                or (pid, n) in self.knocked
            if head and passed_on:   # PKO: that part of the bounty went on with his head
                raise RuleError(M_("bounty.knocked_out_since", "{name} has been knocked out "
                                   "since; the bounty cannot be taken back",
                                   name=self.registry.players[pid].name))
        self.t.emit("knockout_reversed", t, player=p.id, entry=ev["entry"], report=rid)

    def _on_knockout_reversed(self, ev: ev_.KnockoutReversed) -> None:
        old = self.knocked.pop((ev["player"], ev["entry"]))
        self.eliminated_by.pop(ev["player"], None)
        for pid, n, cash, head in zip(old["eliminators"], old["entries"], old["cash"],
                                      old["head"], strict=True):
            self.bounty_cash[pid] -= cash
            if head:
                self.head_extra[(pid, n)] -= head

    def _do_set_eliminator(self, cmd: cmd_.SetEliminator, t: float) -> None:
        """The floor names who won the pot when the dealer skipped it."""
        p = self.registry.player(cmd.get("player"))
        if p.status != BUSTED:
            raise RuleError(M_("player.not_out", "{name} is not out", name=p.name))
        by = cmd.get("eliminators")
        if not isinstance(by, list) or not by or not all(isinstance(x, str) for x in by):
            raise RuleError(M_("bounty.eliminators_shape", "eliminators must be a list of player "
                               "ids"))
        for pid in by:
            self.registry.player(pid)
        self._knockout(p, by, t, None)
        self.t.emit("audited", t, action="set_eliminator", player=p.id, before=None,
                    after=by, by=cmd.get("by"))

