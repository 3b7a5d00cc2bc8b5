"""Every command the room decides, declared: one class per kind, tagged by `kind`.

Room commands come from the dashboard and the CLI (and from the director itself, when a
satellite's places become tickets). They are decoded once at the edge, like the
tournament's (kiosk.core.model.commands), and their kinds never clash with the tournament's, so
an edge can tell by the kind alone which aggregate decides a command.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from kiosk.base.texts import M_
from kiosk.core.model.bounds import Ident, Lang, Money, Name, TableNo, Text
from kiosk.core.model.commands import CommandError
from kiosk.core.model.event_base import Record
from kiosk.core.model.room_events import EventState, EventType, Flights, Tables


class RoomCommand(Record, tag_field="kind", kw_only=True):
    """Base of every room command: who gave it (floor staff), when one is named."""

    by: Name | None = None
    kind: ClassVar[str] = ""


class ProvisionTables(RoomCommand, tag="provision_tables", kw_only=True):
    tables: Tables


class AddEvent(RoomCommand, tag="add_event", kw_only=True):
    """A new event in the directory, `scheduled`; `tables` are assigned to it at once.
    `type` is the event's kind (event, satellite, flight, day2); see EventAdded."""

    event: Ident
    title: Name = ""
    type: EventType = "event"
    target: Ident | None = None
    flights: Flights = []
    created: dict[str, Any]
    tables: Tables = []


class SetEventState(RoomCommand, tag="set_event_state", kw_only=True):
    event: Ident
    state: EventState


class AssignTable(RoomCommand, tag="assign_table", kw_only=True):
    table: TableNo
    event: Ident


class FreeTable(RoomCommand, tag="free_table", kw_only=True):
    table: TableNo
    why: Text = ""


class AddPlayer(RoomCommand, tag="add_player", kw_only=True):
    name: Name
    card: Ident | None = None
    country: Name = ""
    language: Lang = ""       # the player's own, for their slips ("": the room's)


class UpdatePlayer(RoomCommand, tag="update_player", kw_only=True):
    """Change a player's record; only the fields given change (card "" removes the card)."""

    player: Ident
    name: Name | None = None
    card: Name | None = None
    country: Name | None = None


class IssueTicket(RoomCommand, tag="issue_ticket", kw_only=True):
    player: Ident
    target: Ident
    source: Ident | None = None
    value: Money = 0


class UseTicket(RoomCommand, tag="use_ticket", kw_only=True):
    """Spend a ticket on an entry; `event` defaults to the ticket's target."""

    ticket: Ident
    event: Ident | None = None


class ReturnTicket(RoomCommand, tag="return_ticket", kw_only=True):
    ticket: Ident
    note: Text = ""


class RefundTicket(RoomCommand, tag="refund_ticket", kw_only=True):
    """Pay a ticket out; `amount` defaults to its value and cannot exceed it."""

    ticket: Ident
    amount: Money | None = None
    note: Text = ""


def _declared() -> dict[str, type[RoomCommand]]:
    out: dict[str, type[RoomCommand]] = {}
    for cls in RoomCommand.__subclasses__():
        cls.kind = str(cls.__struct_config__.tag)
        out[cls.kind] = cls
    return out


ROOM_COMMANDS = _declared()
_DECODERS = {cls: msgspec.json.Decoder(cls) for cls in ROOM_COMMANDS.values()}


def declare(*classes: type[RoomCommand]) -> None:
    """Room commands declared in a module of their own (a part of the room beside these):
    decoded like the ones above."""
    for cls in classes:
        cls.kind = str(cls.__struct_config__.tag)
        ROOM_COMMANDS[cls.kind] = cls
        _DECODERS[cls] = msgspec.json.Decoder(cls)


def decode(raw: dict[str, Any] | RoomCommand) -> RoomCommand:
    """The room command `raw` declares, checked against its schema; CommandError (a
    RuleError) if it does not fit, naming the kind and the reason."""
    if isinstance(raw, RoomCommand):
        return raw
    kind = raw.get("kind") if isinstance(raw, dict) else None
    cls = ROOM_COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CommandError(M_("command.unknown_room", "unknown room command {kind}",
                              kind=repr(kind)))
    try:
        return _DECODERS[cls].decode(msgspec.json.encode(raw))
    except (msgspec.ValidationError, TypeError) as exc:
        raise CommandError(M_("command.bad", "bad {kind} command: {why}", kind=kind,
                              why=exc)) from None
