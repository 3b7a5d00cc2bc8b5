"""`pokerkiosk league --db room.db NAME`: a league's standings from a director's log.

The league is declared in the room's file (`[[leagues]]`, by default the room.toml beside
the log); the points come from the events' recorded results in the log, as the director
computes them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kiosk import csvcells
from kiosk.core.leagues import event_result
from kiosk.core.room import Room
from kiosk.core.tournament import Tournament
from kiosk.database import is_dsn
from kiosk.director.leagues import find, standings
from kiosk.director.store import open_store
from kiosk.errors import KioskError
from kiosk.roomconfig import load_director_config

ROOM_STREAM = "room"
COLUMNS = ("rank", "name", "points", "events", "counted", "places")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, help="the director's log (room.db, or a "
                                               "postgresql:// DSN)")
    p.add_argument("--config", help="the room's file declaring the league (default: "
                                    "room.toml beside the log)")
    p.add_argument("name", help="the league's name")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="rank,name,points,... as CSV")
    out.add_argument("--json", action="store_true", help="the standings as JSON, as "
                                                        "/p/league/NAME.json gives them")


def run(args: argparse.Namespace) -> int:
    if not is_dsn(args.db) and not Path(args.db).is_file():
        raise KioskError(f"no event log at {args.db}")
    config = args.config or (Path(args.db).parent / "room.toml" if not is_dsn(args.db)
                             else "room.toml")
    spec = find(load_director_config(config).leagues, args.name)
    store = open_store(args.db if is_dsn(args.db) else Path(args.db))
    try:
        room = Room.replay(store.read(ROOM_STREAM)) if ROOM_STREAM in store.streams() \
            else None
        results = []
        for name in store.event_streams():
            info = room.events.get(name) if room is not None else None
            found = event_result(name, info.title if info else name,
                                 info.kind if info else "event",
                                 Tournament.replay(store.read(name)))
            if found is not None:
                results.append(found)
    finally:
        store.close()
    data = standings(spec, room, results).to_json()
    if args.json:
        text = json.dumps(data)
    elif args.csv:
        text = csvcells.to_csv(list(COLUMNS), ([r["rank"], r["name"], r["points"], r["events"],
                                                r["counted"], " ".join(map(str, r["places"]))]
                                               for r in data["standings"]))
    else:
        text = "\n".join([f"{data['title']} ({data['points']}; best {data['best'] or 'all'})",
                          *(f"{r['rank']:>4}  {r['name']:<30} {r['points']:>10.2f}  "
                            f"{r['counted']}/{r['events']}  places "
                            f"{' '.join(map(str, r['places']))}"
                            for r in data["standings"])])
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
