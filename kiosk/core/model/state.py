"""The records a tournament folds events into: players, tables and calls.

A record is a row of the part that keeps it, and each of its columns is folded by one
part (named beside the columns below); another part that needs one changed asks that
part through a method saying what it does (kiosk.core.play.registry.Registry.set_status).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk.base.texts import Msg
from kiosk.core.calc.button import Positions, next_big_blind
from kiosk.core.model.events import Event

__all__ = ["Event"]

# statuses a player moves through
WAITING, SEATED, MOVING, BUSTED, OUT = "waiting", "seated", "moving", "busted", "out"
IN_PLAY = (SEATED, MOVING)


@dataclass
class Player:
    """A row of the registry. Columns by owner: the registry (identity, status, entries,
    chips bought, absent), seating (table, seat, from_table, from_seat, moves), the
    floor (the penalty columns), busts (bust_key, bust_hand)."""

    id: str
    name: str
    card: str | None = None
    status: str = WAITING
    table: int | None = None
    seat: int | None = None
    from_table: int | None = None   # while moving: where the player comes from
    from_seat: int | None = None
    chips_bought: int = 0
    entries: int = 1
    rebuys: int = 0
    moves: int = 0
    absent: bool = False
    penalty_hands: int = 0
    penalty_until: float | None = None
    penalty_text: str = ""
    penalty_msg: Msg | None = None  # the same as a message key (None: logged before keys)
    strikes: int = 0
    warnings: int = 0               # warnings given (TDA 71A), told at each push (RP-15A)
    left_live_hand: int = 0
    bust_key: tuple | None = None   # the group of busts this player went out in
    bust_hand: int | None = None    # the hand of their table they went out in
    country: str = ""               # for results sites, when known
    language: str = ""              # the player's own, for their slips ("": the room's)


@dataclass
class Table:
    """A row of seating. Balancing keeps `breaking`, `pending_out` and `pending_in`;
    every other column is seating's."""

    id: int
    seats: int
    added: bool = False
    seat_of: dict[int, str] = field(default_factory=dict)  # seat -> player (incl. arriving)
    hand: int = 0
    in_hand: bool = False
    positions: Positions | None = None
    breaking: bool = False
    broken: bool = False
    pending_out: list[int] = field(default_factory=list)  # target tables of ordered moves
    pending_in: int = 0
    new_seats: set[int] = field(default_factory=set)     # seated since the last hand began
    all_in: set[int] = field(default_factory=set)
    redraw_button: bool = False
    balance_out: int = 0         # players sent away to balance
    moved_weight: int = 0        # sum over its players of (moves so far) squared
    last_hand_at: float | None = None
    life: int = 0                # times this table opened before in the event (broke, reopened)

    @property
    def count(self) -> int:
        return len(self.seat_of)

    @property
    def effective(self) -> int:
        """Players once every ordered move is done: what balancing looks at."""
        return len(self.seat_of) + self.pending_in - len(self.pending_out)

    def open_seats(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if s not in self.seat_of]

    def dealt_in(self, seat: int | None) -> bool:
        """Whether the player in `seat` now was dealt in the table's last hand (seated
        at the table then, not since, and not waiting for the big blind)."""
        return self.positions is not None and seat in self.positions.dealt \
            and seat not in self.new_seats

    def due_seat(self) -> int | None:
        """The seat due the big blind next, or None before the table's first hand."""
        if self.positions is None or not self.seat_of:
            return None
        return next_big_blind(self.positions, self.seat_of, self.seats)


@dataclass(slots=True)
class FloorCall:
    id: str
    table: int
    seat: int | None
    raised_at: float
    state: str = "open"          # open -> acked -> resolved | cancelled
    acked_by: str | None = None
    acked_at: float | None = None
    resolved_at: float | None = None
    note: str = ""
    report: str | None = None    # the table's report id that raised it


@dataclass(slots=True)
class ClockCall:
    id: str
    table: int
    seat: int
    raised_at: float
    seconds: int
    countdown: int
    state: str = "requested"     # requested -> approved -> done
    approved_at: float | None = None
    approved_by: str | None = None
    outcome: str | None = None
    done_at: float | None = None
    report: str | None = None    # the table's report id that raised it
    hand: int = 0                # the table's hand when it was raised
