"""Reservations and alternates: a seat asked for from a phone, held until the cashier
takes the buy-in, and the list of alternates when an event is full.

A part of the room (kiosk.core.room.room.Room), beside its players and tickets: it folds the
events of kiosk.core.model.reservation_events and decides the commands below. Whether an event
is full, whether its hold has passed and which seats opened are read from the event's
tournament by the director, which names them in its commands; this part only keeps the
list and its rules (caps, codes, order), so a replay of the room's stream rebuilds it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_
from kiosk.core.model import reservation_events as rv
from kiosk.core.model import room_commands as rc
from kiosk.core.model.bounds import Count, Ident, Lang, Name, Text
from kiosk.core.model.registration import late_reg_open
from kiosk.core.model.state import IN_PLAY, WAITING

if TYPE_CHECKING:
    from kiosk.core.event.tournament import Tournament
    from kiosk.core.model.event_base import Event
    from kiosk.core.room.players import RoomPlayers


class Bookable(Protocol):
    """What the reservations ask of the room (kiosk.core.room.room.Room): an event taking
    entries, the players it knows, and a way to emit their own events."""

    people: RoomPlayers

    def taking(self, name: str, what: str) -> Any: ...   # the room's EventInfo
    def emit(self, ev: Event) -> None: ...

State = Literal["reserved", "alternate", "confirmed", "lapsed", "cancelled"]
# a reservation's state, as a refusal names it
STATE_WORDS = {"reserved": M_("reservation.state_reserved", "reserved"),
               "alternate": M_("reservation.state_alternate", "alternate"),
               "confirmed": M_("reservation.state_confirmed", "confirmed"),
               "lapsed": M_("reservation.state_lapsed", "lapsed"),
               "cancelled": M_("reservation.state_cancelled", "cancelled")}
OPEN: tuple[State, ...] = ("reserved", "alternate")
MAX_NAME = 60
CODE_RE = re.compile(r"^[A-Z0-9]{4,12}$")
PHONE_RE = re.compile(r"^\+?[0-9][0-9 ().-]{5,22}$")
EMAIL_RE = re.compile(r"^[^@\s<>]{1,64}@[^@\s<>]{1,190}\.[A-Za-z]{2,24}$")
DAY = 86400.0


# ------------------------------------------------------------------ commands
class SetReservations(rc.RoomCommand, tag="set_reservations", kw_only=True):
    event: Ident
    on: bool = True
    per_day: Count = 0
    per_address: Count = 3
    hold: rv.Hold = "late_reg"
    contact: rv.Contact = "none"


class Reserve(rc.RoomCommand, tag="reserve", kw_only=True):
    """A seat asked for; `alternate` when the director found the event full; `code` drawn
    by the director (the core draws nothing)."""

    event: Ident
    code: rv.Code
    name: Name
    contact: Name = ""
    alternate: bool = False
    source: rv.Source = "phone"
    origin: Name = ""
    reenter: Ident | None = None    # the event's player whose re-entry waits (the desk's)
    language: Lang = ""             # the phone's, for the player's slips ("": the room's)


class ConfirmReservation(rc.RoomCommand, tag="confirm_reservation", kw_only=True):
    """The cashier took the buy-in; `player` is the room's record the director registered
    (from the dashboard only the code is sent), or, for a scheduled event, the holder of
    `ticket`, the paid entry used when the event opens."""

    code: Name
    card: Ident | None = None
    player: Ident | None = None
    ticket: Ident | None = None


class CancelReservation(rc.RoomCommand, tag="cancel_reservation", kw_only=True):
    code: Name
    why: Text = ""


class LapseReservations(rc.RoomCommand, tag="lapse_reservations", kw_only=True):
    """The hold has passed: every reservation still unconfirmed lapses (and the
    alternates too, with `alternates`: late registration closed)."""

    event: Ident
    alternates: bool = False
    why: Text = ""


class CallAlternate(rc.RoomCommand, tag="call_alternate", kw_only=True):
    event: Ident


rc.declare(SetReservations, Reserve, ConfirmReservation, CancelReservation,
           LapseReservations, CallAlternate)


class NoSuchCode(RuleError):
    """A code nobody holds, or one already used up: the public pages answer 404."""


@dataclass
class Terms:
    """An event's reservation settings, as last set."""

    on: bool = False
    per_day: int = 0
    per_address: int = 3
    hold: str = "late_reg"
    contact: str = "none"


