"""`pokerkiosk dealer add|list|remove NAME --config room.toml`: the room's dealers.

The roster lives in room.toml as `[[dealers.roster]]` entries. This command edits only
those entries (and the room's badge salt), leaving the rest of the file, comments
included, as it was; the file is checked as the director will read it before it is
replaced, so a bad edit changes nothing. A badge (`--badge ID`) and a PIN (`--pin`, asked
for or read from standard input) are written only as salted hashes.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from pathlib import Path

from kiosk.base.errors import ConfigError, KioskError
from kiosk.base.files import write
from kiosk.base.tomlfile import read_toml
from kiosk.config import dealers as dc
from kiosk.config.room import load_director_config

HEADER = "[[dealers.roster]]"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("add", "remove", "list"),
                   help="add (or change) a dealer, remove one, or list the roster")
    p.add_argument("name", nargs="?", help="the dealer's name")
    p.add_argument("--config", required=True, help="the room's room.toml")
    p.add_argument("--badge", help="the dealer's badge id, as the card reader reads it "
                                   "(kept only as a salted hash)")
    p.add_argument("--pin", action="store_true",
                   help="set a PIN (4-8 digits), asked for or read from standard input")


def ask_pin(name: str) -> str:
    if not sys.stdin.isatty():
        line = sys.stdin.readline().strip()
        if not line:
            raise KioskError("no PIN on standard input")
        return line
    first = getpass.getpass(f"PIN for {name}: ")
    if getpass.getpass("again: ") != first:
        raise KioskError("the two PINs differ; nothing changed")
    return first


def run(args: argparse.Namespace) -> int:
    path = Path(args.config)
    if not path.exists():
        raise KioskError(f"{path}: no such file")
    section = read_toml(path).get("dealers", {})
    roster = section.get("roster", []) if isinstance(section, dict) else []
    if args.action == "list":
        print(_listing(roster, path))
        return 0
    if not args.name:
        raise KioskError(f"dealer {args.action} needs a NAME")
    name = dc.check_name(args.name)
    text = path.read_text(encoding="utf-8")
    old = next((d for d in roster if str(d.get("name", "")).lower() == name.lower()), None)
    if args.action == "remove":
        if old is None:
            raise KioskError(f"no dealer {name} in {path}")
        _save(path, _without(text, str(old["name"])))
        print(f"removed {old['name']} from {path}")
        return 0
    salt = str(section.get("salt", "")) if isinstance(section, dict) else ""
    if args.badge is not None and not salt:
        salt = dc.new_salt()
        text = _with_salt(text, salt)
    entry = {"name": name,
             "badge": dc.badge_hash(args.badge, salt) if args.badge is not None
             else (old or {}).get("badge", ""),
             "pin": dc.pin_hash(ask_pin(name)) if args.pin else (old or {}).get("pin", "")}
    if old is not None:
        text = _without(text, str(old["name"]))
    _save(path, text.rstrip("\n") + "\n\n" + _block(entry))
    print(f"{'changed' if old else 'added'} {name} in {path}"
          + (" (badge)" if entry["badge"] else "") + (" (PIN)" if entry["pin"] else ""))
    return 0


def _listing(roster: list[dict[str, str]], path: Path) -> str:
    if not roster:
        return f"no dealers in {path}"
    return "\n".join(f"{d.get('name')}" + (" · badge" if d.get("badge") else "")
                     + (" · PIN" if d.get("pin") else "") for d in roster)


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
            body = lines[i:j]
            if any(_is_name(line, name) for line in body):
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
        raise KioskError(f"{path} unchanged: {exc.problem}") from None
    finally:
        tmp.unlink(missing_ok=True)
    write(path, text, mode=path.stat().st_mode & 0o777)
