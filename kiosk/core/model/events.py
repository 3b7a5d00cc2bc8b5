"""Every event the tournament folds, declared: one class per kind, tagged by `kind`.
The room's own events (kiosk.core.model.room_events) are declared events too: one decoder reads
every stream of the store.

The event log stores these as JSON and replays them with one typed decoder, so a log
either decodes to exactly these shapes or is refused with a reason; nothing half-typed
reaches the fold. Events are decided by the core itself, but they are still checked
(`check`) before the director writes them, so a bug can never store a row that a
restart could not replay.

Upcasting: the log stores each row's schema version; a row written by older code is
read through `upcast`, which walks a raw event of an older shape up to today's classes
(v1 logs need no change: every field added since has a default).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta

from kiosk.base.texts import Msg
from kiosk.core.model import dealer_events as dealer_events  # the dealers' stream
from kiosk.core.model import reservation_events as reservation_events  # and these
from kiosk.core.model import room_events as room_events  # the room's rows are events too
from kiosk.core.model import stall_events as stall_events  # the shot clock, orbit for orbit
from kiosk.core.model.bounds import (
    Chips,
    Count,
    HandNo,
    Ident,
    Lang,
    Money,
    Name,
    SeatNo,
    Seats,
    Seconds,
    TableNo,
    Text,
)
from kiosk.core.model.event_base import Event as Event
from kiosk.core.model.event_base import Record as Record

SCHEMA = 2     # version of these shapes; v1 logs (plain dicts, same fields) replay as is


class Created(Event, tag="created", kw_only=True):
    event: Ident
    profile: Ident
    structure: dict[str, Any]
    seats: SeatNo = 9
    start_stack: Chips | None = None
    buy_in: Money = 0
    seed: int = 0
    max_entries: Count | None = None
    max_tables: Count | None = None
    payout_percent: float = 15.0
    money: dict[str, Any] | None = None          # kiosk.core.calc.payouts.PrizeRules fields
    chip_set: Annotated[list[Chips], Meta(max_length=20)] | None = None
    h4h_at_bubble: bool = False
    chip_race: Literal["dealer", "draw"] = "draw"   # who races: the dealer, or a draw
    pool: bool = False        # a room's event: it opens only the tables the room granted
    satellite_leftover: Literal["next", "split"] = "next"   # the cash after the last seat
    shot_clock: stall_events.ShotClockSpec | None = None   # TDA RP-19: none unless set


class Registered(Event, tag="registered", kw_only=True):
    player: Ident
    name: Name
    card: Ident | None = None
    stack: Chips
    country: Name = ""
    language: Lang = ""       # the player's own, for their slips ("": the room's)


class TableOpened(Event, tag="table_opened", kw_only=True):
    table: TableNo
    seats: SeatNo
    added: bool = False


class TablesGranted(Event, tag="tables_granted", kw_only=True):
    """The room lends these tables to the event (pool mode); they stay idle until opened."""

    tables: Annotated[list[TableNo], Meta(min_length=1, max_length=10_000)]


class TableReleased(Event, tag="table_released", kw_only=True):
    """An idle (empty or broken) table goes back to the room's pool."""

    table: TableNo


class Seated(Event, tag="seated", kw_only=True):
    player: Ident
    table: TableNo
    seat: SeatNo
    reason: Ident = "draw"
    same_seat: bool = False   # a re-buy before the next deal keeps the seat: not new there


class Started(Event, tag="started", kw_only=True):
    pass


class ClockSet(Event, tag="clock_set", kw_only=True):
    clock: dict[str, Any]
    why: Ident = ""
    by: Name | None = None      # the floor's pause, resume, time or level: on the audit


class HandStarted(Event, tag="hand_started", kw_only=True):
    table: TableNo
    hand: HandNo
    button: SeatNo
    sb: SeatNo
    bb: SeatNo
    dealt: Seats
    waiting: Seats = []


class HandEnded(Event, tag="hand_ended", kw_only=True):
    table: TableNo
    hand: HandNo


class AllIn(Event, tag="all_in", kw_only=True):
    table: TableNo
    seat: SeatNo
    hand: HandNo = 0


class AllInUndone(Event, tag="all_in_undone", kw_only=True):
    table: TableNo
    seat: SeatNo


class Busted(Event, tag="busted", kw_only=True):
    player: Ident
    table: TableNo
    seat: SeatNo | None = None
    hand: HandNo = 0
    stack: Chips | None = None
    group: list[str | int]
    disqualified: bool = False


