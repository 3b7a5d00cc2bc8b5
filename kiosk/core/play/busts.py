"""Busts and places: who went out in which hand, taking a bust back, the finish.

Owns the groups of busts (insertion order = bust order), each player's bust columns
(`bust_key`, `bust_hand`) and the finish time; `places()` turns the groups into finishing
places, sharing places for simultaneous busts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.calc.places import Bust, group_key, group_places
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import BUSTED, IN_PLAY, OUT, WAITING, Player

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        DrawsView,
        KnockoutsView,
        LevelsView,
        MoneyView,
        RegistryView,
        SatellitesView,
        SeatingView,
    )


@dataclass(eq=False)
class Busts(Component):
    """The busts of one event and the places they give."""

    groups: dict[tuple, list[Bust]] = field(default_factory=dict)  # insertion order = bust order
    finished_at: float | None = None

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    draws: DrawsView = peer()
    levels: LevelsView = peer()
    knockouts: KnockoutsView = peer()
    money: MoneyView = peer()
    satellites: SatellitesView = peer()

    def _on_busted(self, ev: ev_.Busted) -> None:
        p = self.registry.players[ev.player]
        self.seating.unseat(p)
        self.registry.went_out(p, OUT if ev.disqualified else BUSTED)
        key = tuple(ev.group)
        p.bust_key = key
        p.bust_hand = ev.hand
        self.groups.setdefault(key, []).append(Bust(p.id, ev.table, ev.stack))

    def _on_unbusted(self, ev: ev_.Unbusted) -> None:
        p = self.registry.players[ev.player]
        self.drop_bust(p)
        self.registry.set_status(p, WAITING)
        self.seating.forget_seat(p)

    def drop_bust(self, p: Player) -> None:
        """`p` is out of the places again (a bust taken back, or a new stack bought)."""
        if p.bust_key is not None:
            group = self.groups[p.bust_key]
            group[:] = [b for b in group if b.player != p.id]
            if not group:
                del self.groups[p.bust_key]
            p.bust_key = None

    def _do_bust(self, cmd: cmd_.Bust, t: float) -> None:
        p = self.registry.player(cmd.get("player"))
        if p.status not in IN_PLAY:
            raise RuleError(M_("player.not_in_play", "{name} is not in play", name=p.name))
        self.bust(p, t, cmd.get("stack"), None, cmd.get("eliminator"), bool(cmd.get("rebuy")))

    def bust(self, p: Player, t: float, stack: int | None, rid: str | None,
             eliminator: Any = None, rebuy: bool = False) -> None:
        assert p.table is not None
        tab = self.seating.tables[p.table]
        levels = self.levels
        if tab.dealt_in(p.seat):   # out in the table's hand (or round of hand-for-hand)
            group = group_key(tab.id, tab.hand, tab.life,
                              levels.h4h_round if levels.h4h_on else None)
        else:   # out without a hand at this table (the floor's word): a place of his own
            group = ("out", p.id, p.entries)
        by = self.knockouts.bust_extras(p, t, eliminator, rebuy)
        self.t.emit("busted", t, player=p.id, table=tab.id, seat=p.seat, hand=tab.hand,
                    stack=stack, group=list(group), report=rid)
        self.knockouts.after_bust(p, t, by, rebuy, rid)
        if not self.finish_if_over(t):
            self.money.bubble_check(t)

    def finish_if_over(self, t: float) -> bool:
        """Finish when one player is left, or a satellite's players left all win a seat."""
        if self.finished_at is not None or not self.levels.started:
            return False
        if self.registry.alive == 1 or self.satellites.done(t):
            self.satellites.finish(t)
            return True
        return False

    def _do_unbust(self, cmd: cmd_.Unbust, t: float) -> None:
        p = self.registry.player(cmd.get("player"))
        if p.status != BUSTED:
            raise RuleError(M_("player.not_out", "{name} is not out", name=p.name))
        self.unbust(p, t, None, None)

    def unbust(self, p: Player, t: float, rid: str | None,
               prefer: tuple[int, int] | None) -> None:
        table, seat = prefer or (None, None)
        self.knockouts.reverse_knockout(p, t, rid)
        self.t.emit("unbusted", t, player=p.id, report=rid)
        tab = self.seating.tables.get(table) if table else None
        if tab and not tab.broken and seat not in tab.seat_of:
            self.t.emit("seated", t, player=p.id, table=tab.id, seat=seat, reason="unbust",
                        report=rid)
        else:
            self.draws.seat_new(p.id, t, "unbust")

    def _on_finished(self, ev: ev_.Finished) -> None:
        self.finished_at = ev.t
        self.changes.schedule_changed()
        self.changes.touch_all(t.id for t in self.seating.active_tables())

    def last_group(self) -> tuple | None:
        """The key of the latest group of busts: its table and hand, or its round of
        hand-for-hand."""
        return next(reversed(self.groups), None)

    def places(self) -> dict[str, int]:
        """Finishing place of everyone out (and of the winner once finished)."""
        out: dict[str, int] = {}
        busted = sum(len(g) for g in self.groups.values())
        registry = self.registry
        alive_before = registry.alive + busted
        h4h_rules = self.t.profile.busts
        for key, group in self.groups.items():
            out.update(group_places(group, alive_before, h4h_rules, key[0] == "h4h"))
            alive_before -= len(group)
        if self.finished_at is not None:
            for p in registry.players.values():
                if p.status in IN_PLAY:
                    out[p.id] = 1
        return out
