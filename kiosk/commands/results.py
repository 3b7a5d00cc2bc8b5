"""`pokerkiosk results`: results read from a director's log.

A room log holds every event of the room: `--event NAME` gives one event's results,
`--player NAME` one player's results across every event (the room knows a player once,
whichever events he played). An old single-event log needs neither.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kiosk.base import csvcells
from kiosk.base.errors import KioskError
from kiosk.config.database import is_dsn
from kiosk.core.event.results import results, to_csv, totals
from kiosk.core.event.tournament import Tournament
from kiosk.director.log.store import open_store
from kiosk.director.views.from_log import event_of, player_results, winners_csv

PLAYER_COLUMNS = ("event", "title", "kind", "place", "prize", "bounty", "status", "entries",
                  "rebuys", "player", "name", "card", "country")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, help="the director's log (room.db or event.db, "
                                               "or a postgresql:// DSN)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--event", help="one event of a room log")
    which.add_argument("--player", help="one player's results across every event of the "
                                        "room (name, card or player id)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="every column as CSV (the default)")
    out.add_argument("--site", action="store_true",
                     help="place, name, prize, country: the columns a results site takes")
    out.add_argument("--json", action="store_true", help="rows and money totals as JSON")
    out.add_argument("--winners", action="store_true",
                     help="satellite: name,card of the seat winners, to import into the "
                          "target event")
    p.add_argument("--out", help="write to this file instead of standard output")


def _fail(text: str) -> int:
    print(f"pokerkiosk results: error: {text}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    path: str | Path = args.db if is_dsn(args.db) else Path(args.db)
    if isinstance(path, Path) and not path.is_file():
        return _fail(f"no event log at {path}")
    store = open_store(path)
    try:
        if store.last_seq == 0:
            return _fail(f"{path} holds no event")
        if args.player is not None:
            if args.site or args.winners:
                return _fail("--player writes CSV or --json")
            found = player_results(store, args.player)
            if not found["players"]:
                return _fail(f"no player {args.player!r} in {path}")
            text = json.dumps(found) if args.json else csvcells.to_csv(
                list(PLAYER_COLUMNS), ([r[c] for c in PLAYER_COLUMNS]
                                       for r in found["results"]))
        else:
            tour = event_of(store, path, args.event)
            text = _event_text(tour, args)
    except KioskError as exc:
        return _fail(str(exc))
    finally:
        store.close()
    _write(args.out, text)
    return 0


def _event_text(tour: Tournament, args: argparse.Namespace) -> str:
    rows = results(tour)
    if args.json:
        return json.dumps({"event": tour.event, **totals(tour), "results": rows})
    if args.winners:
        return winners_csv(tour, rows)
    return to_csv(rows, site=args.site)


def _write(out: str | None, text: str) -> None:
    text = text if text.endswith("\n") else text + "\n"
    if out:
        Path(out).write_text(text)
    else:
        sys.stdout.write(text)
