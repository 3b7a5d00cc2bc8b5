"""`[dealers]` of room.toml: the dealers' rotation settings and the roster.

The settings (down and break length, downs between breaks, strings of N tables or one
round robin, the final table's longer downs) are checked when the file loads, each with a
clear error. The roster is `[[dealers.roster]]`: a name, and a badge and a PIN kept only as
salted hashes. A badge is hashed with scrypt under the room's own salt (`[dealers] salt`),
so a badge read at a table is found among the roster in one look-up without the badge ever
being stored; a PIN is an argon2 hash, checked against the one dealer who is due.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from msgspec import Meta

from kiosk.base.errors import ConfigError, KioskError
from kiosk.base.texts import M_
from kiosk.config.files import _doc, _Section
from kiosk.core.dealers.state import Rotation
from kiosk.lang.codes import UnknownLanguage, check

MAX_DEALERS = 1000
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .'_-]{0,31}$")
PIN_RE = re.compile(r"^\d{4,8}$")
BADGE_PREFIX = "scrypt$"
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1, "dklen": 32}


class DealerEntry(_Section):
    """`[[dealers.roster]]`: one dealer of the room."""

    name: Annotated[str, _doc("the dealer's name, as the kiosk header and the board show it",
                              pattern=NAME_RE.pattern)]
    badge: Annotated[str, _doc("the badge's salted hash (scrypt$...), written by `pokerkiosk "
                               "dealer add --badge ID`; never the badge itself")] = ""
    pin: Annotated[str, _doc("the PIN's argon2 hash, written by `pokerkiosk dealer add "
                             "--pin`; never the PIN itself")] = ""
    language: Annotated[str, _doc("the dealer's own language (en, es, de, fr, cs, pt_BR, "
                                  "zh_Hans): the kiosk speaks it while this dealer deals; "
                                  "unset: the table's", max_length=16)] = ""


class DealersSection(_Section):
    """`[dealers]`: how the room rotates its dealers."""

    down_minutes: Annotated[int, _doc("a down: minutes a dealer deals at one table before "
                                      "the push", ge=10, le=120)] = 30
    break_minutes: Annotated[int, _doc("a dealer's break", ge=5, le=60)] = 15
    downs_between_breaks: Annotated[int, _doc("downs a dealer deals before a break",
                                              ge=1, le=12)] = 4
    strings: Annotated[Literal["size", "round_robin"],
                       _doc("size: strings of `string_size` tables, each with its relief; "
                            "round_robin: one string over every table")] = "size"
    string_size: Annotated[int, _doc("tables a relief pushes in turn", ge=2, le=8)] = 4
    final_table_down_minutes: Annotated[int, _doc("a final table's down (0: as any "
                                                  "table's)", ge=0, le=240)] = 0
    salt: Annotated[str, _doc("the room's salt for badge hashes (written by `pokerkiosk "
                              "dealer add`)", pattern=r"^([0-9a-f]{32})?$")] = ""
    roster: Annotated[list[DealerEntry], Meta(
        max_length=MAX_DEALERS, description="`[[dealers.roster]]`: each dealer's `name`, "
        "`badge` (its salted hash), `pin` (its argon2 hash) and `language` (their own: "
        "the kiosk speaks it while they deal)")] = []


@dataclass(frozen=True)
class DealerSpec:
    name: str
    badge: str = ""     # the salted hash
    pin: str = ""       # the argon2 hash
    language: str = ""  # the dealer's own ("": the table's)


@dataclass(frozen=True)
class DealersConfig:
    settings: Rotation
    roster: tuple[DealerSpec, ...] = ()
    salt: str = ""

    def find_badge(self, badge: str) -> DealerSpec | None:
        """The dealer whose badge this is, or None (the badge is hashed, never kept)."""
        if not self.salt or not badge:
            return None
        digest = badge_hash(badge, self.salt)
        return next((d for d in self.roster if d.badge and hmac.compare_digest(d.badge, digest)),
                    None)

    def dealer(self, name: str) -> DealerSpec | None:
        return next((d for d in self.roster if d.name == name), None)


def settings_of(sec: DealersSection) -> Rotation:
    return Rotation(down=sec.down_minutes * 60.0, brk=sec.break_minutes * 60.0,
                            downs_between_breaks=sec.downs_between_breaks,
                            string_size=0 if sec.strings == "round_robin" else sec.string_size,
                            final_table_down=sec.final_table_down_minutes * 60.0)


def dealers_config(source: str, sec: DealersSection) -> DealersConfig:
    """The section checked as a whole: names once each, hashes that are hashes."""
    seen: set[str] = set()
    for i, d in enumerate(sec.roster):
        if d.name.lower() in seen:
            raise ConfigError(source, f"dealers.roster.{i}.name",
                              f"two dealers are named {d.name!r}")
        seen.add(d.name.lower())
        if d.badge and not d.badge.startswith(BADGE_PREFIX):
            raise ConfigError(source, f"dealers.roster.{i}.badge", "a badge is kept only as "
                              "its hash: add it with `pokerkiosk dealer add NAME --badge ID`")
        if d.badge and not sec.salt:
            raise ConfigError(source, "dealers.salt", "badges are hashed with the room's "
                              "salt, and it is missing")
        if d.pin and not d.pin.startswith("$argon2"):
            raise ConfigError(source, f"dealers.roster.{i}.pin", "a PIN is kept only as its "
                              "hash: set it with `pokerkiosk dealer add NAME --pin`")
        _language(source, i, d.language)
    badges = [d.badge for d in sec.roster if d.badge]
    if len(set(badges)) != len(badges):
        raise ConfigError(source, "dealers.roster", "two dealers share one badge")
    if sec.final_table_down_minutes and sec.final_table_down_minutes < sec.down_minutes:
        raise ConfigError(source, "dealers.final_table_down_minutes",
                          f"{sec.final_table_down_minutes} is shorter than a down "
                          f"({sec.down_minutes}): the final table keeps its dealers longer")
    return DealersConfig(settings_of(sec),
                         tuple(DealerSpec(d.name, d.badge, d.pin,
                                          _language(source, i, d.language))
                               for i, d in enumerate(sec.roster)),
                         sec.salt)


def _language(source: str, i: int, code: str) -> str:
    """A dealer's language as the catalogues name it, or a clear error."""
    try:
        return check(code) if code else ""
    except UnknownLanguage as exc:
        raise ConfigError(source, f"dealers.roster.{i}.language", str(exc)) from None


