"""The room's reservation events: seats asked for from a phone (or the desk, when an event
is full) and what became of each. They are rows of the room's stream, folded by
kiosk.core.room.reservations.Reservations beside the players and tickets."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from kiosk.core.model.bounds import Count, Ident, Lang, Name, Text
from kiosk.core.model.event_base import Event

Code = Annotated[str, Meta(pattern=r"^[A-Z0-9]{4,12}$")]
Hold = Annotated[str, Meta(pattern=r"^(late_reg|start|level-\d{1,3})$")]
Contact = Literal["none", "phone", "email", "either"]
Source = Literal["phone", "desk"]
Ending = Literal["lapsed", "cancelled"]


class ReservationsSet(Event, tag="reservations_set", kw_only=True):
    """Whether `event` takes reservations, and on what terms: at most `per_day` a day
    (0: no cap), `per_address` from one address, held until `hold` (late_reg: until late
    registration closes; start: until play starts; level-3: until level 3 ends), and the
    contact the form asks for."""

    event: Ident
    on: bool
    per_day: Count = 0
    per_address: Count = 3
    hold: Hold = "late_reg"
    contact: Contact = "none"
    by: Name | None = None


class ReservationMade(Event, tag="reservation_made", kw_only=True):
    """A seat asked for: `alternate` when the event was full then (in order of asking).
    `origin` is a digest of the asking address, never the address itself."""

    event: Ident
    code: Code
    name: Name
    contact: Name = ""
    alternate: bool = False
    source: Source = "phone"
    origin: Annotated[str, Meta(max_length=32)] = ""
    reenter: Ident | None = None    # a busted player's re-entry, waiting for a seat
    by: Name | None = None
    language: Lang = ""             # the phone's, for the player's slips ("": the room's)


class ReservationConfirmed(Event, tag="reservation_confirmed", kw_only=True):
    """The cashier took the buy-in: `player` (the room's record) is registered, or, for
    an event still scheduled, holds `ticket`, used (registered) when the floor opens it."""

    code: Code
    player: Ident
    ticket: Ident | None = None
    by: Name | None = None


class ReservationEnded(Event, tag="reservation_ended", kw_only=True):
    """Lapsed (not confirmed in time) or cancelled (by the player's code, or the desk)."""

    code: Code
    state: Ending
    why: Text = ""
    by: Name | None = None


class AlternateCalled(Event, tag="alternate_called", kw_only=True):
    """A seat opened: the first alternate waiting is called to the desk."""

    code: Code
    event: Ident


RESERVATION_EVENTS: tuple[type[Event], ...] = (
    ReservationsSet, ReservationMade, ReservationConfirmed, ReservationEnded,
    AlternateCalled)
