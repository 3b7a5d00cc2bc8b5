"""The room's players and their tickets: one record per player across events.

A player is known to the room once (name, card, country) whichever events they play; a
ticket is a seat in an event (won in a satellite, or given by the floor), used once, or
given back or refunded by the floor, never both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Msg
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as re_
from kiosk.core.model.event_base import Event

TicketState = Literal["issued", "used", "returned", "refunded"]


@dataclass
class PlayerRecord:
    id: str
    name: str
    card: str | None = None
    country: str = ""
    language: str = ""          # the player's own, for their slips ("": the room's)


@dataclass
class Ticket:
    """A seat in `target`; `event` is where it was used, `amount` what a refund paid."""

    id: str
    player: str
    target: str
    source: str | None = None
    value: int = 0
    state: TicketState = "issued"
    event: str | None = None
    amount: int = 0
    note: str = ""


class ListedEvent(Protocol):
    """An event of the room's directory, as a ticket reads it."""

    @property
    def kind(self) -> str: ...
    @property
    def target(self) -> str | None: ...


class Directory(Protocol):
    """What the players and tickets ask of the room (kiosk.core.room.room.Room): its events,
    and a way to emit their own events."""

    def event(self, name: str) -> ListedEvent: ...
    def taking(self, name: str, what: str) -> ListedEvent: ...
    def emit(self, ev: Event) -> None: ...


