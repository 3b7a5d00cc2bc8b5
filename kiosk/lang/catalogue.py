"""One language's catalogue: the `.po` files kept in the repository, compiled to `.mo`
when the package is built (kiosk.lang.build); an editable install without `.mo` files reads
the `.po` itself, so a checkout runs as a built package does.

A text is looked up by its English source (`gettext`, `ngettext`) or, for a message that
came as a key (kiosk.base.texts.Msg), by its key, which is the entry's context. An entry
the catalogue lacks (or leaves empty) is shown in English and counted (`missing()`), so
the health lines can say how many texts a room read in English.
"""

from __future__ import annotations

import functools
import gettext
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo

from kiosk.base.texts import PLURAL_ARG, Msg, as_msg, source_of
from kiosk.lang.codes import PSEUDO, SHIPPED, SOURCE
from kiosk.lang.files import TEMPLATE, po_path, read_catalog
from kiosk.lang.formats import Formats, Placeholders
from kiosk.lang.pseudo import pseudo_catalog

log = logging.getLogger(__name__)

Forms = tuple[str, ...]          # one string, or the plural forms


def _compiled(code: str) -> Catalog | None:
    """The `.mo` beside the `.po` when it is as new: what a built package ships."""
    po = po_path(code)
    mo = po.with_suffix(".mo")
    if not mo.is_file() or (po.is_file() and mo.stat().st_mtime < po.stat().st_mtime):
        return None
    with mo.open("rb") as f:
        return read_mo(f)


@dataclass
class Entries:
    """A catalogue's entries as look-ups: by source text, by source and key, by key."""

    text: dict[str, Forms] = field(default_factory=dict)
    keyed: dict[str, Forms] = field(default_factory=dict)
    sources: dict[str, Forms] = field(default_factory=dict)    # key -> English forms
    plural: Callable[[int], int] = lambda n: int(n != 1)
    forms: int = 2                  # plural forms the language has (Chinese: one)

    @classmethod
    def of(cls, cat: Catalog, *, english: bool = False) -> Entries:
        out = cls(plural=gettext.c2py(cat.plural_expr or "(n != 1)"),
                  forms=2 if english else cat.num_plurals)
        for m in cat:
            if not m.id:
                continue
            ids: Forms = tuple(m.id) if isinstance(m.id, (list, tuple)) else (m.id,)
            strs: Forms = ids if english else (
                tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string or "",))
            if not all(strs):
                continue             # untranslated: English, counted where it is shown
            if m.context:
                out.keyed[m.context] = strs
                out.sources[m.context] = ids
            else:
                out.text[ids[0]] = strs
        return out


class Catalogue:
    """A language's texts and formats; `render` turns a message key into words."""

    def __init__(self, code: str, entries: Entries, english: Entries | None = None) -> None:
        self.code = code
        self.entries = entries
        self.english = english or entries
        self._missing: set[str] = set()
        self._lock = threading.Lock()

    # ------------------------------------------------------------- looking up
    def gettext(self, text: str) -> str:
        found = self.entries.text.get(text)
        if found is None:
            self._miss(text)
            return text
        return found[0]

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        found = self.entries.text.get(singular)
        if found is None or (len(found) < min(2, self.entries.forms) and self.code != SOURCE):
            self._miss(singular)
            return singular if n == 1 else plural
        return found[min(self.entries.plural(n), len(found) - 1)]

    def _miss(self, what: str) -> None:
        if self.code == SOURCE:
            return
        with self._lock:
            if what not in self._missing:
                self._missing.add(what)
                log.info("%s: no translation for %r: shown in English", self.code, what[:80])

    def missing(self) -> int:
        """How many texts this catalogue showed in English for want of an entry."""
        return len(self._missing)

    # ------------------------------------------------------------- rendering
    def formats(self, timezone: str = "", currency: str = "") -> Formats:
        return _formats(self.code, timezone, currency)

    def render(self, m: Msg | Mapping[str, Any] | str | None, fallback: str = "", *,
               fmt: Formats | None = None) -> str:
        """A message key and its arguments in this language. Plain text (an English
        refusal no key was given) and a key this catalogue does not know (a newer
        director's) show `fallback` or the English, and are counted."""
        if isinstance(m, str):
            if m:
                self._miss(m)
            return m
        found = as_msg(m)
        if found is None:
            return fallback
        forms = self._forms(found, fallback)
        if forms is None:
            self._miss(found.key)
            return fallback or found.key
        fmt = fmt or self.formats()
        text = forms[0]
        if len(forms) > 1:
            n = found.args.get(PLURAL_ARG, 1)
            text = forms[min(self.entries.plural(int(n)), len(forms) - 1)] \
                if isinstance(n, (int, float)) else forms[-1]
        try:
            return Placeholders(fmt, lambda x: self.render(x, fmt=fmt)).vformat(
                text, (), dict(found.args))
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            log.warning("%s: %s does not fill %r: %s", self.code, found.key, text, exc)
            return fallback or text

    def _forms(self, m: Msg, fallback: str) -> Forms | None:
        forms = self.entries.keyed.get(m.key)
        if forms is not None:
            return forms
        if self.code != SOURCE:
            self._miss(m.key)
        english = self.english.keyed.get(m.key)
        if english is not None:
            return english
        source = source_of(m)        # a key this process made, not yet in the template
        return None if fallback or not source else (source,)


@functools.cache
def _formats(code: str, timezone: str, currency: str) -> Formats:
    return Formats(code, timezone, currency)


_CACHE: dict[str, Catalogue] = {}
_CACHE_LOCK = threading.Lock()


def english_entries() -> Entries:
    return _english()


@functools.cache
def _english() -> Entries:
    """English: the template's sources (no `en.po` is needed)."""
    return Entries.of(read_catalog(TEMPLATE), english=True) if TEMPLATE.is_file() else Entries()


def catalogue(code: str) -> Catalogue:
    """The catalogue of a shipped language (English for the source), loaded once."""
    with _CACHE_LOCK:
        found = _CACHE.get(code)
        if found is None:
            found = _CACHE[code] = _load(code)
        return found


def _load(code: str) -> Catalogue:
    if code == SOURCE:
        return Catalogue(SOURCE, _english())
    if code == PSEUDO:
        return Catalogue(PSEUDO, Entries.of(pseudo_catalog()), _english())
    if code not in SHIPPED:
        raise ValueError(f"no catalogue for {code!r}")
    cat = _compiled(code)
    if cat is None:
        po = po_path(code)
        if not po.is_file():
            log.warning("%s: no catalogue at %s: every text in English", code, po)
            return Catalogue(code, Entries(), _english())
        cat = read_catalog(po, code)
    return Catalogue(code, Entries.of(cat), _english())


def missing_counts() -> dict[str, int]:
    """Texts shown in English for want of an entry, by language (those with any)."""
    with _CACHE_LOCK:
        cats = list(_CACHE.values())
    return {c.code: c.missing() for c in cats if c.missing()}


def reload() -> None:
    """Forget the loaded catalogues (after `tool compile`, and between tests)."""
    with _CACHE_LOCK:
        _CACHE.clear()
    _english.cache_clear()
