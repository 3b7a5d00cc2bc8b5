"""What one simulated tournament measured: moves, busts, money and rule violations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SimResult:
    players: int
    profile: str
    seed: int
    hands: int = 0
    levels_reached: int = 1
    tables_max: int = 0
    moves_balance: int = 0
    moves_break: int = 0
    moves_unavoidable: int = 0
    halts: int = 0
    max_spread_at_hand_start: int = 0
    moved_skipped_bb: int = 0
    moved_bb_twice: int = 0
    max_moves_one_player: int = 0
    moved_3plus: int = 0
    places: list[str] = field(default_factory=list)
    invariant_violations: int = 0
    violations: list[str] = field(default_factory=list)
    events: int = 0
    sim_hours: float = 0.0
    wall_seconds: float = 0.0
    decision_times: list[float] = field(default_factory=list)
    decision_tables: list[int] = field(default_factory=list)  # tables open at each decision
    rebuys: int = 0
    addons: int = 0
    late_entries: int = 0      # players the floor sold a seat (or a rebuy) meanwhile
    chips_removed: int = 0
    prize_pool: int = 0
    bounty_pool: int = 0
    winner_keeps: int = 0      # the bounty on the winner's own head, his to keep
    results: list[dict[str, Any]] = field(default_factory=list)
    knockouts: list[tuple[str, list[str], bool]] = field(default_factory=list)  # rebought?

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items()
             if k not in ("decision_times", "decision_tables", "knockouts")}
        d["violations"] = self.violations[:20]
        return d

    def violation(self, text: str) -> None:
        self.invariant_violations += 1
        if len(self.violations) < 50:
            self.violations.append(text)
