"""`pokerkiosk doctor [--config FILE]`: check this machine's setup, one line per check
(kiosk.appliance.doctor); exit 0 when all is good, 1 otherwise, for scripts and ssh loops."""

from __future__ import annotations

import argparse

from kiosk.appliance.doctor import diagnose


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="table.toml or event.toml (default: the one in "
                                    "/etc/pokerkiosk)")
    p.add_argument("--timeout", type=float, default=5.0,
                   help="seconds to wait for the broker (default %(default)s)")


def run(args: argparse.Namespace) -> int:
    results = diagnose(args.config, timeout=args.timeout)
    for c in results:
        print(c.line(), flush=True)
    return 1 if any(c.failed for c in results) else 0
