"""`pokerkiosk new-event --config event.toml`: set the event log aside for a fresh start.

The old log is renamed, never deleted, so last week's results stay readable; the next
director start creates a new event from event.toml as it is now.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.base.errors import KioskError
from kiosk.config.database import is_dsn
from kiosk.config.files import load_event_config
from kiosk.director.log.maintenance import set_aside


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="the event's event.toml")


def run(args: argparse.Namespace) -> int:
    config = load_event_config(args.config)
    if is_dsn(config.db):
        raise KioskError(f"{args.config}: [director] db is a PostgreSQL database; a new "
                         "event there is a new database: create one, point db at it (the "
                         "old one keeps last event's results)")
    kept = set_aside(Path(config.db))
    if kept is None:
        print(f"no event log at {config.db}: the next director start creates the event")
    else:
        print(f"the previous event's log is kept as {kept}; the next director start "
              f"creates a new event {config.name!r} from {args.config}")
    return 0
