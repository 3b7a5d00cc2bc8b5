"""One time line for a director and the simulator that plays against it.

The simulator deals in virtual time, far faster than the wall clock; a director on
the wall clock would then see the rebuy period still open when the dealers have long
passed it, and refuse every add-on. Give both the same clock: the director reads
`now`, the simulator moves it with `advance` (its pace hook) before each event.
"""

from __future__ import annotations

import threading


class VirtualClock:
    """Seconds on the tournament's time line that pass only when the simulator says."""

    def __init__(self, t: float = 0.0) -> None:
        self._t = t
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._t

    def advance(self, t: float) -> None:
        """Move to `t`; time never runs backwards (a late event happens now)."""
        with self._lock:
            if t > self._t:
                self._t = t
