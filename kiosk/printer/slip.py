"""A slip as data: the lines a receipt printer prints, each with its style.

Slips are built where the facts are (director, table) and stored in the print queue as
JSON, so a queued job prints the same after a restart and can be reprinted; the ESC/POS
writer and the PNG preview both render this one shape.
"""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Literal

import msgspec

Style = Literal["normal", "bold", "big"]
Align = Literal["left", "center", "right"]
SlipKind = Literal["seat", "receipt", "payout", "results", "test"]
CODEPAGE = "cp1252"     # ESC t 16 (WPC1252): Western European names print as written


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


def printable(text: str) -> str:
    """`text` as the printer's code page holds it: accents kept where it has them, other
    letters without their marks, anything else (emoji, CJK) a '?'; control characters
    never reach the printer (a name cannot smuggle an ESC/POS command)."""
    out = []
    for ch in text:
        if unicodedata.category(ch).startswith("C"):
            continue
        try:
            ch.encode(CODEPAGE)
            out.append(ch)
        except UnicodeEncodeError:
            bare = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            out.append(bare or "?")
    return "".join(out)


def width(style: Style, columns: int) -> int:
    """Characters per line in `style` (big is double width)."""
    return columns // 2 if style == "big" else columns


def text(value: str, columns: int, style: Style = "normal",
         align: Align = "left") -> list[Line]:
    """`value` wrapped to the paper, one Line per printed line."""
    wrapped = textwrap.wrap(printable(value), width(style, columns),
                            break_long_words=True) or [""]
    return [Line(text=w, style=style, align=align) for w in wrapped]


def pair(left: str, right: str, columns: int, style: Style = "normal") -> list[Line]:
    """A label and a value on one line, the value flush right (wrapped when too long)."""
    left, right = printable(left), printable(right)
    room = width(style, columns)
    if len(left) + len(right) + 1 > room:
        return [*text(left, columns, style), *text(right, columns, style, "right")]
    return [Line(text=left + " " * (room - len(left) - len(right)) + right, style=style)]


def rule() -> Line:
    return Line(rule=True)


def money(amount: int) -> str:
    return f"{amount:,}"
