"""One live feed per event for the players' phones, however many are connected.

The director's hub notes say only that *something* changed. The feed listens to them once
(not once per phone), rebuilds each watched event's parts at most every THROTTLE seconds,
and encodes what changed once: every phone gets the same bytes. A phone that fell behind
gets the whole state again instead of a delta it could not apply.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("kiosk.director")
THROTTLE = 0.1          # seconds between two rebuilds of an event's parts


def sse(data: dict[str, Any], event: str = "") -> bytes:
    """One server-sent event (a JSON body never holds a raw newline)."""
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data, separators=(",", ":"),
                                         ensure_ascii=False) + "\n\n").encode()


class Channel:
    """The encoded state of one event, and the version phones compare theirs with."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}        # part -> its JSON
        self.version = 0
        self.delta = b""                       # from version - 1 to version
        self.full = b""                        # everything, for a phone that is behind
        self.listeners = 0
        self._changed = asyncio.Event()

    def update(self, parts: dict[str, Any], t: float) -> bool:
        """Take freshly built parts; True (and phones woken) if any of them changed."""
        encoded = {k: json.dumps(v, separators=(",", ":"), ensure_ascii=False)
                   for k, v in parts.items()}
        changed = {k: v for k, v in encoded.items() if self.parts.get(k) != v}
        if not changed and self.version:
            return False
        self.parts = encoded
        self.version += 1
        self.delta = _message(changed, t, self.version)
        self.full = _message(encoded, t, self.version)
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()
        return True

    async def wait(self, version: int, timeout: float) -> bool:
        """Until the channel is past `version` (True) or `timeout` passes (False)."""
        if self.version > version:
            return True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)
        return self.version > version

    def wake(self) -> None:
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()


def _message(parts: dict[str, str], t: float, version: int) -> bytes:
    body = ",".join(f'"{k}":{v}' for k, v in parts.items())
    return (f'data: {{"t":{t:.3f},"v":{version},"parts":{{{body}}}}}\n\n').encode()


class PlayerFeed:
    """The channels of every event phones watch, rebuilt when the director says so."""

    def __init__(self, build: Callable[[str, float], dict[str, Any] | None],
                 now: Callable[[], float]) -> None:
        self.build = build          # event -> its parts, None if there is no such event
        self.now = now
        self.channels: dict[str, Channel] = {}
        self.closing = False

    def channel(self, event: str) -> Channel | None:
        """The event's channel, built now if no phone watched it yet; None if unknown."""
        ch = self.channels.get(event)
        if ch is None:
            parts = self.build(event, self.now())
            if parts is None:
                return None
            ch = self.channels[event] = Channel()
            ch.update(parts, self.now())
        return ch

    def refresh(self) -> None:
        """Rebuild every watched event; forget those nobody watches."""
        for name, ch in list(self.channels.items()):
            if not ch.listeners:
                del self.channels[name]
                continue
            parts = self.build(name, self.now())
            if parts is not None:
                ch.update(parts, self.now())

    async def run(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Follow the hub: every burst of notes is one rebuild, at most every THROTTLE s."""
        loop = asyncio.get_running_loop()
        while True:
            await queue.get()
            started = loop.time()
            while not queue.empty():
                queue.get_nowait()
            try:
                self.refresh()
            except Exception:   # a bad rebuild must not end the feed for every phone
                log.exception("player pages: rebuilding the feed failed")
            await asyncio.sleep(max(0.0, THROTTLE - (loop.time() - started)))

    def close(self) -> None:
        """The director is stopping: every open stream ends now, not at a timeout."""
        self.closing = True
        for ch in self.channels.values():
            ch.wake()
