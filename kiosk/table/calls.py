"""Clock and floor calls as small value objects, so the controller can copy and undo them."""

from __future__ import annotations

from dataclasses import dataclass

BUZZER_S = 3.0  # how long the buzzer sounds when a clock call runs out
SHOT_WARN_S = 5.0  # the shot clock's last seconds: the buzzer beeps, the count turns red


@dataclass
class ClockCall:
    """A player-clock call raised at `raised_at`; the countdown runs from `started_at`.

    `seconds` then `countdown` come from the profile (or the floor's approval); the
    call cannot start before `raised_at + min_wait` (Irish Open r.27: two minutes).
    """

    id: str
    seat: int
    raised_at: float
    seconds: float
    countdown: float
    min_wait: float = 0.0
    needs_approval: bool = True
    approved_at: float | None = None
    plan_key: str | None = None   # the director's id for this call, once seen in a plan

    @property
    def ids(self) -> set[str]:
        return {self.id} | ({self.plan_key} if self.plan_key else set())

    @property
    def started_at(self) -> float | None:
        if self.needs_approval and self.approved_at is None:
            return None
        return max(self.raised_at + self.min_wait, self.approved_at or self.raised_at)

    @property
    def total(self) -> float:
        return self.seconds + self.countdown

    def phase(self, t: float) -> str:
        """`approval`, `waiting` (min wait), `running`, `countdown`, `buzzer` or `over`."""
        start = self.started_at
        if start is None:
            return "approval"
        if t < start:
            return "waiting"
        elapsed = t - start
        if elapsed < self.seconds:
            return "running"
        if elapsed < self.total:
            return "countdown"
        return "buzzer" if elapsed < self.total + BUZZER_S else "over"

    def remaining(self, t: float) -> float:
        """Seconds left on the whole call (time to act plus the final count)."""
        start = self.started_at
        if start is None or t < start:
            return self.total
        return max(0.0, self.total - (t - start))

    def wait_left(self, t: float) -> float:
        return max(0.0, self.raised_at + self.min_wait - t)


@dataclass
class FloorCall:
    """A floor call: `open` (light on) -> `acked` (blinking) -> `resolved` (off)."""

    id: str
    raised_at: float
    seat: int | None = None
    state: str = "open"
    note: str = ""
    resolved_at: float | None = None
    plan_key: str | None = None   # the director's id for this call, once seen in a plan
    by: str = ""                  # who of the floor is on the way, once one answered

    @property
    def ids(self) -> set[str]:
        return {self.id} | ({self.plan_key} if self.plan_key else set())


@dataclass
class ShotRun:
    """The shot clock (TDA RP-19) on one player's decision: `seconds` from `started_at`,
    and `extra` seconds from the time-bank cards handed in on it (`cards`)."""

    seat: int
    player: str
    hand: int
    started_at: float
    seconds: float
    extra: float = 0.0
    cards: int = 0

    def left(self, t: float) -> float:
        """Seconds to act (below zero once time is up)."""
        return self.seconds + self.extra - (t - self.started_at)

    def phase(self, t: float) -> str:
        """`running`, `countdown` (the last seconds, the buzzer beeping), `buzzer` (time
        up, the buzzer sounding) or `over` (time up: the dealer gives the ruling)."""
        left = self.left(t)
        if left > SHOT_WARN_S:
            return "running"
        if left > 0:
            return "countdown"
        return "buzzer" if left > -BUZZER_S else "over"
