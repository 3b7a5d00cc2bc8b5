"""`pokerkiosk profiles`: list rule profiles and structures, check a file, export CSV."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.rules.loader import load_profile, load_profile_file, profile_ids
from kiosk.rules.structure_files import (
    load_structure,
    load_structure_file,
    structure_ids,
    structure_to_csv,
)
from kiosk.tomlfile import read_toml


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", metavar="FILE",
                   help="validate a profile (.toml), a structure (.toml) or a structure (.csv)")
    p.add_argument("--csv", metavar="STRUCTURE", help="print a blind structure as CSV")


def run(args: argparse.Namespace) -> int:
    if args.check:
        path = Path(args.check)
        if path.suffix == ".csv" or "level" in read_toml(path):
            s = load_structure_file(path)
            levels = sum(1 for p in s.periods if not p.is_break)
            print(f"{path}: blind structure {s.name!r}, {levels} levels, "
                  f"{len(s.periods) - levels} breaks: OK")
        else:
            prof = load_profile_file(path)
            print(f"{path}: rule profile {prof.id!r} ({prof.name}): OK")
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
