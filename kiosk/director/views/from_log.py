"""Results read back from a director's log, for the commands that print them.

One event's tournament, one player's results across every event of the room (the room
knows a player once, whichever events he played), a satellite's seat winners, and a
league's standings as the director computes them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.base import csvcells
from kiosk.base.errors import KioskError
from kiosk.config.database import is_dsn
from kiosk.config.room import load_director_config
from kiosk.core.event.results import results
from kiosk.core.event.tournament import Tournament
from kiosk.core.room.room import Room
from kiosk.core.season.leagues import event_result
from kiosk.director.log.logstore import LogStore
from kiosk.director.log.store import EventLog, open_store
from kiosk.director.views.leagues import find, standings

ROOM_STREAM = "room"


def event_of(store: LogStore, path: str | Path, event: str | None) -> Tournament:
    """One event's tournament: the one named, or the file's only event."""
    if event is not None and event not in store.event_streams():
        raise KioskError(f"no event {event!r} in {path} (events: "
                         f"{', '.join(store.event_streams()) or 'none'})")
    try:
        log = EventLog(store, event or "")
    except KioskError as exc:
        raise KioskError(f"{exc} with --event, or ask for one --player") from None
    return Tournament.replay(log.read())



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



def winners_csv(tour: Tournament, rows: list[dict]) -> str:
    """Players CSV (the director's --players format) of those who won a seat."""
    seat = tour.prize.seat_value
    return csvcells.to_csv(["name", "card", "id"],
                           ([r["name"], tour.players[r["player"]].card, r["player"]]
                            for r in rows if seat and r["prize"] >= seat))


def league_table(db: str, config: str | Path | None, name: str) -> dict[str, Any]:
    """A league's standings as /p/league/NAME.json gives them: the league declared in the
    room's file (by default the room.toml beside the log), the points from the events'
    results in the log."""
    if not is_dsn(db) and not Path(db).is_file():
        raise KioskError(f"no event log at {db}")
    config = config or (Path(db).parent / "room.toml" if not is_dsn(db)
                             else "room.toml")
    spec = find(load_director_config(config).leagues, name)
    store = open_store(db if is_dsn(db) else Path(db))
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
    return standings(spec, room, results).to_json()
