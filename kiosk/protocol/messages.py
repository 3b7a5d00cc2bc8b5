"""Message schemas (version 2), declared once, and the decoding every receiver runs first.

Each MQTT message kind is a msgspec Struct with bounded fields (kiosk.core.model.bounds);
`parse(kind, payload)` gives the typed message, `decode(kind, payload)` the same as
plain JSON-shaped data. Anything malformed, oversized, of another version, of the wrong
type (a bool for an int, 1.5 for a seat, 10^30 for a hand) or nested deeper than the
schema raises ProtocolError with a reason: a bad payload never reaches any state.
docs/protocol.md documents these classes; a test fails when the two disagree.
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from kiosk.base.texts import Msg
from kiosk.core.model.bounds import (
    MAX_SEATS,
    MAX_TABLES,
    Chips,
    Count,
    HandNo,
    Ident,
    Money,
    Name,
    PeriodNo,
    Rev,
    SeatNo,
    Seats,
    Seconds,
    TableNo,
    Text,
    Time,
)
from kiosk.core.model.commands import TABLE_REPORTS, TableReport
from kiosk.core.model.report_data import Outcome, Part, RaceWinners

VERSION = 2
MAX_PAYLOAD = 64 * 1024  # bytes; a plan for 10 seats is ~3 KiB
MAX_SEATING = 4 * 1024 * 1024  # the seating directory grows with the field (10,000 cards)
MAX_MESSAGE = MAX_SEATING      # the broker refuses anything larger (message_size_limit)
Epoch = Annotated[float, Meta(ge=0, le=1e11)]
# room and event names are topic levels (kiosk.protocol.topics): no '/', '+' or '#'
TopicName = Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9_-]{0,47}$")]
# a language as the catalogues name it (kiosk.lang.codes): "de", "pt_BR", "zh_Hans"
Language = Annotated[str, Meta(pattern=r"^[a-z]{2,3}(_[A-Za-z]{2,4})?$")]


class ProtocolError(ValueError):
    """A payload that must be dropped; str(exc) says why."""


class Message(Part, forbid_unknown_fields=False):
    """Fields every message carries. The version is required: a payload without it was
    written to no known schema, so it is refused, never read as version 2."""

    v: Literal[2]


# ---------------------------------------------------------------- table reports
class Report(Message, tag_field="kind", kw_only=True, forbid_unknown_fields=True):
    """A table's report: an id unique at that table, a per-table sequence, a time."""

    table: TableNo
    id: Ident
    seq: Count
    ts: Time
    event: TopicName | None = None   # the event the table served when it wrote the report
    kind: ClassVar[str] = ""


def _wire_report(core: type[TableReport]) -> type[Report]:
    """The wire's class for one kind the core declares: the same tag and `data`, in the
    envelope above."""
    data = next(f.type for f in msgspec.structs.fields(core) if f.name == "data")
    cls = msgspec.defstruct(core.__name__.removesuffix("Report"), [("data", data)],
                            bases=(Report,), module=__name__, tag=core.kind, kw_only=True)
    assert issubclass(cls, Report)
    cls.kind = core.kind
    return cls


REPORTS: dict[str, type[Report]] = {k: _wire_report(c) for k, c in TABLE_REPORTS.items()}
REPORT_KINDS = tuple(REPORTS)
AnyReport: Any = functools.reduce(operator.or_, REPORTS.values())   # tagged by `kind`


# ---------------------------------------------------------------- director -> tables
class Status(Message, kw_only=True):
    state: Literal["online", "offline"]
    ts: Time = 0.0


class PeriodSpec(Part, forbid_unknown_fields=True, kw_only=True):
    minutes: Annotated[float, Meta(ge=0, le=24 * 60)]   # 0: a level counted in hands
    sb: Chips = 0
    bb: Chips = 0
    ante: Chips = 0
    bb_ante: Chips = 0
    is_break: bool = False
    color_up: Text = ""
    hands: Annotated[int, Meta(ge=0, le=10_000)] = 0    # hands a level lasts at each table


class StructureSpec(Part, kw_only=True):
    name: Name
    start_stack: Chips
    periods: Annotated[list[PeriodSpec], Meta(min_length=1, max_length=500)]


class ClockSpec(Part, kw_only=True):
    period: Annotated[int, Meta(ge=0, le=500)]
    anchor: Time
    paused_remaining: Seconds | None = None


