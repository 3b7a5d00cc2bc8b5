"""A simulated table at a hand's end whose dealer's push is due: it waits for the relief
to badge in before the next hand, as the kiosk's "PUSH: Gia badges in" asks a dealer to,
at most PUSH_WAIT after each hand, then deals on, as a dealer whose relief does not come
does. Over MQTT the plan says when the push is due (kiosk.sim.mqtt_field.push_due); in
this process nobody runs a roadmap, so nothing waits.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.sim.fields import Field

PUSH_WAIT = 20.0        # seconds of the table's time the dealer waits for the relief
PUSH_LOOK = 1.0         # and how often the table looks again


class PushWait:
    """The tables waiting for their relief; `look(at, table)` has a table look again."""

    def __init__(self, field: Field, look: Callable[[float, int], None]) -> None:
        self.field, self.look = field, look
        self.since: dict[int, tuple[int, float]] = {}   # table -> (hand, waiting since)
        self.looking: set[int] = set()

    def holds(self, table: int, t: float) -> bool:
        """Whether the table waits for its relief now (and will look again)."""
        if not self.field.push_due(table, t):
            self.since.pop(table, None)
            return False
        hand = self.field.hand(table)
        was, since = self.since.get(table, (hand, t))
        since = since if was == hand else t
        self.since[table] = (hand, since)
        if t - since >= PUSH_WAIT:
            return False
        if table not in self.looking:
            self.looking.add(table)
            self.look(t + PUSH_LOOK, table)
        return True

    def looked(self, table: int) -> None:
        """The table looked again (its turn in the queue came)."""
        self.looking.discard(table)
