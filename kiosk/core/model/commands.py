"""Every command the tournament decides, declared: one class per kind, tagged by `kind`.

Commands come from tables (reports), the dashboard, the CLI and the director's clock.
Each edge decodes what it received once, with `decode`, so a command that does not fit
its schema is refused there with a reason and never reaches the core; the core then
dispatches on the class, not on a name. Checks that need the state (is this player
seated, is that table in play) stay with the decisions.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.model import room_events
from kiosk.core.model.bounds import Chips, Ident, Lang, Money, Name, SeatNo, TableNo, Text
from kiosk.core.model.events import Record
from kiosk.core.model.report_data import (
    AddonData,
    AllInData,
    BustData,
    CallData,
    CheckinData,
    ChipCountData,
    ChipRaceData,
    ClockDoneData,
    FloorCallData,
    HandEndedData,
    HandStartedData,
    SeatData,
    ShotClockOutData,
    TimeBankData,
    UndoData,
)
from kiosk.core.model.stall_events import Applies, Level

Eliminators = SeatNo | Annotated[list[SeatNo], Meta(min_length=1, max_length=9)] | None


class CommandError(RuleError):
    """A command that does not fit its schema; str(exc) says why."""


# ---------------------------------------------------------------- table reports
class TableReport(Record, tag_field="kind", kw_only=True):
    """What the core reads of a table's report (the wire adds version, sequence, time)."""

    table: TableNo
    id: Ident
    kind: ClassVar[str] = ""


class HandStartedReport(TableReport, tag="hand_started", kw_only=True):
    data: HandStartedData


class HandEndedReport(TableReport, tag="hand_ended", kw_only=True):
    data: HandEndedData


class AllInReport(TableReport, tag="all_in", kw_only=True):
    data: AllInData


class BustReport(TableReport, tag="bust", kw_only=True):
    data: BustData


class ClockCallReport(TableReport, tag="clock_call", kw_only=True):
    data: SeatData


class ClockDoneReport(TableReport, tag="clock_done", kw_only=True):
    data: ClockDoneData


class FloorCallReport(TableReport, tag="floor_call", kw_only=True):
    data: FloorCallData


class FloorCancelReport(TableReport, tag="floor_cancel", kw_only=True):
    data: CallData


class CheckinReport(TableReport, tag="checkin", kw_only=True):
    data: CheckinData


class AbsentReport(TableReport, tag="absent", kw_only=True):
    data: SeatData


class PresentReport(TableReport, tag="present", kw_only=True):
    data: SeatData


class UndoReport(TableReport, tag="undo", kw_only=True):
    data: UndoData


class ChipCountReport(TableReport, tag="chip_count", kw_only=True):
    data: ChipCountData


class AddonReport(TableReport, tag="addon", kw_only=True):
    data: AddonData


class ChipRaceReport(TableReport, tag="chip_race", kw_only=True):
    data: ChipRaceData


class TimeBankReport(TableReport, tag="time_bank", kw_only=True):
    data: TimeBankData


class ShotClockOutReport(TableReport, tag="shot_clock_out", kw_only=True):
    data: ShotClockOutData


AnyTableReport = (HandStartedReport | HandEndedReport | AllInReport | BustReport
                  | ClockCallReport | ClockDoneReport | FloorCallReport | FloorCancelReport
                  | CheckinReport | AbsentReport | PresentReport | UndoReport
                  | ChipCountReport | AddonReport | ChipRaceReport | TimeBankReport
                  | ShotClockOutReport)


# ---------------------------------------------------------------- commands
class Command(Record, tag_field="kind", kw_only=True):
    """Base of every command: who gave it (floor staff), when one is named."""

    by: Name | None = None
    kind: ClassVar[str] = ""


class Report(Command, tag="report", kw_only=True):
    """A table's report; `table` is where it came from (it must match the report's own)."""

    report: AnyTableReport
    table: TableNo | None = None


class Register(Command, tag="register", kw_only=True):
    name: Name = ""
    card: Ident | None = None
    player: Ident | None = None
    country: Name = ""
    language: Lang = ""       # the player's own, for their slips ("": the room's)


class Start(Command, tag="start", kw_only=True):
    """`ready`: the decks are prepared already, so the first level runs at once rather
    than after the profile's "prepare your decks" minute (TDA 2024 RP-20)."""

    ready: bool = False


class SeatWaiting(Command, tag="seat_waiting", kw_only=True):
    pass


class Tick(Command, tag="tick", kw_only=True):
    """The director's clock: time-driven decisions (levels, timed penalties, locks)."""


