"""One section of the floor as its staff see it walking the room, on a phone: the calls
that reach it (its own, and late ones from anywhere) oldest first, the clock calls
running at its tables with their countdown, the moves in transit to and from its
tables, and the tables that need the floor. No section: the whole room."""

from __future__ import annotations

from typing import Any

from kiosk.director.centre.repository import Repository
from kiosk.director.views import views
from kiosk.director.views.call_routing import routed
from kiosk.director.views.room_views import EventView, _table_row, room_calls
from kiosk.director.views.table_feed import TableFeed


def _needs(row: dict[str, Any]) -> list[str]:
    """Why a table needs the floor now (nothing: it does not)."""
    why = []
    if row["floor_calls"]:
        why.append("floor call")
    if row["clock_calls"]:
        why.append("clock call")
    if row["breaking"]:
        why.append("breaking")
    if row["race_pending"]:
        why.append("chip race")
    if row["event"] and not row["online"]:
        why.append("offline")
    return why


def _calls(repo: Repository, feed: TableFeed, t: float, mine: set[int] | None
           ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The calls that reach the section (to answer), and its running clock calls."""
    calls = routed(room_calls(repo, feed, t), repo.room.floor_sections, t,
                   repo.config.calls_to_room_s)
    shown = [c for c in calls if mine is None or c["table"] in mine or c["to"] == "room"]
    running = [c for c in shown if c["type"] == "clock" and c["state"] == "approved"]
    answering = sorted((c for c in shown if c not in running), key=lambda c: c["since"])
    clocks = [{**c, "remaining": max(0.0, round(c["approved_at"] + c["countdown"] - t, 1))}
              for c in running if c["approved_at"] is not None
              and (mine is None or c["table"] in mine)]
    return answering, clocks


def _moves(repo: Repository, feed: TableFeed, mine: set[int] | None) -> list[dict[str, Any]]:
    """Players in transit to or from the section's tables."""
    out = []
    for name, desk in repo.events.items():
        for m in views.moves_in_transit(EventView.of(desk, feed)):
            way = "in" if mine is None or m["to_table"] in mine else \
                "out" if m["from_table"] in mine else None
            if way:
                out.append({"event": name, **m, "way": way})
    return out


def section_view(repo: Repository, feed: TableFeed, t: float,
                 section: str | None) -> dict[str, Any]:
    """One section (None: the whole room) as its staff's phone shows it."""
    secs = repo.room.floor_sections
    mine = set(secs.sections.get(section, ())) if section else None
    calls, clocks = _calls(repo, feed, t, mine)
    need = []
    for n in sorted(mine) if mine is not None else sorted(repo.room.pool):
        row = _table_row(repo, feed, n)
        why = _needs(row)
        if why:
            need.append({"table": n, "event": row["event"], "why": why})
    return {"section": section if mine is not None else None,
            "sections": list(secs.sections), "server_time": t,
            "calls_to_room_s": repo.config.calls_to_room_s,
            "calls": calls, "clocks": clocks, "moves": _moves(repo, feed, mine), "need": need,
            "titles": {name: info.title or name for name, info in repo.room.events.items()}}


def room_find(repo: Repository, feed: TableFeed, query: str, limit: int = 20
              ) -> list[dict[str, Any]]:
    """Players of every event not archived whose name, id or card holds `query`, in play
    first, each with the event's title and the section of the table."""
    out: list[dict[str, Any]] = []
    secs = repo.room.floor_sections
    for name, desk in repo.events.items():
        info = repo.room.events[name]
        if info.state == "archived":
            continue
        for p in views.find_player(EventView.of(desk, feed), query, limit):
            out.append({**p, "event": name, "event_title": info.title,
                        "section": secs.section_of(p["table"]) if p["table"] else None})
    out.sort(key=lambda p: (p["table"] is None, p["name"].lower()))
    return out[:limit]
