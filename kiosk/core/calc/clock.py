"""The tournament clock as an anchor: "period i (virtually) started at time T".

Anyone holding the structure and the anchor computes the same level and time left,
so a table that loses the network keeps an exact clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise
from typing import NamedTuple

from kiosk.rules.structure import Period, Structure


class ClockReading(NamedTuple):
    """The clock at one moment; read at every deal, so a tuple, cheap to build."""

    period: int
    remaining: float
    paused: bool
    finished: bool  # past the end of the last period


@dataclass(frozen=True)
class Clock:
    period: int = 0
    anchor: float = 0.0                   # time when `period` would have started
    paused_remaining: float | None = None  # set while paused: time left in `period`

    @classmethod
    def start(cls, t: float, period: int = 0) -> Clock:
        return cls(period=period, anchor=t)

    @classmethod
    def stopped(cls, structure: Structure, period: int = 0) -> Clock:
        """A clock not yet started: paused with the full first period left."""
        return cls(period=period, anchor=0.0,
                   paused_remaining=structure.periods[period].seconds)

    @property
    def paused(self) -> bool:
        return self.paused_remaining is not None

    def read(self, s: Structure, t: float) -> ClockReading:
        if self.paused_remaining is not None:
            return ClockReading(self.period, self.paused_remaining, True, False)
        i, elapsed = self.period, t - self.anchor
        periods = s.periods
        last = len(periods) - 1
        seconds = periods[i].seconds   # read at every deal: each period's length once
        while i < last and elapsed >= seconds:
            elapsed -= seconds
            i += 1
            seconds = periods[i].seconds
        remaining = seconds - elapsed
        return ClockReading(i, max(0.0, remaining), False, remaining <= 0)

    def current(self, s: Structure, t: float) -> Period:
        return s.periods[self.read(s, t).period]

    def normalized(self, s: Structure, t: float) -> Clock:
        """The same clock re-anchored at the period running at `t` (a level change)."""
        r = self.read(s, t)
        if r.paused or r.period == self.period:
            return self
        return Clock(r.period, t - (s.periods[r.period].seconds - r.remaining))

    def pause(self, s: Structure, t: float) -> Clock:
        if self.paused:
            return self
        r = self.read(s, t)
        return Clock(r.period, self.anchor, r.remaining)

    def resume(self, s: Structure, t: float) -> Clock:
        if self.paused_remaining is None or s.counts_hands:   # hands: no time runs
            return self
        return Clock(self.period, t - (s.periods[self.period].seconds - self.paused_remaining))

    def set_remaining(self, s: Structure, t: float, remaining: float) -> Clock:
        """Set time left in the current period; below zero rolls into later periods."""
        r = self.read(s, t)
        i = r.period
        while remaining <= 0 and i < len(s.periods) - 1:
            i += 1
            remaining += s.periods[i].seconds
        remaining = max(0.0, min(remaining, s.periods[i].seconds * 10))
        if r.paused:
            return Clock(i, self.anchor, remaining)
        return Clock(i, t - (s.periods[i].seconds - remaining))

    def add_time(self, s: Structure, t: float, seconds: float) -> Clock:
        return self.set_remaining(s, t, self.read(s, t).remaining + seconds)

    def jump(self, s: Structure, t: float, period: int) -> Clock:
        """Start period `period` afresh (paused clocks stay paused)."""
        period = max(0, min(period, len(s.periods) - 1))
        if self.paused:
            return Clock(period, self.anchor, s.periods[period].seconds)
        return Clock(period, t)

    def run_off(self, s: Structure, t: float, seconds: float) -> Clock:
        """Hand-for-hand (TDA RP-8B): a paused clock loses `seconds` at each hand start.

        A break is not a hand: RP-8 and the Irish Open's r.74 run time off per hand
        only, so a run-off that reaches a break stops there and the break starts, in
        full, on the real clock (no table deals until it is over).
        """
        paused = self.pause(s, t)
        now = paused.read(s, t)
        new = paused.set_remaining(s, t, now.remaining - seconds)
        for i in range(now.period + 1, new.period + 1):
            if s.periods[i].is_break:
                return Clock.start(t, i)
        return new

    def to_dict(self) -> dict:
        return {"period": self.period, "anchor": self.anchor,
                "paused_remaining": self.paused_remaining}

    @classmethod
    def from_dict(cls, d: dict) -> Clock:
        return cls(int(d["period"]), float(d["anchor"]),
                   None if d.get("paused_remaining") is None else float(d["paused_remaining"]))

    def delayed(self, seconds: float) -> Clock:
        """The same running clock starting `seconds` later: until then its period reads
        more than its length left (the start waits while the dealers prepare their
        decks, TDA 2024 RP-20)."""
        if not seconds or self.paused_remaining is not None:
            return self
        return replace(self, anchor=self.anchor + seconds)

    def with_period(self, period: int) -> Clock:
        return replace(self, period=period)


def level_ends_at(clock: Clock, s: Structure, t: float) -> float | None:
    """When the level of play running at `t` gives way to the next level or a break (a
    push waits for it, RP-7); None while paused, in a break or in the last period."""
    r = clock.read(s, t)
    if r.paused or r.finished or r.period + 1 >= len(s.periods) \
            or s.periods[r.period].is_break:
        return None
    # from the anchor, not from `t`: every reading of one level gives the same moment
    return clock.anchor + sum(s.periods[i].seconds for i in range(clock.period, r.period + 1))


def raises_so_far(s: Structure, period: int) -> int:
    """How many times the blinds have gone up by period `period` (breaks do not count)."""
    levels = [p for p in s.periods[: period + 1] if not p.is_break]
    return sum(1 for a, b in pairwise(levels) if (b.sb, b.bb) > (a.sb, a.bb))


def format_clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
