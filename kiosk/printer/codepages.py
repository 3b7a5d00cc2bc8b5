"""Which code page prints a line: the one its reader's language writes in, else another the
printer has that holds every letter of it (a Czech name on a German slip).

A receipt printer holds one 256-character code page at a time, chosen by `ESC t n`; the
number of each page is the printer's (Epson's numbers below are what most printers
follow; `[printer] code_pages` names the pages a printer has and their numbers). Czech
is in PC852 (Latin 2); Spanish, German, French and Portuguese in PC858 (PC850 with the
euro sign). A line no page holds is drawn as an image (kiosk.printer.raster) when it
has letters of another script (Chinese), else printed with the marks it cannot hold
left off.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

# the pages we know: Python's codec name -> Epson's ESC t number
EPSON: dict[str, int] = {"cp437": 0, "cp850": 2, "cp860": 3, "cp1252": 16, "cp866": 17,
                         "cp852": 18, "cp858": 19}
# what a printer has when its settings do not say: every Epson-compatible printer's
DEFAULT_PAGES: dict[str, int] = {k: EPSON[k] for k in ("cp437", "cp850", "cp852", "cp858",
                                                       "cp1252", "cp866")}
# the pages each language writes in, best first (other pages the printer has follow)
PREFERRED: dict[str, tuple[str, ...]] = {
    "cs": ("cp852",),
    "pt_BR": ("cp858", "cp860", "cp850", "cp1252"),
    "zh_Hans": (),
}
LATIN1 = ("cp858", "cp850", "cp1252", "cp437")


def preferred(language: str) -> tuple[str, ...]:
    """The pages `language` writes in, best first (Western European for the others)."""
    return PREFERRED.get(language, LATIN1)


def holds(page: str, text: str) -> bool:
    try:
        text.encode(page)
    except UnicodeEncodeError:
        return False
    return True


def order(language: str, pages: Mapping[str, int]) -> list[str]:
    """The printer's pages in the order a line of `language` tries them."""
    first = [p for p in preferred(language) if p in pages]
    return first + [p for p in pages if p not in first]


def page_for(text: str, tried: Iterable[str]) -> str | None:
    """The first page of `tried` that holds every character of `text`, or None."""
    return next((p for p in tried if holds(p, text)), None)


def foreign_letters(text: str, tried: Iterable[str]) -> bool:
    """Whether `text` has a letter none of the pages holds even without its marks (a
    Chinese name): such a line is drawn, not printed as text."""
    pages = list(tried)
    for ch in text:
        if not unicodedata.category(ch).startswith("L") or any(holds(p, ch) for p in pages):
            continue
        if not unicodedata.normalize("NFKD", ch).encode("ascii", "ignore"):
            return True
    return False


def fold(text: str, page: str) -> str:
    """`text` in `page`: a letter it lacks without its marks (ő as o), else '?'."""
    out = []
    for ch in text:
        if holds(page, ch):
            out.append(ch)
        else:
            bare = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            out.append(bare or "?")
    return "".join(out)


def check_pages(pages: Mapping[str, int]) -> dict[str, int]:
    """A `[printer] code_pages` table checked: known pages, numbers 0-255 (ValueError)."""
    if not pages:
        raise ValueError("name at least one code page")
    for name, n in pages.items():
        if name not in EPSON:
            raise ValueError(f"unknown code page {name!r}: one of {', '.join(EPSON)}")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 255:
            raise ValueError(f"{name}: expected its ESC t number, 0 to 255, got {n!r}")
    return dict(pages)
