"""The words of one slip in its reader's language.

A slip is read by one person: the player it is for (the language registration kept),
else the room's (or the table's) default. Unlike a screen, a printer serves every
language at once, so a slip does not use the process's active language
(kiosk.lang.active): it asks that reader's catalogue and formats directly.
"""

from __future__ import annotations

from kiosk.base.texts import Msg
from kiosk.lang.catalogue import Catalogue, catalogue
from kiosk.lang.codes import SHIPPED, SOURCE, normal
from kiosk.lang.formats import Formats


def reader_language(code: str) -> str:
    """A shipped language for `code` (any spelling), English for an unknown or none."""
    found = normal(code) if code else None
    return found if found in SHIPPED else SOURCE


class Reader:
    """`_`, `render` and the formats (money, places, dates) of one reader."""

    def __init__(self, language: str, timezone: str = "", currency: str = "") -> None:
        self.code = reader_language(language)
        self.cat: Catalogue = catalogue(self.code)
        self.fmt: Formats = self.cat.formats(timezone, currency)

    def _(self, text: str) -> str:
        return self.cat.gettext(text)

    def render(self, m: Msg | str) -> str:
        """A message key in this language; a plain text is looked up as a source."""
        return self._(m) if isinstance(m, str) else self.cat.render(m, fmt=self.fmt)
