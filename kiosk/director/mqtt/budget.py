"""Per-table message budgets: one table flooding the broker cannot slow the others.

A token bucket per table topic, checked on paho's network thread before a message costs
the director's loop anything. A dealer's table sends a few reports a minute and bursts
of a handful (a hand's end with a bust and a check-in); the budget is far above that, so
only a broken or hostile table ever meets it. What is dropped is not lost: a real table
keeps every report in its outbox and re-sends it until acknowledged.
"""

from __future__ import annotations

import logging

log = logging.getLogger("kiosk.director")

RATE = 50.0      # messages per second, sustained, per table (simulated tables deal fast)
BURST = 200.0    # messages at once
LOG_EVERY = 10.0  # seconds between log lines about one table's drops


class Budget:
    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self._tokens: dict[str, tuple[float, float]] = {}   # key -> (tokens, at)
        self._dropped: dict[str, tuple[int, float]] = {}    # key -> (count, last log)

    @staticmethod
    def key(topic: str) -> str:
        """The table part of a topic (`pk/v1/ev/table/7/report` -> `table/7`)."""
        parts = topic.split("/")
        return "/".join(parts[3:5]) if len(parts) > 4 and parts[3] == "table" else topic

    def take(self, topic: str, now: float) -> bool:
        """True when the message may be handled; False (and counted) when over budget."""
        key = self.key(topic)
        tokens, at = self._tokens.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
        if tokens >= 1.0:
            self._tokens[key] = (tokens - 1.0, now)
            return True
        self._tokens[key] = (tokens, now)
        count, logged = self._dropped.get(key, (0, 0.0))
        count += 1
        if now - logged >= LOG_EVERY:
            log.warning("%s is over its budget of %.0f messages/s: %d dropped so far "
                        "(its outbox re-sends)", key, self.rate, count)
            logged = now
        self._dropped[key] = (count, logged)
        return False
