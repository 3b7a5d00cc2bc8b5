"""`pokerkiosk results`: the results of a real event, read from its event log."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kiosk import csvcells
from kiosk.core.results import results, to_csv, totals
from kiosk.core.tournament import Tournament
from kiosk.database import is_dsn
from kiosk.director.store import EventLog


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, help="the event's log (event.db, or a "
                                               "postgresql:// DSN)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="every column as CSV (the default)")
    out.add_argument("--site", action="store_true",
                     help="place, name, prize, country: the columns a results site takes")
    out.add_argument("--json", action="store_true", help="rows and money totals as JSON")
    out.add_argument("--winners", action="store_true",
                     help="satellite: name,card of the seat winners, to import into the "
                          "target event")
    p.add_argument("--out", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    path = args.db if is_dsn(args.db) else Path(args.db)
    if isinstance(path, Path) and not path.is_file():
        print(f"pokerkiosk results: error: no event log at {path}", file=sys.stderr)
        return 2
    log = EventLog(path)
    try:
        if log.last_seq == 0:
            print(f"pokerkiosk results: error: {path} holds no event", file=sys.stderr)
            return 2
        tour = Tournament.replay(log.read())
    finally:
        log.close()
    rows = results(tour)
    if args.json:
        text = json.dumps({"event": tour.event, **totals(tour), "results": rows})
    elif args.winners:
        text = _winners(tour, rows)
    else:
        text = to_csv(rows, site=args.site)
    if args.out:
        Path(args.out).write_text(text if text.endswith("\n") else text + "\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _winners(tour: Tournament, rows: list[dict]) -> str:
    """Players CSV (the director's --players format) of those who won a seat."""
    seat = tour.prize.seat_value
    return csvcells.to_csv(["name", "card", "id"],
                           ([r["name"], tour.players[r["player"]].card, r["player"]]
                            for r in rows if seat and r["prize"] >= seat))
