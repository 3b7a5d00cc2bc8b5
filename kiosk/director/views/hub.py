"""Fan-out of "something changed" notes from the director to the pages' connections: the
commit's notes from the pages' outbox (kiosk.director.views.page_notes), the tables' own
feed from the inbox, the releases from their desk."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


class Hub:
    """Each subscriber gets its own bounded queue; a slow one loses notes, never blocks
    the director (a dropped note only delays an update the next note also brings)."""

    def __init__(self, maxsize: int = 1000) -> None:
        self.maxsize = maxsize
        self._queues: set[asyncio.Queue[dict[str, Any]]] = set()

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue(self.maxsize)
        self._queues.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue[dict[str, Any]]) -> None:
        self._queues.discard(q)

    def publish(self, msg: dict[str, Any]) -> None:
        for q in self._queues:
            with contextlib.suppress(asyncio.QueueFull):
                q.put_nowait(msg)
