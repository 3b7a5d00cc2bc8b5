"""One live feed per event for the players' phones, however many are connected.

The director's hub notes say only that *something* changed. The feed listens to them once
(not once per phone), rebuilds each watched event's parts at most every THROTTLE seconds,
and encodes what changed once: every phone gets the same bytes. A phone that fell behind
gets the whole state again instead of a delta it could not apply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import msgspec

log = logging.getLogger("kiosk.director")
THROTTLE = 0.1          # seconds between two rebuilds of an event's parts


_json = msgspec.json.Encoder()


def sse(data: dict[str, Any], event: str = "") -> bytes:
    """One server-sent event (a JSON body never holds a raw newline)."""
    head = f"event: {event}\n".encode() if event else b""
    return head + b"data: " + _json.encode(data) + b"\n\n"


class Channel:
    """The encoded state of one event, and the version phones compare theirs with.

    A part is replaced whole when it changes; a part's `rows` (one per player) row by
    row, so a bust in a field of thousands sends a few rows, not the field again."""

    def __init__(self) -> None:
        self.meta: dict[str, bytes] = {}             # part -> its JSON without rows
        self.rows: dict[str, dict[str, bytes]] = {}  # part -> key -> a row's JSON
        self.version = 0
        self.delta = b""                       # from version - 1 to version
        self.full = b""                        # everything, for a phone that is behind
        self.listeners = 0
        self.pings = 0                         # keep-alives due so far
        self._changed = asyncio.Event()

    def update(self, parts: dict[str, Any], t: float) -> bool:
        """Take freshly built parts; True (and phones woken) if anything changed."""
        whole: dict[str, Any] = {}
        row_deltas: dict[str, dict[str, Any]] = {}
        for name, part in parts.items():
            rows: dict[str, Any] = part.get("rows") if isinstance(part.get("rows"), dict) \
                else {}
            meta = _json.encode({k: v for k, v in part.items() if k != "rows"})
            encoded = {k: _json.encode(r) for k, r in rows.items()}
            before = self.rows.get(name, {})
            if self.meta.get(name) != meta:
                whole[name] = part
            elif encoded != before:
                row_deltas[name] = {
                    "set": {k: rows[k] for k, e in encoded.items()
                            if before.get(k) != e},
                    "del": [k for k in before if k not in encoded]}
            self.meta[name], self.rows[name] = meta, encoded
        if not whole and not row_deltas and self.version:
            return False
        self.version += 1
        stamp = {"t": round(t, 3), "v": self.version}
        self.delta = sse({**stamp, "parts": whole, "rows": row_deltas})
        self.full = sse({**stamp, "full": True, "parts": parts})
        self.wake()
        return True

    async def wait(self, version: int, pings: int) -> None:
        """Until the channel is past `version` or past `pings` keep-alives (no timer per
        phone: one wake-up serves them all)."""
        if self.version == version and self.pings == pings:
            await self._changed.wait()

    def ping(self) -> None:
        self.pings += 1
        self.wake()

    def wake(self) -> None:
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()


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

    async def keep_alive(self, every: float) -> None:
        """Every `every` seconds, a keep-alive to every phone: a phone that hears nothing
        for longer knows its link is down (and says so)."""
        while True:
            await asyncio.sleep(every)
            for ch in list(self.channels.values()):
                ch.ping()

    def close(self) -> None:
        """The director is stopping: every open stream ends now, not at a timeout."""
        self.closing = True
        for ch in self.channels.values():
            ch.wake()
