"""A tournament as the fold of its events, and the decisions that make new events.

`execute(command, t)` decides and returns the events it appended (already applied);
`apply(event)` folds one event and is all a replay needs. Decisions that draw at
random seed their generator from the event's seed and the decision's own identity
(which table breaks, with how many players left), so the same play gives the same
draws whatever else happened in between, and a replayed director carries on alike.

The state lives in the tournament's parts (kiosk.core.model.component), one per part of the
domain. `Tournament` builds them, each with itself as the host and the others as the
read-only views kiosk.core.model.host declares (it imports every part; no part imports it),
and routes each command, report and event to the part that owns it, through tables built
once per class. The names readers use (`tour.players`, `tour.clock`, `tour.places()`...)
read through to the owning part; none writes.
"""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import msgspec

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_
from kiosk.core.chips.chip_counts import ChipCounts
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.changes import Changes
from kiosk.core.model.component import Component
from kiosk.core.model.host import Peers
from kiosk.core.model.stall_events import ShotClockSpec
from kiosk.core.model.state import Event, Table
from kiosk.core.money.knockouts import Knockouts
from kiosk.core.money.money import Money
from kiosk.core.play.busts import Busts
from kiosk.core.play.floor import Floor
from kiosk.core.play.levels import Levels
from kiosk.core.play.pace import Pace
from kiosk.core.play.registry import Registry
from kiosk.core.play.reports import TableReports
from kiosk.core.play.shot_clock import ShotClock
from kiosk.core.series.flights import Flights
from kiosk.core.series.satellites import Satellites
from kiosk.core.tables.balancing import Balancing
from kiosk.core.tables.draws import Draws
from kiosk.core.tables.final_table import FinalTable
from kiosk.core.tables.seating import Seating
from kiosk.rules import stalling
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Structure, structure_refusal

# table reports that cannot change who sits where: no balancing needed after them
QUIET_REPORTS = frozenset({"hand_started", "all_in", "clock_call", "clock_done", "floor_call",
                           "floor_cancel", "absent", "present", "checkin", "time_bank",
                           "shot_clock_out"})

# events a table's "undo" can take back
UNDOABLE = frozenset({"all_in", "busted", "absent", "floor_call", "clock_call"})

PARTS: tuple[type[Component], ...] = (Registry, Seating, Draws, Levels, Balancing, FinalTable,
                                      Busts, Floor, TableReports, Knockouts, Money, ChipCounts,
                                      Satellites, Flights, ShotClock, Pace)
Route = tuple[type, Callable[..., None]]   # the owning class, and its unbound handler


def _routes(table: str) -> dict[type, Route]:
    out: dict[type, Route] = {}
    for part in PARTS:
        for key, handler in getattr(part, table).items():
            assert key not in out, f"{key.__name__} is handled twice"
            out[key] = (part, handler)
    return out


class _Part:
    """A name of the read side, read through to the part that owns it. The core never
    writes through it (tests/shape/test_import_cycles.py); tests that mark a state by hand
    (a snapshot told apart by an impossible `alive`) do."""

    def __init__(self, part: str, attr: str = "") -> None:
        self.part = part
        self.attr = attr

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = self.attr or name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(obj.__dict__[self.part], self.attr)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(obj.__dict__[self.part], self.attr, value)