class Unbusted(Event, tag="unbusted", kw_only=True):
    player: Ident


class Rebuy(Event, tag="rebuy", kw_only=True):
    player: Ident
    stack: Chips


class Reentered(Event, tag="reentered", kw_only=True):
    player: Ident
    stack: Chips


class Moved(Event, tag="moved", kw_only=True):
    player: Ident
    table: TableNo
    seat: SeatNo | None = None
    to_table: TableNo
    to_seat: SeatNo
    reason: Ident
    ordered: bool = False
    due_bb: bool = False
    redraw_button: bool = False


class Arrived(Event, tag="arrived", kw_only=True):
    player: Ident
    table: TableNo | None = None
    seat: SeatNo | None = None


class MoveOrdered(Event, tag="move_ordered", kw_only=True):
    table: TableNo
    to_table: TableNo


class MoveCancelled(Event, tag="move_cancelled", kw_only=True):
    table: TableNo
    to_table: TableNo


class TableBreaking(Event, tag="table_breaking", kw_only=True):
    table: TableNo


class TableBroken(Event, tag="table_broken", kw_only=True):
    table: TableNo


class FinalOrdered(Event, tag="final_ordered", kw_only=True):
    final_table: TableNo


class FinalSeated(Event, tag="final_seated", kw_only=True):
    final_table: TableNo
    seats: SeatNo


class FinalCancelled(Event, tag="final_cancelled", kw_only=True):
    pass


class Unseated(Event, tag="unseated", kw_only=True):
    player: Ident


class HandForHand(Event, tag="h4h", kw_only=True):
    on: bool


class HandForHandGo(Event, tag="h4h_go", kw_only=True):
    round: Count
    tables: list[TableNo]


class FloorCall(Event, tag="floor_call", kw_only=True):
    call: Ident
    table: TableNo
    seat: SeatNo | None = None


class FloorAcked(Event, tag="floor_acked", kw_only=True):
    call: Ident
    table: TableNo
    by: Name | None = None


class FloorResolved(Event, tag="floor_resolved", kw_only=True):
    call: Ident
    table: TableNo
    state: Ident = "resolved"
    note: Text = ""
    by: Name | None = None


class ClockCall(Event, tag="clock_call", kw_only=True):
    call: Ident
    table: TableNo
    seat: SeatNo
    seconds: Count
    countdown: Count
    approved: bool = False


class ClockApproved(Event, tag="clock_approved", kw_only=True):
    call: Ident
    table: TableNo
    by: Name | None = None


class ClockDone(Event, tag="clock_done", kw_only=True):
    call: Ident
    table: TableNo
    outcome: Ident


class Absent(Event, tag="absent", kw_only=True):
    player: Ident
    table: TableNo
    seat: SeatNo | None = None
    absent: bool = True


class CheckedIn(Event, tag="checked_in", kw_only=True):
    player: Ident
    table: TableNo
    seat: SeatNo | None = None
    right_table: bool = False


class Penalty(Event, tag="penalty", kw_only=True):
    player: Ident
    table: TableNo
    type: Ident
    hands: Count = 0
    minutes: Seconds | None = None
    text: Text = ""
    msg: Msg | None = None         # `text` as a message key (None in logs before keys)
    by: Name | None = None


class TableNoted(Event, tag="table_noted", kw_only=True):
    """The floor's note for a table (an empty note clears it)."""

    table: TableNo
    note: Text = ""
    by: Name | None = None


class PenaltyServed(Event, tag="penalty_served", kw_only=True):
    player: Ident


class EndOfDay(Event, tag="end_of_day", kw_only=True):
    hands: Count


class Finished(Event, tag="finished", kw_only=True):
    winner: Ident


class SeatsWon(Event, tag="seats_won", kw_only=True):
    """A satellite is over: these players each won a seat worth `value` in its target."""

    players: Annotated[list[Ident], Meta(max_length=100_000)]
    value: Money


class PoolCarried(Event, tag="pool_carried", kw_only=True):
    """A Day 2's share of its flights: their prize pools (added to this event's), the
    flights' entries (the field its payout table is sized for), how many survivors came
    in and the chips of duplicate survivors' stacks that left play."""

    amount: Money
    flights: Annotated[list[Ident], Meta(min_length=1, max_length=100)]
    entries: Count = 0
    players: Count = 0
    chips_left: Chips = 0


