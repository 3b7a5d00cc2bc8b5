"""docs/config.md, generated from the config schema so the reference never drifts.

`python -m kiosk.config.doc > docs/config.md`; a test fails when the file is stale.
"""

from __future__ import annotations

import sys
import typing
from typing import Any

import msgspec

from kiosk.config.files import EventFile, TableFile
from kiosk.config.room import RoomFile

INTRO = """\
# Configuration reference

Generated from the schema in `kiosk/config/files.py` (`python -m kiosk.config.doc >
docs/config.md`); a test fails when this file and the schema disagree.

Every key is optional unless marked *required*. A misspelt key, a wrong type or a value
out of bounds stops the program with one line naming the file, the key and what was
expected. Relative paths are relative to the file they are written in.

`pokerkiosk provision` writes the files for a room; `pokerkiosk demo` writes its own.
A room.toml's `[director] db` defaults to `room.db`. Each `[[events]]` entry takes every
`[event]` key plus the room's own, its money as `[events.money]` (the `[money]` keys) and
its shot clock as `[events.shot_clock]` (the `[shot_clock]` keys).

## Changing settings after the event exists

The `[event]` and `[shot_clock]` settings are written into the event log when the
director first starts. Changing any of them afterwards stops the director at start with
a line naming the key: put the old value back, or start a new event with `pokerkiosk
new-event --config event.toml`, which renames the old log (`event-YYYYmmdd-HHMMSS.db`, kept for the
record) so the next director start creates the event afresh. The `[broker]` and
`[director]` settings apply at every start.

## Floor logins

Floor logins are not in `event.toml`: they live as argon2 hashes in the file named by
`[director] floor_users_file` (`floor-users.toml`, mode 0600), written by `pokerkiosk
provision` and changed with `pokerkiosk floor-user add NAME --config event.toml` (asks
for the password), `remove NAME` and `list`. The director re-reads the file when it
changes; removing a user ends that user's sessions. Passwords anyone could guess (the
user's own name, `floor`, `password`, `changeme`, ...) are refused, except by
`pokerkiosk demo`. Each login has a role, in the file's `[roles]` table and set with
`floor-user add NAME --role director|floor|cashier`: a `director` may do everything; the
`floor` calls, moves, busts, tables, the clock, penalties and registration; a `cashier`
registration, money (rebuys, re-entries, add-ons, payouts, deals) and tickets. A login
with no role is a director, as every login was before roles. A login may have its own
language for the floor's pages, in the file's `[languages]` table and set with
`floor-user add NAME --language CODE` (docs/languages.md); the login and snapshot JSON
name it.
"""


def _type(t: Any) -> str:
    origin = typing.get_origin(t)
    if origin is typing.Annotated:
        return _type(typing.get_args(t)[0])
    if origin is list:
        return f"list of {_type(typing.get_args(t)[0])}s"
    args = [a for a in typing.get_args(t) if a is not type(None)]
    if args and len(args) < len(typing.get_args(t)):
        return _type(args[0])
    return {int: "integer", float: "number", str: "string", bool: "true/false"}.get(
        t, getattr(t, "__name__", str(t)))


def _metas(t: Any) -> list[msgspec.Meta]:
    out: list[msgspec.Meta] = []
    if typing.get_origin(t) is typing.Annotated:
        args = typing.get_args(t)
        out += [m for m in args[1:] if isinstance(m, msgspec.Meta)]
        out += _metas(args[0])
    for a in typing.get_args(t) if typing.get_origin(t) is not typing.Annotated else ():
        out += _metas(a)
    return out


def _bounds(metas: list[msgspec.Meta]) -> str:
    parts = []
    for m in metas:
        if m.ge is not None:
            parts.append(f">= {m.ge:g}")
        if m.le is not None:
            parts.append(f"<= {m.le:g}")
    return ", ".join(parts)


def _default(f: msgspec.structs.FieldInfo) -> str:
    if f.required:
        return "*required*"
    value = f.default
    if value is msgspec.NODEFAULT and f.default_factory is not msgspec.NODEFAULT:
        made = f.default_factory()
        if isinstance(made, (list, dict)):
            value = made              # a list or a table
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value!r}`".replace("'", '"')


def section_table(name: str, cls: type) -> list[str]:
    if typing.get_origin(cls) is typing.Annotated:
        cls = typing.get_args(cls)[0]
    many = typing.get_origin(cls) is list
    if many:   # an array of tables: [[events]]
        cls = typing.get_args(cls)[0]
    hints = typing.get_type_hints(cls, include_extras=True)
    about = (cls.__doc__ or "").strip().split(": ", 1)[-1]
    head = f"[[{name}]]" if many else f"[{name}]"
    lines = [f"### `{head}`", "", about[:1].upper() + about[1:], "",
             "| key | type | default | meaning |", "|---|---|---|---|"]
    for f in msgspec.structs.fields(cls):
        t = hints[f.name]
        metas = _metas(t)
        text = " ".join(m.description for m in metas if m.description)
        bounds = _bounds(metas)
        kind = _type(t) + (f" ({bounds})" if bounds else "")
        lines.append(f"| `{f.name}` | {kind} | {_default(f)} | {text.replace('|', '/')} |")
    return [*lines, ""]


def render() -> str:
    out = [INTRO]
    for title, top in (("room.toml (the director of a room)", RoomFile),
                       ("event.toml (the director of one event: a room of one)", EventFile),
                       ("table.toml (one table kiosk)", TableFile)):
        out += [f"## {title}", ""]
        hints = typing.get_type_hints(top, include_extras=True)
        for f in msgspec.structs.fields(top):
            out += section_table(f.name, hints[f.name])
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