class H4HSchedule(Part, kw_only=True):
    on: bool = False
    round: Count = 0
    playing: Annotated[list[TableNo], Meta(max_length=MAX_TABLES)] = []   # still to finish


class OrbitSchedule(Part, kw_only=True):
    """Orbit for orbit (TDA RP-19): its round, and the tables still playing their orbit."""

    on: bool = False
    round: Count = 0
    playing: Annotated[list[TableNo], Meta(max_length=MAX_TABLES)] = []


class Schedule(Message, kw_only=True):
    rev: Rev
    epoch: Epoch = 0.0
    ts: Time = 0.0
    event: Ident = "event"
    profile: Ident
    profile_name: Name = ""
    structure: StructureSpec
    clock: ClockSpec
    started: bool = False
    seats: SeatNo = 9
    hand_for_hand: H4HSchedule | None = None
    extra_hands: Count | None = None
    finished: bool = False
    winner: Ident | None = None
    players_left: Count = 0
    entries: Count = 0
    average_stack: Chips = 0
    places_paid: Count = 0
    bubble: bool = False           # one more bust and everyone left is paid
    final_table: TableNo | None = None
    # open tables, next to break first (TDA 10C's predetermined procedure applied now)
    break_order: Annotated[list[TableNo], Meta(max_length=10_000)] = []
    # seconds before play starts or resumes that the tables call "prepare your decks"
    # (TDA 2024 RP-20); 0: they do not
    prepare_decks: Annotated[int, Meta(ge=0, le=600)] = 0
    # seconds before a level change or break in which no dealer push is taken (TDA RP-7)
    push_hold: Annotated[int, Meta(ge=0, le=600)] = 0
    orbit: OrbitSchedule | None = None


class PlanSeat(Part, kw_only=True):
    player: Ident
    name: Name = ""
    card: Ident | None = None
    status: Literal["seated", "arriving"] = "seated"
    absent: bool = False
    penalty_hands: Count = 0
    penalty_until: Time | None = None
    penalty: Text = ""                 # in the room's default language (older kiosks)
    penalty_msg: Msg | None = None     # the same as a message key, for the table's own
    new: bool = False
    bounty: Money | None = None      # bounty events: the bounty on this player's head
    bank: Count | None = None        # time-bank cards the player holds (an event with a bank)
    bank_used: Count = 0             # ...and has handed in since this entry began


class MoveOut(Part, kw_only=True):
    player: Ident
    name: Name = ""
    seat: SeatNo | None = None
    to_table: TableNo
    to_seat: SeatNo


class MoveIn(Part, kw_only=True):
    player: Ident
    name: Name = ""
    seat: SeatNo
    from_table: TableNo | None = None
    from_seat: SeatNo | None = None
    language: Language | None = None   # the player's, for the seat card (None: the table's)


class PlanBust(Part, kw_only=True):
    """A player out at this table on its current hand, with what the tie rules give."""

    seat: SeatNo | None = None
    player: Ident
    name: Name = ""
    place: Annotated[int, Meta(ge=1, le=10**9)] | None = None
    tied: Annotated[int, Meta(ge=1, le=MAX_SEATS * MAX_TABLES)] = 1
    prize: Money = 0
    stack: Chips | None = None
    bounty_won: Money = 0         # bounty events: what this player won knocking others out
    eliminators: Annotated[list[SeatNo | None], Meta(max_length=9)] = []   # who won the pot
    language: Language | None = None   # the player's, for the payout slip


class H4HPlan(Part, kw_only=True):
    on: bool = False
    round: Count = 0
    go: bool = False


class FloorCallView(Part, kw_only=True):
    state: Literal["open", "acked", "resolved", "cancelled"]
    seat: SeatNo | None = None
    since: Time = 0.0
    note: Text = ""
    report: Ident | None = None
    by: Name | None = None       # who answered "on my way" (the floor's login)


class ClockCallView(Part, kw_only=True):
    state: Literal["requested", "approved", "done"]
    seat: SeatNo
    approved_at: Time | None = None
    seconds: Count
    countdown: Count
    outcome: Outcome | None = None
    report: Ident | None = None


class OrbitPlan(Part, kw_only=True, forbid_unknown_fields=True):
    """This table's part in orbit for orbit: `go` while it still plays its orbit of
    `round`; on and not `go`, it waits for the other tables. `hands_left`: the hands its
    orbit still takes after its hand `hand` with the players seated now (None before the
    orbit's first hand), so a table that loses the network stops there by itself."""

    on: bool = False
    round: Count = 0
    go: bool = False
    hands_left: Annotated[int, Meta(ge=0, le=MAX_SEATS)] | None = None
    hand: HandNo = 0


