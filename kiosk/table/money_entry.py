"""The dealer's money screens as plain state: the chip-count keypad, and the lines the
bust, colour-up and eliminator screens show. Pure, so it is tested without Kivy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_STACK = 10 ** 12
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "<")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class ChipCountEntry:
    """Seat by seat, the dealer types each stack; `problems` says what cannot be right."""

    seats: list[int]
    names: dict[int, str] = field(default_factory=dict)
    chip: int = 0                 # stacks must be multiples of the smallest chip, if known
    round_no: int | None = None
    values: dict[int, str] = field(default_factory=dict)
    at: int = 0

    @property
    def seat(self) -> int:
        return self.seats[self.at]

    def press(self, key: str) -> None:
        text = self.values.get(self.seat, "")
        if key == "C":
            text = ""
        elif key == "<":
            text = text[:-1]
        elif key.isdigit() and len(text) < 12:
            text = (text + key).lstrip("0") or "0"
        self.values[self.seat] = text

    def move(self, step: int) -> None:
        self.at = (self.at + step) % len(self.seats)

    def stack(self, seat: int) -> int | None:
        text = self.values.get(seat, "")
        return int(text) if text else None

    def problems(self) -> list[str]:
        out = []
        for s in self.seats:
            v = self.stack(s)
            if v is None:
                out.append(f"Seat {s}: no count")
            elif v == 0:
                out.append(f"Seat {s}: a seated player has chips")
            elif v >= MAX_STACK:
                out.append(f"Seat {s}: too many digits")
            elif self.chip > 1 and v % self.chip:
                out.append(f"Seat {s}: {v:,} is not a multiple of {self.chip}")
        return out

    def stacks(self) -> dict[int, int]:
        return {s: v for s in self.seats if (v := self.stack(s)) is not None}


def entry_from_plan(plan: Mapping[str, Any]) -> ChipCountEntry | None:
    """The keypad for an open chip count this table has not sent yet."""
    req = plan.get("chip_count")
    if not req or req.get("done"):
        return None
    seats = sorted(int(s) for s in plan.get("seats", {}))
    if not seats:
        return None
    names = {int(s): v.get("name", "") for s, v in plan["seats"].items()}
    # the stacks are entered as they stand: before a colour-up they still hold the chips
    # that leave, so no multiple of a denomination is asked for
    return ChipCountEntry(seats, names, 0, req.get("round"))


def bust_lines(plan: Mapping[str, Any]) -> list[str]:
    """One line per player out on this hand: seat, name, place and prize, bounties."""
    out = []
    for b in plan.get("busts", ()):
        place = b.get("place")
        text = f"Seat {b.get('seat')}  {b.get('name', '')}: "
        text += f"{ordinal(place)} place" if place else "out"
        text += f", prize {b['prize']:,}" if b.get("prize") else ", no prize"
        if b.get("bounty_won"):
            text += f", bounties {b['bounty_won']:,}"
        out.append(text)
    return out


def colour_up_rows(cu: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(seat, cards dealt, before -> after) for the race walk-through, seat order."""
    rows = []
    won = {int(s): n for s, n in cu.get("won", {}).items()}
    rescued = set(cu.get("rescued", ()))
    for s in sorted(int(x) for x in cu.get("before", {})):
        before, after = cu["before"][_key(cu["before"], s)], cu["after"][_key(cu["after"], s)]
        cards = " ".join(cu.get("cards", {}).get(_key(cu.get("cards", {}), s), ()) or ())
        note = f"wins {won[s]}" if won.get(s) else ""
        if s in rescued:
            note = (note + ", " if note else "") + "kept in"
        rows.append((f"Seat {s}", f"{cards}  {note}".strip(), f"{before:,} -> {after:,}"))
    return rows


def _key(d: Mapping[Any, Any], seat: int) -> Any:
    return seat if seat in d else str(seat)


def seat_choices(plan: Mapping[str, Any], busted: int) -> Sequence[int]:
    """Seats that could have won the pot that busted `busted`."""
    return [int(s) for s in sorted(plan.get("seats", {}), key=int) if int(s) != busted]
