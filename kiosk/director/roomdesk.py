"""The room's own aggregate as the director holds it: its stream of the log and its fold.

Like an event's desk, it decides and hands back rows; the director writes them with the
rest of the batch.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from kiosk.core.events import Event
from kiosk.core.room import Room
from kiosk.core.room_commands import RoomCommand
from kiosk.director.desk import decide_whole
from kiosk.director.logstore import StreamLog

if TYPE_CHECKING:
    from kiosk.director.service import Director

log = logging.getLogger("kiosk.director")
ROOM_STREAM = "room"
Rows = list[tuple[str, bytes]]


class RoomDesk:
    """The room: `decide` is the only way it changes."""

    def __init__(self, director: Director, log_: StreamLog, room: Room) -> None:
        self.director = director
        self.log = log_
        self.room = room

    @classmethod
    def load(cls, director: Director, log_: StreamLog) -> RoomDesk:
        """The room as logged; a new room (its first start) is created and written now,
        before any event of it, so every later batch has a room to fold into."""
        c = director.config
        if log_.last_seq == 0:
            room = Room.create(c.name, c.title, range(1, c.tables + 1), t=director.now())
            log_.append([room.config])
            log.info("new room %s with %d tables", c.name, c.tables)
        else:
            room = Room.replay(log_.read())
        return cls(director, log_, room)

    def decide(self, cmd: RoomCommand, pending: list[Event]) -> tuple[list[Event], Rows]:
        """One room command, proven storable, or nothing (RuleError with why)."""
        return decide_whole(self.room, cmd, self.director.now(), pending, self.rebuild)

    def rebuild(self, pending: list[Event]) -> None:
        room = Room.replay(self.log.read())
        for ev in pending:
            room.apply(ev)
        self.room = room