class FloorAck(Command, tag="floor_ack", kw_only=True):
    call: Ident


class FloorResolve(Command, tag="floor_resolve", kw_only=True):
    call: Ident
    note: Text = ""


class TableNote(Command, tag="table_note", kw_only=True):
    """The floor's note for a table, handed from each dealer to the next (TDA 2024
    RP-15A); an empty note clears it."""

    table: TableNo
    note: Annotated[str, Meta(max_length=200)] = ""


class ClockApprove(Command, tag="clock_approve", kw_only=True):
    call: Ident


class ClockCancel(Command, tag="clock_cancel", kw_only=True):
    call: Ident


class Move(Command, tag="move", kw_only=True):
    player: Ident
    table: TableNo
    seat: SeatNo | None = None


class Arrived(Command, tag="arrived", kw_only=True):
    player: Ident


class Bust(Command, tag="bust", kw_only=True):
    player: Ident
    stack: Chips | None = None
    eliminator: Eliminators = None
    rebuy: bool = False


class Unbust(Command, tag="unbust", kw_only=True):
    player: Ident


class Rebuy(Command, tag="rebuy", kw_only=True):
    player: Ident


class Reenter(Command, tag="reenter", kw_only=True):
    player: Ident


class Penalty(Command, tag="penalty", kw_only=True):
    player: Ident
    type: Ident
    amount: Annotated[int, Meta(ge=0, le=1000)] = 1


class BreakTable(Command, tag="break_table", kw_only=True):
    table: TableNo


class HandForHand(Command, tag="h4h", kw_only=True):
    on: bool


class SetShotClock(Command, tag="shot_clock", kw_only=True):
    """Where the event's shot clock runs from now on: the whole event, from level
    `from_level` on, the final table only, or nowhere (off)."""

    applies: Applies
    from_level: Level = 1


class OrbitForOrbit(Command, tag="orbit", kw_only=True):
    """Orbit for orbit on or off: each table plays one orbit, then waits for the others."""

    on: bool


class ClockAction(Command, tag="clock", kw_only=True):
    """Pause, resume, add or set time, or jump to a period; the action is checked by the
    clock itself, which says which actions there are."""

    action: Name
    seconds: float | None = None
    period: int | None = None


class EndOfDay(Command, tag="end_of_day", kw_only=True):
    pass


class SetEliminator(Command, tag="set_eliminator", kw_only=True):
    player: Ident
    eliminators: Annotated[list[Ident], Meta(min_length=1, max_length=9)]


class Addon(Command, tag="addon", kw_only=True):
    player: Ident


class LockPayouts(Command, tag="lock_payouts", kw_only=True):
    pass


class PayoutRules(Command, tag="payout_rules", kw_only=True):
    """Choose the payout table; only the fields given change (a CSV sets shares)."""

    table: Name | None = None
    percent_paid: float | None = None
    rounding: Money | None = None
    guarantee: Money | None = None
    shares: list[int] | None = None
    csv: Annotated[str, Meta(max_length=100_000)] | None = None

    def changes(self) -> dict[str, Any]:
        keys = ("table", "percent_paid", "rounding", "guarantee", "shares")
        return {k: getattr(self, k) for k in keys if getattr(self, k) is not None}


class CountChips(Command, tag="count_chips", kw_only=True):
    label: Name = ""


class EndDay(Command, tag="end_day", kw_only=True):
    pass


class SetChipRace(Command, tag="set_chip_race", kw_only=True):
    """Who runs the colour-up races from now on (the director sends it when the event's
    config changed it); refused while a colour-up still has races to run."""

    chip_race: Literal["dealer", "draw"]
    source: Text = ""


class SetChipSet(Command, tag="set_chip_set", kw_only=True):
    """The denominations in play from now on (the director sends it when the event's
    config changed them); refused while a colour-up still has races to run, or when the
    new set would change the smallest chip on the tables without a colour-up."""

    chip_set: Annotated[list[Annotated[int, Meta(ge=1, le=10**13)]], Meta(max_length=20)]
    source: Text = ""


class SetH4hAtBubble(Command, tag="set_h4h_at_bubble", kw_only=True):
    """Whether hand-for-hand starts by itself at the bubble, from now on (from the
    event's config); refused while hand-for-hand runs."""

    on: bool
    source: Text = ""


class SetSatelliteLeftover(Command, tag="set_satellite_leftover", kw_only=True):
    """Who gets a satellite's cash after the last seat (from the event's config);
    refused once the payouts are locked."""

    leftover: Literal["next", "split"]
    source: Text = ""


