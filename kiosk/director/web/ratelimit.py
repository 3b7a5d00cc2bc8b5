"""Requests per address for the public pages: a token bucket each, so a phone reloading
or looking up seats is never refused, and a script hammering the director is."""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class RateLimiter:
    """`burst` requests at once, then `rate` a second, per address."""

    def __init__(self, burst: float = 60, rate: float = 1.0, max_streams: int = 20,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.max_streams = burst, rate, max_streams
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}   # address -> (tokens, at)
        self.streams: dict[str, int] = {}                    # address -> open live feeds

    def take(self, who: str) -> float:
        """0 if `who` may go on (one token spent), else the seconds until it may."""
        now = self.clock()
        tokens, at = self.buckets.get(who, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self.buckets[who] = (tokens, now)
            return (1 - tokens) / self.rate
        self.buckets[who] = (tokens - 1, now)
        if len(self.buckets) > 50_000:
            self._forget(now)
        return 0.0

    def _forget(self, now: float) -> None:
        """Addresses whose bucket is full again cost nothing to forget."""
        full = self.burst / self.rate
        self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < full}

    def open_stream(self, who: str) -> bool:
        if self.streams.get(who, 0) >= self.max_streams:
            return False
        self.streams[who] = self.streams.get(who, 0) + 1
        return True

    def close_stream(self, who: str) -> None:
        left = self.streams.get(who, 1) - 1
        if left > 0:
            self.streams[who] = left
        else:
            self.streams.pop(who, None)


def retry_after(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))
