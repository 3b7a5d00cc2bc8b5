"""What the pages need from the catalogues: a language's texts as JSON for the browser.

A page marks its texts (`data-i18n`, `_t("...")`: kiosk.lang.extract); the director serves
`catalogue_json(lang)` for the language `negotiate` chose (kiosk.lang.codes), and the
page's script swaps each marked text for its entry. Plural forms are keyed by CLDR's
categories (one, few, many, other), which the browser's `Intl.PluralRules` names, so no
plural formula is evaluated in the page. Message keys (a refusal, a plan's reason) are
under `keys`: every key for the floor's pages, or only the groups a page renders itself
(`PLAYER_KEYS`: the refusals a player meets on a phone, whose first download stays small;
the director says every refusal in the reader's language already, as `error`).
Texts likewise: only those marked in the pages' own files (`PAGE_FILES`), or for a
players' page only in its files (`PLAYER_FILES`), so the kiosk's screens and a floor
page's hundreds of labels never ride in a phone's first download.
"""

from __future__ import annotations

import functools
from typing import Any

from kiosk.lang.catalogue import Entries, Forms, catalogue
from kiosk.lang.codes import NAMES
from kiosk.lang.files import TEMPLATE, read_catalog
from kiosk.lang.formats import locale_of

_SAMPLES = (*range(0, 200), 1000, 1_000_000)
# the key groups a players' page renders: a seat lookup, a reservation and its
# alternates, the web's own refusals (a rate, a form that is not JSON)
PLAYER_KEYS = ("seat.", "reservation.", "alternate.", "web.")
PAGE_FILES = ("kiosk/director/web/",)
# the files of the players' pages (and what they share with every page), by path prefix
PLAYER_FILES = tuple(f"kiosk/director/web/static/{name}" for name in (
    "players", "reservation", "reserve", "league", "live", "i18n", "page"))


@functools.cache
def _where() -> dict[str, frozenset[str]]:
    """Each text of the template -> the files that mark it."""
    if not TEMPLATE.is_file():
        return {}
    out: dict[str, frozenset[str]] = {}
    for m in read_catalog(TEMPLATE):
        if m.id and not m.context:
            src = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
            out[src] = frozenset(f for f, _ in m.locations)
    return out


def _categories(code: str, entries: Entries) -> dict[str, int]:
    """CLDR category -> the gettext form the catalogue keeps for it."""
    locale = locale_of(code)
    out: dict[str, int] = {}
    for n in _SAMPLES:
        out.setdefault(locale.plural_form(n), entries.plural(n))
    return out


def _shown(forms: Forms, categories: dict[str, int]) -> Any:
    if len(forms) == 1:
        return forms[0]
    return {cat: forms[min(i, len(forms) - 1)] for cat, i in sorted(categories.items())}


@functools.cache
def catalogue_json(code: str, keys: tuple[str, ...] | None = None,
                   files: tuple[str, ...] | None = None) -> dict[str, Any]:
    """`code`'s texts for a page: by English source (every text, or those marked in a
    file under one of `files`, such as PAGE_FILES), and by message key (every key, or
    those that start with one of `keys`, such as PLAYER_KEYS)."""
    cat = catalogue(code)
    cats = _categories(code, cat.entries)
    english = cat.english
    where = _where()

    def wanted(key: str) -> bool:
        return keys is None or key.startswith(keys)

    def marked(src: str) -> bool:
        return files is None or any(f.startswith(files) for f in where.get(src, ()))

    messages = {src: _shown(forms, cats) for src, forms in english.text.items()
                if marked(src)}
    messages.update({src: _shown(forms, cats) for src, forms in cat.entries.text.items()
                     if src in messages})
    keyed = {k: _shown(forms, cats) for k, forms in english.keyed.items() if wanted(k)}
    keyed.update({k: _shown(forms, cats) for k, forms in cat.entries.keyed.items()
                  if wanted(k)})
    return {"language": code, "name": NAMES.get(code, code), "messages": messages,
            "keys": keyed}
