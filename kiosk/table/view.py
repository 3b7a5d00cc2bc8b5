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
    penalty: str = ""          # e.g. "PEN x2" (hands to sit out) or "PEN to 21:40"
    all_in: bool = False
    busted: bool = False
    arriving: bool = False
    waiting: bool = False      # new player not dealt in until the button passes
    dealt: bool = False
    out: str = ""              # busted this hand: "OUT 18th" (place from the director)
    arriving_from: str = ""    # "T5"

    @property
    def markers(self) -> str:
        """Short text badges shown under the name."""
        out = [m for m, on in (("D", self.button), ("SB", self.sb), ("BB", self.bb)) if on]
        if self.all_in:
            out.append("ALL-IN")
        if self.absent:
            out.append("absent")
        if self.waiting:
            out.append("waits: button")
        if self.arriving:
            out.append(f"arriving {self.arriving_from}".strip())
        if self.out:
            out.append(self.out)
        elif self.busted:
            out.append("OUT")
        return "  ".join(out)

    @property
    def status(self) -> str:
        """The seat's second line without the blinds (drawn as badges)."""
        return "  ".join(m for m in self.markers.split("  ") if m not in ("D", "SB", "BB"))


@dataclass(frozen=True)
class ClockCallView:
    seat: int
    phase: str                 # approval / waiting / running / countdown / buzzer / over
    remaining: float
    text: str                  # big overlay text, e.g. "25" or "Waiting for floor"
    detail: str                # e.g. "Clock on seat 6 - 25 + 5 s (TDA 29)"
    buzzer: bool = False


@dataclass(frozen=True)
class MoverView:
    """One player on a breaking table's or the final table's list."""

    name: str
    from_text: str             # "seat 3" (leaving) or "T5 s1" (arriving)
    to_text: str               # "TABLE 7  SEAT 2" or "SEAT 4"
    seat: int = 0              # arriving seat at this table (tap confirms), else 0
    arrived: bool = False


@dataclass(frozen=True)
class BustPanel:
    """The bust panel: seats to pick, picked seats with the stack typed so far."""

    seats: tuple[tuple[int, str], ...]          # (seat, name) of everyone dealt in
    picked: tuple[tuple[int, str], ...]         # (seat, digits typed)
    focus: int | None
    stacks_needed: bool
    ok: bool                                    # OK would be accepted
    prompt: str
    mode: str = "bust"          # bust (seats out) / winner (who won the pot) / count
                                # (stacks) / race (the dealer's chip race)
    ok_text: str = "OK"         # OK, or SKIP on the winner step with nobody picked, SEND
    split: bool = False         # the winner step's SPLIT POT is armed
    error: bool = False         # the prompt says why the last OK was refused
    side: bool = False          # the winner step's SIDE POTS is armed: pot by pot
    sides: bool = False         # SIDE POTS is offered (two or more busts)
    done: tuple[tuple[int, tuple[int, ...]], ...] = ()   # side pots named: (bust, winners)
    note: str = ""              # a second line: the race's card order
    cards: tuple[tuple[int, int], ...] = ()   # race: (seat, cards dealt to it)
    blocked: tuple[int, ...] = ()             # race: seats that may win no more chips
    can_undo: bool = False                    # race: a tap to take back


@dataclass(frozen=True)
class PinPanel:
    """The PIN pad (kiosk.table.flows.pin): never the PIN itself, one star a digit."""

    names: tuple[str, ...]     # names to pick (the plan's: the relief due here first)
    name: str                  # the name picked or typed so far
    stars: str                 # one star a digit typed
    typing: bool               # the letter pad is up (else the digit pad)
    ok: bool                   # a name and 4 to 8 digits: OK may send


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
    refused: str = ""          # "broker refused this table's login": the operator's to fix
    storage: str = ""          # "DISK FULL: ..." when the state folder takes no write
    prompt: str = ""           # "ALL-IN: tap the seat"
    pending: str = ""          # action waiting for a seat tap
    message: str = ""          # last outcome or refusal, shown for a few seconds
    message_is_error: bool = False
    checkin: str = ""          # last card check-in result
    profile: str = ""
    field_text: str = ""       # "27 left · avg 16,667"
    to_break: str = ""         # "Break in 42:10"
    state: str = ""            # the big banner: FINAL TABLE, LAST HAND, HALTED, BUBBLE...
    guidance: str = ""         # what to do now, in the middle of the table
    can_deal: bool = False     # NEW HAND enabled
    undo: str = ""             # what UNDO takes back ("bust 4"); "" = disabled
    movers_title: str = ""     # full-screen mover list ("" = not shown)
    movers: tuple[MoverView, ...] = ()
    movers_page: int = 0
    movers_pages: int = 1
    bust_panel: BustPanel | None = None
    bust_results: tuple[str, ...] = ()   # "Seat 4: 18th, wins 1,234, bounty 50"
    colour_up_title: str = ""            # the colour-up walk-through ("" = not shown)
    colour_up: tuple[tuple[str, str, str], ...] = ()   # (seat, cards and chips won, change)
    free: bool = False                   # the room holds this table free: the idle screen
    event_title: str = ""                # the event this table serves
    room_title: str = ""
    section: str = ""                    # the floor's section the table stands in
    director_offline: bool = False       # the director's last will: it is not running
    dealer_line: str = ""                # "Ann · push 4:30" (kiosk.table.dealer_view)
    push_prompt: str = ""                # "PUSH after this hand: Cy"
    dealer_next: str = ""                # "Ann: Table 14" / "Ann: Break until 21:35"
    pin_button: bool = False             # a dealer may type a PIN here (push due, no dealer)
    pin_panel: PinPanel | None = None    # the PIN pad, while open
    extra: dict = field(default_factory=dict)

    def screen_line(self) -> str:
        """What the dealer can tap now, in one line ("hand 3 in play", "bust: picked 3,
        OK on"): `[ui] log_touches` logs it as it changes, so whoever commissions a panel
        (or drives one) sees which screen each touch met."""
        panel = self.bust_panel
        if panel is not None:
            picked = ",".join(str(n) for n, _ in panel.picked) or "none"
            return (f"{panel.mode}: picked {picked}, {panel.ok_text} "
                    f"{'on' if panel.ok else 'off'}")
        for shown, name in ((self.pin_panel, "PIN pad"), (self.movers_title, "movers"),
                            (self.colour_up_title, "colour-up")):
            if shown:
                return name
        hand = f"hand {self.hand} in play" if self.in_hand else f"hand {self.hand} over"
        return f"{hand}, {self.pending} armed" if self.pending else hand
