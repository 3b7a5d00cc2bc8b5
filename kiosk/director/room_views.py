"""The room at a glance, as the events directory, the dashboard and the TV clock read it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.director.service import Director


def directory(d: Director) -> dict[str, Any]:
    """Every event of the room with its state and tables (retained for the tables too:
    a kiosk shows its event's title, and a free one the room's)."""
    room = d.room
    events = []
    for name, info in room.events.items():
        if info.state == "archived":
            continue
        desk = d.desks.get(name)
        events.append({"event": name, "title": info.title, "kind": info.kind,
                       "state": info.state,
                       "tables": sorted(t for t in (desk.tour.tables if desk else ())
                                        if d.table_event(t) == name)})
    return {"room": d.config.name, "title": d.config.title, "events": events}
