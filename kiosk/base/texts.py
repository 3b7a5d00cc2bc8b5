"""A sentence for a person as a message key and its arguments, never as words.

`M_("hold.breaking", "the table is breaking")` names the sentence by its key and gives
its English source beside it; the source is what the catalogues translate (kiosk.lang
extracts every `M_(...)` and `Mn_(...)` call: the key becomes the entry's context, the
source its msgid). What travels on the wire or into the log is the `Msg` alone, key and
arguments, and each screen renders it with its own catalogue. English (`english(m)`) is
the rendering of this process's logs and command line, and of whatever reads a message
whose key it does not know.

Pure: no file, no catalogue. The core raises and returns these; it never translates.

Arguments are plain values. A placeholder may name how its value reads (`{prize:money}`,
`{stack:chips}`, `{at:time}`, `{n:num}`); a renderer formats each for its locale, English
here with digits grouped by commas.
"""

from __future__ import annotations

import string
import time
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec
from msgspec import Meta

Key = Annotated[str, Meta(pattern=r"^[a-z0-9_]+(\.[a-z0-9_]+)+$", max_length=64)]
PLURAL_ARG = "n"      # the number a plural message's form follows


class Msg(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True,
          kw_only=True):
    """A message key with its arguments: `{"key": "move.to_table", "args": {...}}`."""

    key: Key
    args: Args = {}

    def __str__(self) -> str:
        return english(self)


# an argument is a value, or a sentence of its own ("must not deal now: {why}")
Arg = Annotated[str, Meta(max_length=500)] | int | float | Msg
Args = Annotated[dict[Annotated[str, Meta(pattern=r"^[a-z_][a-z0-9_]{0,31}$")], Arg],
                 Meta(max_length=12)]


# key -> (singular, plural or ""), filled as messages are made: this process's English
SOURCES: dict[str, tuple[str, str]] = {}


def _note(key: str, singular: str, plural: str) -> None:
    old = SOURCES.get(key)
    if old is None:
        SOURCES[key] = (singular, plural)
    elif old != (singular, plural):
        raise ValueError(f"message key {key!r} names two sentences: {old[0]!r} and "
                         f"{singular!r}")


def M_(key: str, source: str, /, **args: Any) -> Msg:
    """The sentence `source` (English, with `{placeholders}`) under `key`."""
    _note(key, source, "")
    return Msg(key=key, args=_plain(args))


def Mn_(key: str, singular: str, plural: str, n: int, /, **args: Any) -> Msg:
    """A sentence whose form follows the count `n` (given to the sentence as `{n}`)."""
    _note(key, singular, plural)
    return Msg(key=key, args=_plain({PLURAL_ARG: n, **args}))


def in_turn(parts: Sequence[Msg | str]) -> Msg | str:
    """Reasons one after another ("seat 3 is empty; seat 5 has no count"), each rendered
    in the reader's language: nested pairs, so no count of reasons is fixed."""
    if not parts:
        return ""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = M_("text.in_turn", "{first}; {then}", first=part, then=out)
    return out


def _plain(args: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, (int, float, Msg)) and not isinstance(v, bool) else str(v)
            for k, v in args.items()}


class _English(string.Formatter):
    """Placeholders as this process's logs print them: digits grouped by commas."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Msg):
            return english(value)
        if format_spec in ("chips", "money", "num", "blinds"):
            return f"{value:,}" if isinstance(value, (int, float)) else str(value)
        if format_spec == "time" and isinstance(value, (int, float)):
            return time.strftime("%H:%M", time.gmtime(value))   # the log's clock: UTC
        if format_spec in ("time", "date", "ordinal"):
            return str(value)
        return super().format_field(value, format_spec)


ENGLISH = _English()


def source_of(m: Msg) -> str:
    """The English sentence of `m`'s key in the form its count asks for ("" unknown)."""
    singular, plural = SOURCES.get(m.key, ("", ""))
    if plural and m.args.get(PLURAL_ARG) != 1:
        return plural
    return singular


def english(m: Msg) -> str:
    """`m` in English; the key itself when this process never made that message."""
    source = source_of(m)
    if not source:
        return m.key
    try:
        return ENGLISH.vformat(source, (), dict(m.args))
    except (KeyError, IndexError, ValueError):
        return source


def as_msg(value: Any) -> Msg | None:
    """A `Msg` from its wire form (`{"key": ..., "args": ...}`), None when it is none."""
    if isinstance(value, Msg):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("key"), str):
        try:
            return msgspec.convert(dict(value), Msg)
        except msgspec.ValidationError:
            return None
    return None


__all__ = ["M_", "Mn_", "Msg", "as_msg", "english", "in_turn", "source_of"]
