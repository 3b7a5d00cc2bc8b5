"""Garbage that looks like protocol messages: one field of a valid message mutated.

Every mutation is chosen to be invalid for that field's declared type, so a receiver
that applies any of them has a hole in its schema; a receiver that crashes on one has
a hole in its error handling. A few fit their types but mean what no table can have
done (`WRONG_HANDS`): a receiver that applies one has a hole in its rules.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

# kind -> (valid data, the optional data fields: None or absence is valid for them)
REPORTS: dict[str, tuple[dict[str, Any], set[str]]] = {
    "hand_started": ({"hand": 1, "button": 1, "sb": 2, "bb": 3, "dealt": [1, 2, 3]},
                     {"waiting"}),
    "hand_ended": ({"hand": 1}, set()),
    "all_in": ({"seat": 2, "hand": 1}, set()),
    "bust": ({"seat": 2, "player": "p1", "stack": 1000}, {"stack"}),
    "clock_call": ({"seat": 2}, set()),
    "clock_done": ({"call": "c1", "outcome": "acted"}, set()),
    "floor_call": ({"seat": 2}, {"seat"}),
    "floor_cancel": ({"call": "f1"}, set()),
    "checkin": ({"card": "C0001", "seat": 2}, {"seat"}),
    "absent": ({"seat": 2}, set()),
    "present": ({"seat": 2}, set()),
    "undo": ({"report": "x1"}, set()),
}


# hand_started data that fits its schema but that no table can have dealt, however many
# it seats: nobody dealt in, one player, the big blind (seat 3, or seat 10) left out.
# Sent with a hand number ahead of any real one, so only what the hand deals can refuse
# it. (Seat 10 dealt in was one once: at a ten-seat final table it is a real hand, and a
# loaded run once had it land there between the seatings of the final draw.)
WRONG_HANDS: list[dict[str, Any]] = [
    {"button": 1, "sb": 2, "bb": 3, "dealt": []},
    {"button": 1, "sb": 2, "bb": 3, "dealt": [3]},
    {"button": 1, "sb": 2, "bb": 10, "dealt": [1, 2, 3]},
    {"button": 1, "sb": 2, "bb": 3, "dealt": [1, 2, 4]},
]


DEEP = "__deep__"     # stands for 5,000 nested arrays (json.dumps cannot write them)


def deep() -> str:
    return DEEP


def to_bytes(msg: dict[str, Any]) -> bytes:
    """JSON of a garbage message, with the deep-nesting marker expanded."""
    text = json.dumps(msg)
    return text.replace(f'"{DEEP}"', "[" * 5000 + "1" + "]" * 5000).encode()


# values that no declared field of that shape accepts
FOR_INT = ["x", True, 1.5, 10**30, 2**64, -1, None, [1], {"a": 1}, deep(), "\u00e9\u4e2d"]
FOR_STR = [5, True, None, ["a"], {"a": 1}, "x" * 70_000, "", deep(), 1.5]
FOR_LIST = [5, "1,2", None, [1, 1], [1.5], [0], [11], ["a"], list(range(1, 40)), deep(),
            {"1": 1}]


def bad_values(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [1, "yes", None]
    if isinstance(value, int):
        return FOR_INT
    if isinstance(value, str):
        return FOR_STR
    if isinstance(value, list):
        return FOR_LIST
    if isinstance(value, float):
        return ["x", True, [1], 1e30, {"a": 1}]
    return [5]


def garbage_reports(table: int, rng: random.Random, prefix: str = "fz") -> Iterator[
        tuple[str, dict[str, Any] | bytes]]:
    """Endless (id, report) pairs, each with exactly one invalid field."""
    n = 0
    while True:
        n += 1
        kind = rng.choice(sorted(REPORTS))
        data, optional = REPORTS[kind]
        rid = f"{prefix}-{table}-{n}"
        msg: dict[str, Any] = {"v": 2, "table": table, "id": rid, "seq": n, "ts": 1e9,
                               "kind": kind, "data": copy.deepcopy(data)}
        where = rng.choice(["top", "data", "data", "data", "missing", "extra", "meaning"])
        if where == "meaning":
            msg.update(kind="hand_started", data={"hand": 10**6 + n, **rng.choice(WRONG_HANDS)})
        elif where == "top":
            key = rng.choice(["table", "seq", "ts", "kind", "data", "v"])
            if key == "table":
                msg["table"] = rng.choice([table + 1, "1", 0, 10**30, True])
            elif key == "v":
                msg["v"] = rng.choice([1, 3, "2", None, 0])
            elif key == "kind":
                msg["kind"] = rng.choice(["explode", 5, None, ""])
            elif key == "data":
                msg["data"] = rng.choice([None, [1], "x", 5, deep()])
            elif key == "ts":
                msg["ts"] = rng.choice(["x", None, True, 1e30, [1]])
            else:
                msg[key] = rng.choice(bad_values(msg[key]))
        elif where == "data":
            key = rng.choice(sorted(msg["data"]))
            choices = [v for v in bad_values(msg["data"][key])
                       if not (key in optional and v is None)]
            if kind == "clock_done" and key == "outcome":
                choices = ["won", 5, None]
            msg["data"][key] = rng.choice(choices)
        elif where == "missing":
            required = [k for k in msg["data"] if k not in optional]
            if required:
                del msg["data"][rng.choice(required)]
            else:
                del msg["seq"]
        else:
            msg["data"]["zzz"] = 1
        yield rid, msg


def mutated_plans(plan: dict[str, Any], rng: random.Random, count: int) -> Iterator[
        dict[str, Any]]:
    """Copies of a valid plan (from the core's own plan()), one field broken in each."""
    scalar = [k for k, v in plan.items() if k not in ("v",)]
    for _ in range(count):
        bad = copy.deepcopy(plan)
        key = rng.choice(scalar)
        value = bad[key]
        if key == "seats" and value:
            seat = rng.choice(sorted(value))
            choice = rng.choice(["key", "player", "status", "name"])
            if choice == "key":
                bad["seats"] = {**value, rng.choice(["1.5", "0", "11", "x"]): value[seat]}
            elif choice == "player":
                value[seat]["player"] = rng.choice([5, None, ""])
            elif choice == "status":
                value[seat]["status"] = "dancing"
            else:
                value[seat]["name"] = rng.choice([5, "n" * 500])
        elif key in ("moves_out", "moves_in"):
            bad[key] = rng.choice([["x"], [5], "x", [{"player": "p1"}], None])
        elif key == "max_seats":
            bad[key] = rng.choice(["x", 1e9, 10**12, 0, 11, True])
        elif key == "rev":
            bad[key] = rng.choice([10**30, "5", None, 1.5])
        elif key == "hand_for_hand":
            bad[key] = rng.choice(["yes", {"on": "yes"}, 5])
        elif key == "event":                         # None is a free table: valid
            bad[key] = rng.choice([5, "", "a/b", "#", "x" * 100, ["a"]])
        elif key in ("title", "room", "section"):    # any name up to 120 is a title
            bad[key] = rng.choice([5, None, "x" * 200, ["a"]])
        elif key == "hold_reason":                   # any string up to 2,000 is a reason
            bad[key] = rng.choice([5, None, "x" * 3000, ["a"]])
        elif isinstance(value, bool):
            bad[key] = rng.choice(["yes", 5, None])
        elif isinstance(value, dict):
            bad[key] = rng.choice([5, "x", {"c1": {"state": "exploded", "seat": 2}}])
        else:
            bad[key] = rng.choice(bad_values(value) if value is not None else ["x", [1]])
        yield bad
