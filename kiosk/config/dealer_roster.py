"""The roster in room.toml, edited in place: `[[dealers.roster]]` entries added, changed
or removed (and the room's badge salt added when the first badge comes), the rest of the
file, comments included, left as it was. The result is checked as the director reads it
before the file is replaced, so a bad edit changes nothing. Used by `pokerkiosk dealer`
and the room page; a badge and a PIN are written only as their salted hashes.
"""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.base.errors import ConfigError, KioskError
from kiosk.base.files import write
from kiosk.base.texts import M_
from kiosk.base.tomlfile import read_toml
from kiosk.config import dealers as dc
from kiosk.config.room import load_director_config

HEADER = "[[dealers.roster]]"


def roster(path: Path) -> list[dict[str, str]]:
    section = read_toml(path).get("dealers", {})
    found = section.get("roster", []) if isinstance(section, dict) else []
    return [d for d in found if isinstance(d, dict)]


def add(path: Path, name: str, badge: str | None = None, pin: str | None = None,
        language: str | None = None) -> bool:
    """Add `name` (or change its badge, PIN or language); whether it was there already."""
    name = dc.check_name(name)
    section = read_toml(path).get("dealers", {})
    text = path.read_text(encoding="utf-8")
    old = _find(path, name)
    salt = str(section.get("salt", "")) if isinstance(section, dict) else ""
    if badge is not None and not salt:
        salt = dc.new_salt()
        text = _with_salt(text, salt)
    entry = {"name": name,
             "badge": dc.badge_hash(badge, salt) if badge is not None
             else (old or {}).get("badge", ""),
             "pin": dc.pin_hash(pin) if pin is not None else (old or {}).get("pin", ""),
             "language": language if language is not None
             else (old or {}).get("language", "")}
    if old is not None:
        text = _without(text, str(old["name"]))
    _save(path, text.rstrip("\n") + "\n\n" + _block(entry))
    return old is not None


def remove(path: Path, name: str) -> str:
    """Remove `name` from the roster; the name as it was written."""
    old = _find(path, name)
    if old is None:
        raise KioskError(M_("roster.no_dealer", "no dealer {name} in {file}", name=name,
                            file=path.name))
    _save(path, _without(path.read_text(encoding="utf-8"), str(old["name"])))
    return str(old["name"])


def _find(path: Path, name: str) -> dict[str, str] | None:
    return next((d for d in roster(path) if str(d.get("name", "")).lower() == name.lower()),
                None)


def _block(entry: dict[str, str]) -> str:
    lines = [HEADER] + [f"{k} = {json.dumps(v)}" for k, v in entry.items() if v]
    return "\n".join(lines) + "\n"


def _without(text: str, name: str) -> str:
    """The text without the roster entry of `name` (its header up to the next header)."""
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        if lines[i].strip().replace(" ", "") == HEADER:
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("["):
                j += 1
            if any(_is_name(line, name) for line in lines[i:j]):
                while out and not out[-1].strip():
                    out.pop()
                out.append("\n")
                i = j
                continue
        out.append(lines[i])
        i += 1
    return "".join(out)


def _is_name(line: str, name: str) -> bool:
    key, _, value = line.partition("=")
    return key.strip() == "name" and value.strip() == json.dumps(name)


def _with_salt(text: str, salt: str) -> str:
    """The room's badge salt under `[dealers]`, the section added when missing."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.strip().replace(" ", "") == "[dealers]":
            lines.insert(i + 1, f'salt = "{salt}"\n')
            return "".join(lines)
    return text.rstrip("\n") + f'\n\n[dealers]\nsalt = "{salt}"\n'


def _save(path: Path, text: str) -> None:
    """Replace the file only when the director would read the result."""
    tmp = path.with_name(f".{path.name}.check.toml")
    try:
        write(tmp, text)
        load_director_config(tmp)
    except ConfigError as exc:
        raise KioskError(M_("roster.unchanged", "{file} unchanged: {why}", file=path.name,
                            why=exc.problem_msg)) from None
    finally:
        tmp.unlink(missing_ok=True)
    write(path, text, mode=path.stat().st_mode & 0o777)
