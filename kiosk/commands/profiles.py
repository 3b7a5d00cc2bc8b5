"""`pokerkiosk profiles`: list rule profiles and structures, check a file, export CSV."""

from __future__ import annotations

import argparse
import sys

from kiosk.config.rule_files import check_rules_file
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile, profile_ids
from kiosk.rules.structure_files import load_structure, structure_ids, structure_to_csv


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", metavar="FILE",
                   help="validate a profile (.toml), a structure (.toml or .csv), or a "
                        "built-in structure by name; a structure's break texts must name "
                        "the chips that leave there")
    p.add_argument("--csv", metavar="STRUCTURE", help="print a blind structure as CSV")
    p.add_argument("--profile", metavar="PROFILE",
                   help="with --check STRUCTURE: check it against this profile too (a "
                        "profile that never reduces antes refuses a structure that does)")


def run(args: argparse.Namespace) -> int:
    if args.check:
        print(check_rules_file(args.check, args.profile))
        return 0
    if args.csv:
        sys.stdout.write(structure_to_csv(load_structure(args.csv)))
        return 0
    print("rule profiles:")
    for pid in profile_ids():
        prof = load_profile(pid)
        cc = prof.clock_call
        print(f"  {pid:13} {prof.name:22} clock {cc.seconds}+{cc.countdown} s, "
              f"{'dead' if prof.button.dead_button else 'moving'} button"
              + ("  (default for new events)" if pid == DEFAULT_PROFILE else ""))
    print("blind structures:")
    for name in structure_ids():
        s = load_structure(name)
        first = next(p for p in s.periods if not p.is_break)
        length = f"{first.hands}-hand" if s.counts_hands else f"{first.minutes:g}-minute"
        print(f"  {name:13} {s.name:22} {s.start_stack:,} chips, "
              f"{length} levels from {first.blinds_text()}")
    return 0
