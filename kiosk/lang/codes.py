"""Language codes: which languages ship, how a code from a file, a form or a phone is
read, and which shipped language answers a phone's `Accept-Language`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

SOURCE = "en"
# gettext folder names; zh_Hans is CLDR's Simplified Chinese (zh_CN / zh-Hans read as it)
SHIPPED: tuple[str, ...] = ("en", "es", "de", "fr", "cs", "pt_BR", "zh_Hans")
PSEUDO = "en_XA"          # marked and lengthened: finds text that skipped the catalogue
NAMES = {"en": "English", "es": "Español", "de": "Deutsch", "fr": "Français",
         "cs": "Čeština", "pt_BR": "Português (Brasil)", "zh_Hans": "简体中文",
         PSEUDO: "Pseudo"}
# other spellings of the shipped codes (BCP 47 tags, gettext's usual names)
ALIASES = {"zh": "zh_Hans", "zh_cn": "zh_Hans", "zh_sg": "zh_Hans", "zh_hans": "zh_Hans",
           "zh_hans_cn": "zh_Hans", "pt": "pt_BR", "pt_br": "pt_BR", "en_xa": PSEUDO}
_TAG = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,3}$")


class UnknownLanguage(ValueError):
    """A code that names no language this product ships; the message lists them."""


def normal(code: str) -> str | None:
    """The shipped code `code` means (any case, '-' or '_'), or None."""
    key = code.strip().replace("-", "_").lower()
    if not key or not _TAG.match(key):
        return None
    for c in (*SHIPPED, PSEUDO):
        if c.lower() == key:
            return c
    return ALIASES.get(key)


def check(code: str, *, pseudo: bool = False) -> str:
    """The shipped code for `code`, or UnknownLanguage saying which codes there are."""
    found = normal(code)
    if found is None or (found == PSEUDO and not pseudo):
        raise UnknownLanguage(f"unknown language {code!r}: one of {', '.join(SHIPPED)}")
    return found


def negotiate(accept: str, offered: Sequence[str], default: str) -> str:
    """The language of `offered` that an `Accept-Language` header prefers, else
    `default` (the room's): a phone asking for an unshipped language reads the room's."""
    best: tuple[float, int, str] | None = None
    for i, (tag, q) in enumerate(_ranges(accept)):
        found = _match(tag, offered)
        if found is not None and q > 0 and (best is None or (q, -i) > best[:2]):
            best = (q, -i, found)
    return best[2] if best is not None else default


def _ranges(accept: str) -> Iterable[tuple[str, float]]:
    for part in accept.split(",")[:30]:
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*":
            yield tag.strip(), q


_TRADITIONAL = {"hant", "tw", "hk", "mo"}   # Traditional Chinese is not zh_Hans


def _match(tag: str, offered: Sequence[str]) -> str | None:
    """`tag` or its language alone ("de-AT" is "de"), as one of `offered`."""
    parts = tag.replace("-", "_").lower().split("_")
    if parts[0] == "zh" and _TRADITIONAL & set(parts[1:]):
        return None
    for candidate in (tag, tag.replace("-", "_").split("_")[0]):
        found = normal(candidate)
        if found in offered:
            return found
    return None
