"""What every dealer flow shares: the director's messages, the table's hand state, and
one way to queue a report or tell the dealer why a tap was refused.

Pure: no I/O, time passed in. Flows hold a `TableContext` and never each other, so no
flow imports another and the controller alone wires them together.
"""

from __future__ import annotations

import random
from typing import Any

from kiosk.core.calc import pace
from kiosk.core.calc.clock import Clock, ClockReading, level_ends_at
from kiosk.lang.active import _
from kiosk.protocol.messages import report
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Structure
from kiosk.table.local import Local
from kiosk.table.result import Result

DEBOUNCE_S = 0.8       # a second press of the same button inside this window is ignored
UNDO_DEPTH = 20


class TableContext:
    """Shared table state; each flow reads it and reports through `emit`."""

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
        self.seatings: dict[str, dict[str, Any]] = {}   # event -> its seating directory
        self.directory: dict[str, Any] | None = None     # the room's events directory
        self.director_online: bool | None = None
        self.local = Local()
        self.pending: str | None = None     # the armed prompt: a seat action or a bust step
        self.pending_by = "dealer"
        self.pending_at = 0.0
        self.online = False
        self.queued = 0
        self.refused = ""        # why the broker turned this table's login down
        self.storage = ""        # why the state folder took no write ("" = it takes them)
        self.message = ("", 0.0, False)     # (text, when, is an error)
        self.last_press: dict[str, float] = {}
        self.undo_stack: list[tuple[str, str, Local | None]] = []  # (report, label, before)
        self.closed_calls: set[str] = set()   # plan call ids this table has finished

    # ---------------------------------------------------------------- reports
    def emit(self, t: float, kind: str, data: dict[str, Any], message: str,
             undo_from: Local | None = None, undo: str = "") -> Result:
        """Queue a report; `undo` names it for the UNDO button when the director can take
        it back (`undo_from` is the local state to return to)."""
        self.seq += 1
        rep = report(self.table, f"{self.table}-{self.boot}-{self.seq}", self.seq, t, kind,
                     **data)
        if self.event is not None:   # the director routes it to this event, even if the
            rep["event"] = self.event   # table serves another one by the time it arrives
        if undo:
            self.undo_stack = [*self.undo_stack[-(UNDO_DEPTH - 1):], (rep["id"], undo, undo_from)]
        self.message = (message, t, False)
        return Result(rep, message)

    def refuse(self, t: float, message: str) -> Result:
        self.message = (message, t, True)
        return Result(message=message, refused=True)

    def debounced(self, name: str, t: float, window: float | None = None) -> Result | None:
        """A refusal when the same button was pressed inside the debounce window."""
        last = self.last_press.get(name)
        self.last_press[name] = t
        if last is not None and 0 <= t - last < (self.debounce_s if window is None else window):
            return Result(message=_("Pressed twice - ignored"), refused=True)
        return None

    # ---------------------------------------------------------------- the room, read
    @property
    def event(self) -> str | None:
        """The event this table serves, as its plan names it (None: free, or no plan yet)."""
        event = self.plan.get("event")
        return str(event) if event is not None else None

    @property
    def free(self) -> bool:
        """The room holds this table free: a plan arrived and names no event."""
        return self.plan.get("rev", -1) >= 0 and self.event is None

    def event_title(self, event: str) -> str:
        """An event's title: from this table's plan, else the events directory."""
        if event == self.event and self.plan.get("title"):
            return str(self.plan["title"])
        for entry in (self.directory or {}).get("events", ()):
            if entry.get("event") == event and entry.get("title"):
                return str(entry["title"])
        return event

    def room_title(self) -> str:
        return str(self.plan.get("room") or (self.directory or {}).get("title") or "")

    def find_card(self, card: str) -> tuple[str | None, list[Any]] | None:
        """(event, [table, seat, name]) for a card in any event's seating this table has,
        the event it serves first; event None for a directory that named none."""
        here = self.event or ""
        order = sorted(self.seatings, key=lambda e: (e not in (here, ""), e))
        for event in order:
            cards = self.seatings[event].get("cards", {})
            where = cards.get(card) or cards.get(card.lower())
            if where:
                return (event or self.event), list(where)
        return None

    # ---------------------------------------------------------------- the plan, read
    def plan_seats(self) -> dict[int, dict[str, Any]]:
        return {int(k): v for k, v in self.plan.get("seats", {}).items()}

    def players(self) -> dict[int, str]:
        return {s: str(w.get("player", "")) for s, w in self.plan_seats().items()}

    def occupied(self) -> set[int]:
        """Seats dealt in: seated (or checked in on arrival), not busted here."""
        loc, out = self.local, set()
        for seat, who in self.plan_seats().items():
            status = who.get("status", "seated")
            arrived = loc.checked_in.get(seat) == who.get("player")
            if (status == "seated" or arrived) and loc.busted.get(seat) != who.get("player"):
                out.add(seat)
        return out

    def is_absent(self, seat: int) -> bool:
        override = self.local.absent.get(seat)
        if override is not None:
            return bool(override[1])
        return bool(self.plan_seats().get(seat, {}).get("absent"))

    def bank(self, seat: int) -> int | None:
        """Time-bank cards the player at `seat` holds: the plan's, less those handed in
        here that it does not count yet (None: the event has no time bank)."""
        who = self.plan_seats().get(seat) or {}
        if who.get("bank") is None:
            return None
        pending = self.local.bank_pending.get(str(who.get("player")), [0, 0])
        return max(0, int(who["bank"]) - pending[1])

    def h4h(self) -> dict[str, Any]:
        hh = self.plan.get("hand_for_hand")
        if hh is None and self.schedule:
            hh = self.schedule.get("hand_for_hand")
        return hh or {}

    def h4h_waiting(self) -> bool:
        hh, loc = self.h4h(), self.local
        if not hh.get("on") or loc.in_hand:
            return False
        return not hh.get("go", False) or int(hh.get("round", 0)) == loc.h4h_played

    def between_hands(self) -> bool:
        return not self.local.in_hand and self.pending is None

    def reading(self, t: float) -> ClockReading | None:
        """The tournament clock at `t` from the last schedule (runs on while offline)."""
        if self.clock is None or self.structure is None:
            return None
        return self.clock.read(self.structure, t)

    def first_hand(self) -> dict[str, Any] | None:
        """The plan's first hand after a push (TDA 2024 r.23) while it is still to deal:
        the table has dealt no hand since the push."""
        d = self.plan.get("dealer")
        first = d.get("first_hand") if isinstance(d, dict) else None
        if not isinstance(first, dict) or self.local.in_hand \
                or self.local.hand != first.get("hand"):
            return None
        return first

    def hand_period(self, t: float) -> int | None:
        """The period the next hand is dealt at: the clock's, or the prior level when a
        level started during the push before it (TDA 2024 r.23): after the push fell due,
        with the table's last hand dealt at the prior level, and no break since."""
        reading = self.reading(t)
        if reading is None or self.structure is None:
            return None
        first = self.first_hand()
        if first is None:
            return reading.period
        prior, now = int(first["period"]), reading.period
        periods = self.structure.periods
        last = self.local.period        # the outgoing dealer's last hand's
        if not prior < now < len(periods) or (last is not None and last > prior) or \
                any(p.is_break for p in periods[prior:now + 1]):
            return reading.period
        return prior

    def push_hold(self, t: float) -> tuple[float, float] | None:
        """(start, until): the last moments of the level running at `t`, in which no
        dealer push is taken (RP-7, the schedule's `push_hold`); None without one."""
        hold = int((self.schedule or {}).get("push_hold") or 0)
        if not hold or self.clock is None or self.structure is None:
            return None
        ends = level_ends_at(self.clock, self.structure, t)
        return None if ends is None else (ends - hold, ends)

    def rule(self) -> str:
        """The profile's rule for a clock call ("29"), or ""."""
        return str(self.profile.clock_call.rule or "")

    # ---------------------------------------------------------------- the table's pace
    def hands_dealt(self) -> tuple[int, int] | None:
        """Levels counted in hands: (period, hands of it dealt here) after this table's
        last hand, from the plan's count and the hands dealt since (offline too); None
        in a timed structure."""
        hl, s = self.plan.get("hand_level"), self.structure
        if not hl or s is None or not s.counts_hands:
            return None
        since = self.local.hand - int(hl.get("hand", 0))
        return pace.after_hands(s, int(hl["period"]), int(hl.get("played", 0)), since)

    def next_hand_period(self) -> int | None:
        """The period this table's next hand is dealt at, where levels count hands."""
        dealt = self.hands_dealt()
        if dealt is None or self.structure is None:
            return None
        return pace.hand_level(self.structure, *dealt)[0]

    def period_now(self, t: float) -> int | None:
        """The period of the hand running, else of the next hand: the table's own where
        levels count hands, else the clock's."""
        if self.local.in_hand and self.local.period is not None:
            return self.local.period
        own = self.next_hand_period()
        if own is not None:
            return own
        reading = self.reading(t)
        return reading.period if reading else None

    def orbit_played(self) -> bool:
        """Orbit for orbit: this table has played its orbit and waits for the others
        (the plan says so, or, offline, its own hands since the plan's count do)."""
        orbit = self.plan.get("orbit") or {}
        if not orbit.get("on"):
            return False
        left = orbit.get("hands_left")
        dealt = self.local.hand - int(orbit.get("hand", 0))
        return not orbit.get("go") or (left is not None and dealt >= int(left))
