"""`pokerkiosk dealers --db room.db [--day DATE] [--csv|--json]`: the dealers' records.

Read from the room's log: every down (dealer, table, event, start, end, hands), and per
dealer the hours, downs, hands per hour and share of the events' staff money, each event's
staff share divided by the downs dealt in it, to the cent (kiosk.core.dealers.records).
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kiosk.base import csvcells
from kiosk.base.errors import KioskError
from kiosk.config.database import is_dsn
from kiosk.core.dealers import records
from kiosk.core.event.tournament import Tournament
from kiosk.core.room.room import Room
from kiosk.director.log.logstore import ROOM_STREAM, LogStore
from kiosk.director.log.store import EventLog, open_store

COLUMNS = ("dealer", "downs", "hours", "hands", "hands_per_hour", "share")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, help="the director's log (room.db, or a "
                                               "postgresql:// DSN)")
    p.add_argument("--day", help="only the downs begun on this day (YYYY-MM-DD, UTC)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="one row a dealer, as CSV")
    out.add_argument("--json", action="store_true",
                     help="the dealers, every down and each event's staff share, as JSON")


def run(args: argparse.Namespace) -> int:
    path: str | Path = args.db if is_dsn(args.db) else Path(args.db)
    if isinstance(path, Path) and not path.is_file():
        raise KioskError(f"no log at {path}")
    store = open_store(path)
    try:
        out = report(store, _day(args.day))
    finally:
        store.close()
    if args.json:
        print(json.dumps(out, indent=1))
    elif args.csv:
        print(csvcells.to_csv(COLUMNS, ([r[c] for c in COLUMNS] for r in out["dealers"])),
              end="")
    else:
        print(_text(out))
    return 0


def _day(day: str | None) -> tuple[float, float] | None:
    if not day:
        return None
    try:
        start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise KioskError(f"--day {day!r}: write the date as YYYY-MM-DD") from None
    return start.timestamp(), (start + timedelta(days=1)).timestamp()


def report(store: LogStore, day: tuple[float, float] | None = None) -> dict[str, Any]:
    """The records of the log's room, its downs begun within `day` when given."""
    if ROOM_STREAM not in store.streams():
        raise KioskError("this log holds no room: dealers are a room's")
    room = Room.replay(store.stream(ROOM_STREAM).read())
    since, until = day if day else (None, None)
    downs = records.closed(room.roadmap.downs, since, until)
    staff = {e: _staff(store, e) for e in sorted({d.event for d in downs})
             if e in store.event_streams()}
    return {"dealers": records.summary(downs, staff), "downs": records.down_rows(downs),
            "staff": staff}


def _staff(store: LogStore, event: str) -> int:
    tour = Tournament.replay(EventLog(store, event).read())
    return int(tour.money.money_pool().staff)


def _text(out: dict[str, Any]) -> str:
    if not out["dealers"]:
        return "no downs dealt"
    lines = [f"{'dealer':<16} {'downs':>5} {'hours':>6} {'hands':>6} {'h/hour':>7} {'share':>9}"]
    for r in out["dealers"]:
        lines.append(f"{r['dealer']:<16} {r['downs']:>5} {r['hours']:>6.2f} {r['hands']:>6} "
                     f"{r['hands_per_hour']:>7.1f} {r['share']:>9}")
    total = sum(out["staff"].values())
    lines.append(f"staff shares {total} over {len(out['downs'])} downs: "
                 f"{sum(r['share'] for r in out['dealers'])} paid")
    return "\n".join(lines)
