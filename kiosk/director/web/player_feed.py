"""One live feed per event for the players' phones, however many are connected.

The director's hub notes say only that *something* changed. The feed listens to them once
(not once per phone), rebuilds each watched event's parts at most every THROTTLE seconds,
encodes what changed once, and writes those same bytes straight to every phone's
connection in one pass (no task woken per phone: thousands of phones cost thousands of
socket writes, nothing more). A phone that fell behind gets the whole state again; one
that stops reading is dropped (it reconnects, and gets the whole state).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import msgspec

log = logging.getLogger("kiosk.director")
THROTTLE = 0.1          # seconds between two rebuilds of an event's parts
BACKLOG = 1 << 20       # bytes waiting for a phone that does not read: dropped beyond


_json = msgspec.json.Encoder()


def sse(data: dict[str, Any], event: str = "") -> bytes:
    """One server-sent event (a JSON body never holds a raw newline)."""
    head = f"event: {event}\n".encode() if event else b""
    return head + b"data: " + _json.encode(data) + b"\n\n"


def chunk(data: bytes) -> bytes:
    """`data` as one HTTP/1.1 chunk (a streamed response without a length is chunked)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


class Phone:
    """One phone's open stream: where to write, and the version it has."""

    __slots__ = ("chunked", "done", "transport", "version")

    def __init__(self, transport: asyncio.BaseTransport, chunked: bool, version: int) -> None:
        self.transport = transport
        self.chunked = chunked
        self.version = version
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def send(self, plain: bytes, chunked: bytes) -> bool:
        """Write; False (and the stream ended) if the phone is gone or does not read."""
        t = self.transport
        if t.is_closing() or not isinstance(t, asyncio.WriteTransport) or \
                t.get_write_buffer_size() > BACKLOG:
            self.end()
            return False
        t.write(chunked if self.chunked else plain)
        return True

    def end(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


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
        self.phones: set[Phone] = set()

    def update(self, parts: dict[str, Any], t: float) -> bool:
        """Take freshly built parts; True (and every phone sent it) if anything changed."""
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
        self._fan_out()
        return True

    def _fan_out(self) -> None:
        delta, full = (self.delta, chunk(self.delta)), (self.full, chunk(self.full))
        for phone in list(self.phones):
            sent = phone.send(*(delta if phone.version == self.version - 1 else full))
            phone.version = self.version
            if not sent:
                self.phones.discard(phone)

    def join(self, phone: Phone) -> None:
        """A phone that has been sent the full state of `phone.version`."""
        self.phones.add(phone)
        if phone.version != self.version:      # changed while its first message went out
            phone.send(self.full, chunk(self.full))
            phone.version = self.version

    def broadcast(self, data: bytes) -> None:
        """The same bytes to every phone (a keep-alive)."""
        framed = chunk(data)
        for phone in list(self.phones):
            if not phone.send(data, framed):
                self.phones.discard(phone)

    def close(self) -> None:
        for phone in self.phones:
            phone.end()
        self.phones.clear()


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
            if not ch.phones:
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
            ping = sse({"t": round(self.now(), 3)}, "ping")
            for ch in list(self.channels.values()):
                ch.broadcast(ping)

    def close(self) -> None:
        """The director is stopping: every open stream ends now, not at a timeout."""
        self.closing = True
        for ch in self.channels.values():
            ch.close()
