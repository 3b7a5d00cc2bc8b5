"""What the screen shows, as plain data: the UI renders it and the tests read it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str = ""
    player: str = ""
    occupied: bool = False
    button: bool = False
    sb: bool = False
    bb: bool = False
    absent: bool = False
    penalty: str = ""          # e.g. "penalty: 2 hands" or "penalty until 21:40"
    all_in: bool = False
    busted: bool = False
    arriving: bool = False
    waiting: bool = False      # new player not dealt in until the button passes
    dealt: bool = False

    @property
    def markers(self) -> str:
        """Short text badges shown under the name."""
        out = [m for m, on in (("D", self.button), ("SB", self.sb), ("BB", self.bb)) if on]
        if self.all_in:
            out.append("ALL-IN")
        if self.absent:
            out.append("absent")
        if self.waiting:
            out.append("waits for button")
        if self.arriving:
            out.append("arriving")
        if self.busted:
            out.append("out")
        return "  ".join(out)


@dataclass(frozen=True)
class ClockCallView:
    seat: int
    phase: str                 # approval / waiting / running / countdown / buzzer / over
    remaining: float
    text: str                  # big overlay text, e.g. "25" or "Waiting for floor"
    detail: str                # e.g. "Clock on seat 6 - 25 + 5 s (TDA 29)"
    buzzer: bool = False


@dataclass(frozen=True)
class TableView:
    table: int
    level: str = "-"           # "Level 3" or "Break"
    blinds: str = ""           # "100/200"
    ante: str = ""             # "BB ante 200"
    clock: str = "--:--"
    next_level: str = ""       # "Next: 150/300 (BB ante 300)"
    next_hand_note: str = ""   # "Next hand: level 4"
    paused: bool = False
    is_break: bool = False
    color_up: str = ""
    hand: int = 0
    in_hand: bool = False
    seats: tuple[SeatView, ...] = ()
    clock_call: ClockCallView | None = None
    floor_call: str = ""       # "" / "Floor called" / "Floor on the way" / "Floor: resolved"
    floor_state: str = ""      # "" / open / acked / resolved
    moves: tuple[str, ...] = ()
    arrivals: tuple[str, ...] = ()
    hand_for_hand: str = ""    # "" or the hand-for-hand banner text
    h4h_waiting: bool = False
    halt: bool = False
    breaking: bool = False
    offline: bool = False
    queued: int = 0
    prompt: str = ""           # "ALL-IN: tap the seat"
    pending: str = ""          # action waiting for a seat tap
    message: str = ""          # last outcome or refusal, shown for a few seconds
    message_is_error: bool = False
    checkin: str = ""          # last card check-in result
    profile: str = ""
    extra: dict = field(default_factory=dict)
