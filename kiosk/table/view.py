"""What the screen shows, as plain data: the UI renders it and the tests read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk.lang.active import N_, _

# why the broker turned the table down (kiosk.table.link), said on the offline line
REFUSED_LOGIN = N_("broker refused this table's login")
REFUSED = N_("broker refused the connection: {reason}")


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
    warned: bool = False       # the handover names the player as warned (RP-15A)
    all_in: bool = False
    busted: bool = False
    arriving: bool = False
    waiting: bool = False      # new player not dealt in until the button passes
    dealt: bool = False
    out: str = ""              # busted this hand: "OUT 18th" (place from the director)
    arriving_from: str = ""    # "T5"
    bank: int | None = None    # time-bank cards the player holds (an event with a bank)

    @property
    def markers(self) -> str:
        """Short text badges shown under the name."""
        out = [m for m, on in ((_("D"), self.button), (_("SB"), self.sb), (_("BB"), self.bb))
               if on]
        if self.all_in:
            out.append(_("ALL-IN"))
        if self.absent:
            out.append(_("absent"))
        if self.warned:
            out.append(_("warned"))
        if self.waiting:
            out.append(_("waits: button"))
        if self.arriving:
            out.append(_("arriving {table}").format(table=self.arriving_from).strip())
        if self.out:
            out.append(self.out)
        elif self.busted:
            out.append(_("OUT"))
        return "  ".join(out)

    @property
    def status(self) -> str:
        """The seat's second line without the blinds (drawn as badges)."""
        blinds = (_("D"), _("SB"), _("BB"))
        return "  ".join(m for m in self.markers.split("  ") if m not in blinds)


@dataclass(frozen=True)
class ClockCallView:
    seat: int
    phase: str                 # approval / waiting / running / countdown / buzzer / over
    remaining: float
    text: str                  # big overlay text, e.g. "25" or "Waiting for floor"
    detail: str                # e.g. "Clock on seat 6 - 25 + 5 s (TDA 29)"
    buzzer: bool = False


@dataclass(frozen=True)
class ShotClockView:
    """The shot clock on one player's decision (TDA RP-19), as numbers and keys: the
    screen words it and draws the count large enough for the far seat."""

    seat: int
    name: str
    phase: str                 # running / countdown (last 5 s) / buzzer / over
    remaining: float           # seconds left to act (0 once time is up)
    seconds: int               # the whole count shown, rounded up: what the big digits say
    total: float               # the decision's time with the cards handed in on it
    cards: int                 # time-bank cards the player still holds
    card_seconds: int          # seconds one card adds
    cards_taken: int = 0       # cards handed in on this decision
    can_bank: bool = False     # TIME BANK would be taken now
    ruling: bool = False       # time is up: the dealer says "facing a bet" (the hand is
                               # dead) or not (checked)
    rule: str = "RP-19"


@dataclass(frozen=True)
class HandoverSeat:
    """A player the outgoing dealer names at the handover: warned, on a penalty, or both."""

    seat: int
    name: str
    warned: bool
    penalty: str               # the seat's penalty badge ("PEN x2"), "" without one


@dataclass(frozen=True)
class HandoverView:
    """What the outgoing dealer tells the incoming one (TDA 2024 RP-15A), while the push
    is due and for a while after it: the next hand's blinds (its level's, or the prior
    level's for the one hand r.23 deals there), the players warned or on a penalty at the
    table, and the floor's note. `shown`: its panel is up (between hands, until the
    incoming dealer deals or puts it away)."""

    outgoing: str
    incoming: str
    level: str                 # "Level 4" (the next hand's)
    blinds: str                # "100/200"
    ante: str                  # "BB ante 200"
    first_hand: str            # r.23: "One hand, then level 5", else ""
    players: tuple[HandoverSeat, ...]
    note: str                  # the floor's note for the table, as the floor wrote it
    shown: bool = False


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
    prepare_decks: bool = False   # play starts or resumes in a moment (TDA 2024 RP-20)
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
    final: bool = False        # the banner is the final table's (drawn in its own colour)
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
    handover: HandoverView | None = None   # what the outgoing dealer tells (RP-15A)
    pin_button: bool = False             # a dealer may type a PIN here (push due, no dealer)
    pin_panel: PinPanel | None = None    # the PIN pad, while open
    shot_clock: ShotClockView | None = None   # the shot clock running on a decision
    shot_clock_on: bool = False          # the shot clock applies at this table now
    hands_left: int | None = None        # levels counted in hands: this level's, left here
    orbit: str = ""                      # orbit for orbit: "" / playing / waiting
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