@dataclass
class Reservation:
    code: str
    event: str
    name: str
    state: State
    t: float
    contact: str = ""
    source: str = "phone"
    origin: str = ""
    called: bool = False
    player: str | None = None
    why: str = ""
    reenter: str | None = None      # confirmed as this player's re-entry, not an entry
    ticket: str | None = None       # paid before the event opened: the entry it holds
    language: str = ""              # the phone's, kept for the player's slips


def clean_name(text: str) -> str:
    """A person's name as the form may give it: text only, one line, 1-60 characters,
    at least one letter; RuleError saying which rule it breaks."""
    name = " ".join(text.split())
    if not name:
        raise RuleError(M_("reservation.needs_name", "a reservation needs a name"))
    if len(name) > MAX_NAME:
        raise RuleError(M_("reservation.name_long", "a name is at most {most} characters",
                           most=MAX_NAME))
    if any(unicodedata.category(c).startswith("C") or c in "<>{}\\" for c in name):
        raise RuleError(M_("reservation.name_plain", "a name is plain text: no control characters "
                           "or markup"))
    if not any(c.isalpha() for c in name):
        raise RuleError(M_("reservation.name_letter", "a name needs at least one letter"))
    return name


def check_contact(asked: str, text: str) -> str:
    """The phone or e-mail the room asks for, if it asks; RuleError when it does not fit."""
    text = text.strip()
    phone, email = bool(PHONE_RE.match(text)), bool(EMAIL_RE.match(text))
    if asked == "none":
        return ""
    wanted = {"phone": (phone, M_("reservation.asks_phone", "this room asks for a phone "
                                  "number")),
              "email": (email, M_("reservation.asks_email", "this room asks for an e-mail "
                                  "address")),
              "either": (phone or email, M_("reservation.asks_either", "this room asks for a "
                                            "phone number or an e-mail address"))}[asked]
    if not wanted[0]:
        raise RuleError(wanted[1])
    return text


def hold_passed(hold: str, tour: Tournament, t: float) -> bool:
    """Whether unconfirmed reservations of this event lapse now: late registration has
    closed (late_reg), play has started (start), or level N is over (level-N)."""
    if hold == "late_reg":
        return not late_reg_still_open(tour, t)
    if not tour.started or hold == "start":
        return tour.started
    period = tour.levels.clock.read(tour.structure, t).period
    return period > tour.structure.index_of_level(int(hold.removeprefix("level-")))


def late_reg_still_open(tour: Tournament, t: float) -> bool:
    period = tour.levels.clock.read(tour.structure, t).period
    return tour.finished_at is None and late_reg_open(tour.profile.late_reg, tour.structure,
                                                      period, tour.levels.started)


def playing(tour: Tournament) -> int:
    """Players who hold or wait for a seat (registered, not out)."""
    return sum(1 for p in tour.players.values() if p.status in (WAITING, *IN_PLAY))


def free_seats(tour: Tournament, tables: int | None, held: int) -> int | None:
    """Seats still to give (None: no limit): the stacks left to sell, and the seats of
    the tables the event may take (`max_tables`, else `tables`), less those playing and
    those held for reservations and called alternates."""
    limits = []
    if tour.max_entries is not None:
        limits.append(tour.max_entries - tour.entries - held)
    if tour.max_tables is not None:
        tables = tour.max_tables if tables is None else min(tables, tour.max_tables)
    if tables is not None:
        limits.append(tables * tour.seats - playing(tour) - held)
    return min(limits) if limits else None


