"""Entries and players: who registered, who bought chips again, who is still in.

Owns the players (their records, kiosk.core.model.state.Player) and their cards, the number of
entries, the chips sold and the count of players still in play. Other parts fold their
own events into a player's seat, bust or penalty columns, but a player's status and the
chips sold change only here: `set_status` keeps `alive` in step with the statuses, and
`bought` the chips sold with each player's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.registration import current_big_blind, late_reg_open, late_stack
from kiosk.core.model.state import BUSTED, IN_PLAY, WAITING, Player

if TYPE_CHECKING:
    from kiosk.core.model.host import BustsView, DrawsView, FinalView, LevelsView, SeatingView


@dataclass(eq=False)
class Registry(Component):
    """The entries of one event and the players behind them."""

    players: dict[str, Player] = field(default_factory=dict)
    by_card: dict[str, str] = field(default_factory=dict)
    entries: int = 0
    chips: int = 0
    alive: int = 0

    levels: LevelsView = peer()
    seating: SeatingView = peer()
    draws: DrawsView = peer()
    final: FinalView = peer()
    busts: BustsView = peer()

    def player(self, pid: Any) -> Player:
        p = self.players.get(pid) if isinstance(pid, str) else None
        if p is None:
            raise RuleError(M_("player.unknown", "unknown player '{player}'", player=pid))
        return p

    # ------------------------------------------------ what other parts' folds change
    def set_status(self, p: Player, status: str) -> None:
        """A player's status changes; `alive` counts the players in play, so it follows
        when the player comes into play or leaves it."""
        was = p.status in IN_PLAY
        p.status = status
        if was != (status in IN_PLAY):
            self.alive += -1 if was else 1

    def went_out(self, p: Player, status: str) -> None:
        """A player busted or was disqualified: out of play, and no longer absent."""
        self.set_status(p, status)
        p.absent = False

    def bought(self, p: Player, stack: int) -> None:
        """A player bought `stack` more chips (an add-on): the chips sold follow."""
        p.chips_bought += stack
        self.chips += stack

    def chips_left_play(self, chips: int) -> None:
        """Chips coloured up and taken off the tables: no longer in play."""
        self.chips -= chips

    def chips_recounted(self, difference: int) -> None:
        """The bags accepted `difference` chips more (or fewer) than were sold: the bags
        are the chips in play from now on."""
        self.chips += difference

    # ------------------------------------------------------------------- folds
    def _on_registered(self, ev: ev_.Registered) -> None:
        p = Player(ev.player, ev.name, ev.card, chips_bought=ev.stack, country=ev.country,
                   language=ev.language)
        self.players[p.id] = p
        if p.card:
            self.by_card[p.card] = p.id
        self.entries += 1
        self.chips += ev.stack
        self.changes.seating_changed()

    def _on_rebuy(self, ev: ev_.Rebuy) -> None:
        self._buy_again(ev).rebuys += 1

    def _on_reentered(self, ev: ev_.Reentered) -> None:
        self._buy_again(ev).entries += 1

    def _buy_again(self, ev: ev_.Rebuy | ev_.Reentered) -> Player:
        """A busted player buys a new stack: out of the places, waiting for a seat."""
        p = self.players[ev.player]
        self.busts.drop_bust(p)
        self.bought(p, ev.stack)
        self.entries += 1
        self.set_status(p, WAITING)
        return p

    def _on_absent(self, ev: ev_.Absent) -> None:
        self.players[ev.player].absent = ev.absent
        self.changes.touch(ev.table)

    # --------------------------------------------------------------- decisions
    def _do_register(self, cmd: cmd_.Register, t: float) -> None:
        name = str(cmd.get("name", "")).strip()
        if not name:
            raise RuleError(M_("player.needs_name", "a player needs a name"))
        card = cmd.get("card") or None
        if card and card in self.by_card:
            owner = self.players[self.by_card[card]].name
            raise RuleError(M_("card.taken", "card {card} already belongs to {owner}", card=card,
                               owner=owner))
        pid = cmd.get("player") or f"p{len(self.players) + 1}"
        if pid in self.players:
            raise RuleError(M_("player.id_taken", "player id {player} is taken", player=pid))
        host = self.t
        if host.max_entries is not None and self.entries >= host.max_entries:
            raise RuleError(Mn_("registration.sold_out", "no stacks left: the {n} entry is "
                                "sold", "no stacks left: all {n} entries are sold",
                                host.max_entries))
        started = self.levels.started
        period = self.levels.clock.read(host.structure, t).period
        rules = host.profile.late_reg
        if not late_reg_open(rules, host.structure, period, started):
            raise RuleError(M_("registration.closed", "late registration is closed"))
        stack = host.start_stack
        if started:
            stack = late_stack(rules, host.start_stack, current_big_blind(host.structure, period))
        host.emit("registered", t, player=pid, name=name, card=card, stack=stack,
                  **({"country": str(cmd["country"])[:40]} if cmd.get("country") else {}),
                  **({"language": str(cmd["language"])} if cmd.get("language") else {}))
        if started:
            self.draws.seat_new(pid, t, "late")

    def _do_rebuy(self, cmd: cmd_.Rebuy, t: float) -> None:
        p = self.player(cmd.get("player"))
        e = self.t.profile.entries
        period = self.levels.period(t)
        if not e.rebuy:
            raise RuleError(M_("rebuy.none", "this profile has no rebuys"))
        if p.status != BUSTED:
            raise RuleError(M_("rebuy.has_chips", "{name} still has chips: a rebuy needs an empty "
                               "stack", name=p.name))
        if period > self.t.structure.index_of_level(e.rebuy_levels):
            raise RuleError(M_("rebuy.period_over", "the rebuy period ended after level {levels}",
                               levels=e.rebuy_levels))
        self.t.emit("rebuy", t, player=p.id, stack=self.t.start_stack)
        tab = self.seating.tables.get(p.table) if p.table is not None else None
        if e.playing_behind and tab is not None and not (tab.broken or tab.breaking) \
                and p.seat is not None and p.seat not in tab.seat_of \
                and tab.hand == p.bust_hand and not self.final.pending:
            # re-bought before the next deal: the seat is still theirs (playing behind),
            # so they take the blind they were due rather than a fresh random seat
            self.t.emit("seated", t, player=p.id, table=tab.id, seat=p.seat, reason="rebuy",
                        same_seat=True)
        else:
            self.draws.seat_new(p.id, t, "rebuy")

    def reentry_stack(self, p: Player, t: float) -> int:
        """The stack `p` re-enters with at `t`; RuleError why not (also asked by the
        director before it puts a re-entry on a full event's alternates list)."""
        host = self.t
        if not host.profile.entries.reentry:
            raise RuleError(M_("reentry.none", "this profile has no re-entry"))
        if p.status != BUSTED:
            raise RuleError(M_("player.still_in", "{name} is still in play", name=p.name))
        period = self.levels.period(t)
        if not late_reg_open(host.profile.late_reg, host.structure, period,
                             self.levels.started):
            raise RuleError(M_("reentry.closed", "late registration is closed; no re-entry"))
        return late_stack(host.profile.late_reg, host.start_stack,
                          current_big_blind(host.structure, period))

    def _do_reenter(self, cmd: cmd_.Reenter, t: float) -> None:
        p = self.player(cmd.get("player"))
        stack = self.reentry_stack(p, t)
        self.t.emit("reentered", t, player=p.id, stack=stack)
        self.draws.seat_new(p.id, t, "reentry")

    def _do_seat_waiting(self, cmd: cmd_.SeatWaiting, t: float) -> None:
        """Seat alternates (players registered but without a seat)."""
        for p in list(self.players.values()):
            if p.status == WAITING and self.levels.started:
                self.draws.seat_new(p.id, t, "alternate")
