"""The money of an event: pool and payouts, rebuys and add-ons, locks, the bubble, deals.

Every amount is an integer; every decision is an event, so a replay gives the same money
to the unit. Also keeps the audit trail of floor actions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.calc.payouts import (
    MoneyView,
    Pool,
    PrizeRules,
    parse_shares_csv,
    payout_table,
    pool,
)
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.registration import late_reg_open
from kiosk.core.model.state import IN_PLAY, Event, Player, Table

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        BustsView,
        DrawsView,
        FlightsView,
        LevelsView,
        RegistryView,
        ReportsView,
        SatellitesView,
        SeatingView,
    )


@dataclass(eq=False)
class Money(Component):
    """The prize pool, payouts, rebuys, add-ons and deals."""

    prize: PrizeRules = field(init=False)
    h4h_at_bubble: bool = field(init=False)
    addons: int = 0
    addon_players: set[str] = field(default_factory=set)
    locked: list[int] | None = None
    deal: dict[str, int] | None = None
    audit: list[Event] = field(default_factory=list)
    _payouts_for: tuple[Any, list[int]] | None = None

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    draws: DrawsView = peer()
    levels: LevelsView = peer()
    busts: BustsView = peer()
    reports: ReportsView = peer()
    satellites: SatellitesView = peer()
    flights: FlightsView = peer()

    def __post_init__(self) -> None:
        created = self.t.config
        rules = created.get("money")
        if rules is None:   # events created before prize rules: the plain percent table
            rules = {"buy_in": created.get("buy_in", 0), "table": "percent",
                     "percent_paid": created.get("payout_percent", 15.0)}
        self.prize = PrizeRules.from_dict(rules)
        self.h4h_at_bubble = bool(created.get("h4h_at_bubble"))

    def money_pool(self) -> Pool:
        flights = self.flights
        return pool(self.prize, self.registry.entries - flights.players, self.addons,
                    flights.carried)

    def current_payouts(self) -> list[int]:
        """The payouts now (locked, or for the entries so far); computed once per change
        of the field, since every plan and summary asks."""
        if self.locked is not None:
            return self.locked
        key = (self.registry.entries, self.addons, self.prize, self.flights.carried)
        cached = getattr(self, "_payouts_for", None)
        if cached is None or cached[0] != key:
            cached = self._payouts_for = (
                key, payout_table(self.prize, self.money_pool().prize_pool,
                                  self.flights.field_size()))
        return cached[1]

    def money_view(self) -> MoneyView:
        p = self.money_pool()
        paid = self.current_payouts()
        alive = self.registry.alive if self.levels.started else self.registry.entries
        running = self.levels.started and self.busts.finished_at is None
        return MoneyView(prize_pool=sum(paid) if self.locked is not None else p.prize_pool,
                         payouts=paid, places_paid=len(paid),
                         bubble=running and alive == len(paid) + 1,
                         in_the_money=self.levels.started and alive <= len(paid),
                         bounty_pool=p.bounty_pool, locked=self.locked is not None,
                         pool=p.to_dict())

    def prizes(self) -> dict[str, int]:
        """Prize of every player placed so far (ties share; an agreed deal replaces the
        places it covers)."""
        out = self.satellites.prizes(self.current_payouts(), self.busts.places())
        if self.deal:
            out.update(self.deal)
        return {pid: v for pid, v in out.items() if v}

    def prize_for_place(self, place: int, tied: int = 1) -> int:
        paid = self.current_payouts()
        return sum(paid[place - 1: place - 1 + tied]) // tied

    def _rebuy_period_open(self, t: float) -> bool:
        e = self.t.profile.entries
        return e.rebuy and \
            self.levels.period(t) <= self.t.structure.index_of_level(e.rebuy_levels)

    def check_rebuy(self, t: float) -> None:
        if not self.t.profile.entries.rebuy:
            raise RuleError(M_("rebuy.none", "this profile has no rebuys"))
        if not self._rebuy_period_open(t):
            raise RuleError(M_("rebuy.period_over", "the rebuy period ended after level {levels}",
                               levels=self.t.profile.entries.rebuy_levels))

    def rebuy_here(self, p: Player, t: float, rid: str | None) -> None:
        """A rebuy declared at the bust (playing behind, TDA 27): same table, same seat."""
        table, seat = p.table or 0, p.seat or 0   # a bust leaves both as they were
        self.t.emit("rebuy", t, player=p.id, stack=self.t.start_stack, report=rid)
        tab = self.seating.tables[table]
        if not tab.broken and seat not in tab.seat_of:
            self.t.emit("seated", t, player=p.id, table=table, seat=seat, reason="rebuy",
                        report=rid)
        else:
            self.draws.seat_new(p.id, t, "rebuy")

    def _addon_window(self) -> tuple[int, int]:
        """Home rules: the add-on is sold at the end of the rebuy period, i.e. after the
        last rebuy level, through the next level of play (periods, exclusive-inclusive)."""
        last = self.t.structure.index_of_level(self.t.profile.entries.rebuy_levels)
        nxt = next((i for i in range(last + 1, len(self.t.structure.periods))
                    if not self.t.structure.periods[i].is_break), last)
        return last, nxt

    def _addon_open(self, t: float) -> bool:
        if not self.t.profile.entries.addon:
            return False
        last, nxt = self._addon_window()
        return last < self.levels.period(t) <= nxt

    def _addon(self, p: Player, t: float, rid: str | None) -> None:
        if not self.t.profile.entries.addon:
            raise RuleError(M_("addon.none", "this profile has no add-on"))
        if p.status not in IN_PLAY:
            raise RuleError(M_("player.not_in_play", "{name} is not in play", name=p.name))
        if p.id in self.addon_players:
            raise RuleError(M_("addon.taken", "{name} has already taken the add-on", name=p.name))
        if not self._addon_open(t):
            raise RuleError(M_("addon.when", "the add-on is sold only at the end of the rebuy "
                               "period"))
        self.t.emit("addon", t, player=p.id, table=p.table,
                    stack=self.t.start_stack * self.t.profile.entries.addon_stacks, report=rid)

    def _do_addon(self, cmd: cmd_.Addon, t: float) -> None:
        self._addon(self.registry.player(cmd.get("player")), t, None)

    def _report_addon(self, tab: Table, d: dict, t: float, rid: str) -> None:
        p = self.reports.seat_player(tab, d["seat"])
        if p.id != d["player"]:
            raise RuleError(M_("seat.holds_other", "table {table} seat {seat} holds {player}, not "
                               "{named}", table=tab.id, seat=d['seat'], player=p.id,
                               named=d['player']))
        self._addon(p, t, rid)

    def _on_addon(self, ev: ev_.Addon) -> None:
        p = self.registry.players[ev["player"]]
        self.registry.bought(p, ev["stack"])
        self.addons += 1
        self.addon_players.add(p.id)
        self.changes.schedule_changed()

    def money_tick(self, t: float) -> None:
        """Lock the payouts once nobody can buy chips any more (late registration,
        rebuys and add-ons over); start hand-for-hand at the bubble when asked to."""
        if self.locked is None and self.levels.started and not self.buying_open(t):
            self.t.emit("payouts_locked", t, payouts=self.current_payouts(),
                        prize_pool=self.money_pool().prize_pool, by=None)
            self.busts.finish_if_over(t)   # a satellite's seats are now fixed

    def buying_open(self, t: float) -> bool:
        period = self.levels.period(t)
        return (late_reg_open(self.t.profile.late_reg, self.t.structure, period,
                              self.levels.started)
                or self._rebuy_period_open(t)
                or (self.t.profile.entries.addon and period <= self._addon_window()[1]))

    def _on_payouts_locked(self, ev: ev_.PayoutsLocked) -> None:
        self.locked = list(ev["payouts"])
        self.changes.schedule_changed()

    def _do_lock_payouts(self, cmd: cmd_.LockPayouts, t: float) -> None:
        if self.locked is not None:
            raise RuleError(M_("payout.locked_already", "the payouts are already locked"))
        self.t.emit("payouts_locked", t, payouts=self.current_payouts(),
                    prize_pool=self.money_pool().prize_pool, by=cmd.get("by"))
        self.busts.finish_if_over(t)

    def _do_payout_rules(self, cmd: cmd_.PayoutRules, t: float) -> None:
        """Choose the payout table (standard, percent, wta, or shares / CSV) and rounding."""
        if self.locked is not None:
            raise RuleError(M_("payout.locked_late", "the payouts are locked: late registration "
                               "has closed"))
        assert isinstance(cmd, cmd_.PayoutRules)
        changes = cmd.changes()
        if cmd.csv is not None:
            changes["shares"] = list(parse_shares_csv(cmd.csv))
            changes["table"] = "shares"
        new = PrizeRules.from_dict({**self.prize.to_dict(), **changes})
        self.t.emit("prize_rules_set", t, rules=new.to_dict(), before=self.prize.to_dict(),
                    by=cmd.get("by"))

    def _on_prize_rules_set(self, ev: ev_.PrizeRulesSet) -> None:
        self.prize = PrizeRules.from_dict(ev["rules"])
        self.changes.schedule_changed()

    def _do_set_h4h_at_bubble(self, cmd: cmd_.SetH4hAtBubble, t: float) -> None:
        """A house setting, changed while hand-for-hand is off (turned off during it, it
        would never end by itself; turned on, it would end one the floor started)."""
        if cmd.on == self.h4h_at_bubble:
            raise RuleError(M_("h4h.bubble_on", "hand-for-hand at the bubble is already on")
                            if cmd.on else M_("h4h.bubble_off", "hand-for-hand at the bubble "
                                              "is already off"))
        if self.levels.h4h_on:
            raise RuleError(M_("h4h.bubble_running", "hand-for-hand is running; change it once "
                               "hand-for-hand is over"))
        self.t.emit("h4h_at_bubble_set", t, on=cmd.on, source=cmd.source)
        self.bubble_check(t)       # on the bubble already: it starts now

    def _on_h4h_at_bubble_set(self, ev: ev_.H4hAtBubbleSet) -> None:
        self.h4h_at_bubble = ev.on
        self.changes.schedule_changed()

    def bubble_check(self, t: float) -> None:
        """Hand-for-hand from the bubble until the money (TDA RP-8), when the event asks."""
        if not self.h4h_at_bubble or self.t.profile.hand_for_hand is None \
                or self.busts.finished_at is not None:
            return
        paid = len(self.current_payouts())
        if not self.levels.h4h_on and self.registry.alive == paid + 1:
            self.levels.hand_for_hand(True, t)
        elif self.levels.h4h_on and self.registry.alive <= paid:
            self.levels.hand_for_hand(False, t)

    def _do_deal(self, cmd: cmd_.Deal, t: float) -> None:
        """Record a deal the players left agreed: their prizes replace the payouts of the
        places still to be decided; the sum must equal what those places pay."""
        amounts = cmd.get("amounts")
        if not isinstance(amounts, dict) or not amounts:
            raise RuleError(M_("money_deal.by_player", "a deal needs amounts by player"))
        alive = {p.id for p in self.registry.players.values() if p.status in IN_PLAY}
        if set(amounts) != alive:
            raise RuleError(M_("money_deal.every_player", "a deal must give an amount to every "
                               "player left, and only them"))
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in amounts.values()):
            raise RuleError(M_("money_deal.whole", "deal amounts must be whole amounts >= 0"))
        left = sum(self.current_payouts()[: len(alive)])
        if sum(amounts.values()) != left:
            raise RuleError(M_("money_deal.sum", "the deal shares out {total:num}; the places "
                               "left pay {left:num}", total=sum(amounts.values()), left=left))
        before = {pid: self.prize_for_place(i + 1) for i, pid in enumerate(sorted(alive))}
        self.t.emit("deal_agreed", t, amounts=dict(amounts), method=str(cmd.get("method", "")),
                    before=before, by=cmd.get("by"))

    def _on_deal_agreed(self, ev: ev_.DealAgreed) -> None:
        self.deal = dict(ev["amounts"])
        self.changes.schedule_changed()

    def _on_audited(self, ev: ev_.Audited) -> None:
        pass  # the audit trail is the event itself

    def remember_audit(self, ev: Event) -> None:
        """Every floor action and manual change, for the audit page (who, when, what)."""
        if ev.get("by"):
            self.audit.append(ev)

    # the table reports this part decides (each handler takes the report's data)
    REPORTS: ClassVar[dict[type, Callable[..., None]]] = {
        cmd_.AddonReport: _report_addon,
    }