@dataclass(eq=False)
class Reservations:
    """Every reservation of the room, in the order made, and each event's terms."""

    room: Bookable = field(repr=False)
    terms: dict[str, Terms] = field(default_factory=dict)
    codes: dict[str, Reservation] = field(default_factory=dict)

    # ---------------------------------------------------------------- reading
    def get(self, code: str, event: str | None = None) -> Reservation:
        res = self.codes.get(code.strip().upper().replace("-", ""))
        if res is None or (event is not None and res.event != event):
            raise NoSuchCode(M_("reservation.no_code_for", "no reservation with the code "
                                "'{code}' for {event}", code=code, event=event) if event else
                             M_("reservation.no_code", "no reservation with the code '{code}'",
                                code=code))
        return res

    def of(self, event: str) -> list[Reservation]:
        return [r for r in self.codes.values() if r.event == event]

    def alternates(self, event: str) -> list[Reservation]:
        """The alternates still waiting for `event`, first called first."""
        return [r for r in self.codes.values() if r.event == event and r.state == "alternate"]

    def position(self, res: Reservation) -> int | None:
        if res.state != "alternate":
            return None
        return next(i for i, r in enumerate(self.alternates(res.event), 1) if r is res)

    def held(self, event: str) -> int:
        """Seats promised and not yet taken: reservations, alternates called, and entries
        paid for before the event opened (their tickets not used yet)."""
        return sum(1 for r in self.codes.values() if r.event == event and
                   (r.state == "reserved" or (r.state == "alternate" and r.called)
                    or self.paid_ahead(r)))

    def paid_ahead(self, res: Reservation) -> bool:
        """Confirmed and paid before its event opened, and not registered there yet."""
        tickets = self.room.people.tickets
        return res.state == "confirmed" and res.ticket is not None \
            and res.ticket in tickets and tickets[res.ticket].state == "issued"

    def open_count(self, event: str) -> int:
        return sum(1 for r in self.codes.values() if r.event == event and r.state in OPEN)

    # ---------------------------------------------------------------- folding
    def _on_reservations_set(self, ev: rv.ReservationsSet) -> None:
        self.terms[ev.event] = Terms(ev.on, ev.per_day, ev.per_address, ev.hold, ev.contact)

    def _on_reservation_made(self, ev: rv.ReservationMade) -> None:
        self.codes[ev.code] = Reservation(ev.code, ev.event, ev.name,
                                          "alternate" if ev.alternate else "reserved", ev.t,
                                          ev.contact, ev.source, ev.origin,
                                          reenter=ev.reenter, language=ev.language)

    def _on_reservation_confirmed(self, ev: rv.ReservationConfirmed) -> None:
        res = self.codes[ev.code]
        res.state, res.player, res.ticket = "confirmed", ev.player, ev.ticket

    def _on_reservation_ended(self, ev: rv.ReservationEnded) -> None:
        res = self.codes[ev.code]
        res.state, res.why = ev.state, ev.why

    def _on_alternate_called(self, ev: rv.AlternateCalled) -> None:
        self.codes[ev.code].called = True

    # ---------------------------------------------------------------- deciding
    def _do_set_reservations(self, cmd: SetReservations, t: float) -> None:
        self.room.taking(cmd.event, "reservations")
        was = self.terms.get(cmd.event, Terms())
        now = Terms(cmd.on, cmd.per_day, cmd.per_address, cmd.hold, cmd.contact)
        if now == was:
            raise RuleError(M_("reservation.terms_same", "{event} already takes reservations "
                               "so", event=cmd.event) if cmd.on else
                            M_("reservation.terms_off", "{event} already takes no "
                               "reservations", event=cmd.event))
        self.room.emit(rv.ReservationsSet(t=t, event=cmd.event, on=cmd.on,
                                           per_day=cmd.per_day, per_address=cmd.per_address,
                                           hold=cmd.hold, contact=cmd.contact, by=cmd.by))

    def _do_reserve(self, cmd: Reserve, t: float) -> None:
        info = self.room.taking(cmd.event, "reservations")
        terms = self.terms.get(cmd.event, Terms())
        if not terms.on:
            raise RuleError(M_("reservation.none_here", "{title} takes no reservations: register "
                               "at the desk", title=info.title))
        name = clean_name(cmd.name)
        contact = check_contact(terms.contact, cmd.contact) if cmd.source == "phone" \
            else cmd.contact.strip()
        if cmd.code in self.codes:
            raise RuleError(M_("reservation.code_taken", "the code {code} is taken; draw another",
                               code=cmd.code))
        if cmd.source == "phone":
            self._check_caps(cmd, terms, t)
        if cmd.reenter is not None and (cmd.source != "desk" or not cmd.alternate):
            raise RuleError(M_("alternate.desk_only", "only the desk puts a re-entry on the "
                               "alternates list"))
        if cmd.reenter is not None and any(r.reenter == cmd.reenter and r.state in OPEN
                                           for r in self.of(cmd.event)):
            raise RuleError(M_("alternate.already", "{name}'s re-entry is on the alternates list "
                               "already", name=name))
        self.room.emit(rv.ReservationMade(t=t, event=cmd.event, code=cmd.code, name=name,
                                           contact=contact, alternate=cmd.alternate,
                                           source=cmd.source, origin=cmd.origin,
                                           reenter=cmd.reenter, by=cmd.by,
                                           language=cmd.language))

    def _check_caps(self, cmd: Reserve, terms: Terms, t: float) -> None:
        mine = [r for r in self.of(cmd.event) if r.source == "phone"]
        if terms.per_day and sum(1 for r in mine if r.t // DAY == t // DAY) >= terms.per_day:
            raise RuleError(Mn_("reservation.day_full", "today's {n} reservation is taken: "
                                "register at the desk", "today's {n} reservations are all "
                                "taken: register at the desk", terms.per_day))
        if cmd.origin and terms.per_address and \
                sum(1 for r in mine if r.origin == cmd.origin) >= terms.per_address:
            raise RuleError(Mn_("reservation.address_full", "at most {n} reservation from one "
                                "address: ask at the desk", "at most {n} reservations from one "
                                "address: ask at the desk", terms.per_address))

    def confirmable(self, code: str, event: str | None = None) -> Reservation:
        """The reservation the desk may confirm now; RuleError (NoSuchCode) why not. A
        confirmed one is returned as is: confirming twice changes nothing."""
        res = self.get(code, event)
        if res.state in ("lapsed", "cancelled"):
            raise NoSuchCode(M_("reservation.code_over", "the code {code} was {state}: it "
                                "holds no seat any more", code=res.code,
                                state=STATE_WORDS[res.state]))
        if res.state == "alternate" and not res.called:
            ahead = self.position(res)
            raise RuleError(M_("alternate.not_called", "{name} is alternate {ahead} and not "
                               "called yet: alternates are called in order as seats open",
                               name=res.name, ahead=ahead))
        return res

    def _do_confirm_reservation(self, cmd: ConfirmReservation, t: float) -> None:
        res = self.confirmable(cmd.code)
        if res.state == "confirmed":
            return
        if cmd.player is None:
            raise RuleError(M_("reservation.confirm_player", "a confirmation names the player "
                               "registered"))
        self.room.people.player(cmd.player)
        if cmd.ticket is not None:
            tk = self.room.people.ticket(cmd.ticket)
            if (tk.player, tk.target) != (cmd.player, res.event):
                raise RuleError(M_("reservation.other_ticket", "ticket {ticket} is not {name}'s "
                                   "entry into {event}", ticket=tk.id, name=res.name,
                                   event=res.event))
        self.room.emit(rv.ReservationConfirmed(t=t, code=res.code, player=cmd.player,
                                                ticket=cmd.ticket, by=cmd.by))

    def _do_cancel_reservation(self, cmd: CancelReservation, t: float) -> None:
        res = self.get(cmd.code)
        if res.state not in OPEN:
            raise NoSuchCode(M_("reservation.code_state", "the code {code} is already {state}",
                                code=res.code, state=STATE_WORDS[res.state]))
        self.room.emit(rv.ReservationEnded(t=t, code=res.code, state="cancelled",
                                            why=cmd.why, by=cmd.by))

    def _do_lapse_reservations(self, cmd: LapseReservations, t: float) -> None:
        states = OPEN if cmd.alternates else ("reserved",)
        due = [r for r in self.of(cmd.event) if r.state in states]
        if not due:
            raise RuleError(M_("reservation.none_to_lapse", "{event} has no reservation to lapse",
                               event=cmd.event))
        for res in due:
            self.room.emit(rv.ReservationEnded(t=t, code=res.code, state="lapsed",
                                                why=cmd.why, by=cmd.by))

    def _do_call_alternate(self, cmd: CallAlternate, t: float) -> None:
        waiting = [r for r in self.alternates(cmd.event) if not r.called]
        if not waiting:
            raise RuleError(M_("alternate.none", "{event} has no alternate waiting",
                               event=cmd.event))
        self.room.emit(rv.AlternateCalled(t=t, code=waiting[0].code, event=cmd.event))
