"""The doctor's lines on languages: whether this release's catalogues translate every
text (a text a catalogue lacks is shown in English, and counted), whether the font
Chinese needs is installed, and how many texts a running director and its tables
actually showed in English (its /api/health `untranslated`)."""

from __future__ import annotations

from typing import Any

from kiosk.appliance.checks import Check, ok
from kiosk.lang.checks import catalogue_problems
from kiosk.lang.codes import SHIPPED, SOURCE
from kiosk.lang.files import TEMPLATE, read_catalog
from kiosk.lang.fonts import cjk_font

FIX = "python -m kiosk.lang check names each; translate them (docs/languages.md)"


def languages() -> Check:
    """WARN when a shipped catalogue lacks texts or the CJK font is missing: the room
    runs, but a reader sees English (or boxes) there."""
    template = read_catalog(TEMPLATE)
    gaps = {code: n for code in SHIPPED if code != SOURCE
            if (n := len(catalogue_problems(code, template)))}
    if gaps:
        return Check("WARN", "languages", "texts not translated, shown in English: "
                     + ", ".join(f"{c} {n}" for c, n in sorted(gaps.items())), FIX)
    font = cjk_font()
    if font is None:
        return Check("WARN", "languages", "no CJK font: Chinese screens and slips show "
                     "boxes", "apt install fonts-wqy-microhei")
    return ok("languages", f"{len(SHIPPED)} languages, every text translated; Chinese "
                           f"in {font}")


def shown_in_english(health: dict[str, Any] | None) -> list[Check]:
    """What the running director's health line counts: texts its screens (and its
    tables') showed in English for want of an entry, by language and table."""
    found = (health or {}).get("untranslated")
    if not isinstance(found, dict):
        return []
    own, tables = (part if isinstance(part := found.get(k), dict) else {}
                   for k in ("director", "tables"))
    parts = [f"{code} {n}" for code, n in sorted(own.items()) if n] + \
        [f"table {t}: {n}" for t, n in sorted(tables.items(), key=lambda kv: str(kv[0]))
         if n]
    if not parts:
        return [ok("untranslated", "the running room showed every text in its language")]
    return [Check("WARN", "untranslated", "texts shown in English for want of a "
                  "translation: " + ", ".join(parts), FIX)]