class ShotClockPlan(Part, kw_only=True, forbid_unknown_fields=True):
    """The event's shot clock (TDA RP-19): `seconds` a decision; where it runs (`applies`:
    the whole event, from level `from_level` on, the final table only, or off); each
    time-bank card adds `bank_seconds`; `bank_cards` is what each entry was given so far."""

    seconds: Annotated[int, Meta(ge=1, le=600)]
    applies: Literal["event", "level", "final", "off"] = "event"
    from_level: Annotated[int, Meta(ge=1, le=500)] = 1
    bank_seconds: Annotated[int, Meta(ge=0, le=600)] = 0
    bank_cards: Count = 0


class HandLevelPlan(Part, kw_only=True, forbid_unknown_fields=True):
    """A structure counted in hands: this table's level (`period`) and the hands of it
    dealt here, after its hand number `hand` (the table counts on from there)."""

    period: Annotated[int, Meta(ge=0, le=500)]
    played: Count = 0
    hand: HandNo = 0


class MoneyPlan(Part, kw_only=True, forbid_unknown_fields=True):
    places_paid: Count = 0
    bubble: bool = False
    in_the_money: bool = False
    bounties: bool = False


class ChipCountPlan(Part, kw_only=True):
    round: Count
    label: Text = ""
    purpose: Literal["count", "colour_up", "bag"] = "count"
    done: bool = False
    removed: Annotated[list[Chips], Meta(max_length=20)] = []
    new_chip: Chips = 0
    counted: Count = 0                 # this table's counts the director took this round
    recount: Text = ""                 # why it must count again (the bag refuses its count)
    label_msg: Msg | None = None       # `label` and `recount` as message keys (the texts
    recount_msg: Msg | None = None     # are in the room's default language, for old kiosks)


class ColourUpPlan(Part, kw_only=True):
    before: Annotated[dict[SeatNo, Chips], Meta(max_length=10)]
    after: Annotated[dict[SeatNo, Chips], Meta(max_length=10)] = {}   # empty while pending
    cards: Annotated[dict[SeatNo, list[Annotated[str, Meta(max_length=3)]]],
                     Meta(max_length=10)] = {}
    won: Annotated[dict[SeatNo, Count], Meta(max_length=10)] = {}
    rescued: Seats = []
    new_chip: Chips = 0
    race: Literal["dealer", "draw"] = "draw"
    pending: bool = False              # the race waits for the dealer's entry
    deal_cards: Annotated[dict[SeatNo, Count], Meta(max_length=10)] = {}   # one per odd chip
    to_give: Count = 0                 # chips of `new_chip` the race awards
    max_each: Count | None = None      # 1 under TDA and Irish; None: no limit
    winners: RaceWinners = []          # the seats in the order they won, as entered


class Handover(Part, kw_only=True):
    """What the outgoing dealer tells the incoming one at a push (TDA 2024 RP-15A): the
    seats of players warned and on a penalty, and the floor's note for the table."""

    warnings: Seats = []
    penalties: Seats = []
    note: Text = ""


class FirstHand(Part, kw_only=True):
    """The first hand after a push, dealt at the level the clock had at the push even if
    a new one starts before it (TDA 2024 r.23): while the table's hand count is still
    `hand`, with these blinds."""

    hand: HandNo
    period: PeriodNo
    sb: Chips = 0
    bb: Chips = 0
    ante: Chips = 0
    bb_ante: Chips = 0


class DealerPlan(Part, kw_only=True):
    """Who deals the table and the next push (kiosk.core.dealers): names only, never a
    badge or a PIN. `outgoing` and `outgoing_to` tell the dealer just pushed off where to
    go next ("Table 14", "Break until 21:35")."""

    dealer: Name | None = None
    push_at: Time | None = None        # None: no push due (the event's break holds it)
    incoming: Name | None = None       # who pushes the table next
    outgoing: Name = ""
    outgoing_to: Text = ""
    outgoing_to_msg: Msg | None = None   # `outgoing_to` as a message key
    pushed_at: Time | None = None      # when that push was done
    handover: Handover | None = None   # RP-15A, under a profile that shows it
    first_hand: FirstHand | None = None   # r.23, under a profile that deals it
    language: Language | None = None   # the dealing dealer's own (the roster's), if any


