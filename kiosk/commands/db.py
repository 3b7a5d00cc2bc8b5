"""`pokerkiosk db copy FROM TO`: a room's log from a SQLite file into PostgreSQL, or back.

FROM and TO are each a SQLite file's path or a postgresql:// DSN. Every row keeps its
global seq, stream and schema version, so the copy replays to the same room; snapshots
come along. TO must be empty, and the rows are written in one transaction: a copy that
fails leaves TO as it was. `pokerkiosk db check DB` says what a log holds.
"""

from __future__ import annotations

import argparse

from kiosk.director.log.maintenance import copy, existing, summary


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    cp = sub.add_parser("copy", help="copy a room's log between SQLite and PostgreSQL")
    cp.add_argument("source", metavar="FROM", help="a SQLite file or a postgresql:// DSN")
    cp.add_argument("target", metavar="TO", help="an empty log: a new SQLite file or "
                                                   "an empty PostgreSQL database")
    check = sub.add_parser("check", help="what a log holds: streams, events, snapshots")
    check.add_argument("db", help="a SQLite file or a postgresql:// DSN")


def run(args: argparse.Namespace) -> int:
    if args.action == "check":
        store = existing(args.db)
        try:
            print(summary(store))
        finally:
            store.close()
        return 0
    print(copy(args.source, args.target))
    return 0
