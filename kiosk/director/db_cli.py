"""`pokerkiosk db copy FROM TO`: a room's log from a SQLite file into PostgreSQL, or back.

FROM and TO are each a SQLite file's path or a postgresql:// DSN. Every row keeps its
global seq, stream and schema version, so the copy replays to the same room; snapshots
come along. TO must be empty, and the rows are written in one transaction: a copy that
fails leaves TO as it was. `pokerkiosk db check DB` says what a log holds.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from kiosk.database import is_dsn
from kiosk.director.logstore import LogStore
from kiosk.director.store import open_store
from kiosk.errors import KioskError


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    copy = sub.add_parser("copy", help="copy a room's log between SQLite and PostgreSQL")
    copy.add_argument("source", metavar="FROM", help="a SQLite file or a postgresql:// DSN")
    copy.add_argument("target", metavar="TO", help="an empty log: a new SQLite file or "
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


def existing(db: str) -> LogStore:
    """A log that must already exist (a missing file is not silently created)."""
    if not is_dsn(db) and not Path(db).is_file():
        raise KioskError(f"{db}: no such event log")
    return open_store(db)


def summary(store: LogStore) -> str:
    streams = store.streams()
    counts = ", ".join(f"{s} {store.count_of(s)}" for s in streams)
    return (f"{store.path} ({store.backend}): {store.last_seq} events in {len(streams)} "
            f"streams ({counts or 'none'}), {len(store.snapshots())} snapshots")


def copy(source: str, target: str) -> str:
    """Copy every row and snapshot of `source` into the empty log `target`."""
    src = existing(source)
    try:
        dst = open_store(target)
    except BaseException:
        src.close()
        raise
    try:
        if dst.last_seq:
            raise KioskError(f"{dst.path} already holds {dst.last_seq} events: copy into "
                             "an empty log (a new file, or a new database)")
        dst.put_rows(itertools.chain.from_iterable(src.all_rows()))
        dst.put_snapshots(src.snapshots())
        for stream in src.streams():
            if (src.count_of(stream), src.last_of(stream)) != \
                    (dst.count_of(stream), dst.last_of(stream)):
                raise KioskError(f"copy of stream {stream} into {dst.path} differs from "
                                 f"{src.path}")
        return f"copied {src.last_seq} events of {len(src.streams())} streams " \
               f"from {src.path} to {dst.path}"
    finally:
        src.close()
        dst.close()
