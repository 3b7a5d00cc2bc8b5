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
from typing import Any

from kiosk import csvcells
from kiosk.core.results import results, to_csv, totals
from kiosk.core.room import Room
from kiosk.core.tournament import Tournament
from kiosk.database import is_dsn
from kiosk.director.logstore import LogStore
from kiosk.director.store import EventLog, open_store
from kiosk.errors import KioskError

ROOM_STREAM = "room"
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
            tour = _event(store, path, args.event)
            text = _event_text(tour, args)
    except KioskError as exc:
        return _fail(str(exc))
    finally:
        store.close()
    _write(args.out, text)
    return 0


def _event(store: LogStore, path: str | Path, event: str | None) -> Tournament:
    """One event's tournament: the one named, or the file's only event."""
    if event is not None and event not in store.event_streams():
        raise KioskError(f"no event {event!r} in {path} (events: "
                         f"{', '.join(store.event_streams()) or 'none'})")
    try:
        log = EventLog(store, event or "")
    except KioskError as exc:
        raise KioskError(f"{exc} with --event, or ask for one --player") from None
    return Tournament.replay(log.read())


def _event_text(tour: Tournament, args: argparse.Namespace) -> str:
    rows = results(tour)
    if args.json:
        return json.dumps({"event": tour.event, **totals(tour), "results": rows})
    if args.winners:
        return _winners(tour, rows)
    return to_csv(rows, site=args.site)


def _write(out: str | None, text: str) -> None:
    text = text if text.endswith("\n") else text + "\n"
    if out:
        Path(out).write_text(text)
    else:
        sys.stdout.write(text)


def player_results(store: LogStore, query: str) -> dict[str, Any]:
    """Every event result of the players `query` names (a room player id, card or name,
    any case), in the order the events were created; the room's tickets they hold."""
    room = Room.replay(store.read(ROOM_STREAM)) if ROOM_STREAM in store.streams() else None
    order = list(room.events) if room is not None else []
    names = sorted(store.event_streams(), key=lambda n: (n not in order,
                                                         order.index(n) if n in order else 0,
                                                         n))
    ids = _matching(room, query)
    rows: list[dict[str, Any]] = []
    people: dict[str, dict[str, Any]] = {}
    for name in names:
        tour = Tournament.replay(store.read(name))
        if room is None:   # an old single-event log: its own players
            ids |= _matching_in(tour, query)
        info = room.events.get(name) if room is not None else None
        for r in results(tour):
            if r["player"] not in ids:
                continue
            p = tour.players[r["player"]]
            people.setdefault(p.id, {"player": p.id, "name": p.name, "card": p.card,
                                     "country": p.country})
            rows.append({"event": name, "title": info.title if info else name,
                         "kind": info.kind if info else "event", "place": r["place"],
                         "prize": r["prize"], "bounty": r["bounty"], "status": p.status,
                         "entries": r["entries"], "rebuys": r["rebuys"], "player": p.id,
                         "name": p.name, "card": p.card, "country": p.country})
    tickets = [] if room is None else [
        {"ticket": tk.id, "player": tk.player, "source": tk.source, "target": tk.target,
         "value": tk.value, "state": tk.state, "used_in": tk.event}
        for tk in room.tickets.values() if tk.player in ids]
    return {"query": query, "players": list(people.values()), "results": rows,
            "prize": sum(r["prize"] + r["bounty"] for r in rows), "tickets": tickets}


def _matching(room: Room | None, query: str) -> set[str]:
    if room is None:
        return set()
    key = query.strip().casefold()
    return {p.id for p in room.players.values()
            if key in (p.id.casefold(), p.name.casefold(), (p.card or "").casefold())}


def _matching_in(tour: Tournament, query: str) -> set[str]:
    key = query.strip().casefold()
    return {p.id for p in tour.players.values()
            if key in (p.id.casefold(), p.name.casefold(), (p.card or "").casefold())}


def _winners(tour: Tournament, rows: list[dict]) -> str:
    """Players CSV (the director's --players format) of those who won a seat."""
    seat = tour.prize.seat_value
    return csvcells.to_csv(["name", "card", "id"],
                           ([r["name"], tour.players[r["player"]].card, r["player"]]
                            for r in rows if seat and r["prize"] >= seat))
