"""Reservations and alternates as the director runs them: codes drawn, fullness read from
each event's tournament, confirmations registered at the desk, holds lapsed and
alternates called, each in one transaction with whatever it sets off.

The room's part (kiosk.core.room.reservations) keeps the list and its rules; this module reads
the events' tournaments the room cannot see (how many play, whether late registration is
open) and names what it found in the room's commands.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.model import commands as cmd_
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as rev
from kiosk.core.model.events import Event
from kiosk.core.room import reservations as rs
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.room_service import RoomService
from kiosk.director.centre.transactions import player_language

if TYPE_CHECKING:
    from kiosk.director.centre.event_aggregate import EventAggregate

log = logging.getLogger("kiosk.director")
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"    # no 0/O, 1/I: read aloud, typed at the desk
CODE_LENGTH = 8
OVER = ("finished", "archived")


def draw_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


class Bookings:
    """The director's side of the reservations: every change goes through `_run`.
    `hook` makes the service settle them before each write and send a full event's desk
    registrations to its alternates list."""

    def __init__(self, service: RoomService) -> None:
        self.service = service
        self.repo = service.repo
        self.tx = service.tx
        self.from_config = {e.name: e.reservations for e in service.config.events
                            if e.reservations is not None}
        self.confirming: str | None = None    # the player whose called re-entry is confirmed

    def hook(self) -> None:
        """Settle before every write, divert desk registrations: the service's hooks."""
        self.service.before_write.append(self.settle)
        self.tx.divert = self.divert

    @property
    def book(self) -> rs.Reservations:
        return self.repo.room.bookings

    def origin(self, address: str) -> str:
        """A digest of an address, so the log keeps no address and still counts them."""
        return hashlib.sha256(f"{self.service.config.name}|{address}".encode()).hexdigest()[:16]

    # ---------------------------------------------------------------- reading
    def tables_for(self, event: str) -> int | None:
        """The tables an event may take: its own and the pool's free ones (a room)."""
        if not self.repo.config.pool:
            return None
        return len(self.repo.room.tables_of(event)) + len(self.repo.room.free_tables())

    def free(self, event: str) -> int | None:
        desk = self.repo.events[event]
        return rs.free_seats(desk.tour, self.tables_for(event), self.book.held(event))

    def full(self, event: str) -> bool:
        """No seat to promise, or alternates waiting ahead of a newcomer."""
        free = self.free(event)
        waiting = any(not r.called for r in self.book.alternates(event))
        return waiting or (free is not None and free <= 0)

    def takes(self, event: str) -> bool:
        terms = self.book.terms.get(event)
        return terms is not None and terms.on

    # ---------------------------------------------------------------- acting
    def _run(self, step: Callable[[Batch], list[Event]]) -> list[Event]:
        batch = Batch()
        events = self.tx.atomic(batch, lambda: step(batch))
        self.service.commit(batch)
        return events

    def reserve(self, event: str, name: str, contact: str, address: str,
                language: str = "") -> rs.Reservation:
        """A seat asked for from a phone (in its language, kept for the player's slips);
        on the alternates list when the event is full."""
        self.repo.event(event)
        code = self._fresh_code()
        lang = player_language(language)
        self._run(lambda b: self.tx.room_only(rs.Reserve(
            event=event, code=code, name=name[:200], contact=contact[:200],
            alternate=self.full(event), origin=self.origin(address), language=lang), b))
        return self.book.codes[code]

    def _fresh_code(self) -> str:
        while (code := draw_code()) in self.book.codes:
            pass
        return code

    def divert(self, desk: EventAggregate, cmd: cmd_.Register | cmd_.Reenter,
               batch: Batch) -> list[Event] | None:
        """A desk registration, or a re-entry, into a full event that keeps alternates
        goes on its list, behind those waiting (None: the event takes it as usual)."""
        if not self.takes(desk.name):
            return None
        if isinstance(cmd, cmd_.Reenter):
            p = desk.tour.registry.player(cmd.player)
            if p.id == self.confirming:
                return None          # its turn came and the desk confirms it (`confirm`)
            called = [r for r in self.book.of(desk.name)
                      if r.reenter == p.id and r.state == "alternate" and r.called]
            if called:
                raise RuleError(M_("alternate.turn_come", "{name}'s turn has come: confirm "
                                   "the code {code} at the desk", name=p.name,
                                   code=called[0].code))
            if not self.full(desk.name):
                return None
            desk.tour.registry.reentry_stack(p, self.service.clock())   # may re-enter now
            name, reenter, language = p.name, p.id, p.language
        elif self.full(desk.name):
            name, reenter, language = cmd.name, None, player_language(cmd.language)
        else:
            return None
        return self.tx.room_only(rs.Reserve(event=desk.name, code=self._fresh_code(),
                                              name=name, alternate=True, source="desk",
                                              reenter=reenter, by=cmd.by,
                                              language=language), batch)

    def confirm(self, code: str, card: str | None, user: str | None,
                event: str | None = None) -> tuple[rs.Reservation, list[Event]]:
        """The cashier took the buy-in: the player registered (seated once play runs,
        his seat card printed) and the reservation confirmed, or nothing. For an event
        still scheduled (paid on Friday for Sunday) the buy-in becomes a ticket into it,
        used when the floor opens it: registered then, once, like a satellite's seat. A
        code confirmed already changes nothing."""
        res = self.book.confirmable(code, event)
        if res.state == "confirmed":
            return res, []

        def step(batch: Batch) -> list[Event]:
            desk = self.repo.event(res.event)
            if self.repo.room.events[res.event].state == "scheduled" and res.reenter is None:
                return self._paid_ahead(res, desk, card, user, batch)
            if res.reenter is not None:       # a busted player's re-entry, its turn come
                rid = self.confirming = res.reenter
                try:
                    events = self.tx.event(desk, cmd_.Reenter(player=rid, by=user), batch)
                finally:
                    self.confirming = None
            else:
                rid = self.tx.room_player(res.name, card, "", batch, language=res.language)
                events = self.tx.event(desk, cmd_.Register(name=res.name, card=card,
                                                             player=rid, by=user,
                                                             language=res.language), batch)
            return events + self.tx.room_only(
                rs.ConfirmReservation(code=res.code, player=rid, by=user), batch)

        return res, self._run(step)

    def _paid_ahead(self, res: rs.Reservation, desk: EventAggregate, card: str | None,
                    user: str | None, batch: Batch) -> list[Event]:
        """The entry's price taken before the event opens: a ticket worth it, held for
        the event (refundable at the room page until used), and the reservation
        confirmed with it. Nothing is registered yet, so the pool counts it once: when
        the ticket is used."""
        rid = self.tx.room_player(res.name, card, "", batch, language=res.language)
        issued = self.tx.room_only(rc.IssueTicket(player=rid, target=res.event,
                                                  value=desk.tour.prize.entry_price,
                                                  by=user), batch)
        ticket = next(e.ticket for e in issued if isinstance(e, rev.TicketIssued))
        return issued + self.tx.room_only(
            rs.ConfirmReservation(code=res.code, player=rid, ticket=ticket, by=user), batch)

    def cancel(self, code: str, event: str | None, by: str | None, why: str) -> rs.Reservation:
        res = self.book.get(code, event)
        self._run(lambda b: self.tx.room_only(
            rs.CancelReservation(code=res.code, why=why, by=by), b))
        return res

    def set_terms(self, cmd: rs.SetReservations) -> list[Event]:
        return self._run(lambda b: self.tx.room_only(cmd, b))

    # ---------------------------------------------------------------- settling
    def settle(self, batch: Batch) -> None:
        """Before a batch is written: the terms the room file sets, holds that passed and
        alternates to call as seats opened, each step taken whole or not at all."""
        for event, terms in self.from_config.items():
            if event in self.repo.room.events and event not in self.book.terms:
                self._step(batch, rs.SetReservations(event=event, **terms))
        for event in [e for e, terms in self.book.terms.items() if terms.on]:
            if event in self.repo.events and self.book.open_count(event):
                self._settle_event(event, batch)

    def _settle_event(self, event: str, batch: Batch) -> None:
        tour = self.repo.events[event].tour
        t = self.service.now()
        late = rs.late_reg_still_open(tour, t) and self.repo.room.events[event].state not in OVER
        reserved = any(r.state == "reserved" for r in self.book.of(event))
        if not late:
            self._step(batch, rs.LapseReservations(event=event, alternates=True,
                                                   why="late registration closed"))
            return
        if reserved and rs.hold_passed(self.book.terms[event].hold, tour, t):
            self._step(batch, rs.LapseReservations(event=event,
                                                   why="not confirmed in time"))
        while any(not r.called for r in self.book.alternates(event)) \
                and (self.free(event) or 0) > 0:
            if not self._step(batch, rs.CallAlternate(event=event)):
                break

    def _step(self, batch: Batch, cmd: rc.RoomCommand) -> bool:
        try:
            self.tx.atomic(batch, lambda: self.tx.room_only(cmd, batch))
        except RuleError as exc:
            log.warning("%s refused: %s", cmd.kind, exc)
            return False
        return True

    # ---------------------------------------------------------------- views
    def public(self, event: str) -> dict[str, Any]:
        """What a phone may see of an event's reservations: the terms and the alternates'
        names and positions, and who is called."""
        terms = self.book.terms.get(event, rs.Terms())
        alternates = self.book.alternates(event)
        return {"event": event, "reservations": terms.on, "contact": terms.contact,
                "full": self.full(event) if event in self.repo.events else False,
                "alternates": [{"position": i, "name": r.name, "called": r.called}
                               for i, r in enumerate(alternates, 1)],
                "called": [{"position": i, "name": r.name}
                           for i, r in enumerate(alternates, 1) if r.called]}

    def status(self, res: rs.Reservation) -> dict[str, Any]:
        """One reservation, as its holder's phone reads it."""
        table = seat = None
        if res.player is not None and res.event in self.repo.events:
            p = self.repo.events[res.event].tour.players.get(res.player)
            if p is not None:
                table, seat = p.table, p.seat
        return {"code": res.code, "event": res.event, "name": res.name, "state": res.state,
                "position": self.book.position(res), "called": res.called,
                "table": table, "seat": seat, "note": self.note(res),
                "url": f"/p/{res.event}/reservation/{res.code}"}

    def note(self, res: rs.Reservation) -> str:
        """An entry paid before its event opened: what it waits for, in a line for the
        desk and the phone ("" otherwise)."""
        if not self.book.paid_ahead(res):
            return ""
        title = self.repo.room.events[res.event].title
        return f"Paid, entered when {title} opens; the seat is drawn when play starts"

    def desk_view(self, event: str) -> dict[str, Any]:
        """The desk's list: every reservation still open, with its code."""
        return {**self.public(event), "terms": vars(self.book.terms.get(event, rs.Terms())),
                "free": self.free(event) if event in self.repo.events else None,
                "open": [{**self.status(r), "contact": r.contact, "source": r.source}
                         for r in self.book.of(event) if r.state in rs.OPEN]}
