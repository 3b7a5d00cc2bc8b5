"""The table's own hand state: what undo restores and what survives a restart."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.core.calc.button import Positions


@dataclass
class Local:
    """Hand count, positions and the seat changes the director has not confirmed yet."""

    hand: int = 0
    in_hand: bool = False
    positions: Positions | None = None
    period: int | None = None                # clock period the running hand started in
    all_in: list[int] = field(default_factory=list)
    dealt_players: dict[int, str] = field(default_factory=dict)  # seat -> player dealt in
    busted: dict[int, str] = field(default_factory=dict)         # seat -> player, until plan
    absent: dict[int, list] = field(default_factory=dict)        # seat -> [player, absent]
    checked_in: dict[int, str] = field(default_factory=dict)     # arriving seat -> player
    h4h_round: int | None = None             # hand-for-hand round of the running hand
    h4h_played: int | None = None            # last hand-for-hand round this table played
    redraw_rev: list[float] = field(default_factory=lambda: [0.0, -1])  # plan [epoch, rev]
                                             # whose redraw_button we honoured
    redraw_pending: bool = False
    draw_note: str = ""
    # time-bank cards handed in that the plan does not show yet: player -> [the plan's
    # count of the player's cards used when the first was handed in, cards since]
    bank_pending: dict[str, list[int]] = field(default_factory=dict)
    shot_hand: int = 0                       # the hand the shot clock last ran in
    shot_last: int = 0                       # ...and the seat it last ran on
    # the handover (RP-15A) the table is at: [which (dealer@push), the hand count when
    # the table met it, the hand count when the dealer put its panel away (-1: not)]
    handover: list[Any] = field(default_factory=lambda: ["", 0, -1])

    def settle(self, seats: dict[int, dict[str, Any]]) -> None:
        """Drop the seat changes the plan's `seats` now show (or that no longer apply)."""
        for seat, (player, absent) in list(self.absent.items()):
            who = seats.get(seat, {})
            if who.get("player") != player or bool(who.get("absent")) == absent:
                del self.absent[seat]   # the director has it (or the seat changed hands)
        for seat, player in list(self.busted.items()):
            if seats.get(seat, {}).get("player") != player:
                del self.busted[seat]
        for seat, player in list(self.checked_in.items()):
            who = seats.get(seat, {})
            if who.get("player") != player or who.get("status", "seated") == "seated":
                del self.checked_in[seat]
        self._settle_banks(seats)

    def _settle_banks(self, seats: dict[int, dict[str, Any]]) -> None:
        """Cards handed in that the plan now counts (or whose player left the table: the
        report still reaches the director, which counts it wherever the player sits)."""
        used = {str(w.get("player")): int(w.get("bank_used") or 0) for w in seats.values()}
        for player, (seen, n) in list(self.bank_pending.items()):
            now = used.get(player)
            counted = 0 if now is None else max(0, now - seen)
            if now is None or counted >= n:
                del self.bank_pending[player]
            elif counted:
                self.bank_pending[player] = [now, n - counted]

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items() if k != "positions"}
        d["positions"] = self.positions.to_dict() if self.positions else None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Local:
        loc = cls()
        for key in ("hand", "in_hand", "period", "all_in", "h4h_round", "h4h_played",
                    "redraw_rev", "redraw_pending", "draw_note", "shot_hand", "shot_last",
                    "handover"):
            if key in d:
                setattr(loc, key, d[key])
        for key in ("dealt_players", "busted", "absent", "checked_in"):
            setattr(loc, key, {int(k): v for k, v in d.get(key, {}).items()})
        loc.bank_pending = {str(k): [int(x) for x in v]
                            for k, v in (d.get("bank_pending") or {}).items()}
        if d.get("positions"):
            loc.positions = Positions.from_dict(d["positions"])
        if not isinstance(loc.redraw_rev, list):   # state saved before plans had an epoch
            loc.redraw_rev = [0.0, float(loc.redraw_rev)]
        return loc