class Undone(Event, tag="undone", kw_only=True):
    table: TableNo
    target: Ident


# ------------------------------------------------------------------ money and chips
Delta = Annotated[int, Meta(ge=-(10**13), le=10**13)]   # chips taken out (or added)
Day = Annotated[int, Meta(ge=1, le=100)]
BySeat = Annotated[dict[str, Chips], Meta(max_length=10)]
PlayersBySeat = Annotated[dict[str, Ident], Meta(max_length=10)]
Amounts = Annotated[dict[str, Money], Meta(max_length=100_000)]


class Knockout(Event, tag="knockout", kw_only=True):
    """Who won the pot that busted `player`, and the bounty paid (cash, and onto heads)."""

    player: Ident
    table: TableNo | None = None
    entry: Count                       # the busted entry (1 + re-entries + rebuys)
    bounty: Money = 0                  # the bounty on that entry's head
    eliminators: Annotated[list[Ident], Meta(min_length=1, max_length=9)]
    entries: Annotated[list[Count], Meta(max_length=9)]
    cash: Annotated[list[Money], Meta(max_length=9)]
    head: Annotated[list[Money], Meta(max_length=9)]


class KnockoutReversed(Event, tag="knockout_reversed", kw_only=True):
    player: Ident
    entry: Count


class Audited(Event, tag="audited", kw_only=True):
    action: Ident
    player: Ident | None = None
    before: Any = None
    after: Any = None
    by: Name | None = None


class Addon(Event, tag="addon", kw_only=True):
    player: Ident
    table: TableNo | None = None
    stack: Chips


class PayoutsLocked(Event, tag="payouts_locked", kw_only=True):
    payouts: Annotated[list[Money], Meta(max_length=100_000)]
    prize_pool: Money
    by: Name | None = None


class PrizeRulesSet(Event, tag="prize_rules_set", kw_only=True):
    rules: dict[str, Any]
    before: dict[str, Any]
    by: Name | None = None


class CountOpened(Event, tag="count_opened", kw_only=True):
    round: Count
    label: Text
    purpose: Literal["count", "colour_up", "bag"]
    removed: Annotated[list[Chips], Meta(max_length=20)] = []
    new_chip: Chips = 0
    tables: Annotated[list[TableNo], Meta(max_length=10_000)]
    by: Name | None = None


class ChipsCounted(Event, tag="chips_counted", kw_only=True):
    table: TableNo
    round: Count
    stacks: BySeat
    players: PlayersBySeat
    by: Name | None = None


class ColouredUp(Event, tag="coloured_up", kw_only=True):
    table: TableNo
    round: Count
    before: BySeat
    after: BySeat
    cards: Annotated[dict[str, list[Annotated[str, Meta(max_length=3)]]], Meta(max_length=10)]
    won: Annotated[dict[str, Count], Meta(max_length=10)]
    rescued: Seats = []
    removed: Delta
    new_chip: Chips
    players: PlayersBySeat
    race: Literal["dealer", "draw"] = "draw"
    winners: Annotated[list[SeatNo], Meta(max_length=1000)] = []   # as the cards won


class ChipRaceSet(Event, tag="chip_race_set", kw_only=True):
    """The house changed who runs the colour-up races (the event's config), between
    races: the races from now on are run this way."""

    chip_race: Literal["dealer", "draw"]
    before: Literal["dealer", "draw"]
    source: Text = ""          # the config file it came from


ChipSet = Annotated[list[Annotated[int, Meta(ge=1, le=10**13)]], Meta(max_length=20)]


class ChipSetSet(Event, tag="chip_set_set", kw_only=True):
    """The house changed the denominations in play (the event's config), between
    colour-ups, keeping the smallest chip on the tables: the next breaks colour up by
    this set (empty: the floor colours up by hand)."""

    chip_set: ChipSet
    before: ChipSet
    source: Text = ""          # the config file it came from


class H4hAtBubbleSet(Event, tag="h4h_at_bubble_set", kw_only=True):
    """The house changed whether hand-for-hand starts by itself at the bubble (the
    event's config), while hand-for-hand was off."""

    on: bool
    source: Text = ""


class SatelliteLeftoverSet(Event, tag="satellite_leftover_set", kw_only=True):
    """The house changed who gets a satellite's cash after the last seat (the event's
    config), before the payouts were locked."""

    leftover: Literal["next", "split"]
    before: Literal["next", "split"]
    source: Text = ""


