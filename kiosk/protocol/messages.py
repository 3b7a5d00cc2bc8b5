"""Message schemas (version 1) and the validation every receiver runs first.

Receivers call `decode(kind, payload)`; anything malformed, oversized or of another
version raises ProtocolError with a reason that is logged, and the message is dropped:
a bad payload must never crash a receiver or touch its state.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

VERSION = 1
MAX_PAYLOAD = 64 * 1024  # bytes; a plan for 10 seats is ~2 KiB
MAX_SEATING = 4 * 1024 * 1024  # the seating directory grows with the field

# kinds of events a table reports, with the fields each must carry in `data`
REPORT_KINDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hand_started": {"hand": int, "button": int, "sb": int, "bb": int, "dealt": list},
    "hand_ended": {"hand": int},
    "all_in": {"seat": int, "hand": int},
    "bust": {"seat": int, "player": str},
    "clock_call": {"seat": int},
    "clock_done": {"call": str, "outcome": str},
    "floor_call": {},
    "floor_cancel": {"call": str},
    "checkin": {"card": str},
    "absent": {"seat": int},
    "present": {"seat": int},
    "undo": {"report": str},
    "chip_count": {"stacks": dict},
    "addon": {"seat": int, "player": str},
}
MAX_CHIPS = 10 ** 12   # a stack or chip total above this is a typing error
CLOCK_OUTCOMES = ("acted", "dead", "checked", "cancelled")


class ProtocolError(ValueError):
    """A payload that must be dropped; str(exc) says why."""


def encode(msg: dict[str, Any]) -> bytes:
    """Compact JSON, with the version stamped in."""
    return json.dumps({"v": VERSION, **msg}, separators=(",", ":")).encode()


def _load(payload: bytes | str, limit: int = MAX_PAYLOAD) -> dict[str, Any]:
    if len(payload) > limit:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {limit}")
    try:
        msg = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"not JSON ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(msg, dict):
        raise ProtocolError(f"expected a JSON object, got {type(msg).__name__}")
    if msg.get("v") != VERSION:
        raise ProtocolError(f"schema version {msg.get('v')!r} is not {VERSION}")
    return msg


def _need(msg: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    if key not in msg:
        raise ProtocolError(f"missing field {where}{key}")
    value = msg[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ProtocolError(f"field {where}{key} must not be a boolean")
    if float in kinds and isinstance(value, int):
        return value
    if not isinstance(value, kinds):
        names = "/".join(k.__name__ for k in kinds)
        raise ProtocolError(f"field {where}{key} must be {names}, got {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError(f"field {where}{key} must be finite")
    return value


def _report(msg: dict[str, Any]) -> dict[str, Any]:
    _need(msg, "table", int)
    rid = _need(msg, "id", str)
    if not 1 <= len(rid) <= 64:
        raise ProtocolError("field id must be 1-64 characters")
    if _need(msg, "seq", int) < 0:
        raise ProtocolError("field seq must be >= 0")
    _need(msg, "ts", (int, float))
    kind = _need(msg, "kind", str)
    if kind not in REPORT_KINDS:
        raise ProtocolError(f"unknown report kind {kind!r}")
    data = _need(msg, "data", dict)
    for key, t in REPORT_KINDS[kind].items():
        _need(data, key, t, "data.")
    for key in ("seat", "bb", "sb", "button"):
        if key in data and data[key] is not None and not 1 <= data[key] <= 10:
            raise ProtocolError(f"field data.{key} must be a seat number 1-10")
    if kind == "clock_done" and data["outcome"] not in CLOCK_OUTCOMES:
        raise ProtocolError(f"data.outcome must be one of {', '.join(CLOCK_OUTCOMES)}")
    if kind == "bust":
        _bust_extras(data)
    if kind == "chip_count":
        _stacks(data)
    return msg


def _seat_number(value: Any, where: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10:
        raise ProtocolError(f"{where} must be a seat number 1-10")


def _bust_extras(data: dict[str, Any]) -> None:
    """Optional: `eliminator` (a seat, or seats for a split pot) and `rebuy` (bool)."""
    elim = data.get("eliminator")
    if elim is not None:
        seats = elim if isinstance(elim, list) else [elim]
        if not 1 <= len(seats) <= 9:
            raise ProtocolError("data.eliminator must name 1-9 seats")
        for s in seats:
            _seat_number(s, "data.eliminator")
        if len(set(seats)) != len(seats) or data["seat"] in seats:
            raise ProtocolError("data.eliminator must name other seats, each once")
    if "rebuy" in data and not isinstance(data["rebuy"], bool):
        raise ProtocolError("data.rebuy must be true or false")
    if data.get("stack") is not None:
        _chips(data["stack"], "data.stack")


def _chips(value: Any, where: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_CHIPS:
        raise ProtocolError(f"{where} must be a whole number of chips 0-{MAX_CHIPS:,}")


def _stacks(data: dict[str, Any]) -> None:
    """`stacks`: seat number (as a string key) -> chips; optional `round` (int)."""
    if not data["stacks"] or len(data["stacks"]) > 10:
        raise ProtocolError("data.stacks must hold 1-10 seats")
    for seat, chips in data["stacks"].items():
        if not (isinstance(seat, str) and seat.isdigit()):
            raise ProtocolError(f"data.stacks key {seat!r} is not a seat number")
        _seat_number(int(seat), "data.stacks key")
        _chips(chips, f"data.stacks.{seat}")
    if "round" in data and (not isinstance(data["round"], int) or isinstance(data["round"], bool)
                            or data["round"] < 1):
        raise ProtocolError("data.round must be a count round number >= 1")


def _status(msg: dict[str, Any]) -> dict[str, Any]:
    if _need(msg, "state", str) not in ("online", "offline"):
        raise ProtocolError("field state must be online or offline")
    return msg


def _schedule(msg: dict[str, Any]) -> dict[str, Any]:
    _need(msg, "rev", int)
    _need(msg, "profile", str)
    structure = _need(msg, "structure", dict)
    _need(structure, "periods", list, "structure.")
    clock = _need(msg, "clock", dict)
    _need(clock, "period", int, "clock.")
    _need(clock, "anchor", (int, float), "clock.")
    _need(clock, "paused_remaining", (int, float, type(None)), "clock.")
    return msg


def _plan(msg: dict[str, Any]) -> dict[str, Any]:
    _need(msg, "table", int)
    _need(msg, "rev", int)
    seats = _need(msg, "seats", dict)
    for seat, who in seats.items():
        if not seat.isdigit():
            raise ProtocolError(f"seat key {seat!r} is not a number")
        _need(who, "player", str, f"seats.{seat}.")
    _need(msg, "moves_out", list)
    _need(msg, "moves_in", list)
    return msg


def _ack(msg: dict[str, Any]) -> dict[str, Any]:
    ids = _need(msg, "ids", list)
    if not all(isinstance(i, str) for i in ids):
        raise ProtocolError("field ids must be a list of strings")
    return msg


def _seating(msg: dict[str, Any]) -> dict[str, Any]:
    _need(msg, "rev", int)
    cards = _need(msg, "cards", dict)
    for card, where in cards.items():
        if not (isinstance(where, list) and len(where) == 3):
            raise ProtocolError(f"cards.{card} must be [table, seat, name]")
    return msg


def _live(msg: dict[str, Any]) -> dict[str, Any]:
    _need(msg, "table", int)
    _need(msg, "hand", int)
    return msg


DECODERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "report": _report, "status": _status, "schedule": _schedule, "plan": _plan,
    "ack": _ack, "live": _live, "seating": _seating,
}


def decode(kind: str, payload: bytes | str) -> dict[str, Any]:
    """Parse and validate one message of `kind`; raises ProtocolError with a reason."""
    return DECODERS[kind](_load(payload, MAX_SEATING if kind == "seating" else MAX_PAYLOAD))


def report(table: int, rid: str, seq: int, ts: float, kind: str, **data: Any) -> dict[str, Any]:
    """Build a table report (not yet encoded)."""
    return {"v": VERSION, "table": table, "id": rid, "seq": seq, "ts": ts, "kind": kind,
            "data": data}
