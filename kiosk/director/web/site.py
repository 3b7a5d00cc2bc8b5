"""What the dashboard serves (`Served`, which the composition root fills) and what every
page's routes are built from (`Site`: that, and the door their actions go through)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol

from kiosk.base.texts import Msg
from kiosk.config.room import RoomConfig
from kiosk.director.adapters.printing import DeskPrinter
from kiosk.director.adapters.release_desk import ReleaseDesk
from kiosk.director.centre.room_service import RoomService
from kiosk.director.services.bookings import Bookings
from kiosk.director.services.dealers import Dealers
from kiosk.director.standby.leadership import Leadership
from kiosk.director.views.hub import Hub
from kiosk.director.views.table_feed import TableFeed
from kiosk.director.web.door import Door


class Served(Protocol):
    """What the dashboard serves: the room's service (reads and commands) and what its
    adapters show: the change notes, the tables' feed, the broker connection, the health
    lines, the printer, the leadership, the bookings, the releases and the dealers."""

    @property
    def config(self) -> RoomConfig: ...     # as the director runs with it
    @property
    def service(self) -> RoomService: ...
    @property
    def hub(self) -> Hub: ...
    @property
    def feed(self) -> TableFeed: ...
    @property
    def connected(self) -> asyncio.Event: ...
    @property
    def health(self) -> dict[str, Msg | str]: ...    # background task -> how it failed
    @property
    def printer(self) -> DeskPrinter | None: ...
    @property
    def ha(self) -> Leadership | None: ...
    @property
    def bookings(self) -> Bookings: ...     # reservations and alternates
    @property
    def releases(self) -> ReleaseDesk: ...  # the tables' updates
    @property
    def dealers(self) -> Dealers: ...       # the rotation


@dataclass(frozen=True)
class Site:
    """One app's parts, for its pages' routes."""

    served: Served
    door: Door
