"""Floor logins: argon2 hashes in `floor-users.toml`, never passwords in clear.

The file sits beside event.toml (mode 0600) and is written by `pokerkiosk provision`
and `pokerkiosk floor-user`; the director re-reads it when it changes, so adding or
removing a login needs no restart. Each login has a role (`[roles] name = "floor"`); a
login the file gives no role is a `director`, as every login was before roles existed.
A login may have its own language for the floor's pages (`[languages] name = "cs"`);
without one, the pages speak the room's.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from kiosk.base import tomlwrite
from kiosk.base.errors import ConfigError, KioskError
from kiosk.base.files import SECRET, write
from kiosk.base.tomlfile import read_toml
from kiosk.lang.codes import UnknownLanguage
from kiosk.lang.codes import check as check_code

FILE = "floor-users.toml"
USER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,31}$")
# Passwords anyone in the room could guess: refused outside the demo.
KNOWN_DEFAULTS = ("floor", "password", "changeme", "pokerkiosk", "admin")
DEMO_USER, DEMO_PASSWORD = "floor", "floor"            # the demo's floor role
DEMO_DIRECTOR, DEMO_DIRECTOR_PASSWORD = "director", "director"   # and its director
MIN_LENGTH = 8
ROLES = ("director", "floor", "cashier")
DEFAULT_ROLE = "director"

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify(stored_hash: str, password: str) -> bool:
    """True when `password` matches; a malformed hash never matches."""
    try:
        return _hasher.verify(stored_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def is_hash(value: str) -> bool:
    return value.startswith("$argon2")


def has_default_password(user: str, stored_hash: str) -> bool:
    """The password is the user name or one of the well-known defaults."""
    return any(verify(stored_hash, pw) for pw in (user, *KNOWN_DEFAULTS))


def check_user_name(user: str) -> str:
    if not USER_RE.match(user):
        raise KioskError(f"floor user name {user!r}: use 1-32 letters, digits, '.', '_', "
                         "'@' or '-', starting with a letter or digit")
    return user


def check_new_password(user: str, password: str) -> str:
    if len(password) < MIN_LENGTH:
        raise KioskError(f"the password for {user} needs at least {MIN_LENGTH} characters")
    if password == user or password.lower() in KNOWN_DEFAULTS:
        raise KioskError(f"the password for {user} is one anyone could guess; choose another")
    return password


def check_role(role: str) -> str:
    if role not in ROLES:
        raise KioskError(f"role {role!r}: one of {', '.join(ROLES)}")
    return role


def check_language(code: str) -> str:
    """A login's language as the catalogues name it, or KioskError saying which there are."""
    try:
        return check_code(code)
    except UnknownLanguage as exc:
        raise KioskError(f"--language: {exc}") from None


def load(path: str | Path) -> dict[str, str]:
    """User -> argon2 hash; a missing file means no floor logins yet."""
    p = Path(path)
    if not p.exists():
        return {}
    data = read_toml(p)
    extra = sorted(set(data) - {"users", "roles", "languages"})
    if extra:
        raise ConfigError(str(p), extra[0], "unknown key (known: users, roles, languages)")
    users = data.get("users", {})
    if not isinstance(users, dict):
        raise ConfigError(str(p), "users", "expected a table of user = \"argon2 hash\"")
    for user, value in users.items():
        if not isinstance(value, str) or not is_hash(value):
            raise ConfigError(str(p), f"users.{user}",
                              "expected an argon2 hash, not a password: set it with "
                              f"`pokerkiosk floor-user add {user} --users {p}`")
        if not USER_RE.match(user):
            raise ConfigError(str(p), f"users.{user}", "not a valid floor user name")
    load_roles(p, data)
    load_languages(p, data)
    return dict(users)


def _section(path: Path, data: dict[str, object] | None, name: str,
             expected: str) -> dict[str, object]:
    """The file's `[name]` table (read from `path` when `data` is not given)."""
    if data is None:
        data = read_toml(path) if path.exists() else {}
    found = data.get(name, {})
    if not isinstance(found, dict):
        raise ConfigError(str(path), name, f"expected a table of {expected}")
    return found


def load_roles(path: str | Path, data: dict[str, object] | None = None) -> dict[str, str]:
    """User -> role, for the users the file names a role for (the others: director)."""
    p = Path(path)
    roles = _section(p, data, "roles", 'user = "director", "floor" or "cashier"')
    for user, role in roles.items():
        if role not in ROLES:
            raise ConfigError(str(p), f"roles.{user}", f"unknown role {role!r} (known: "
                              f"{', '.join(ROLES)})")
    return {user: str(role) for user, role in roles.items()}


def load_languages(path: str | Path, data: dict[str, object] | None = None
                   ) -> dict[str, str]:
    """User -> language, for the logins the file names one for (the others: the room's);
    an unknown code is a ConfigError naming the user's key and the codes there are."""
    p = Path(path)
    out = {}
    for user, code in _section(p, data, "languages", 'user = "de" (a language code)').items():
        try:
            if not isinstance(code, str):
                raise UnknownLanguage(f"expected a language code, got {code!r}")
            out[user] = check_code(code)
        except UnknownLanguage as exc:
            raise ConfigError(str(p), f"languages.{user}", str(exc)) from None
    return out


def save(path: str | Path, users: dict[str, str],
         roles: dict[str, str] | None = None,
         languages: dict[str, str] | None = None) -> Path:
    """Replace the file whole; an existing file keeps its owner, group and mode, so
    `sudo pokerkiosk floor-user add` leaves it readable by the director's user. Without
    `roles` (or `languages`), the users kept keep those the file gave them."""
    p = Path(path)
    old = p.stat() if p.exists() else None
    if roles is None:
        roles = load_roles(p) if old is not None else {}
    if languages is None:
        languages = load_languages(p) if old is not None else {}
    kept = {u: r for u, r in sorted(roles.items()) if u in users and r != DEFAULT_ROLE}
    spoken = {u: c for u, c in sorted(languages.items()) if u in users and c}
    header = ("Floor logins for the dashboard: argon2 hashes, written by `pokerkiosk\n"
              "floor-user` and `pokerkiosk provision`. Passwords are never stored here.\n"
              "[roles]: director (everything), floor or cashier; unnamed: director.\n"
              "[languages]: a login's own for the floor's pages; unnamed: the room's.")
    body: dict[str, dict[str, str]] = {"users": dict(sorted(users.items()))}
    if kept:
        body["roles"] = kept
    if spoken:
        body["languages"] = spoken
    write(p, tomlwrite.dumps(body, header),
          stat.S_IMODE(old.st_mode) if old else SECRET)
    if old is not None and os.geteuid() == 0:
        os.chown(p, old.st_uid, old.st_gid)
    return p


def file_of(config: str | Path) -> Path:
    """The floor-users file an event.toml or room.toml names (`floor_users_file`, beside
    the config unless absolute)."""
    cfg = Path(config)
    director = read_toml(cfg).get("director", {})
    name = director.get("floor_users_file", FILE) if isinstance(director, dict) else FILE
    return Path(name) if Path(name).is_absolute() else cfg.parent / name