def new_salt() -> str:
    return secrets.token_hex(16)


def badge_hash(badge: str, salt: str) -> str:
    digest = hashlib.scrypt(badge.strip().encode(), salt=bytes.fromhex(salt), **_SCRYPT)
    return BADGE_PREFIX + digest.hex()


def _hasher() -> Any:
    """argon2 is the director's (its extra): a table's kiosk and doctor read room
    settings through this module without it."""
    from argon2 import PasswordHasher

    return PasswordHasher()


def pin_hash(pin: str) -> str:
    if not PIN_RE.match(pin):
        raise KioskError(M_("roster.pin", "a PIN is 4 to 8 digits"))
    return str(_hasher().hash(pin))


def pin_ok(stored: str, pin: str) -> bool:
    """True when `pin` matches the stored hash; a malformed hash never matches."""
    from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

    if not stored:
        return False
    try:
        return bool(_hasher().verify(stored, pin))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise KioskError(M_("roster.name", "dealer name {name}: 1-32 letters, digits, "
                            "spaces, '.', \"'\", '_' or '-', starting with a letter or digit",
                            name=repr(name)))
    return name


__all__ = ["DealerEntry", "DealerSpec", "DealersConfig", "DealersSection",
           "badge_hash", "dealers_config", "new_salt", "pin_hash",
           "pin_ok"]
