"""The language this process shows now: a table kiosk speaks one language at a time (the
room's default, its table's own, or the badged-in dealer's) and switches at run time.

Code that composes a text for the screen marks it `_("...")` (or `ngettext`, or
`render(msg)` for a message key): each call reads the language active at that moment, so
the next frame after a switch is in the new language. The formats (time zone, currency)
are the room's, set with the language.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from kiosk.base.texts import Msg
from kiosk.lang.catalogue import Catalogue, catalogue
from kiosk.lang.codes import PSEUDO, SHIPPED, SOURCE
from kiosk.lang.formats import Formats


class _Active:
    def __init__(self) -> None:
        self.cat: Catalogue = catalogue(SOURCE)
        self.fmt = Formats(SOURCE)
        self.timezone, self.currency = "", ""
        self.listeners: list[Callable[[str], None]] = []
        self.lock = threading.Lock()


_state = _Active()


def language() -> str:
    return _state.cat.code


def use(code: str, *, timezone: str | None = None, currency: str | None = None) -> bool:
    """Speak `code` from now on (and format for this zone and currency); whether the
    language changed. Listeners (the screen's fonts) hear of a change."""
    if code not in SHIPPED and code != PSEUDO:
        code = SOURCE          # a language this kiosk does not ship (a newer director's)
    with _state.lock:
        if timezone is not None:
            _state.timezone = timezone
        if currency is not None:
            _state.currency = currency
        changed = code != _state.cat.code
        _state.cat = catalogue(code)
        _state.fmt = _state.cat.formats(_state.timezone, _state.currency)
        listeners = list(_state.listeners)
    if changed:
        for fn in listeners:
            fn(code)
    return changed


def on_change(fn: Callable[[str], None]) -> None:
    with _state.lock:
        _state.listeners.append(fn)


def _(text: str) -> str:
    """`text` in the active language."""
    return _state.cat.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _state.cat.ngettext(singular, plural, n)


def render(m: Msg | Mapping[str, Any] | str | None, fallback: str = "",
           language: str | None = None) -> str:
    """A message key and its arguments in the active language (kiosk.lang.catalogue), or
    in `language` when one reader in particular reads it (a dealer's answer)."""
    if language and language != _state.cat.code and language in SHIPPED:
        cat = catalogue(language)
        return cat.render(m, fallback, fmt=cat.formats(_state.timezone, _state.currency))
    return _state.cat.render(m, fallback, fmt=_state.fmt)


def fmt() -> Formats:
    """Numbers, chips, blinds, money and times as the active language writes them."""
    return _state.fmt


def N_(text: str) -> str:
    """Marks `text` for the catalogue where it is defined; translated where shown."""
    return text
