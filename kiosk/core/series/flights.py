"""Flights and Day 2: the survivors a flight bagged, and a Day 2 built from them.

A flight is an ordinary event that ends its day with bag-and-tag (kiosk.core.chips.chip_counts);
`survivors()` reads its last bags. A Day 2 is a new event, not started, into which
`CarryIn` brings every survivor with his bagged stack (one `Registered` each, the room's
player id kept), the flights' prize pools (`PoolCarried`) and then the seat draw.

A player who survived two flights plays on with one stack: the largest, or the one of the
first flight he survived, per the command; the other stack leaves play, audited
(`stack_left_play`) and counted in `PoolCarried.chips_left`.

The money: carried players are not new entries (their buy-ins were taken in the flights),
so the pool is this event's own entries plus the flights' pools, and the payout table is
sized for the flights' entries (the field that paid in), not for the survivors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        ChipCountsView,
        DrawsView,
        LevelsView,
        RegistryView,
        SeatingView,
    )


class Survivor(NamedTuple):
    player: str
    name: str
    card: str | None
    country: str
    stack: int
    language: str = ""        # the player's own, kept for the Day 2's slips


@dataclass(eq=False)
class Flights(Component):
    """What a Day 2 carried in from its flights."""

    carried: int = 0          # prize money from the flights
    flights: list[str] = field(default_factory=list)
    entries: int = 0          # the flights' entries
    players: int = 0          # survivors registered by the carry
    chips_left: int = 0       # chips of duplicate stacks that left play

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    draws: DrawsView = peer()
    levels: LevelsView = peer()
    chipcount: ChipCountsView = peer()

    def survivors(self) -> list[Survivor]:
        """The players this flight bagged at the end of its day, biggest stack first."""
        bags = self.chipcount.bags.get(self.chipcount.day)
        if bags is None:   # never bagged, or played on after its bags (a redraw)
            raise RuleError(M_("flight.not_bagged", "flight {event} has not bagged its survivors",
                               event=self.t.event))
        players = self.registry.players
        out = [Survivor(pid, players[pid].name, players[pid].card, players[pid].country, stack,
                        players[pid].language) for pid, stack in bags.items()]
        return sorted(out, key=lambda s: (-s.stack, s.player))

    def field_size(self) -> int:
        """The field the payout table is sized for: this event's own entries, plus the
        flights' entries when the carry named them (else the survivors count once)."""
        own = self.registry.entries - self.players
        return own + (self.entries or self.players)

    def _on_pool_carried(self, ev: ev_.PoolCarried) -> None:
        self.carried += ev.amount
        self.flights += ev.flights
        self.entries += ev.entries
        self.players += ev.players
        self.chips_left += ev.chips_left
        self.changes.schedule_changed()

    def _do_carry_in(self, cmd: cmd_.CarryIn, t: float) -> None:
        self._check_carry(cmd)
        kept, dropped = _keep_one_each(cmd)
        self.seating.need_tables(-(-len(kept) // self.t.seats))
        for e in kept:
            self.t.emit("registered", t, player=e.player, name=e.name, card=e.card,
                        stack=e.stack, country=e.country, language=e.language)
        for e in dropped:
            self.t.emit("audited", t, action="stack_left_play", player=e.player,
                        before=e.stack, after=0, by=cmd.by or f"day 2 from {e.flight}")
        self.t.emit("pool_carried", t, amount=sum(p.amount for p in cmd.pools),
                    flights=[p.flight for p in cmd.pools],
                    entries=sum(p.entries for p in cmd.pools), players=len(kept),
                    chips_left=sum(e.stack for e in dropped))
        rng = self.t.rng("carry", cmd.draw)
        if cmd.draw == "stack":
            order = sorted(kept, key=lambda e: (-e.stack, e.player))
            self.draws.stack_draw([e.player for e in order], t, rng)
        else:
            self.draws.random_draw([e.player for e in kept], t, rng)

    def _check_carry(self, cmd: cmd_.CarryIn) -> None:
        """Refuse, with the reason and before anything is decided, a carry that cannot be."""
        if self.levels.started:
            raise RuleError(M_("day2.started", "{event} has started: a Day 2 carries its players "
                               "in before it starts", event=self.t.event))
        if self.flights or self.seating.tables:
            raise RuleError(M_("day2.drawn", "{event} has already drawn its seats",
                               event=self.t.event))
        flights = [p.flight for p in cmd.pools]
        if len(set(flights)) != len(flights):
            raise RuleError(M_("day2.pool_twice", "a flight's pool is given twice"))
        registry = self.registry
        cards: dict[str, str] = {}
        for e in cmd.entrants:
            if e.flight not in flights:
                raise RuleError(M_("day2.no_pool", "{name} comes from flight {flight}, which has "
                                   "no pool in this Day 2", name=e.name, flight=e.flight))
            if e.player in registry.players:
                raise RuleError(M_("day2.player_twice", "player id {player} is already registered "
                                   "here", player=e.player))
            owner = registry.by_card.get(e.card or "") or cards.get(e.card or "", e.player)
            if e.card and owner != e.player:
                raise RuleError(M_("day2.card_twice", "card {card} belongs to two players "
                                   "({owner} and {player})", card=e.card, owner=owner,
                                   player=e.player))
            if e.card:
                cards[e.card] = e.player
        if len({e.player for e in cmd.entrants}) < 2:
            raise RuleError(M_("day2.two_survivors", "a Day 2 needs at least two survivors"))


def _keep_one_each(cmd: cmd_.CarryIn) -> tuple[list[cmd_.CarryEntrant], list[cmd_.CarryEntrant]]:
    """One entry per player: the largest stack or the first flight's (per `keep`), ties to
    the first flight; the others, as given. Kept entrants stay in the order given."""
    rank = {p.flight: i for i, p in enumerate(cmd.pools)}
    best: dict[str, cmd_.CarryEntrant] = {}
    for e in cmd.entrants:
        have = best.get(e.player)
        if have is None or _better(e, have, cmd.keep, rank):
            best[e.player] = e
    kept = [e for e in cmd.entrants if best[e.player] is e]
    dropped = [e for e in cmd.entrants if best[e.player] is not e]
    return kept, dropped


def _better(e: cmd_.CarryEntrant, have: cmd_.CarryEntrant, keep: str,
            rank: dict[str, int]) -> bool:
    first = rank[e.flight] < rank[have.flight]
    if keep == "largest" and e.stack != have.stack:
        return e.stack > have.stack
    return first
