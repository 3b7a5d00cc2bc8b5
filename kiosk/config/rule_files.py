"""Checking a rule profile or blind structure file before a room uses it.

A structure's break texts must name the chips that leave play there, which the core's
chips part computes (`leaving_at`): so the check sits above both the rules and the core.
"""

from __future__ import annotations

import re
from pathlib import Path

from kiosk.base.errors import ConfigError
from kiosk.base.tomlfile import read_toml
from kiosk.core.chips.chips import leaving_at
from kiosk.rules.loader import load_profile, load_profile_file
from kiosk.rules.structure import Structure, structure_refusal
from kiosk.rules.structure_files import STRUCTURE_DIR, load_structure_file, structure_ids

_DENOMINATION = re.compile(r"\d[\d,]*")


def break_text_problems(s: Structure) -> list[tuple[int, str]]:
    """(period index, problem) for each break whose text names other chips than those
    that leave play there, given the structure's `chips`; none when it declares none."""
    if not s.chips:
        return []
    problems = []
    for i, p in enumerate(s.periods):
        if not p.is_break:
            continue
        leaving, _ = leaving_at(s.chips, s, i)
        named = sorted(int(m.replace(",", "")) for m in _DENOMINATION.findall(p.color_up))
        if named == leaving:
            continue
        if leaving:
            want = " and ".join(f"{d:,}" for d in leaving)
            problems.append((i, f"the {want} chips leave play here, but the text is "
                                f"{p.color_up!r}"))
        else:
            problems.append((i, f"every chip is still needed after this break, but the "
                                f"text is {p.color_up!r}"))
    return problems


def _check_structure(path: Path, profile: str | None = None) -> str:
    s = load_structure_file(path)
    problems = break_text_problems(s)
    if problems:
        i, msg = problems[0]
        raise ConfigError(str(path), f"level[{i + 1}].color_up", msg)
    if profile is not None and (refused := structure_refusal(load_profile(profile), s)):
        raise ConfigError(str(path), "level", refused)
    levels = sum(1 for p in s.periods if not p.is_break)
    texts = "break texts follow the chips" if s.chips else "no chips declared"
    fits = f", fits {profile}" if profile is not None else ""
    return (f"{path}: blind structure {s.name!r}, {levels} levels, "
            f"{len(s.periods) - levels} breaks, {texts}{fits}: OK")


def check_rules_file(arg: str, profile: str | None = None) -> str:
    """One line on a profile or structure file (or a built-in structure by name), a
    structure checked against `profile` when given; a ConfigError with the key at fault
    when it does not hold."""
    path = Path(arg)
    if not path.exists() and arg in structure_ids():
        path = STRUCTURE_DIR / f"{arg}.toml"
    if path.suffix == ".csv" or "level" in read_toml(path):
        return _check_structure(path, profile)
    prof = load_profile_file(path)
    return f"{path}: rule profile {prof.id!r} ({prof.name}): OK"
