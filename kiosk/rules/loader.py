"""Load rule profiles from TOML, checking every key against the Profile dataclasses."""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any

from kiosk.base.errors import ConfigError
from kiosk.base.texts import M_
from kiosk.base.tomlfile import Section, read_toml
from kiosk.rules import profile as model

PROFILE_DIR = Path(__file__).with_name("profiles")
DEFAULT_PROFILE = "tda-2024"   # the profile of a new event that names none
# the one choice the model types as plain `str` (chip_race.mode); every other choice is
# a Literal in kiosk.rules.profile and is checked from there
CHOICES: dict[str, tuple[str, ...]] = {"mode": ("race", "round_up", "race_by_card")}


def _build(cls: type, sec: Section) -> Any:
    """Construct dataclass `cls` from a TOML section, field by field, with typed errors."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    sec.unknown(set(fields))
    values: dict[str, Any] = {}
    for name, f in fields.items():
        has_default = f.default is not dataclasses.MISSING
        if name not in sec.data:
            if not has_default and f.default_factory is dataclasses.MISSING:
                raise sec.fail(name, "missing (required)")
            continue
        values[name] = _value(hints[name], sec, name)
    return cls(**values)


def _value(hint: Any, sec: Section, name: str) -> Any:
    optional = False
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional, hint = True, args[0]
    raw = sec.data[name]
    if optional and raw in ("none", "off"):
        return None
    if dataclasses.is_dataclass(hint):
        return _build(typing.cast(type, hint), sec.section(name))
    origin = typing.get_origin(hint)
    if origin is tuple:
        items = sec.get(name, list)
        item_t = typing.get_args(hint)[0]
        if dataclasses.is_dataclass(item_t):
            item_cls = typing.cast(type, item_t)
            return tuple(_build(item_cls, Section(sec.source, it, f"{sec.prefix}{name}[{i}].")
                                if isinstance(it, dict) else _bad(sec, name, i))
                         for i, it in enumerate(items))
        for i, it in enumerate(items):
            if not isinstance(it, item_t) or isinstance(it, bool):
                raise sec.fail(f"{name}[{i}]", f"expected {item_t.__name__}, got {it!r}")
        return tuple(items)
    if hint is int:
        return sec.number(name, integer=True, minimum=0)
    if hint is float:
        return sec.number(name, minimum=0)
    if typing.get_origin(hint) is typing.Literal:
        return sec.choice(name, typing.get_args(hint))
    if hint is str and name in CHOICES:
        return sec.choice(name, CHOICES[name])
    return sec.get(name, hint)


def _bad(sec: Section, name: str, i: int) -> Any:
    raise sec.fail(f"{name}[{i}]", "expected a table")


def load_profile_file(path: str | Path) -> model.Profile:
    """Load and validate one profile file; errors name the file and key."""
    sec = Section(str(path), read_toml(path))
    prof = _build(model.Profile, sec)
    if not prof.balance.tolerance:
        raise sec.fail("balance.tolerance", "needs at least one entry")
    if prof.end_of_day.hands and not 0 < prof.end_of_day.hands[0] <= prof.end_of_day.hands[1]:
        raise sec.fail("end_of_day.hands", "expected [low, high] with 0 < low <= high")
    _check_sizes(sec, prof)
    return prof


def _check_sizes(sec: Section, prof: model.Profile) -> None:
    """The bounds the rule texts give, and the ones a table can hold."""
    h4h = prof.hand_for_hand
    if h4h and h4h.runoff_max_seconds is not None and h4h.runoff_seconds is not None \
            and h4h.runoff_seconds > h4h.runoff_max_seconds:
        raise sec.fail("hand_for_hand.runoff_seconds",
                       f"{h4h.runoff_seconds} s a hand is more than the "
                       f"{h4h.runoff_max_seconds} s runoff_max_seconds allows")
    seen: set[int] = set()
    for i, f in enumerate(prof.balance.final_tables):
        where = f"balance.final_tables[{i}]"
        if not (2 <= f.seats <= 10 and 2 <= f.final <= 10):
            raise sec.fail(where, f"seats and final must be 2 to 10, got {f.seats}, {f.final}")
        if f.seats in seen:
            raise sec.fail(where, f"{f.seats}-handed events are listed twice")
        seen.add(f.seats)
    for key in ("push_hold_seconds", "prepare_decks_seconds"):
        if getattr(prof.dealing, key) > 600:
            raise sec.fail(f"dealing.{key}", f"at most 600 s, got {getattr(prof.dealing, key)}")


def profile_ids() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


@cache
def load_profile(name_or_path: str = DEFAULT_PROFILE) -> model.Profile:
    """A shipped profile by id (`tda-2024`) or any profile file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = PROFILE_DIR / f"{name_or_path}.toml"
        if not path.exists():
            raise ConfigError(name_or_path, "", M_("profile.unknown", "no such rule profile "
                                                   "(known: {known})",
                                                   known=", ".join(profile_ids())))
    prof = load_profile_file(path)
    if path.parent == PROFILE_DIR and prof.id != path.stem:
        raise ConfigError(str(path), "id", M_("profile.id_file", "must equal the file name "
                                              "'{name}'", name=path.stem))
    return prof