class Bag(Command, tag="bag", kw_only=True):
    accept_difference: bool = False


class Redraw(Command, tag="redraw", kw_only=True):
    pass


class GrantTables(Command, tag="grant_tables", kw_only=True):
    """The room lends tables from its pool to this event (pool mode only)."""

    tables: Annotated[list[TableNo], Meta(min_length=1, max_length=10_000)]


class ReleaseTable(Command, tag="release_table", kw_only=True):
    """Give an empty or broken table back to the room's pool."""

    table: TableNo


class CarryEntrant(Record, kw_only=True):
    """A flight's survivor as a Day 2 takes him: the room's player id and his bag."""

    player: Ident
    name: Name
    card: Ident | None = None
    country: Name = ""
    stack: Annotated[int, Meta(ge=1, le=10**13)]
    flight: Ident
    language: Lang = ""       # the player's own, for the Day 2's slips ("": the room's)


class CarryPool(Record, kw_only=True):
    """A flight's prize pool carried into the Day 2, and its entries (the field size)."""

    flight: Ident
    amount: Money
    entries: Annotated[int, Meta(ge=0, le=10**7)] = 0


class CarryIn(Command, tag="carry_in", kw_only=True):
    """Build a Day 2 from its flights' survivors before it starts: registered with their
    bagged stacks, pools summed, a player who survived two flights kept once
    ("largest" stack, or the "first" flight's in the order of `pools`), then the draw
    ("random" as usual, or "stack": the biggest stacks spread over the tables)."""

    entrants: Annotated[list[CarryEntrant], Meta(min_length=1, max_length=100_000)]
    pools: Annotated[list[CarryPool], Meta(min_length=1, max_length=100)]
    keep: Literal["largest", "first"] = "largest"
    draw: Literal["random", "stack"] = "random"


class Deal(Command, tag="deal", kw_only=True):
    amounts: dict[Ident, Money]
    method: Name = ""


class SetBreakOrder(Command, tag="set_break_order", kw_only=True):
    """The floor's break order of sections (the far ballroom first): each a name and its
    tables, first to break first; an empty list: the profile's order alone."""

    sections: Annotated[list[room_events.Section], Meta(max_length=40)]


def _reports() -> dict[str, type[TableReport]]:
    """Every report kind, in the order declared (the protocol builds its wire classes,
    and docs/protocol.md its tables, from these)."""
    out: dict[str, type[TableReport]] = {}
    for cls in TableReport.__subclasses__():
        cls.kind = str(cls.__struct_config__.tag)
        out[cls.kind] = cls
    return out


def _declared() -> dict[str, type[Command]]:
    out: dict[str, type[Command]] = {}
    stack = list(Command.__subclasses__())
    while stack:
        cls = stack.pop()
        tag = cls.__struct_config__.tag
        assert isinstance(tag, str)
        cls.kind = tag
        out[tag] = cls
        stack += cls.__subclasses__()
    return out


TABLE_REPORTS = _reports()
COMMANDS = _declared()
KINDS = tuple(sorted(COMMANDS))
_DECODERS = {cls: msgspec.json.Decoder(cls) for cls in COMMANDS.values()}
_REPORT_DECODER = msgspec.json.Decoder(AnyTableReport)


def decode(raw: dict[str, Any] | Command) -> Command:
    """The command `raw` declares, checked against its schema; CommandError if it does not
    fit (unknown kind, missing or mistyped field), naming the kind and the reason."""
    if isinstance(raw, Command):
        return raw
    kind = raw.get("kind") if isinstance(raw, dict) else None
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CommandError(M_("command.unknown", "unknown command {kind}", kind=repr(kind)))
    try:   # through JSON, as it came: map keys such as seat numbers read as on the wire
        return _DECODERS[cls].decode(msgspec.json.encode(raw))
    except (msgspec.ValidationError, TypeError) as exc:
        raise CommandError(M_("command.bad", "bad {kind} command: {why}", kind=kind,
                              why=exc)) from None


def report_command(table: int, report: bytes | dict[str, Any]) -> Report:
    """The command for a report received from `table`: its JSON payload as it came (the
    wire's envelope fields are ignored) or that payload's dict."""
    if isinstance(report, dict):
        return decode({"kind": "report", "table": table, "report": report})  # type: ignore[return-value]
    try:
        return Report(report=_REPORT_DECODER.decode(report), table=table)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise CommandError(M_("command.bad_report", "bad report command: {why}", why=exc)) from None
