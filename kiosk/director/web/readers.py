"""Which language the reader of a reply reads, and a refusal in it.

A floor login reads its own language (floor-users.toml); else the language the page's
chooser picked (`?lang=`, remembered in the `pk_lang` cookie) when the room offers it;
else a floor login reads the room's default, and anyone else (a player's phone, a TV) the
language its `Accept-Language` prefers among the room's, else the room's default
(kiosk.lang.codes.negotiate). The pseudo-locale is chosen only by address (`?lang=en_XA`):
the translator's check of a page. The director's one error
reply (kiosk.director.web.door) says a refusal as `error`, in that language, and gives
its key and arguments as `error_msg`, so a page renders it from its own catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from kiosk.base.texts import Msg, english
from kiosk.lang.catalogue import catalogue
from kiosk.lang.codes import PSEUDO, SHIPPED, SOURCE, negotiate, normal

CHOSEN = "pk_lang"      # the cookie that keeps a page's chosen language


@dataclass(frozen=True)
class Reading:
    """Who reads a page: its language, the languages its chooser offers (the room's),
    and the texts it downloads (`player`: a phone's small set; `floor`: every page's)."""

    code: str = SOURCE
    offered: tuple[str, ...] = (SOURCE,)
    texts: str = "floor"


@dataclass(frozen=True)
class Readers:
    """The room's languages (the default first) and how its numbers and times read."""

    languages: tuple[str, ...] = (SOURCE,)
    timezone: str = ""
    currency: str = ""

    @classmethod
    def of(cls, config: Any) -> Readers:
        """From the room's config (kiosk.config.room.RoomConfig), or English without one."""
        langs = tuple(getattr(config, "languages", ()) or ()) or (SOURCE,)
        return cls(langs, str(getattr(config, "timezone", "") or ""),
                   str(getattr(config, "currency", "") or ""))

    @property
    def default(self) -> str:
        return self.languages[0]

    def language(self, accept: str, own: str | None = None, logged_in: bool = False,
                 chosen: str = "", address: str = "") -> str:
        """A floor login's own language; else the one a page's chooser picked (`chosen`,
        the cookie; `address`, `?lang=`) among the room's; else the room's (`logged_in`);
        anyone else's by the `Accept-Language` header `accept`, among the room's."""
        if own:
            return own
        for picked in (address, chosen):
            code = normal(picked) if picked else None
            if code is not None and (code in self.languages or
                                     (code == PSEUDO and picked == address)):
                return code
        if logged_in:
            return self.default
        return negotiate(accept, self.languages, self.default)

    def say(self, message: Msg | str, language: str) -> str:
        """`message` in `language` (a plain English line as it is); English when that
        language is not shipped."""
        if isinstance(message, str):
            return message
        if language not in SHIPPED:
            return english(message)
        cat = catalogue(language)
        return cat.render(message, english(message),
                          fmt=cat.formats(self.timezone, self.currency))

    def speak(self, body: dict[str, Any], language: str, *fields: str) -> dict[str, Any]:
        """`body` with each of `fields` that holds a message key (or a list of them) said
        in `language`, and the keys beside it as `<field>_msg` (None for a plain line)."""
        for name in fields:
            value = body.get(name)
            if isinstance(value, Msg):
                body[name] = self.say(value, language)
                body[f"{name}_msg"] = msgspec.to_builtins(value)
            elif isinstance(value, list) and any(isinstance(v, Msg) for v in value):
                body[name] = [self.say(v, language) for v in value]
                body[f"{name}_msg"] = [msgspec.to_builtins(v) if isinstance(v, Msg) else None
                                       for v in value]
        return body
