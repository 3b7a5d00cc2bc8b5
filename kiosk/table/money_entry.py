"""The dealer's money screens as plain state: the chip-count keypad, and the rows the
colour-up walk-through shows. Pure, so it is tested without Kivy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.lang.active import _, fmt

MAX_STACK = 10 ** 12
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "<")


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
        """What cannot be right, seat by seat, in the dealer's language."""
        out = []
        for s in self.seats:
            v = self.stack(s)
            if v is None:
                out.append(_("Seat {seat}: no count").format(seat=s))
            elif v == 0:
                out.append(_("Seat {seat}: a seated player has chips").format(seat=s))
            elif v >= MAX_STACK:
                out.append(_("Seat {seat}: too many digits").format(seat=s))
            elif self.chip > 1 and v % self.chip:
                out.append(_("Seat {seat}: {stack} is not a multiple of {chip}").format(
                    seat=s, stack=fmt().chips(v), chip=fmt().chips(self.chip)))
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


def colour_up_rows(cu: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(seat, cards dealt, before -> after) for the race walk-through, seat order."""
    rows = []
    won = {int(s): n for s, n in cu.get("won", {}).items()}
    rescued = set(cu.get("rescued", ()))
    for s in sorted(int(x) for x in cu.get("before", {})):
        before, after = cu["before"][_key(cu["before"], s)], cu["after"][_key(cu["after"], s)]
        cards = " ".join(cu.get("cards", {}).get(_key(cu.get("cards", {}), s), ()) or ())
        notes = [_("wins {n}").format(n=won[s])] if won.get(s) else []
        if s in rescued:
            notes.append(_("kept in"))
        rows.append((_("Seat {seat}").format(seat=s), f"{cards}  {', '.join(notes)}".strip(),
                     f"{fmt().chips(before)} -> {fmt().chips(after)}"))
    return rows


def _key(d: Mapping[Any, Any], seat: int) -> Any:
    return seat if seat in d else str(seat)


def seat_choices(plan: Mapping[str, Any], busted: int) -> Sequence[int]:
    """Seats that could have won the pot that busted `busted`."""
    return [int(s) for s in sorted(plan.get("seats", {}), key=int) if int(s) != busted]
