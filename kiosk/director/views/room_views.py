"""The room at a glance, as the events directory, the dashboard and the TV clock read it:
from the repository's desks and the tables' own feed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.base.texts import M_
from kiosk.core.chips import races
from kiosk.core.event.tournament import Tournament
from kiosk.core.room.room import OVER, next_states
from kiosk.core.tables.seating import start_refusal
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.repository import Repository
from kiosk.director.views import views
from kiosk.director.views.call_routing import routed
from kiosk.director.views.player_views import starts_of
from kiosk.director.views.table_feed import TableFeed

# the states a call and a ticket send as words (`state`): the floor's pages say them from
# these keys in the reader's language ("call_state.acked"), English as the word itself
STATE_WORDS = (
    M_("call_state.open", "open"), M_("call_state.acked", "acked"),
    M_("call_state.requested", "requested"), M_("call_state.approved", "approved"),
    M_("ticket_state.held", "held"), M_("ticket_state.used", "used"),
    M_("ticket_state.returned", "returned"), M_("ticket_state.refunded", "refunded"),
)


@dataclass
class EventView:
    """One event as the one-event views read it (views.DirectorLike): its tournament and
    the room's live table feed, which is keyed by table and so shared by every event."""

    tour: Tournament
    live: dict[int, dict[str, Any]]
    online: dict[int, bool]

    @classmethod
    def of(cls, desk: EventAggregate, feed: TableFeed) -> EventView:
        """The desk's tournament as it is now, with the tables' feed."""
        return cls(desk.tour, feed.live, feed.online)


def directory(repo: Repository) -> dict[str, Any]:
    """Every event of the room with its state and tables (retained for the tables too:
    a kiosk shows its event's title, and a free one the room's)."""
    room = repo.room
    events = []
    for name, info in room.events.items():
        if info.state == "archived":
            continue
        desk = repo.events.get(name)
        events.append({"event": name, "title": info.title, "kind": info.kind,
                       "state": info.state,
                       "tables": sorted(t for t in (desk.tour.tables if desk else ())
                                        if repo.table_event(t) == name)})
    return {"room": repo.config.name, "title": repo.config.title, "events": events}


def _tables_of(repo: Repository, name: str) -> list[int]:
    """The tables an event holds: granted from the pool (in play or idle), or in a room of
    one event, its own tables still in play."""
    if repo.config.pool:
        return repo.room.tables_of(name)
    desk = repo.events.get(name)
    return sorted(n for n, tab in (desk.tour.tables.items() if desk else ()) if not tab.broken)


def _event_row(repo: Repository, feed: TableFeed, name: str, t: float) -> dict[str, Any]:
    info = repo.room.events[name]
    desk = repo.events.get(name)
    row: dict[str, Any] = {"event": name, "title": info.title, "kind": info.kind,
                           "state": info.state, "target": info.target,
                           "flights": list(info.flights),
                           "starts": starts_of(repo.config, name),
                           "tables": _tables_of(repo, name)}
    if desk is not None and info.state != "archived":
        s = views.summary(EventView.of(desk, feed), t)
        row.update({k: s[k] for k in ("players_left", "entries", "level", "is_break",
                                      "blinds", "sb", "bb", "clock", "remaining", "paused",
                                      "started", "finished", "winner")})
        row["prize_pool"] = s["money"]["prize_pool"]
        row["chip_count"] = s["money"]["chip_count"]
    row["actions"] = event_actions(info.state, desk.tour if desk else None,
                                   bool(row.get("paused")))
    return row


def event_actions(state: str, tour: Tournament | None, paused: bool) -> list[str]:
    """What the floor can do with an event now, in the room page's order: only what the
    room (its state's next states) and the event (start, its clock) would accept."""
    go = next_states(state)
    acts = ["open"] if "open" in go else []
    if tour is not None and state not in OVER \
            and start_refusal(tour.seating) is None:
        acts.append("start")
    if state == "running" and tour is not None and tour.started \
            and tour.finished_at is None:
        acts.append("resume" if paused else "pause")
    return acts + [a for a in ("finished", "archived") if a in go]


def _table_row(repo: Repository, feed: TableFeed, n: int) -> dict[str, Any]:
    event = repo.table_event(n)
    desk = repo.events.get(event) if event else None
    tab = desk.tour.tables.get(n) if desk else None
    events = repo.room.events
    row: dict[str, Any] = {"table": n, "event": event, "online": feed.online.get(n, False),
                           "title": events[event].title if event in events else event,
                           "players": 0, "seats": 0, "breaking": False,
                           "floor_calls": 0, "clock_calls": 0, "race_pending": False}
    if desk is not None and tab is not None and not tab.broken:
        tour = desk.tour
        row.update(players=tab.count, seats=tab.seats, breaking=tab.breaking,
                   floor_calls=sum(1 for c in tour.floor_calls.values()
                                   if c.table == n and c.state in ("open", "acked")),
                   clock_calls=sum(1 for c in tour.clock_calls.values()
                                   if c.table == n and c.state in ("requested", "approved")),
                   race_pending=races.pending(tour.chipcount, n) is not None)
    return row


def room_calls(repo: Repository, feed: TableFeed, t: float) -> list[dict[str, Any]]:
    """Every open floor call and clock call of every event: one queue, oldest first."""
    out = []
    for name, desk in repo.events.items():
        if repo.room.events[name].state == "archived":
            continue
        queue = views.calls(EventView.of(desk, feed), t)
        out += [{"type": "floor", "event": name, **c} for c in queue["floor"]]
        out += [{"type": "clock", "event": name, **c} for c in queue["clock"]]
    return sorted(out, key=lambda c: (c["since"], c["event"], c["call"]))


def tickets(repo: Repository) -> list[dict[str, Any]]:
    """Every ticket: held (issued, waiting for its target), used, returned or refunded."""
    people = repo.room.players
    return [{"ticket": tk.id, "player": tk.player,
             "name": people[tk.player].name if tk.player in people else tk.player,
             "target": tk.target, "source": tk.source, "value": tk.value,
             "state": "held" if tk.state == "issued" else tk.state, "event": tk.event,
             "amount": tk.amount, "note": tk.note}
            for tk in repo.room.tickets.values()]


def room_snapshot(repo: Repository, feed: TableFeed, t: float) -> dict[str, Any]:
    """The room page: every event, every table of the pool, all calls, the tickets."""
    room, c = repo.room, repo.config
    tables = set(room.pool) | {n for desk in repo.events.values() for n in desk.tour.tables
                               if not desk.tour.tables[n].broken}
    return {"type": "room", "room": c.name, "title": c.title,
            "pool": c.pool, "server_time": t,
            "events": [_event_row(repo, feed, name, t) for name in room.events],
            "tables": [_table_row(repo, feed, n) for n in sorted(tables)],
            "free_tables": room.free_tables() if c.pool else [],
            "calls": routed(room_calls(repo, feed, t), room.floor_sections, t,
                            c.calls_to_room_s),
            "tickets": tickets(repo)}
