"""The table as a pure state machine: no I/O, no threads, time passed in.

The UI, the GPIO adapter, the card reader, the headless runner and the tests all
drive this one object. Each action returns a `Result`: the report to queue (if
any) and a message for the dealer. Refused actions (a duplicate press, a new hand
while one is running) return `refused=True` and no report, so nothing reaches the
director twice.
"""

from __future__ import annotations

import copy
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

from kiosk.core.button import Positions, draw_button, first_hand, next_hand
from kiosk.core.clock import Clock, ClockReading, format_clock
from kiosk.errors import KioskError
from kiosk.protocol import messages
from kiosk.protocol.messages import report
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Period, Structure
from kiosk.table.calls import ClockCall, FloorCall
from kiosk.table.counting import Counting
from kiosk.table.result import Result
from kiosk.table.view import BustPanel, ClockCallView, MoverView, SeatView, TableView

log = logging.getLogger(__name__)

RING = 10              # seat numbers wrap at 10 (the protocol's largest table)
DEBOUNCE_S = 0.8       # a second press of the same button inside this window is ignored
MESSAGE_S = 6.0        # how long an outcome message stays on screen
RESOLVED_S = 8.0       # how long "floor: resolved" stays before the banner clears
PENDING_S = 30.0       # a "tap the seat" prompt expires after this
UNDO_DEPTH = 20
MOVERS_PER_PAGE = 10   # a whole table (the most a plan lists) on one page at 800x480
SEAT_ACTIONS = ("all_in", "clock", "bust", "absent", "present")
PROMPTS = {"all_in": "ALL-IN: tap the seat", "clock": "CLOCK: tap the seat",
           "bust": "BUST: tap each busted seat, then OK",
           "absent": "ABSENT / BACK: tap the seat", "present": "PRESENT: tap the seat"}
STACK_PROMPT = "Two or more out: type each starting stack, then OK"
WINNER_PROMPT = "Who won the pot? Tap the seat, or SKIP"
SPLIT_PROMPT = "Split pot: tap each winner, then OK"
PROMPTS["bust_winner"] = WINNER_PROMPT
UNDO_LABELS = {"all_in": "all-in", "bust": "bust", "absent": "away", "present": "back",
               "clock_call": "clock", "floor_call": "floor"}
MAX_STACK_DIGITS = 9


@dataclass
class _Local:
    """The table's own hand state: what undo restores and what survives a restart."""

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

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items() if k != "positions"}
        d["positions"] = self.positions.to_dict() if self.positions else None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> _Local:
        loc = cls()
        for key in ("hand", "in_hand", "period", "all_in", "h4h_round", "h4h_played",
                    "redraw_rev", "redraw_pending", "draw_note"):
            if key in d:
                setattr(loc, key, d[key])
        for key in ("dealt_players", "busted", "absent", "checked_in"):
            setattr(loc, key, {int(k): v for k, v in d.get(key, {}).items()})
        if d.get("positions"):
            loc.positions = Positions.from_dict(d["positions"])
        if not isinstance(loc.redraw_rev, list):   # state saved before plans had an epoch
            loc.redraw_rev = [0.0, float(loc.redraw_rev)]
        return loc


