"""Which language each table speaks, and the words a plan carries for older kiosks.

A plan carries every sentence as a message key (`hold_msg`, a seat's `penalty_msg`, the
count's `label_msg` and `recount_msg`, the dealer's `outgoing_to_msg`); each kiosk renders
them in its own language. Beside each key the plan keeps the field older kiosks read
(`hold_reason`, `penalty`...), written here in the room's default language, so a table
still on the previous release during a rollout shows the room's language. The plan names
the table's language (room.toml: its own, else the room's default) and the dealing
dealer's, from the roster.
"""

from __future__ import annotations

from typing import Any

from kiosk.base.texts import Msg, as_msg, english
from kiosk.lang.catalogue import Catalogue, catalogue
from kiosk.lang.codes import SOURCE

# (where in the plan, the text field older kiosks read, its message key beside it)
_SEAT = ("penalty", "penalty_msg")
_COUNT = (("label", "label_msg"), ("recount", "recount_msg"))
_DEALER = ("outgoing_to", "outgoing_to_msg")


class Speech:
    """The room's languages as its plans say them."""

    def __init__(self, config: Any) -> None:
        self.default = str(getattr(config, "language", SOURCE) or SOURCE)
        self.table_language = getattr(config, "table_language", lambda table: self.default)
        dealers = getattr(config, "dealers", None)
        self.dealer_languages = {d.name: d.language for d in getattr(dealers, "roster", ())
                                 if d.language}
        self.timezone = str(getattr(config, "timezone", "") or "")
        self.currency = str(getattr(config, "currency", "") or "")
        self.cat: Catalogue | None = None if self.default == SOURCE else catalogue(self.default)

    def plan(self, table: int, body: dict[str, Any]) -> dict[str, Any]:
        """`body` with the table's language named, the dealer's too, and the texts of
        older kiosks in the room's default language (English needs no rewriting: the
        core wrote it)."""
        lang = self.table_language(table)
        if lang != SOURCE:
            body["language"] = lang
        dealer = body.get("dealer")
        if isinstance(dealer, dict):
            spoken = self.dealer_languages.get(str(dealer.get("dealer") or ""))
            if spoken:
                dealer["language"] = spoken
        if self.cat is not None:
            self._default_words(body)
        return body

    def _default_words(self, body: dict[str, Any]) -> None:
        self._word(body, "hold_reason", "hold_msg")
        for seat in (body.get("seats") or {}).values():
            self._word(seat, *_SEAT)
        count = body.get("chip_count")
        if isinstance(count, dict):
            for text, key in _COUNT:
                self._word(count, text, key)
        dealer = body.get("dealer")
        if isinstance(dealer, dict):
            self._word(dealer, *_DEALER)

    def _word(self, part: dict[str, Any], text: str, key: str) -> None:
        found = as_msg(part.get(key))
        if found is not None and self.cat is not None:
            fmt = self.cat.formats(self.timezone, self.currency)
            part[text] = self.cat.render(found, str(part.get(text) or ""), fmt=fmt)

    def say(self, m: Msg | str) -> str:
        """A message key in the room's default language (English: the source); words
        are said as they are."""
        if isinstance(m, str):
            return m
        if self.cat is None:
            return english(m)
        return self.cat.render(m, english(m), fmt=self.cat.formats(self.timezone,
                                                                    self.currency))

    def refusal(self, exc: BaseException) -> tuple[str, Any]:
        """A refused report's reason in the room's default language, and its key."""
        found = getattr(exc, "msg", None)
        if found is None or self.cat is None:
            return str(exc), found
        return self.cat.render(found, str(exc), fmt=self.cat.formats(self.timezone,
                                                                     self.currency)), found