@dataclass(eq=False)
class RoomPlayers:
    """The players known to the room, their cards, and the tickets issued to them."""

    room: Directory = field(repr=False)
    players: dict[str, PlayerRecord] = field(default_factory=dict)
    by_card: dict[str, str] = field(default_factory=dict)
    tickets: dict[str, Ticket] = field(default_factory=dict)

    # ---------------------------------------------------------------- reading
    def player(self, pid: str) -> PlayerRecord:
        p = self.players.get(pid)
        if p is None:
            raise RuleError(M_("player.not_in_room", "no player '{player}' in the room",
                               player=pid))
        return p

    def ticket(self, tid: str) -> Ticket:
        tk = self.tickets.get(tid)
        if tk is None:
            raise RuleError(M_("ticket.not_in_room", "no ticket '{ticket}' in the room",
                               ticket=tid))
        return tk

    def find_player(self, card: str | None = None, name: str | None = None
                    ) -> PlayerRecord | list[PlayerRecord] | None:
        """By card: the one player holding it (or None). By name: every player of that
        name, whatever its case (two people may share a name)."""
        if (card is None) == (name is None):
            raise RuleError(M_("player.find_by", "find a player by card or by name"))
        if card is not None:
            pid = self.by_card.get(card)
            return None if pid is None else self.players[pid]
        assert name is not None
        key = name.strip().casefold()
        return [p for p in self.players.values() if p.name.casefold() == key]

    def tickets_for(self, event: str) -> list[Ticket]:
        """Every ticket into `event`, in the order issued, whatever its state."""
        return [tk for tk in self.tickets.values() if tk.target == event]

    # ---------------------------------------------------------------- folding
    def _on_player_added(self, ev: re_.PlayerAdded) -> None:
        self.players[ev.player] = PlayerRecord(ev.player, ev.name, ev.card, ev.country,
                                               ev.language)
        if ev.card:
            self.by_card[ev.card] = ev.player

    def _on_player_updated(self, ev: re_.PlayerUpdated) -> None:
        p = self.players[ev.player]
        if p.card:
            self.by_card.pop(p.card, None)
        p.name, p.card, p.country = ev.name, ev.card, ev.country
        if ev.card:
            self.by_card[ev.card] = ev.player

    def _on_ticket_issued(self, ev: re_.TicketIssued) -> None:
        self.tickets[ev.ticket] = Ticket(ev.ticket, ev.player, ev.target, ev.source, ev.value)

    def _on_ticket_used(self, ev: re_.TicketUsed) -> None:
        tk = self.tickets[ev.ticket]
        tk.state, tk.event = "used", ev.event

    def _on_ticket_returned(self, ev: re_.TicketReturned) -> None:
        tk = self.tickets[ev.ticket]
        tk.state, tk.note = "returned", ev.note

    def _on_ticket_refunded(self, ev: re_.TicketRefunded) -> None:
        tk = self.tickets[ev.ticket]
        tk.state, tk.amount, tk.note = "refunded", ev.amount, ev.note

    # ---------------------------------------------------------------- deciding
    def _do_add_player(self, cmd: rc.AddPlayer, t: float) -> None:
        name = cmd.name.strip()
        if not name:
            raise RuleError(M_("player.needs_name", "a player needs a name"))
        self._card_free(cmd.card)
        self.room.emit(re_.PlayerAdded(t=t, player=f"r{len(self.players) + 1}", name=name,
                                       card=cmd.card, country=cmd.country.strip(),
                                       language=cmd.language, by=cmd.by))

    def _do_update_player(self, cmd: rc.UpdatePlayer, t: float) -> None:
        p = self.player(cmd.player)
        name = p.name if cmd.name is None else cmd.name.strip()
        card = p.card if cmd.card is None else (cmd.card or None)
        if not name:
            raise RuleError(M_("player.needs_name", "a player needs a name"))
        self._card_free(card, p.id)
        country = p.country if cmd.country is None else cmd.country.strip()
        if (name, card, country) == (p.name, p.card, p.country):
            raise RuleError(M_("player.unchanged", "player {player} ({name}) already reads so; "
                               "nothing to change", player=p.id, name=p.name))
        self.room.emit(re_.PlayerUpdated(t=t, player=p.id, name=name, card=card,
                                         country=country, by=cmd.by))

    def _card_free(self, card: str | None, owner: str | None = None) -> None:
        holder = self.by_card.get(card) if card else None
        if holder is not None and holder != owner:
            raise RuleError(M_("card.belongs_to", "card {card} belongs to {player} ({name})",
                               card=card, player=holder, name=self.players[holder].name))

    def _do_issue_ticket(self, cmd: rc.IssueTicket, t: float) -> None:
        p = self.player(cmd.player)
        self.room.taking(cmd.target, "tickets")
        if cmd.source is not None:
            sat = self.room.event(cmd.source)
            if sat.kind != "satellite":
                raise RuleError(M_("satellite.not_one", "{source} is {kind}, not a satellite: "
                                   "it wins no seats", source=cmd.source,
                                   kind=re_.A_TYPE[sat.kind]))
            if sat.target != cmd.target:
                raise RuleError(M_("satellite.feeds_other", "satellite {source} feeds {target}, "
                                   "not {target2}", source=cmd.source, target=sat.target,
                                   target2=cmd.target))
        self.room.emit(re_.TicketIssued(t=t, ticket=f"t{len(self.tickets) + 1}", player=p.id,
                                        source=cmd.source, target=cmd.target,
                                        value=cmd.value, by=cmd.by))

    def _do_use_ticket(self, cmd: rc.UseTicket, t: float) -> None:
        tk = self._unspent(cmd.ticket, M_("ticket.doing_used", "used"))
        event = cmd.event or tk.target
        if event != tk.target:
            raise RuleError(M_("ticket.other_event", "ticket {ticket} is a seat in {target}, not "
                               "in {event}", ticket=tk.id, target=tk.target, event=event))
        self.room.taking(event, "entries")
        self.room.emit(re_.TicketUsed(t=t, ticket=tk.id, event=event, by=cmd.by))

    def _do_return_ticket(self, cmd: rc.ReturnTicket, t: float) -> None:
        tk = self._unspent(cmd.ticket, M_("ticket.doing_returned", "given back"))
        self.room.emit(re_.TicketReturned(t=t, ticket=tk.id, by=cmd.by, note=cmd.note))

    def _do_refund_ticket(self, cmd: rc.RefundTicket, t: float) -> None:
        tk = self._unspent(cmd.ticket, M_("ticket.doing_refunded", "refunded"))
        amount = tk.value if cmd.amount is None else cmd.amount
        if amount > tk.value:
            raise RuleError(M_("ticket.refund_over", "ticket {ticket} is worth {value:money}; a "
                               "refund of {amount:money} is more than that", ticket=tk.id,
                               value=tk.value, amount=amount))
        self.room.emit(re_.TicketRefunded(t=t, ticket=tk.id, amount=amount, by=cmd.by,
                                          note=cmd.note))

    def _unspent(self, tid: str, doing: Msg) -> Ticket:
        """The ticket, if it is still to be used: each is used, given back or refunded
        once, and only one of those."""
        tk = self.ticket(tid)
        was = {"used": M_("ticket.was_used", "was used in {event}", event=tk.event),
               "returned": M_("ticket.was_returned", "was given back"),
               "refunded": M_("ticket.was_refunded", "was refunded")}
        if tk.state != "issued":
            raise RuleError(M_("ticket.spent", "ticket {ticket} {was}; it cannot be {doing}",
                               ticket=tk.id, was=was[tk.state], doing=doing))
        return tk