class Tournament:
    """One event: its configuration, its parts, and the routing between them."""

    FOLDS: ClassVar[dict[type, Route]] = _routes("FOLDS")
    DECIDES: ClassVar[dict[type, Route]] = _routes("DECIDES")
    report_handlers: ClassVar[dict[type, Route]] = _routes("REPORTS")

    def __init__(self, created: Event | dict[str, Any], profile: Profile | None = None,
                 structure: Structure | None = None) -> None:
        created = ev_.coerce(created)
        if not isinstance(created, ev_.Created):
            raise ValueError("the first event must be 'created'")
        self.config = created
        self.event: str = created["event"]
        self.profile = profile or load_profile(created["profile"])
        self.structure = structure or Structure.from_dict(created["structure"])
        self.seats: int = created["seats"]
        self.start_stack: int = created.get("start_stack") or self.structure.start_stack
        self.buy_in: int = created.get("buy_in", 0)
        self.seed: int = created.get("seed", 0)
        self.max_entries: int | None = created.get("max_entries")
        self.max_tables: int | None = created.get("max_tables")
        self.payout_percent: float = created.get("payout_percent", 15.0)
        self.pool: bool = created.get("pool", False)   # tables come from a room's pool
        self.n_events = 1
        self.changes = Changes()
        self._out: list[Event] | None = None
        self._handlers: dict[type, tuple[Any, bool, bool, bool]] = {}
        self._deciders: dict[type, Callable[[Any, float], None]] = {}
        self.registry = Registry(self)
        self.seating = Seating(self)
        self.draws = Draws(self)
        self.levels = Levels(self)
        self.balancing = Balancing(self)
        self.final = FinalTable(self)
        self.busts = Busts(self)
        self.floor = Floor(self)
        self.reports = TableReports(self)
        self.knockouts = Knockouts(self)
        self.money = Money(self)
        self.chipcount = ChipCounts(self)
        self.satellites = Satellites(self)
        self.flights = Flights(self)
        self.shot_clock = ShotClock(self)
        self.pace = Pace(self)
        # mypy checks here that each part offers the view the others read of it
        peers = Peers(changes=self.changes, registry=self.registry, seating=self.seating,
                      draws=self.draws, levels=self.levels, balancing=self.balancing,
                      final=self.final, busts=self.busts, floor=self.floor,
                      reports=self.reports, knockouts=self.knockouts, money=self.money,
                      chipcount=self.chipcount, satellites=self.satellites,
                      flights=self.flights, shot_clock=self.shot_clock, pace=self.pace)
        self.parts: dict[type, Any] = {type(p): p for p in peers[1:]}
        for part in self.parts.values():
            part.wire(peers)
        self.parts[Tournament] = self

    # ---------------------------------------------------------------- creation
    @classmethod
    def create(cls, *, event: str, profile: str | Profile = "tda-2017",
               structure: Structure, seats: int = 9, start_stack: int | None = None,
               buy_in: int = 0, seed: int = 0, t: float = 0.0, max_entries: int | None = None,
               max_tables: int | None = None, payout_percent: float = 15.0,
               money: dict[str, Any] | None = None, **extra: Any) -> Tournament:
        prof = profile if isinstance(profile, Profile) else load_profile(profile)
        if not 2 <= seats <= 10:
            raise RuleError(M_("event.table_size", "tables seat 2 to 10 players"))
        if refused := structure_refusal(prof, structure):
            raise RuleError(M_("event.structure_refused", "structure {structure}: {why}",
                               structure=structure.name, why=refused))
        if money is not None:
            extra["money"] = money
        _check_stalling(prof, structure, extra)
        created = ev_.make("created", t, event=event, profile=prof.id,
                           structure=structure.to_dict(), seats=seats,
                           start_stack=start_stack or structure.start_stack, buy_in=buy_in,
                           seed=seed, max_entries=max_entries, max_tables=max_tables,
                           payout_percent=payout_percent, **extra)
        ev_.check(created)
        return cls(created, prof, structure)

    def __getstate__(self) -> dict[str, Any]:
        """For snapshots: the folded state, without caches or work in progress (the
        changes outbox keeps no tables either: kiosk.core.model.changes)."""
        state = self.__dict__.copy()
        state["_handlers"], state["_deciders"], state["_out"] = {}, {}, None
        return state

    @classmethod
    def replay(cls, events: Iterable[Event], profile: Profile | None = None) -> Tournament:
        """The state after `events`. The cyclic garbage collector is paused meanwhile: a
        replay makes millions of objects that all stay alive (events have no cycles),
        and rescanning them over and over would cost a third of the time."""
        paused = gc.isenabled()
        gc.disable()
        try:
            it = iter(events)
            tour = cls(next(it), profile)
            for ev in it:
                tour.apply(ev)
            return tour
        finally:
            if paused:
                gc.enable()

    # ---------------------------------------------------------------- folding
    def apply(self, ev: Event | dict[str, Any]) -> None:
        """Fold one event into the state; events are trusted (they were decided here)."""
        if not isinstance(ev, ev_.Event):
            ev = ev_.coerce(ev)
        self.n_events += 1
        etype = type(ev)
        fold = self._handlers.get(etype)
        if fold is None:   # once per class: its part's handler, and what else it feeds
            fold = self._handlers[etype] = self._route(etype)
        handler, by, tabled, undoable = fold
        handler(ev)
        if by and ev.by:   # type: ignore[attr-defined]
            self.money.remember_audit(ev)
        if ev.report and tabled and ev.table:   # type: ignore[attr-defined]
            self.reports.applied(ev, ev.table, undoable)   # type: ignore[attr-defined]

    def _route(self, etype: type[Event]) -> tuple[Any, bool, bool, bool]:
        part, handler = self.FOLDS[etype]
        fields = etype.__struct_fields__
        return (types.MethodType(handler, self.parts[part]), "by" in fields, "table" in fields,
                etype.kind in UNDOABLE)

    def emit(self, kind: str, t: float, **fields: Any) -> Event:
        """Build the event `kind` of a decision, fold it and hand it out (Host.emit)."""
        return self.add(ev_.make(kind, t, **fields))

    _emit = emit   # the name tools and tests that append an event by hand use

    def add(self, ev: Event) -> Event:
        """Apply an event a decision built (as its class, where the hot paths build them)
        and hand it out with the command's others."""
        self.apply(ev)
        if self._out is not None:
            self._out.append(ev)
        return ev

    def decide_report(self, tab: Table, rep: cmd_.AnyTableReport, t: float, rid: str) -> None:
        """Hand a table report TableReports checked to the part that decides its kind
        (Host.decide_report), through the routing table `report_handlers`."""
        part, handle = self.report_handlers[type(rep)]
        handle(self.parts[part], tab, rep.data, t, rid)

    def rng(self, *what: object) -> random.Random:
        """A generator seeded by the decision itself, not by how many events came before,
        so clock ticks or floor calls in between never change a draw."""
        return random.Random(":".join(map(str, (self.seed, *what))))

    # ------------------------------------------- what changed, for the publisher
    @property
    def dirty(self) -> set[int]:
        """Tables whose plans changed since the publisher last cleared this."""
        return self.changes.tables

    @property
    def schedule_dirty(self) -> bool:
        return self.changes.schedule

    @schedule_dirty.setter
    def schedule_dirty(self, value: bool) -> None:
        self.changes.schedule = value

    @property
    def seating_dirty(self) -> bool:
        return self.changes.seating

    @seating_dirty.setter
    def seating_dirty(self, value: bool) -> None:
        self.changes.seating = value

    # --------------------------------------------------------------- commands
    def execute(self, cmd: cmd_.Command | dict[str, Any], t: float) -> list[Event]:
        """Decide `cmd` at time `t`; returns the events appended (already applied).

        Raises RuleError, with nothing changed, when the rules do not allow it (and
        CommandError when a command given as a dict does not fit its schema).
        """
        if not isinstance(cmd, cmd_.Command):
            cmd = cmd_.decode(cmd)
        ctype = type(cmd)
        decide = self._deciders.get(ctype)
        if decide is None:   # once per class: the handler bound to its part
            part, handler = self.DECIDES[ctype]
            decide = self._deciders[ctype] = types.MethodType(handler, self.parts[part])
        out: list[Event] = []
        self._out = out
        try:
            decide(cmd, t)
            kind = cmd.report.kind if ctype is cmd_.Report else ""   # type: ignore[attr-defined]
            # a hand end that moved nobody (its own event only) leaves every count the
            # last decision was made on as it was: deciding again would decide nothing
            # (tests/core/seating/test_quiet_hand_end.py checks it after every command)
            quiet = kind in QUIET_REPORTS or (kind == "hand_ended" and len(out) == 1)
            if not quiet and self.levels.started and self.busts.finished_at is None:
                self.balancing.rebalance(t)
                self.balancing.refresh_halts()
                # a round of hand-for-hand whose last table broke (a floor bust drew the
                # final table, the floor broke it) is over: the next one starts now
                self.levels.h4h_next(t)
                self.pace.settle(t)   # orbit for orbit, and levels counted in hands
            return out
        finally:
            self._out = None

    def idle_tables(self) -> list[int]:
        """Tables the room granted this event that nobody plays at (pool mode)."""
        return self.seating.idle_tables()

    def players_at(self, table: int) -> int:
        """Players seated at, or walking to, `table` (0 when it is not in play)."""
        tab = self.seating.tables.get(table)
        return 0 if tab is None or tab.broken else tab.count

    def _do_tick(self, cmd: cmd_.Tick, t: float) -> None:
        """Time-driven decisions: a level change re-anchors the clock (and, under
        hand-for-hand, stops it again after a break); timed penalties end; payouts lock;
        a break that removes a denomination races it off."""
        self.levels.tick(t)
        for p in self.registry.players.values():
            if p.penalty_until is not None and p.penalty_until <= t:
                self.emit("penalty_served", t, player=p.id)
        self.money.money_tick(t)
        self.chipcount.colour_up_tick(t)

    # ------------------------------------------------- read side, by owning part
    players = _Part("registry")
    by_card = _Part("registry")
    entries = _Part("registry")
    chips = _Part("registry")
    alive = _Part("registry")
    tables = _Part("seating")
    moving = _Part("seating")
    movers_from = _Part("seating")
    stats = _Part("seating")
    active_tables = _Part("seating")
    due_big_blind = _Part("seating")
    clock = _Part("levels")
    started = _Part("levels")
    extra_hands = _Part("levels")
    h4h_on = _Part("levels")
    h4h_round = _Part("levels")
    h4h_waiting = _Part("levels")
    period = _Part("levels")
    balancer = _Part("balancing")
    n_breaking = _Part("balancing")
    n_pending = _Part("balancing")
    final_pending = _Part("final", "pending")
    final_table = _Part("final", "table")
    next_to_break = _Part("balancing")
    break_order = _Part("balancing")
    halted = _Part("balancing")
    holding = _Part("balancing")
    hold_reason = _Part("balancing")
    groups = _Part("busts")
    finished_at = _Part("busts")
    places = _Part("busts")
    floor_calls = _Part("floor")
    table_notes = _Part("floor", "notes")
    clock_calls = _Part("floor")
    seen_reports = _Part("reports")
    knocked = _Part("knockouts")
    bounty_cash = _Part("knockouts")
    eliminated_by = _Part("knockouts")
    head = _Part("knockouts")
    prize = _Part("money")
    addons = _Part("money")
    addon_players = _Part("money")
    locked = _Part("money")
    deal = _Part("money")
    audit = _Part("money")
    money_pool = _Part("money")
    current_payouts = _Part("money")
    money_view = _Part("money")
    prizes = _Part("money")
    prize_for_place = _Part("money")
    chip_set = _Part("chipcount")
    count_round = _Part("chipcount")
    counts = _Part("chipcount")
    last_count = _Part("chipcount")
    colour_ups = _Part("chipcount")
    chips_removed = _Part("chipcount")
    day = _Part("chipcount")
    day_over = _Part("chipcount")
    bags = _Part("chipcount")
    reconciliation = _Part("chipcount")
    seat_winners = _Part("satellites")
    survivors = _Part("flights")
    orbit_on = _Part("pace")
    orbit_round = _Part("pace")
    orbit_waiting = _Part("pace")


Tournament.DECIDES[cmd_.Tick] = (Tournament, Tournament._do_tick)


def _check_stalling(prof: Profile, structure: Structure, extra: dict[str, Any]) -> None:
    """A new event's tools against stalling, checked against its profile and structure
    (the config names the key; this refuses whatever else creates an event); a shot clock
    given as a dict becomes its declared record."""
    problem = stalling.structure_problem(prof, structure)
    if problem:
        raise RuleError(problem)
    shot = extra.get("shot_clock")
    if isinstance(shot, dict):
        try:
            extra["shot_clock"] = shot = msgspec.convert(shot, ShotClockSpec)
        except msgspec.ValidationError as exc:
            raise RuleError(M_("shot.config", "shot_clock: {why}", why=exc)) from None
    if shot is not None:
        bad = stalling.shot_clock_problem(prof, structure, shot.seconds, shot.bank_cards,
                                          shot.bank_levels, shot.from_level)
        if bad:
            raise RuleError(M_("shot.config_key", "shot_clock.{key}: {why}", key=bad[0],
                               why=bad[1]))