class TableController(Counting):
    """One table's kiosk logic; see the module docstring."""

    def __init__(self, table: int, *, rng: random.Random | None = None, seq: int = 0,
                 boot: str | None = None, debounce_s: float = DEBOUNCE_S) -> None:
        self.table = table
        self.rng = rng or random.Random()
        self.seq = seq
        self.boot = boot or f"{self.rng.getrandbits(32):08x}"
        self.debounce_s = debounce_s
        self.profile: Profile = load_profile(DEFAULT_PROFILE)
        self.schedule: dict[str, Any] | None = None
        self.structure: Structure | None = None
        self.clock: Clock | None = None
        self.plan: dict[str, Any] = {"rev": -1, "seats": {}, "moves_out": [], "moves_in": []}
        self.seating: dict[str, Any] = {"rev": -1, "cards": {}}
        self.local = _Local()
        self.clock_call: ClockCall | None = None
        self.floor_call: FloorCall | None = None
        self.closed_calls: set[str] = set()   # plan call ids this table has finished
        self.pending: str | None = None
        self.pending_by = "dealer"
        self.pending_at = 0.0
        self.online = False
        self.queued = 0
        self.checkin_text = ""
        self.checkin_at = 0.0
        self._message = ("", 0.0, False)
        self._last_press: dict[str, float] = {}
        self._undo: list[tuple[str, str, _Local | None]] = []  # (report, label, before)
        self.bust_stacks: dict[int, str] = {}    # seats picked on the bust panel -> digits
        self.bust_focus: int | None = None
        self.bust_winners: list[int] = []        # the winner step: seats that won the pot
        self.bust_split = False                  # SPLIT POT armed: seat taps pick several
        self.mover_page = 0
        self.movers_per_page = MOVERS_PER_PAGE
        self.movers_hidden = False
        self._init_counting()

    # ------------------------------------------------------------------ inputs
    def _valid(self, kind: str, msg: dict[str, Any], held: dict[str, Any] | None) -> bool:
        """`msg` fits its schema and is not older than what is held.

        Checked here, not only on the wire, because plans also come back from this
        table's own store at start: a bad one is refused and logged, and the last good
        one stays. Order is (director epoch, revision), so a director restored from an
        older backup (a new epoch, lower revisions) is followed, and nothing from a
        previous run outranks the running director for ever."""
        try:
            checked = messages.check(kind, msg)
        except messages.ProtocolError as exc:
            log.warning("table %s: refused a %s: %s; keeping the last good one", self.table,
                        kind, exc)
            return False
        msg.clear()
        msg.update(checked)
        if held is None:
            return True
        return (msg["epoch"], msg["rev"]) >= (held.get("epoch", 0.0), held.get("rev", -1))

    def apply_schedule(self, msg: dict[str, Any]) -> bool:
        """Take a schedule; older revisions are ignored."""
        if not self._valid("schedule", msg, self.schedule):
            return False
        try:
            structure = Structure.from_dict(msg["structure"])
            clock = Clock.from_dict(msg["clock"])
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("table %s: schedule rev %s unusable: %s", self.table, msg.get("rev"), exc)
            return False
        if not structure.periods:
            return False
        try:
            self.profile = load_profile(str(msg.get("profile") or DEFAULT_PROFILE))
        except KioskError as exc:
            log.warning("table %s: %s; keeping profile %s", self.table, exc, self.profile.id)
        self.schedule, self.structure, self.clock = msg, structure, clock
        return True

    def apply_plan(self, msg: dict[str, Any], t: float | None = None) -> bool:
        """Take this table's plan; a lower revision than the one held is ignored."""
        if msg.get("table", self.table) != self.table or not self._valid("plan", msg, self.plan):
            return False
        self.plan = msg
        when = float(t if t is not None else msg.get("ts", 0.0))
        seats = self._plan_seats()
        loc = self.local
        for seat, (player, absent) in list(loc.absent.items()):
            who = seats.get(seat, {})
            if who.get("player") != player or bool(who.get("absent")) == absent:
                del loc.absent[seat]   # the director has it (or the seat changed hands)
        for seat, player in list(loc.busted.items()):
            if seats.get(seat, {}).get("player") != player:
                del loc.busted[seat]
        for seat, player in list(loc.checked_in.items()):
            who = seats.get(seat, {})
            if who.get("player") != player or who.get("status", "seated") == "seated":
                del loc.checked_in[seat]
        if msg.get("redraw_button") and [msg["epoch"], msg["rev"]] > loc.redraw_rev:
            loc.redraw_rev, loc.redraw_pending = [msg["epoch"], msg["rev"]], True
        self._reconcile_clock_calls(msg.get("clock_calls") or {}, when)
        self._reconcile_floor_calls(msg.get("floor_calls") or {}, when)
        return True

    def apply_seating(self, msg: dict[str, Any]) -> bool:
        """Take the seating directory used for card check-ins."""
        if not self._valid("seating", msg, self.seating):
            return False
        self.seating = msg
        return True

    def set_link(self, online: bool, queued: int = 0) -> None:
        """The link tells the controller whether it is connected and how much is queued."""
        self.online, self.queued = online, queued

    def export_state(self) -> dict[str, Any]:
        """Local hand state for the on-disk store, so a restart keeps the hand count."""
        return {"local": self.local.to_dict(), "seq": self.seq, **self.counting_state()}

    def import_state(self, d: dict[str, Any]) -> None:
        self.local = _Local.from_dict(d.get("local", {}))
        self.seq = max(self.seq, int(d.get("seq", 0)))
        self.restore_counting(d)

    # ------------------------------------------------------------------ hands
    def new_hand(self, t: float) -> Result:
        """Start the next hand: button and blinds per the profile, level fixed for the hand."""
        if r := self._debounced("new_hand", t):
            return r
        loc = self.local
        if loc.in_hand:
            return self._refuse(t, f"Hand {loc.hand} is still running - end it first")
        if block := self._deal_block():
            return self._refuse(t, block)
        occupied = self._occupied()
        note = ""
        if loc.positions is None or loc.redraw_pending:
            button, cards = draw_button(sorted(occupied), self.profile.button.start, self.rng)
            pos = first_hand(occupied, button, RING)
            note = f"Button drawn: seat {button}"
            if cards:
                note += f" ({cards[button]})"
            loc.redraw_pending = False
        else:
            players = self._players()
            newcomers = {s for s in occupied if loc.dealt_players.get(s) != players.get(s)}
            pos = next_hand(loc.positions, occupied, RING,
                            dead_button=self.profile.button.dead_button, newcomers=newcomers,
                            waits=self.profile.button.newcomer_waits)
        players = self._players()
        loc.hand += 1
        loc.in_hand, loc.positions, loc.all_in, loc.draw_note = True, pos, [], note
        for seat in pos.dealt:
            loc.dealt_players[seat] = players.get(seat, "")
        reading = self.reading(t)
        loc.period = reading.period if reading else None
        hh = self._h4h()
        loc.h4h_round = int(hh.get("round", 0)) if hh.get("on") else None
        data: dict[str, Any] = {"hand": loc.hand, "button": pos.button, "sb": pos.sb,
                                "bb": pos.bb, "dealt": list(pos.dealt)}
        if pos.waiting:
            data["waiting"] = list(pos.waiting)
        # short enough for one line in the middle of the table; the badges show the rest
        msg = note or f"Hand {loc.hand}: button {pos.button}"
        self.bust_stacks, self.bust_focus = {}, None
        return self._emit(t, "hand_started", data, msg)

    def end_hand(self, t: float) -> Result:
        if r := self._debounced("end_hand", t):
            return r
        loc = self.local
        if not loc.in_hand:
            return self._refuse(t, "No hand is running")
        loc.in_hand = False
        if loc.h4h_round is not None:
            loc.h4h_played = loc.h4h_round
        return self._emit(t, "hand_ended", {"hand": loc.hand}, f"Hand {loc.hand} ended")

    def all_in(self, t: float, seat: int) -> Result:
        loc = self.local
        if not loc.in_hand:
            return self._refuse(t, "ALL-IN needs a running hand")
        if seat in loc.all_in:
            return self._refuse(t, f"Seat {seat} is already all-in")
        if loc.positions and seat not in loc.positions.dealt:
            return self._refuse(t, f"Seat {seat} is not in this hand")
        before = copy.deepcopy(loc)
        loc.all_in = [*loc.all_in, seat]
        return self._emit(t, "all_in", {"seat": seat, "hand": loc.hand}, f"Seat {seat} all-in",
                          before, f"all-in {seat}")

    def bust(self, t: float, seat: int, stack: int | None = None,
             eliminator: int | list[int] | None = None) -> Result:
        """Mark a seat busted; `stack` is the hand's starting stack when the dealer knows it,
        `eliminator` the seat (or seats, split pot) that won the pot when tapped."""
        player = self._players().get(seat)
        if player is None or seat not in self._occupied():
            return self._refuse(t, f"Seat {seat} has no player to bust")
        winners = eliminator if isinstance(eliminator, list) else \
            [] if eliminator is None else [eliminator]
        if any(w == seat or w not in self._occupied() for w in winners):
            return self._refuse(t, "The pot's winner must be another player in the hand")
        before = copy.deepcopy(self.local)
        self.local.busted[seat] = player
        data: dict[str, Any] = {"seat": seat, "player": player}
        if stack is not None:
            data["stack"] = int(stack)
        if winners:
            data["eliminator"] = winners[0] if len(winners) == 1 else winners
        return self._emit(t, "bust", data, f"Seat {seat} busted", before, f"bust {seat}")

    def chip_count(self, t: float, stacks: dict[int, int], round_no: int | None = None
                   ) -> Result:
        """Send the stacks the dealer entered for an open chip count."""
        data: dict[str, Any] = {"stacks": {str(s): int(v) for s, v in sorted(stacks.items())}}
        if round_no is not None:
            data["round"] = round_no
        return self._emit(t, "chip_count", data, f"Chip count sent ({len(stacks)} seats)")

    def set_absent(self, t: float, seat: int, absent: bool = True) -> Result:
        player = self._players().get(seat)
        if player is None:
            return self._refuse(t, f"Seat {seat} is empty")
        if self._is_absent(seat) == absent:
            return self._refuse(t, f"Seat {seat} is already {'absent' if absent else 'present'}")
        before = copy.deepcopy(self.local)
        self.local.absent[seat] = [player, absent]
        kind = "absent" if absent else "present"
        return self._emit(t, kind, {"seat": seat}, f"Seat {seat} {kind}", before,
                          f"{UNDO_LABELS[kind]} {seat}")

    def confirm_arrival(self, t: float, seat: int) -> Result:
        """A moved player without a card sits down: the dealer taps the arriving seat."""
        who = self._plan_seats().get(seat, {})
        if who.get("status") != "arriving" or seat in self._occupied():
            return self._refuse(t, f"Seat {seat} is not waiting for a player")
        self.local.checked_in[seat] = str(who.get("player", ""))
        name = str(who.get("name", "")) or "player"
        return self._emit(t, "present", {"seat": seat}, f"Seat {seat}: {name} arrived")

    def undo(self, t: float) -> Result:
        """Take back the last dealer action: local state returns, the director is told."""
        if r := self._debounced("undo", t):
            return r
        if not self._undo:
            return self._refuse(t, "Nothing to undo")
        rid, label, before = self._undo.pop()
        if before is not None:
            self.local = before
        for call in (self.clock_call, self.floor_call):
            if call is not None and call.id == rid:
                self.closed_calls |= call.ids
                if call is self.clock_call:
                    self.clock_call = None
                else:
                    self.floor_call = None
        return self._emit(t, "undo", {"report": rid}, f"Undone: {label}")

    def undo_label(self) -> str:
        """What UNDO would take back ("bust 4"), or "" when there is nothing."""
        return self._undo[-1][1] if self._undo else ""

    # ------------------------------------------------------------------ buttons
    def press_allin(self, t: float) -> Result:
        """Physical ALL-IN: the dealer then taps the seat."""
        if r := self._debounced("allin_button", t):
            return r
        if not self.local.in_hand:
            return self._refuse(t, "ALL-IN needs a running hand")
        return self.begin(t, "all_in")

    def press_clock(self, t: float) -> Result:
        """Physical CLOCK (a player asks): refused where only the dealer may call it."""
        if r := self._debounced("clock_button", t):
            return r
        if self.profile.clock_call.called_by == "dealer":
            return self._refuse(t, f"Only the dealer calls the clock here{self._rule()}")
        if self.clock_call is not None:
            return self._refuse(t, f"The clock is already on seat {self.clock_call.seat}")
        return self.begin(t, "clock", by="player")

    def press_floor(self, t: float, seat: int | None = None) -> Result:
        if r := self._debounced("floor_button", t):
            return r
        if self.floor_call is not None and self.floor_call.state != "resolved":
            return self._refuse(t, "Floor already called")
        data = {} if seat is None else {"seat": seat}
        res = self._emit(t, "floor_call", data, "Floor called", None, "floor")
        assert res.report is not None
        self.floor_call = FloorCall(res.report["id"], t, seat)
        return res

    def hold_floor(self, t: float) -> Result:
        """A held FLOOR press cancels the open call instead of raising one."""
        call = self.floor_call
        if call is None or call.state == "resolved":
            return self._refuse(t, "No floor call to cancel")
        self.floor_call = None
        self.closed_calls |= call.ids
        return self._emit(t, "floor_cancel", {"call": call.id}, "Floor call cancelled")

    def hold_clock(self, t: float) -> Result:
        """A held CLOCK press cancels the call (or the seat prompt)."""
        if self.clock_call is not None:
            return self.clock_done(t, "cancelled")
        if self.pending == "clock":
            return self.cancel_pending(t)
        return self._refuse(t, "No clock call to cancel")

    def hold_allin(self, t: float) -> Result:
        if self.pending == "all_in":
            return self.cancel_pending(t)
        return self._refuse(t, "Nothing to cancel")

    # ------------------------------------------------------------------ seat prompts
    def begin(self, t: float, action: str, by: str = "dealer") -> Result:
        """Arm a seat action; the next seat tap completes it."""
        if action not in SEAT_ACTIONS:
            raise ValueError(f"unknown seat action {action!r}")
        if self.pending == "bust_winner":      # busts entered, not yet sent: keep them
            return self._refuse(t, "Tap the pot's winner, or SKIP")
        self.pending, self.pending_by, self.pending_at = action, by, t
        if action == "bust":
            self.bust_stacks, self.bust_focus = {}, None
        return Result(message=PROMPTS[action])

    def cancel_pending(self, t: float) -> Result:
        if self.pending == "bust_winner":      # the busts are entered: SKIP sends them
            return self._refuse(t, "Tap the pot's winner, or SKIP")
        self.pending = None
        self.bust_stacks, self.bust_focus = {}, None
        return Result(message="Cancelled")

    def choose_seat(self, t: float, seat: int, stack: int | None = None) -> Result:
        """A seat tap: completes the armed action (all-in, clock, absent/back), picks a
        seat on the bust panel, or with nothing armed confirms an arriving player."""
        action, by = self._pending(t), self.pending_by
        if action is None:
            if self._plan_seats().get(seat, {}).get("status") == "arriving" \
                    and seat not in self._occupied():
                return self.confirm_arrival(t, seat)
            if self.counting() is not None:
                return self.count_seat(t, seat)
            return self._refuse(t, "Choose an action first")
        if action == "bust_winner":
            return self.winner_pick(t, seat)
        if action == "bust":
            if stack is not None:            # a stack given with the tap: bust at once
                self.pending = None
                return self.bust(t, seat, stack)
            return self.bust_pick(t, seat)
        self.pending = None
        if action == "all_in":
            return self.all_in(t, seat)
        if action == "clock":
            return self.call_clock(t, seat, by=by)
        if action == "absent" and self._is_absent(seat):
            return self.set_absent(t, seat, False)
        return self.set_absent(t, seat, action == "absent")

    # ------------------------------------------------------------------ the bust panel
    def bust_pick(self, t: float, seat: int) -> Result:
        """Pick (or with a second tap on the focused seat, drop) a busted seat; typing
        goes to the seat picked last."""
        if seat not in self._occupied():
            return self._refuse(t, f"Seat {seat} has no player to bust")
        self.pending_at = t
        if seat in self.bust_stacks and self.bust_focus == seat:
            del self.bust_stacks[seat]
            self.bust_focus = max(self.bust_stacks) if self.bust_stacks else None
            return Result(message=f"Seat {seat} not out")
        self.bust_stacks.setdefault(seat, "")
        self.bust_focus = seat
        return Result(message=f"Seat {seat} out")

    def bust_key(self, t: float, key: str) -> Result:
        """The on-screen keypad: digits, "000" and "<" (delete) into the focused stack."""
        seat = self.bust_focus
        if self.pending != "bust" or seat is None:
            return self._refuse(t, "Tap the busted seat first")
        self.pending_at = t
        text = self.bust_stacks.get(seat, "")
        if key == "<":
            text = text[:-1]
        elif key.isdigit() and len(text + key) <= MAX_STACK_DIGITS:
            text = (text + key).lstrip("0")
        self.bust_stacks[seat] = text
        return Result()

    def stacks_needed(self) -> bool:
        """Several busts on one hand are ranked by starting stack under this profile."""
        rules = self.profile.busts
        rule = rules.hand_for_hand_same_table if self._h4h().get("on") else rules.same_table
        return len(self.bust_stacks) >= 2 and rule == "stack"

    def bust_confirm(self, t: float) -> Result:
        """OK on the bust panel: on to the one optional step, who won the pot."""
        if self.pending != "bust" or not self.bust_stacks:
            return self._refuse(t, "Tap the busted seat first")
        if self.stacks_needed() and not all(self.bust_stacks.values()):
            missing = [s for s, v in sorted(self.bust_stacks.items()) if not v]
            return self._refuse(t, f"Type the starting stack of seat {missing[0]}")
        self.pending, self.bust_focus = "bust_winner", None
        self.bust_winners, self.bust_split = [], False
        return Result(message=WINNER_PROMPT)

    def winner_pick(self, t: float, seat: int) -> Result:
        """A seat tap on the winner step: sends at once, or with SPLIT POT armed picks (or
        drops) one of several winners."""
        if self.pending != "bust_winner":
            return self._refuse(t, "Tap the busted seat first")
        if seat in self.bust_stacks or seat not in self._occupied():
            return self._refuse(t, "The pot's winner must be another player in the hand")
        if not self.bust_split:
            self.bust_winners = [seat]
            return self.bust_send(t)
        w = self.bust_winners
        self.bust_winners = [s for s in w if s != seat] if seat in w else sorted([*w, seat])
        return Result()

    def split_pot(self, t: float) -> Result:
        """SPLIT POT on the winner step: seat taps now pick several winners, then OK."""
        if self.pending != "bust_winner":
            return self._refuse(t, "Tap the busted seat first")
        self.bust_split, self.bust_winners = not self.bust_split, []
        return Result()

    def bust_send(self, t: float) -> Result:
        """SKIP / OK on the winner step: one bust report per picked seat, with its stack
        and the pot's winner(s) when tapped."""
        if self.pending != "bust_winner" or not self.bust_stacks:
            return self._refuse(t, "Tap the busted seat first")
        picked, winners = sorted(self.bust_stacks.items()), self.bust_winners
        self.pending, self.bust_stacks, self.bust_focus = None, {}, None
        self.bust_winners, self.bust_split = [], False
        eliminator: int | list[int] | None = (
            None if not winners else winners[0] if len(winners) == 1 else winners)
        results = [self.bust(t, seat, int(v) if v else None, eliminator) for seat, v in picked]
        reports = [r.report for r in results if r.report]
        if not reports:
            return results[0]
        seats = ", ".join(str(s) for s, _ in picked)
        msg = f"Seat {seats} busted" if len(picked) == 1 else f"Seats {seats} busted"
        self._message = (msg, t, False)
        return Result(reports[0], msg, more=tuple(reports[1:]))

    # ------------------------------------------------------------------ clock calls
    def call_clock(self, t: float, seat: int, by: str = "dealer") -> Result:
        """Raise a clock call on `seat`; it runs per the profile's clock_call rules."""
        rules = self.profile.clock_call
        if rules.called_by == "dealer" and by != "dealer":
            return self._refuse(t, f"Only the dealer calls the clock here{self._rule()}")
        if self.clock_call is not None:
            return self._refuse(t, f"The clock is already on seat {self.clock_call.seat}")
        if seat not in self._occupied():
            return self._refuse(t, f"Seat {seat} has no player")
        res = self._emit(t, "clock_call", {"seat": seat}, f"Clock called on seat {seat}",
                         None, f"clock {seat}")
        assert res.report is not None
        self.clock_call = ClockCall(res.report["id"], seat, t, rules.seconds, rules.countdown,
                                    rules.min_wait, rules.needs_approval)
        return res

    def clock_done(self, t: float, outcome: str) -> Result:
        """Close the clock call: the player acted, the hand is dead, checked, or cancelled."""
        call = self.clock_call
        if call is None:
            return self._refuse(t, "No clock call running")
        self.clock_call = None
        self.closed_calls |= call.ids
        return self._emit(t, "clock_done", {"call": call.id, "outcome": outcome},
                          f"Clock call: {outcome}")

    # ------------------------------------------------------------------ cards
    def card(self, t: float, card: str) -> Result:
        """A check-in card read at this table (TDA 6: a player in the wrong seat is told)."""
        card = card.strip().upper()
        if r := self._debounced(f"card:{card}", t, window=3.0):
            return r
        for seat, who in self._plan_seats().items():
            if str(who.get("card", "")).upper() == card:
                return self._checkin(t, card, seat, str(who.get("player", "")),
                                     str(who.get("name", "")))
        where = self.seating.get("cards", {}).get(card) or self.seating.get("cards", {}).get(
            card.lower())
        if not where:
            return self._check_text(t, "Unknown card — ask the floor", error=True)
        table, seat, name = where
        if int(table) != self.table:
            return self._check_text(t, f"Wrong seat — table {table} seat {seat}"
                                       f"{' (' + name + ')' if name else ''}", error=True)
        return self._checkin(t, card, int(seat), "", str(name))

    def _checkin(self, t: float, card: str, seat: int, player: str, name: str) -> Result:
        who = self._plan_seats().get(seat, {})
        if who.get("status") == "arriving" and who.get("player"):
            self.local.checked_in[seat] = str(who["player"])
        self.checkin_text, self.checkin_at = f"Seat {seat}: welcome {name}".rstrip(), t
        return self._emit(t, "checkin", {"card": card, "seat": seat}, self.checkin_text)

    def _check_text(self, t: float, text: str, error: bool) -> Result:
        self.checkin_text, self.checkin_at = text, t
        return self._refuse(t, text) if error else Result(message=text)

    # ------------------------------------------------------------------ outputs
    def live(self, t: float) -> dict[str, Any]:
        """The retained live snapshot for the floor dashboard."""
        loc, cc, fc = self.local, self.clock_call, self.floor_call
        pos = loc.positions
        return {
            "table": self.table, "hand": loc.hand, "in_hand": loc.in_hand,
            "all_in": sorted(loc.all_in),
            "button": pos.button if pos else None, "sb": pos.sb if pos else None,
            "bb": pos.bb if pos else None,
            "period": loc.period if loc.in_hand else None,
            "clock_call": None if cc is None else {
                "id": cc.id, "seat": cc.seat, "phase": cc.phase(t), "started_at": cc.started_at,
                "seconds": cc.seconds, "countdown": cc.countdown},
            "floor_call": None if fc is None else {"id": fc.id, "state": fc.state,
                                                   "since": fc.raised_at, "seat": fc.seat},
            "h4h_waiting": self._h4h_waiting(), "plan_rev": self.plan.get("rev"),
            "ts": t,
        }

    def view(self, t: float) -> TableView:
        """Everything the screen shows at time `t`."""
        self._expire(t)
        loc = self.local
        kw: dict[str, Any] = {}
        reading = self.reading(t)
        if reading is not None and self.structure is not None:
            s = self.structure
            shown = loc.period if loc.in_hand and loc.period is not None else reading.period
            period = s.periods[shown]
            kw["level"] = self._level_name(shown)
            kw["blinds"] = "" if period.is_break else f"{period.sb:,}/{period.bb:,}"
            kw["ante"] = _ante(period)
            kw["clock"] = format_clock(reading.remaining)
            kw["paused"] = reading.paused
            kw["next_level"] = self._next_text(reading.period)
            if loc.in_hand and reading.period != shown:
                kw["next_hand_note"] = f"Next hand: {self._level_name(reading.period).lower()}"
            current = s.periods[reading.period]
            kw["is_break"] = current.is_break and not loc.in_hand and not self._moving_out()
            kw["color_up"] = current.color_up if current.is_break else ""
            kw["to_break"] = self._to_break(reading)
        text, at, err = self._message
        hh = self._h4h()
        block = "" if loc.in_hand else self._deal_block()
        prompt = PROMPTS[self.pending] if self.pending else ""
        guidance = prompt or (self.checkin_text if t - self.checkin_at < MESSAGE_S else "")
        if not guidance:
            guidance = ("Tap END HAND when done" if loc.in_hand
                        else block or "Tap NEW HAND to deal")
        title, movers = self._movers()
        cu_title, cu_rows = self.colour_up()
        per = self.movers_per_page
        pages = max(1, -(-len(movers) // per))
        page = min(self.mover_page, pages - 1)
        return TableView(
            table=self.table, hand=loc.hand, in_hand=loc.in_hand, seats=self._seat_views(),
            clock_call=self._clock_view(t), floor_call=self._floor_text(),
            floor_state=self.floor_call.state if self.floor_call else "",
            moves=tuple(f"Seat {m.get('seat')}: go to table {m.get('to_table')} seat "
                        f"{m.get('to_seat')}" for m in self.plan.get("moves_out", [])),
            arrivals=self._arrivals(),
            hand_for_hand=(f"Hand-for-hand - round {hh.get('round', '')}" if hh.get("on")
                           else ""),
            h4h_waiting=self._h4h_waiting(), halt=bool(self.plan.get("halt")),
            breaking=bool(self.plan.get("breaking")), offline=not self.online,
            queued=self.queued, prompt=prompt,
            pending=self.pending or "", message=text if t - at < MESSAGE_S else "",
            message_is_error=err,
            checkin=self.checkin_text if t - self.checkin_at < MESSAGE_S else "",
            profile=self.profile.name, field_text=self._field_text(), state=self._state(),
            guidance=guidance, can_deal=not loc.in_hand and not block,
            undo=self.undo_label(), movers_title=title,
            movers=movers[page * per:(page + 1) * per],
            movers_page=page, movers_pages=pages,
            bust_panel=self._bust_panel() or self.count_panel(),
            bust_results=self._bust_results(), colour_up_title=cu_title, colour_up=cu_rows,
            **kw)

    # ------------------------------------------------------------------ screen state
    def _deal_block(self) -> str:
        """Why NEW HAND is not allowed now ("" when it is): shown before the tap."""
        return self._moment()[1]

    def _state(self) -> str:
        """The one banner that says what moment the table is in."""
        return self._moment()[0]

    def _moment(self) -> tuple[str, str]:
        """(banner, reason not to deal) for the moment the table is in, most binding first."""
        plan, sched, hh = self.plan, self.schedule or {}, self._h4h()
        if plan.get("broken"):
            return "TABLE CLOSED", "Table closed: do not deal"
        if sched.get("finished"):
            return "TOURNAMENT OVER", "Tournament over"
        if plan.get("final_pending"):
            return "FINAL TABLE DRAW", "Final draw: do not deal"
        if plan.get("breaking"):
            return ("LAST HAND - TABLE BREAKS" if self.local.in_hand else "TABLE BREAKING",
                    "Table breaking: do not deal")
        if plan.get("halt"):
            return "HALTED - DO NOT DEAL", "Halted: do not deal"
        if hh.get("on"):
            text = f"HAND-FOR-HAND {hh.get('round', '')}".strip()
            if not self._h4h_waiting():
                return text, self._seat_block()
            playing = self._h4h_playing()
            return text + ": WAIT", ("Playing: table" + ("s " if len(playing) > 1 else " ")
                                     + ", ".join(map(str, playing[:5])) if playing
                                     else "Hand-for-hand: wait")
        block = "On hold: do not deal" if plan.get("hold") else self._seat_block()
        order = sched.get("break_order") or []
        state = ("FINAL TABLE" if plan.get("final_table") else "BUBBLE" if sched.get("bubble")
                 else "THIS TABLE BREAKS NEXT" if order and order[0] == self.table else "")
        return state, block

    def _seat_block(self) -> str:
        return "Need two players to deal" if len(self._occupied()) < 2 else ""

    def _h4h_playing(self) -> list[int]:
        """Tables still playing this hand-for-hand round (from the schedule)."""
        hh = (self.schedule or {}).get("hand_for_hand") or {}
        return [int(n) for n in hh.get("playing") or [] if n != self.table]

    def _field_text(self) -> str:
        sched = self.schedule or {}
        left = sched.get("players_left")
        if not left:
            return ""
        avg = sched.get("average_stack")
        return f"{left} left" + (f" · avg {int(avg):,}" if avg else "")

    def _to_break(self, reading: ClockReading) -> str:
        assert self.structure is not None
        periods = self.structure.periods
        if periods[reading.period].is_break:
            return ""
        left = reading.remaining
        for p in periods[reading.period + 1:]:
            if p.is_break:
                return f"Break in {format_clock(left)}"
            left += p.seconds
        return ""

    def _moving_out(self) -> bool:
        return bool(self.plan.get("moves_out")) and bool(
            self.plan.get("broken") or self.plan.get("breaking") or self.plan.get("final_pending"))

    def _movers(self) -> tuple[str, tuple[MoverView, ...]]:
        """The full-screen list: everyone leaving a breaking table, or the final table's
        arrivals. Ordinary balancing moves stay a banner."""
        plan = self.plan
        out = plan.get("moves_out") or []
        if out and (plan.get("broken") or plan.get("breaking")):
            final = all(m.get("to_table") == (self.schedule or {}).get("final_table")
                        for m in out) and (self.schedule or {}).get("final_table")
            title = (f"FINAL TABLE: go to table {out[0].get('to_table')}" if final
                     else "TABLE BREAKING: players move")
            return title, tuple(
                MoverView(str(m.get("name") or m.get("player", "")), f"seat {m.get('seat')}",
                          f"TABLE {m.get('to_table')}  SEAT {m.get('to_seat')}")
                for m in sorted(out, key=lambda m: int(m.get("seat") or 0)))
        ins = plan.get("moves_in") or []
        if plan.get("final_table") and ins and not self.movers_hidden:
            occupied = self._occupied()
            rows = tuple(
                MoverView(str(m.get("name") or m.get("player", "")),
                          f"T{m.get('from_table')} s{m.get('from_seat')}",
                          f"SEAT {m.get('seat')}", int(m.get("seat") or 0),
                          m.get("seat") in occupied)
                for m in sorted(ins, key=lambda m: int(m.get("seat") or 0)))
            if not all(r.arrived for r in rows):
                return "FINAL TABLE: tap arrivals", rows
        return "", ()

    def mover_page_step(self, t: float, step: int) -> Result:
        """PREV / NEXT on a mover list longer than one page."""
        self.mover_page = max(0, self.mover_page + step)
        return Result()

    def hide_movers(self, t: float) -> Result:
        """The final table's dealer goes back to the table; arrivals stay as seat marks."""
        self.movers_hidden = True
        return Result()

    def _bust_panel(self) -> BustPanel | None:
        if self.pending == "bust_winner":
            others = tuple((n, str(self._plan_seats()[n].get("name", "")))
                           for n in sorted(self._occupied() - set(self.bust_stacks)))
            return BustPanel(others, tuple((n, "") for n in self.bust_winners), None, False,
                             True, SPLIT_PROMPT if self.bust_split else WINNER_PROMPT,
                             mode="winner", ok_text="OK" if self.bust_winners else "SKIP",
                             split=self.bust_split)
        if self.pending != "bust":
            return None
        seats = self._plan_seats()
        dealt = tuple((n, str(seats[n].get("name", ""))) for n in sorted(self._occupied()))
        picked = tuple(sorted(self.bust_stacks.items()))
        need = self.stacks_needed()
        ok = bool(picked) and (not need or all(v for _, v in picked))
        prompt = STACK_PROMPT if need else PROMPTS["bust"] if not picked else \
            "Stack optional with one bust - OK sends"
        return BustPanel(dealt, picked, self.bust_focus, need, ok, prompt)

    def _bust_results(self) -> tuple[str, ...]:
        out = []
        for b in self.plan.get("busts") or []:
            place, prize = b.get("place"), int(b.get("prize") or 0)
            text = f"Seat {b.get('seat')}: {_ordinal(place) if place else 'out'}"
            if b.get("tied", 1) > 1:
                text += f" ({b['tied']} tie)"
            out.append(text + (f", wins {prize:,}" if prize else ""))
            if b.get("bounty_won"):      # own line: the centre of the table is narrow
                out.append(f"Seat {b.get('seat')}: bounties {int(b['bounty_won']):,}")
        return tuple(out)

    def buzzer_on(self, t: float) -> bool:
        return self.clock_call is not None and self.clock_call.phase(t) == "buzzer"

    # ------------------------------------------------------------------ helpers
    def _emit(self, t: float, kind: str, data: dict[str, Any], message: str,
              undo_from: _Local | None = None, undo: str = "") -> Result:
        """Queue a report; `undo` names it for the UNDO button when the director can take
        it back (`undo_from` is the local state to return to)."""
        self.seq += 1
        rep = report(self.table, f"{self.table}-{self.boot}-{self.seq}", self.seq, t, kind,
                     **data)
        if undo:
            self._undo = [*self._undo[-(UNDO_DEPTH - 1):], (rep["id"], undo, undo_from)]
        self._message = (message, t, False)
        return Result(rep, message)

    def _refuse(self, t: float, message: str) -> Result:
        self._message = (message, t, True)
        return Result(message=message, refused=True)

    def _debounced(self, name: str, t: float, window: float | None = None) -> Result | None:
        last = self._last_press.get(name)
        self._last_press[name] = t
        if last is not None and 0 <= t - last < (self.debounce_s if window is None else window):
            return Result(message="Pressed twice - ignored", refused=True)
        return None

    def _rule(self) -> str:
        rule = self.profile.clock_call.rule
        return f" (rule {rule})" if rule else ""

    def _pending(self, t: float) -> str | None:
        # the winner step never lapses: the busts it holds are sent by a tap or SKIP
        if self.pending not in (None, "bust_winner") and t - self.pending_at > PENDING_S:
            self.pending = None
        return self.pending

    def _expire(self, t: float) -> None:
        self._pending(t)
        fc = self.floor_call
        if fc and fc.state == "resolved" and t - (fc.resolved_at or t) > RESOLVED_S:
            self.floor_call = None

    def reading(self, t: float) -> ClockReading | None:
        """The tournament clock at `t` from the last schedule (runs on while offline)."""
        if self.clock is None or self.structure is None:
            return None
        return self.clock.read(self.structure, t)

    def _level_name(self, period: int) -> str:
        assert self.structure is not None
        n = self.structure.level_number(period)
        return "Break" if n is None else f"Level {n}"

    def _next_text(self, period: int) -> str:
        assert self.structure is not None
        periods = self.structure.periods
        if period + 1 >= len(periods):
            return "Last level"
        nxt = periods[period + 1]
        if nxt.is_break:
            return f"Next: break {nxt.minutes:g} min"
        return f"Next: {nxt.sb:,}/{nxt.bb:,}"

    def _plan_seats(self) -> dict[int, dict[str, Any]]:
        return {int(k): v for k, v in self.plan.get("seats", {}).items()}

    def _players(self) -> dict[int, str]:
        return {s: str(w.get("player", "")) for s, w in self._plan_seats().items()}

    def _occupied(self) -> set[int]:
        """Seats dealt in: seated (or checked in on arrival), not busted here."""
        loc, out = self.local, set()
        for seat, who in self._plan_seats().items():
            status = who.get("status", "seated")
            arrived = loc.checked_in.get(seat) == who.get("player")
            if (status == "seated" or arrived) and loc.busted.get(seat) != who.get("player"):
                out.add(seat)
        return out

    def _is_absent(self, seat: int) -> bool:
        override = self.local.absent.get(seat)
        if override is not None:
            return bool(override[1])
        return bool(self._plan_seats().get(seat, {}).get("absent"))

    def _h4h(self) -> dict[str, Any]:
        hh = self.plan.get("hand_for_hand")
        if hh is None and self.schedule:
            hh = self.schedule.get("hand_for_hand")
        return hh or {}

    def _h4h_waiting(self) -> bool:
        hh, loc = self._h4h(), self.local
        if not hh.get("on") or loc.in_hand:
            return False
        return not hh.get("go", False) or int(hh.get("round", 0)) == loc.h4h_played

    def _seat_count(self) -> int:
        seats = self._plan_seats()
        n = int(self.plan.get("max_seats") or 9)
        return max(n, *seats) if seats else n

    def _seat_views(self) -> tuple[SeatView, ...]:
        seats, loc, occupied = self._plan_seats(), self.local, self._occupied()
        pos = loc.positions
        gone = {int(b.get("seat") or 0): b for b in self.plan.get("busts") or []}
        coming = {int(m.get("seat") or 0): m for m in self.plan.get("moves_in") or []}
        out = []
        for n in range(1, self._seat_count() + 1):
            who = seats.get(n)
            if who is None:
                b = gone.get(n)
                out.append(SeatView(
                    n, button=bool(pos and pos.button == n and loc.hand),
                    name=str(b.get("name", "")) if b else "", busted=b is not None,
                    out=f"OUT {_ordinal(b['place'])}" if b and b.get("place") else ""))
                continue
            m = coming.get(n)
            ph = who.get("penalty_hands") or 0
            until = who.get("penalty_until")
            penalty = (f"PEN {ph} hand" if ph == 1 else f"PEN x{ph}" if ph else
                       f"PEN to {_hhmm(until)}" if until else "")
            out.append(SeatView(
                n, name=str(who.get("name", "")), player=str(who.get("player", "")),
                occupied=n in occupied, absent=self._is_absent(n), penalty=penalty,
                button=bool(pos and pos.button == n), sb=bool(pos and pos.sb == n),
                bb=bool(pos and pos.bb == n), all_in=n in loc.all_in,
                busted=loc.busted.get(n) == who.get("player"),
                arriving=who.get("status") == "arriving" and n not in occupied,
                arriving_from=f"T{m.get('from_table')}" if m else "",
                waiting=bool(pos and n in pos.waiting and loc.in_hand),
                dealt=bool(pos and n in pos.dealt and loc.in_hand)))
        return tuple(out)

    def _arrivals(self) -> tuple[str, ...]:
        occupied = self._occupied()
        return tuple(f"Seat {m.get('seat')}: arriving from T{m.get('from_table')}"
                     for m in self.plan.get("moves_in", []) if m.get("seat") not in occupied)

    def _clock_view(self, t: float) -> ClockCallView | None:
        call = self.clock_call
        if call is None:
            return None
        phase = call.phase(t)
        rule = self._rule().strip(" ()")
        detail = (f"Clock on seat {call.seat} - {call.seconds:g} + {call.countdown:g} s"
                  f"{' (' + self.profile.name + ' ' + rule + ')' if rule else ''}")
        if phase == "approval":
            text = "Waiting for the floor"
        elif phase == "waiting":
            text = f"Clock can start in {format_clock(call.wait_left(t))}"
        elif phase in ("buzzer", "over"):
            text = "TIME"
        else:
            text = str(int(call.remaining(t) + 0.999))
        return ClockCallView(call.seat, phase, call.remaining(t), text, detail,
                             buzzer=phase == "buzzer")

    def _floor_text(self) -> str:
        fc = self.floor_call
        if fc is None:
            return ""
        return {"open": "Floor called", "acked": "Floor on the way",
                "resolved": "Floor: resolved"}.get(fc.state, "")

    def _reconcile_clock_calls(self, calls: dict[str, Any], t: float) -> None:
        call = self.clock_call
        for key, entry in calls.items():
            if not isinstance(entry, dict):
                continue
            state = entry.get("state")
            ours = call is not None and (key in call.ids or entry.get("report") == call.id or (
                call.plan_key is None and key not in self.closed_calls
                and entry.get("seat") == call.seat and state == "approved"))
            if ours and call is not None:
                call.plan_key = key
                if state == "done":
                    self.clock_call = None
                    self.closed_calls |= call.ids
                elif state == "approved" and call.approved_at is None:
                    call.approved_at = float(entry.get("approved_at") or t)
                    call.seconds = float(entry.get("seconds", call.seconds))
                    call.countdown = float(entry.get("countdown", call.countdown))
            elif (call is None and state == "approved" and key not in self.closed_calls
                  and isinstance(entry.get("seat"), int)):
                approved = float(entry.get("approved_at") or t)
                adopted = ClockCall(key, entry["seat"], approved,
                                    float(entry.get("seconds", self.profile.clock_call.seconds)),
                                    float(entry.get("countdown",
                                                    self.profile.clock_call.countdown)),
                                    0.0, True, approved)
                if adopted.phase(t) != "over":
                    self.clock_call = call = adopted

    def _reconcile_floor_calls(self, calls: dict[str, Any], t: float) -> None:
        fc = self.floor_call
        live = [k for k, e in calls.items() if isinstance(e, dict) and k not in self.closed_calls]
        for key, entry in calls.items():
            if not isinstance(entry, dict):
                continue
            state = entry.get("state")
            # the director may key calls by our report id, name it in "report", or use its
            # own id; with its own id, the one call it holds for this table is ours
            if fc is not None and (key == fc.id or entry.get("report") == fc.id or (
                    live == [key] and fc.id not in calls)):
                fc.plan_key = key
                if state in ("acked", "resolved") and state != fc.state:
                    fc.state, fc.note = state, str(entry.get("note", ""))
                    if state == "resolved":
                        fc.resolved_at = t
                        self.closed_calls |= fc.ids
            elif fc is None and state in ("open", "acked") and key not in self.closed_calls:
                self.floor_call = fc = FloorCall(key, float(entry.get("since") or t),
                                                 entry.get("seat"), state)


def _ordinal(n: Any) -> str:
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _ante(p: Period) -> str:
    if p.bb_ante:
        return f"BB ante {p.bb_ante:,}"
    return f"ante {p.ante:,}" if p.ante else ""


def _hhmm(ts: Any) -> str:
    try:
        return time.strftime("%H:%M", time.localtime(float(ts)))
    except (TypeError, ValueError):
        return str(ts)
