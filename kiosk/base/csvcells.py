"""CSV that a spreadsheet opens as data: every text cell the product writes goes
through `text_cell`, so a player named `=HYPERLINK(...)` or `-2+3` stays a name
instead of becoming a live formula (the leading-apostrophe defence).

Numbers the product computes itself (places, prizes, minutes) are written as numbers
and left alone, so a negative amount stays a negative amount: only `str` cells, which
may hold what someone typed, are defended."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: Any) -> Any:
    """`value` with a leading apostrophe when it is text a spreadsheet would evaluate."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def typed_text(cell: str) -> str:
    """The text as typed, from a cell `text_cell` wrote: an import reads back what an
    export wrote (a spreadsheet that saves the file again drops the apostrophe itself)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_START):
        return cell[1:]
    return cell


def to_csv(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """A header and rows as CSV text, every text cell defended; `None` is an empty cell."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows([text_cell("" if c is None else c) for c in row] for row in rows)
    return out.getvalue()