class DayEnded(Event, tag="day_ended", kw_only=True):
    day: Day
    by: Name | None = None


class Bagged(Event, tag="bagged", kw_only=True):
    day: Day
    bags: Amounts
    difference: Delta = 0
    by: Name | None = None


class Redrawn(Event, tag="redrawn", kw_only=True):
    day: Day
    tables: Annotated[list[TableNo], Meta(max_length=10_000)]
    by: Name | None = None


class DealAgreed(Event, tag="deal_agreed", kw_only=True):
    amounts: Amounts
    method: Annotated[str, Meta(max_length=20)] = ""
    before: Amounts = {}
    by: Name | None = None


class BreakOrderSet(Event, tag="break_order_set", kw_only=True):
    """Tables break section by section in this order (none: the profile's order)."""

    sections: Annotated[list[room_events.Section], Meta(max_length=40)]
    by: Name | None = None


def _declared() -> dict[str, type[Event]]:
    out: dict[str, type[Event]] = {}
    stack = list(Event.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        tag = cls.__struct_config__.tag
        if isinstance(tag, str):
            cls.kind = tag
            out[tag] = cls
    return out


KINDS: dict[str, type[Event]] = _declared()
EVENT_UNION: Any = Union[tuple(KINDS.values())]  # noqa: UP007 (built from a tuple at run time)
_decoder = msgspec.json.Decoder(EVENT_UNION)
_many = msgspec.json.Decoder(list[EVENT_UNION])  # type: ignore[valid-type]
_encoder = msgspec.json.Encoder()


class EventError(ValueError):
    """An event that cannot be stored or replayed; str(exc) says why."""


def make(kind: str, t: float, **fields: Any) -> Event:
    """Build an event of `kind`; unknown kinds and fields raise EventError."""
    cls = KINDS.get(kind)
    if cls is None:
        raise EventError(f"undeclared event kind {kind!r}")
    try:
        return cls(t=t, **fields)
    except TypeError as exc:
        raise EventError(f"event {kind}: {exc}") from None


def encode(ev: Event) -> bytes:
    return _encoder.encode(ev)


def check(ev: Event) -> bytes:
    """Encode `ev` and prove it decodes back to its declared shape; EventError if not."""
    try:
        blob = _encoder.encode(ev)
        _decoder.decode(blob)
    except (msgspec.ValidationError, msgspec.EncodeError, OverflowError, TypeError) as exc:
        raise EventError(f"event {getattr(ev, 'kind', '?')} cannot be stored: {exc}") from None
    return blob


def decode(blob: bytes, version: int = SCHEMA) -> Event:
    """One stored event written under schema `version`, upcast to today's shape."""
    if version < SCHEMA and any(v >= version for v, _kind in UPCASTS):
        return upcast(msgspec.json.decode(blob), version)
    try:
        return _decoder.decode(blob)  # type: ignore[no-any-return]
    except msgspec.ValidationError as exc:
        raise EventError(f"stored event does not match its schema: {exc}") from None


def decode_many(blobs: list[bytes]) -> list[Event]:
    """Stored events of today's schema, decoded in one call (a replay's hot path)."""
    try:
        return _many.decode(b"[" + b",".join(blobs) + b"]")  # type: ignore[no-any-return]
    except msgspec.ValidationError as exc:
        raise EventError(f"stored event does not match its schema: {exc}") from None


def coerce(ev: Event | dict[str, Any]) -> Event:
    """An event from a dict (tests, old callers) or as is."""
    if isinstance(ev, Event):
        return ev
    return upcast(dict(ev))


# (schema version written, kind) -> raw event of that version to the next version's shape.
# Version 1 (plain dicts, before events were declared) needs none: every field added
# since has a default and none was renamed.
UPCASTS: dict[tuple[int, str], Callable[[dict[str, Any]], dict[str, Any]]] = {}


def upcast(raw: dict[str, Any], version: int = SCHEMA) -> Event:
    """A raw event of schema `version`, walked up to today's shape and typed."""
    kind = str(raw.get("kind"))
    for v in range(version, SCHEMA):
        fix = UPCASTS.get((v, kind))
        if fix is not None:
            raw = fix(raw)
    try:
        return msgspec.convert(raw, EVENT_UNION, strict=False)  # type: ignore[no-any-return]
    except msgspec.ValidationError as exc:
        raise EventError(f"event {raw.get('kind')!r} does not match its schema: {exc}") from None
