"""`pokerkiosk dealer add|list|remove NAME --config room.toml`: the room's dealers.

The roster lives in room.toml as `[[dealers.roster]]` entries, edited in place by
kiosk.config.dealer_roster (the rest of the file, comments included, is left as it was,
and a bad edit changes nothing). A badge (`--badge ID`) and a PIN (`--pin`, asked for or
read from standard input) are written only as salted hashes.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from kiosk.base.errors import KioskError
from kiosk.config import dealer_roster
from kiosk.config.database import is_dsn
from kiosk.config.room import load_director_config
from kiosk.core.event.tournament import Tournament
from kiosk.core.room.room import Room
from kiosk.director.log.logstore import ROOM_STREAM
from kiosk.director.log.store import EventLog, open_store


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("add", "remove", "list"),
                   help="add (or change) a dealer, remove one, or list the roster")
    p.add_argument("name", nargs="?", help="the dealer's name")
    p.add_argument("--config", required=True, help="the room's room.toml")
    p.add_argument("--badge", help="the dealer's badge id, as the card reader reads it "
                                   "(kept only as a salted hash)")
    p.add_argument("--pin", action="store_true",
                   help="set a PIN (4-8 digits), asked for or read from standard input")
    p.add_argument("--language", help="the dealer's own language (en, es, de, fr, cs, "
                                      "pt_BR, zh_Hans): the kiosk speaks it while they deal")


def ask_pin(name: str) -> str:
    if not sys.stdin.isatty():
        line = sys.stdin.readline().strip()
        if not line:
            raise KioskError("no PIN on standard input")
        return line
    first = getpass.getpass(f"PIN for {name}: ")
    if getpass.getpass("again: ") != first:
        raise KioskError("the two PINs differ; nothing changed")
    return first


def run(args: argparse.Namespace) -> int:
    path = Path(args.config)
    if not path.exists():
        raise KioskError(f"{path}: no such file")
    if args.action == "list":
        found = dealer_roster.roster(path)
        print("\n".join(f"{d.get('name')}" + (" · badge" if d.get("badge") else "")
                        + (" · PIN" if d.get("pin") else "")
                        + (f" · {d['language']}" if d.get("language") else "")
                        for d in found)
              if found else f"no dealers in {path}")
        return 0
    if not args.name:
        raise KioskError(f"dealer {args.action} needs a NAME")
    if args.action == "remove":
        print(f"removed {dealer_roster.remove(path, args.name)} from {path}")
        return 0
    if args.badge is not None:
        badge_free(path, args.badge)
    pin = ask_pin(args.name) if args.pin else None
    existed = dealer_roster.add(path, args.name, args.badge, pin, args.language)
    print(f"{'changed' if existed else 'added'} {args.name} in {path}"
          + (" (badge)" if args.badge is not None else "") + (" (PIN)" if pin else "")
          + (f" ({args.language})" if args.language else ""))
    return 0


def badge_free(path: Path, badge: str) -> None:
    """A badge that is a player's card in the room's log (the room's players and each
    event's) is refused: the table would take the one for the other."""
    db = load_director_config(path).director.db
    if not is_dsn(db) and not Path(db).is_file():
        return
    store = open_store(db if is_dsn(db) else Path(db))
    try:
        holders = [Room.replay(store.stream(ROOM_STREAM).read()).people.by_card] \
            if ROOM_STREAM in store.streams() else []
        holders += [Tournament.replay(EventLog(store, e).read()).by_card
                    for e in store.event_streams()]
    finally:
        store.close()
    card = badge.strip()
    for cards in holders:
        owner = next((pid for c, pid in cards.items() if c.strip() == card), None)
        if owner is not None:
            raise KioskError(f"this badge is player {owner}'s card: give the dealer "
                             "another badge")
