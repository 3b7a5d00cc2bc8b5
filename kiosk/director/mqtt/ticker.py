"""The clock's beat: what changes with time alone, for every event of the room.

A level ends, a timed penalty is served, a payout lock comes due: the core decides these
on a `Tick` command, which the room's service takes like any other. Between ticks the
publishing sends the seating directory and a paced schedule when they are due. The ticker
wakes exactly at a level's boundary, so the new level goes out at once, and tells systemd's
watchdog the loop still turns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from kiosk.base.errors import RuleError
from kiosk.core.model import commands
from kiosk.director.centre.room_service import RoomService
from kiosk.director.mqtt.publisher import Publishing
from kiosk.system.sdnotify import Notifier

log = logging.getLogger("kiosk.director")


async def tick_forever(service: RoomService, publishing: Publishing,
                       every: float = 0.25, beats: Sequence[Callable[[], None]] = ()) -> None:
    """Level changes, timed penalties, seating directories, watchdog: every event; and
    each of `beats` (the releases' publishing) once a turn."""
    notifier = Notifier()
    while True:
        wait = every
        for desk in list(service.repo.events.values()):
            tour = desk.tour
            if tour.started and tour.finished_at is None:
                try:
                    service.act(commands.Tick(), event=desk.name)
                except RuleError as exc:  # a tick never refuses: a bug, already counted
                    log.error("%s: tick refused: %s", desk.name, exc)
            publishing.of(desk).seating()
            # wake exactly at a level boundary, so the new level goes out at once
            reading = desk.tour.clock.read(desk.tour.structure, service.now())
            if not (reading.paused or reading.finished):
                wait = min(wait, reading.remaining + 0.001)
        for beat in beats:
            beat()
        notifier.watchdog()
        await asyncio.sleep(max(0.001, wait))