class Plan(Message, kw_only=True):
    """A table's desired state (docs/protocol.md): derived from the director's state.
    `event` names the event the table serves; None is a free table of the room."""

    table: TableNo
    rev: Rev
    epoch: Epoch = 0.0
    ts: Time = 0.0
    event: TopicName | None
    title: Name = ""                   # the event's title
    room: Name = ""                    # the room's title
    section: Name = ""                 # the floor's section the table stands in ("" none)
    seats: Annotated[dict[SeatNo, PlanSeat], Meta(max_length=10)]
    moves_out: Annotated[list[MoveOut], Meta(max_length=10)]
    moves_in: Annotated[list[MoveIn], Meta(max_length=10)]
    halt: bool = False
    hold: bool = False
    breaking: bool = False
    broken: bool = False
    redraw_button: bool = False
    final_table: bool = False
    final_pending: bool = False        # the final-table draw waits: no table deals
    hold_reason: Text = ""             # why `hold` is set, in the room's default language
    hold_msg: Msg | None = None        # the same as a message key, for the table's language
    language: Language | None = None   # the table's language (room.toml); None: English
    busts: Annotated[list[PlanBust], Meta(max_length=10)] = []
    max_seats: Annotated[int, Meta(ge=2, le=10)] = 9
    hand: HandNo = 0
    hand_for_hand: H4HPlan = msgspec.field(default_factory=H4HPlan)
    floor_calls: Annotated[dict[Ident, FloorCallView], Meta(max_length=1000)] = {}
    clock_calls: Annotated[dict[Ident, ClockCallView], Meta(max_length=1000)] = {}
    money: MoneyPlan = msgspec.field(default_factory=MoneyPlan)
    day_over: bool = False
    chip_count: ChipCountPlan | None = None
    colour_up: ColourUpPlan | None = None
    dealer: DealerPlan | None = None   # the rotation, when the room runs one
    slips: bool = False                # print `busts` with money to collect at a table with
                                       # a printer ([director] slips_at_table)
    orbit: OrbitPlan = msgspec.field(default_factory=OrbitPlan)
    shot_clock: ShotClockPlan | None = None   # the event has a shot clock (RP-19)
    hand_level: HandLevelPlan | None = None   # the structure counts levels in hands


class EventEntry(Part, kw_only=True):
    """One event of the room, as the events directory lists it."""

    event: TopicName
    title: Name = ""
    kind: Literal["event", "satellite", "flight", "day2"] = "event"
    state: Literal["scheduled", "open", "running", "finished", "archived"] = "scheduled"
    tables: Annotated[list[TableNo], Meta(max_length=MAX_TABLES)] = []


class Events(Message, kw_only=True):
    """The room's events directory: which events there are and which tables each holds."""

    rev: Rev
    epoch: Epoch = 0.0
    ts: Time = 0.0
    room: TopicName
    title: Name = ""
    events: Annotated[list[EventEntry], Meta(max_length=1000)] = []


class Ack(Message, kw_only=True):
    ids: Annotated[list[Ident], Meta(max_length=10_000)]
    # why, in the room's default language; and as message keys when the refusal has one
    rejected: Annotated[dict[Ident, Text], Meta(max_length=10_000)] = {}
    rejected_msgs: Annotated[dict[Ident, Msg], Meta(max_length=10_000)] = {}


class Seating(Message, kw_only=True):
    """Card -> (table, seat, name) of one event; `event` is the one its topic names."""

    rev: Rev
    epoch: Epoch = 0.0
    event: TopicName | None = None
    cards: Annotated[dict[Ident, tuple[TableNo, SeatNo, Name]], Meta(max_length=100_000)]


class LiveClockCall(Part, kw_only=True):
    id: Ident
    seat: SeatNo
    phase: Ident = ""
    started_at: Time | None = None
    seconds: Count = 0
    countdown: Count = 0


class LiveFloorCall(Part, kw_only=True):
    id: Ident
    state: Ident = "open"
    since: Time = 0.0
    seat: SeatNo | None = None


