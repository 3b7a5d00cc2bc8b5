"""Every rule profile key is read by the code that runs the tournament, or it is gone:
a setting that is validated and documented but changes nothing misleads a director."""

from __future__ import annotations

import ast
import dataclasses
import typing
from collections.abc import Iterator
from pathlib import Path

from kiosk.rules import profile as model
from kiosk.rules.loader import load_profile, profile_ids

KIOSK = Path(model.__file__).resolve().parents[1]
# Keys whose reading belongs to work on the money side (chip race, chips in play,
# prize deals) and on balancing; they stay until that code reads them.
OWNED_ELSEWHERE = {
    "chip_race", "chip_race.mode", "chip_race.rule",        # read by kiosk/core/chips/chips.py
    "entries.forfeited_chips_leave",                        # chips in play
    "bubble_deal",                                          # a prize deal: money side
    "hand_for_hand.players_stay_seated",   # Irish conduct rule, not yet shown at the table
}


def profile_keys(cls: type = model.Profile, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(dotted key, attribute name) for every field, nested sections included."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        t = hints[f.name]
        inner = next((a for a in typing.get_args(t) if a is not type(None)), t)
        if typing.get_origin(inner) is tuple:
            inner = typing.get_args(inner)[0]
        yield prefix + f.name, f.name
        if dataclasses.is_dataclass(inner):
            yield from profile_keys(inner, f"{prefix}{f.name}.")  # type: ignore[arg-type]


def attributes_read() -> set[str]:
    """Every `x.name` in the running code; the loader and the profile CLI only validate."""
    skip = {KIOSK / "rules" / "loader.py", KIOSK / "rules" / "cli.py"}
    names: set[str] = set()
    for path in KIOSK.rglob("*.py"):
        if path not in skip:
            names |= {n.attr for n in ast.walk(ast.parse(path.read_text()))
                      if isinstance(n, ast.Attribute)}
    return names


def test_every_profile_key_is_read_or_owned_elsewhere() -> None:
    read = attributes_read()
    unread = sorted(k for k, attr in profile_keys() if attr not in read
                    and k not in OWNED_ELSEWHERE)
    assert unread == [], f"profile keys nothing reads (read them or remove them): {unread}"


def test_keys_owned_elsewhere_still_exist_and_are_still_unread() -> None:
    """When the money side or balancing starts reading a key, it leaves this list."""
    keys = dict(profile_keys())
    assert set(keys) >= OWNED_ELSEWHERE
    read = attributes_read()
    now_read = sorted(k for k in OWNED_ELSEWHERE if keys[k] in read and "." in k
                      and keys[k] not in ("mode", "rule"))
    assert now_read == [], f"now read, drop them from OWNED_ELSEWHERE: {now_read}"


def test_every_shipped_profile_loads_without_the_removed_keys() -> None:
    for pid in profile_ids():
        assert load_profile(pid).id == pid
