"""The room's own aggregate as the director holds it: its stream of the log and its fold.

Like an event's desk, it decides and hands back rows; the room's service writes them with
the rest of the batch.
"""

from __future__ import annotations

import logging

from kiosk.config.room import RoomConfig
from kiosk.core.model.events import Event
from kiosk.core.model.room_commands import RoomCommand
from kiosk.core.room.room import Room
from kiosk.director.centre.batch import Rows
from kiosk.director.centre.event_aggregate import decide_whole
from kiosk.director.centre.ports import Clock
from kiosk.director.log.logstore import ROOM_STREAM, StreamLog

log = logging.getLogger("kiosk.director")
__all__ = ["ROOM_STREAM", "RoomAggregate"]


class RoomAggregate:
    """The room: `decide` is the only way it changes."""

    def __init__(self, log_: StreamLog, room: Room, clock: Clock) -> None:
        self.log = log_
        self.room = room
        self.clock = clock

    @classmethod
    def load(cls, c: RoomConfig, log_: StreamLog, clock: Clock) -> RoomAggregate:
        """The room as logged; a new room (its first start) is created and written now,
        before any event of it, so every later batch has a room to fold into."""
        if log_.last_seq == 0:
            room = Room.create(c.name, c.title, range(1, c.tables + 1), t=clock())
            log_.append([room.config])
            log.info("new room %s with %d tables", c.name, c.tables)
        else:
            room = Room.replay(log_.read())
        if c.dealers is not None:       # the rotation the room.toml sets (kiosk.config.dealers)
            room.roadmap.rotation = c.dealers.settings
        return cls(log_, room, clock)

    def decide(self, cmd: RoomCommand, pending: list[Event]) -> tuple[list[Event], Rows]:
        """One room command, proven storable, or nothing (RuleError with why)."""
        return decide_whole(self.room, cmd, self.clock(), pending, self.rebuild)

    def rebuild(self, pending: list[Event]) -> None:
        room = Room.replay(self.log.read())
        room.roadmap.rotation = self.room.roadmap.rotation
        for ev in pending:
            room.apply(ev)
        self.room = room