class Live(Message, kw_only=True):
    """A table's live snapshot, shown on the dashboard; never folded into the tournament."""

    table: TableNo
    hand: HandNo
    in_hand: bool = False
    all_in: Seats = []
    button: SeatNo | None = None
    sb: SeatNo | None = None
    bb: SeatNo | None = None
    period: Annotated[int, Meta(ge=0, le=500)] | None = None
    clock_call: LiveClockCall | None = None
    floor_call: LiveFloorCall | None = None
    h4h_waiting: bool = False
    plan_rev: Rev | None = None
    ts: Time = 0.0
    untranslated: Count = 0   # texts this kiosk showed in English for want of an entry


SCHEMAS: dict[str, Any] = {
    "report": AnyReport, "status": Status, "schedule": Schedule, "plan": Plan, "ack": Ack,
    "live": Live, "seating": Seating, "events": Events,
}
_DECODERS = {kind: msgspec.json.Decoder(t) for kind, t in SCHEMAS.items()}
_encoder = msgspec.json.Encoder()


def encode(msg: Any) -> bytes:
    """Compact JSON, with the version stamped in."""
    if isinstance(msg, dict):
        msg = {"v": VERSION, **msg}
    try:
        return _encoder.encode(msg)
    except (TypeError, OverflowError, msgspec.EncodeError) as exc:
        raise ProtocolError(f"cannot encode: {exc}") from None


def parse(kind: str, payload: bytes | bytearray | str) -> Any:
    """Parse and validate one message of `kind` into its declared class."""
    limit = MAX_SEATING if kind == "seating" else MAX_PAYLOAD
    if len(payload) > limit:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {limit}")
    try:
        return _DECODERS[kind].decode(payload)
    except msgspec.ValidationError as exc:
        raise ProtocolError(_reason(str(exc), payload)) from None
    except msgspec.DecodeError as exc:
        raise ProtocolError(f"not JSON ({exc})") from None
    except (RecursionError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"unreadable: {exc.__class__.__name__}") from None


_NO_VERSION = object()


class _Version(msgspec.Struct):
    v: Any = _NO_VERSION


def _reason(problem: str, payload: bytes | bytearray | str) -> str:
    """msgspec's reason, or the version when that is what is wrong (a newer table, or a
    sender that left it out)."""
    try:
        v = msgspec.json.decode(payload, type=_Version).v
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return problem
    if v is _NO_VERSION:
        return f'no schema version: every payload carries "v": {VERSION}'
    return problem if v == VERSION else f"schema version {v!r} is not {VERSION}"


def decode(kind: str, payload: bytes | bytearray | str) -> dict[str, Any]:
    """Validate one message of `kind`; the result as plain JSON-shaped data."""
    out: dict[str, Any] = msgspec.to_builtins(parse(kind, payload))
    return out


def check(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """Validate a message about to be sent or stored (same rules as receiving it)."""
    return decode(kind, encode(body))


_ID_FIELD = re.compile(rb'^\{[^{\[]*?"id"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"')


class _IdOnly(msgspec.Struct):
    id: Ident


def report_id(payload: bytes | bytearray | str) -> str | None:
    """The id of a report that failed validation, if one can be read at all, so that the
    table can be told it was rejected (and stop re-sending it)."""
    if len(payload) > MAX_MESSAGE:
        return None
    try:
        return msgspec.json.decode(payload, type=_IdOnly).id
    except RecursionError:   # nested too deep to parse: the id may still stand in plain sight
        raw = payload.encode() if isinstance(payload, str) else bytes(payload)
        found = _ID_FIELD.search(raw[:4096])
        return found.group(1).decode() if found else None
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError):
        return None


def report(table: int, rid: str, seq: int, ts: float, kind: str, **data: Any) -> dict[str, Any]:
    """Build a table report (not yet encoded); the sender adds `event` when it serves one."""
    return {"v": VERSION, "table": table, "id": rid, "seq": seq, "ts": ts, "kind": kind,
            "data": data}


OLD_VERSION_REASON = "this kiosk runs an old version: update the kiosk software (protocol 2)"


def v1_refusal(table: int, ts: float, reason: str = OLD_VERSION_REASON) -> dict[str, Any]:
    """A plan a version 1 table accepts, holding it with `reason` on its screen: the answer
    the director publishes on an old table's v1 plan topic. A new epoch (`ts`) makes the
    old table take it over whatever plan it held."""
    return {"v": 1, "table": table, "rev": 0, "epoch": ts, "ts": ts, "seats": {},
            "moves_out": [], "moves_in": [], "halt": True, "hold": True,
            "hold_reason": reason}
