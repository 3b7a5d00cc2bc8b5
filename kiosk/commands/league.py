"""`pokerkiosk league --db room.db NAME`: a league's standings from a director's log.

The league is declared in the room's file (`[[leagues]]`, by default the room.toml beside
the log); the points come from the events' recorded results in the log, as the director
computes them.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.base import csvcells
from kiosk.director.views.from_log import league_table

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
    data = league_table(args.db, args.config, args.name)
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
