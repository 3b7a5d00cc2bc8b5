"""`pokerkiosk director --config room.toml [--standby]`: run the director of a room (or of
one event, from an event.toml); kiosk.director.running does the work."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="the room's room.toml, or an event.toml")
    p.add_argument("--event", help="the event --players and --start apply to (default: the "
                                   "room's first)")
    p.add_argument("--players", help="CSV of players to register (header: name[,card][,id])")
    p.add_argument("--start", action="store_true", help="draw seats and start the clock")
    p.add_argument("--ready", action="store_true",
                   help="with --start: the decks are prepared already, the first level runs "
                        "at once (no \"prepare your decks\" minute)")
    p.add_argument("--no-web", action="store_true", help="no dashboard (tests, benchmarks)")
    p.add_argument("--standby", action="store_true",
                   help="follow the PostgreSQL log and lead only when no director does")
    p.add_argument("--update-root", help="the A/B install folder this director runs from "
                   "under its supervisor (/opt/pokerkiosk): `release self-update` then "
                   "updates it (needs the log on PostgreSQL)")
    p.add_argument("--release-key", help="the releases' public key (default: release.pub "
                                         "beside the config)")


def run(args: argparse.Namespace) -> int:
    from kiosk.director.running import run_director

    return run_director(args.config, event=args.event, players=args.players, start=args.start,
                        ready=args.ready,
                        web=not args.no_web, standby=args.standby,
                        update_root=args.update_root, release_key=args.release_key)
