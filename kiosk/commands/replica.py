"""`pokerkiosk replica primary|standby|sync|async|status|promote`: a PostgreSQL hot
standby for the room's log, one step at a time (kiosk.appliance.pg_replica does each)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kiosk.appliance.pg_replica import (
    Server,
    clone_standby,
    describe,
    password,
    promote,
    setup_primary,
    status,
    synchronous,
)
from kiosk.base.errors import KioskError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("step", choices=["primary", "standby", "sync", "async", "status",
                                    "promote"])
    p.add_argument("--port", type=int, default=5432, help="this server's port")
    p.add_argument("--host", help="this server's socket directory or address "
                                  "(default: the local socket)")
    p.add_argument("--bindir", type=Path, help="PostgreSQL's programs (default: the newest "
                                               "in /usr/lib/postgresql)")
    p.add_argument("--standby", help="primary: the standby machine's address")
    p.add_argument("--primary", help="standby: the primary's HOST[:PORT]")
    p.add_argument("--pgdata", type=Path, help="standby: this server's (empty) data directory")
    p.add_argument("--password-file", type=Path, default=Path("/etc/pokerkiosk/replication"),
                   help="the replication password, 0600 (primary writes it; copy it to "
                        "the standby; default %(default)s)")
    p.add_argument("--json", action="store_true", help="status as JSON")


def run_step(args: argparse.Namespace) -> list[str]:
    pg = Server(port=args.port, host=args.host, bindir=args.bindir)
    if args.step == "primary":
        if not args.standby:
            raise KioskError("replica primary needs --standby ADDRESS")
        return setup_primary(pg, args.standby, password(args.password_file, create=True))
    if args.step == "standby":
        if not (args.primary and args.pgdata):
            raise KioskError("replica standby needs --primary HOST[:PORT] and --pgdata DIR")
        return clone_standby(pg, args.primary, args.pgdata,
                             password(args.password_file, create=False))
    if args.step in ("sync", "async"):
        return synchronous(pg, args.step == "sync")
    if args.step == "promote":
        return promote(pg)
    st = status(pg)
    return [json.dumps(st)] if args.json else describe(st)


def run(args: argparse.Namespace) -> int:
    for line in run_step(args):
        print(line, flush=True)
    return 0
