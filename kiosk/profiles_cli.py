"""`pokerkiosk profiles`: list rule profiles and structures, check a file, export CSV.

It lives above both `kiosk.rules` and `kiosk.core` because checking a structure's break
texts asks the core which chips leave at each break (`chips.leaving_at`)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from kiosk.core.chips import leaving_at
from kiosk.errors import ConfigError
from kiosk.rules.loader import load_profile, load_profile_file, profile_ids
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import (
    STRUCTURE_DIR,
    load_structure,
    load_structure_file,
    structure_ids,
    structure_to_csv,
)
from kiosk.tomlfile import read_toml

_DENOMINATION = re.compile(r"\d[\d,]*")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", metavar="FILE",
                   help="validate a profile (.toml), a structure (.toml or .csv), or a "
                        "built-in structure by name; a structure's break texts must name "
                        "the chips that leave there")
    p.add_argument("--csv", metavar="STRUCTURE", help="print a blind structure as CSV")


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


def _check_structure(path: Path) -> str:
    s = load_structure_file(path)
    problems = break_text_problems(s)
    if problems:
        i, msg = problems[0]
        raise ConfigError(str(path), f"level[{i + 1}].color_up", msg)
    levels = sum(1 for p in s.periods if not p.is_break)
    texts = "break texts follow the chips" if s.chips else "no chips declared"
    return (f"{path}: blind structure {s.name!r}, {levels} levels, "
            f"{len(s.periods) - levels} breaks, {texts}: OK")


def _check(arg: str) -> str:
    path = Path(arg)
    if not path.exists() and arg in structure_ids():
        path = STRUCTURE_DIR / f"{arg}.toml"
    if path.suffix == ".csv" or "level" in read_toml(path):
        return _check_structure(path)
    prof = load_profile_file(path)
    return f"{path}: rule profile {prof.id!r} ({prof.name}): OK"


def run(args: argparse.Namespace) -> int:
    if args.check:
        print(_check(args.check))
        return 0
    if args.csv:
        sys.stdout.write(structure_to_csv(load_structure(args.csv)))
        return 0
    print("rule profiles:")
    for pid in profile_ids():
        prof = load_profile(pid)
        cc = prof.clock_call
        print(f"  {pid:13} {prof.name:22} clock {cc.seconds}+{cc.countdown} s, "
              f"{'dead' if prof.button.dead_button else 'moving'} button")
    print("blind structures:")
    for name in structure_ids():
        s = load_structure(name)
        first = next(p for p in s.periods if not p.is_break)
        print(f"  {name:13} {s.name:22} {s.start_stack:,} chips, "
              f"{first.minutes:g}-minute levels from {first.blinds_text()}")
    return 0
