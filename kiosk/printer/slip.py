"""A slip as data: the lines a receipt printer prints, each with its style, in the
language of whoever reads it.

Slips are built where the facts are (director, table) and stored in the print queue as
JSON, so a queued job prints the same after a restart and can be reprinted; the ESC/POS
writer and the PNG preview both render this one shape. A line keeps its text as written
(a Czech name with its marks, a Chinese one): the writer chooses how each prints (a code
page, or an image: kiosk.printer.codepages, kiosk.printer.raster). Lines are wrapped to
the printer's grid, where a wide (Chinese) character takes two columns.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

import msgspec

from kiosk.printer.codepages import EPSON, holds
from kiosk.printer.raster import cells

Style = Literal["normal", "bold", "big"]
Align = Literal["left", "center", "right"]
SlipKind = Literal["seat", "receipt", "payout", "results", "test"]


class Line(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One printed line, a horizontal rule, or a QR code of `qr`."""

    text: str = ""
    style: Style = "normal"
    align: Align = "left"
    qr: str = ""
    rule: bool = False


class Slip(msgspec.Struct, forbid_unknown_fields=True):
    """What is printed (`lines`) and what it is, for the queue and the dashboard."""

    kind: SlipKind
    title: str                    # the queue's label, e.g. "Seat card: Ann (T3 S5)"
    lines: list[Line]
    event: str = ""
    language: str = ""            # who reads it: the code pages tried first ("": English)


def printable(text: str) -> str:
    """`text` as a slip may hold it: control characters dropped (a name cannot smuggle
    an ESC/POS command), a symbol no code page has (an emoji) a '?'; letters of every
    script kept, for the writer to print or draw."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat.startswith("C"):
            continue
        if cat.startswith("S") and not any(holds(p, ch) for p in EPSON):
            ch = "?"
        out.append(ch)
    return "".join(out)


def width(style: Style, columns: int) -> int:
    """Columns of the grid per line in `style` (big is double width)."""
    return columns // 2 if style == "big" else columns


def wrap(value: str, room: int) -> list[str]:
    """`value` in rows of at most `room` columns: broken at spaces, between any two wide
    characters (Chinese has no spaces), and inside a word longer than a row."""
    rows: list[str] = []
    row = ""
    for token in _tokens(value):
        if row.strip() and cells(row + token) > room:
            rows.append(row.rstrip())
            row = token.lstrip()
        else:
            row += token
        while cells(row) > room:
            head = _head(row, room)
            rows.append(head)
            row = row[len(head):].lstrip()
    if row.strip() or not rows:
        rows.append(row.rstrip())
    return rows


def _tokens(value: str) -> list[str]:
    """Words with the spaces before them, and each wide character on its own."""
    out: list[str] = []
    for ch in value:
        last = out[-1] if out else ""
        narrow = bool(last) and cells(ch) == 1 and not ch.isspace() \
            and cells(last[-1]) == 1 and not last[-1].isspace()
        if narrow or last.isspace():       # a word goes on, or follows its spaces
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _head(row: str, room: int) -> str:
    used = 0
    for i, ch in enumerate(row):
        used += cells(ch)
        if used > room:
            return row[:max(i, 1)]
    return row


def text(value: str, columns: int, style: Style = "normal",
         align: Align = "left") -> list[Line]:
    """`value` wrapped to the paper, one Line per printed line."""
    return [Line(text=w, style=style, align=align)
            for w in wrap(printable(value), width(style, columns))]


def pair(left: str, right: str, columns: int, style: Style = "normal") -> list[Line]:
    """A label and a value on one line, the value flush right (wrapped when too long)."""
    left, right = printable(left), printable(right)
    room = width(style, columns)
    gap = room - cells(left) - cells(right)
    if gap < 1:
        return [*text(left, columns, style), *text(right, columns, style, "right")]
    return [Line(text=left + " " * gap + right, style=style)]


def rule() -> Line:
    return Line(rule=True)


def money(amount: int) -> str:
    return f"{amount:,}"
