"""A director object served in this process: `Director.serve` on an asyncio loop of its
own thread, as `pokerkiosk director` runs it, so a test holds the real object (its state,
its counters) while the director talks to a real broker."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from waiting import wait_for

from kiosk.director.service import Director


class Served:
    """`d` serving (its dashboard too when `web`) until `close`; connected on return."""

    def __init__(self, d: Director, web: bool = False) -> None:
        self.d = d
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.serving = asyncio.run_coroutine_threadsafe(d.serve(web=web), self.loop)
        wait_for(d.connected.is_set, timeout=15)

    def call(self, fn: Callable[[], Any]) -> Any:
        """`fn` on the director's loop, where its state lives."""
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(30)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.serving.cancel)
        wait_for(self.serving.done, timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.d.store.close()
