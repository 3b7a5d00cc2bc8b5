"""Whole tournaments played through the core, table by table, hand by hand.

Each virtual table deals hands of about two minutes, posts blinds and antes from real
stacks, and now and then two players get it all in; the shorter stack that loses
busts. Every hand start, bust and hand end goes to the tournament as the same report a
table kiosk would send, so balancing and breaking run exactly as in the director. Who
sits where, the last button and blinds, the hand number and the clock are read from
the Field each time (kiosk.sim.fields): the simulator keeps only the stacks, which no
director knows, so a player the floor registers, re-enters or rebuys meanwhile is
simply dealt in.
"""

from __future__ import annotations

import gc
import heapq
import random
import time
from collections.abc import Callable
from itertools import count, repeat
from typing import Any

from kiosk.core.calc import button as btn
from kiosk.core.chips import chips as chipmath
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.core.model import events as ev_
from kiosk.core.model.commands import (
    AddonReport,
    AllInReport,
    AnyTableReport,
    BustReport,
    ChipCountReport,
    ChipRaceReport,
    Command,
    HandEndedReport,
    HandStartedReport,
    PresentReport,
    Register,
    Start,
    Tick,
)
from kiosk.core.model.events import Event
from kiosk.core.model.registration import current_big_blind, late_stack
from kiosk.core.model.report_data import (
    AddonData,
    AllInData,
    BustData,
    ChipCountData,
    ChipRaceData,
    HandEndedData,
    HandStartedData,
    SeatData,
)
from kiosk.core.model.state import IN_PLAY
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import Profile
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import load_structure
from kiosk.sim.fields import Field, LocalField
from kiosk.sim.hand import Hand, post_blinds, refund, showdown
from kiosk.sim.push_wait import PushWait
from kiosk.sim.result import SimResult

__all__ = ["HAND_SECONDS", "Field", "SimResult", "Simulator", "simulate"]

HAND_SECONDS = 120.0
MOVE_EVENTS = frozenset({ev_.Moved, ev_.MoveOrdered, ev_.TableBreaking})  # a decision


def race_entry(table: int, rid: str, rnd: int, cu: dict[str, Any],
               rng: random.Random) -> ChipRaceReport:
    """The dealer's chip race: the cards the plan asks for dealt face up, the seats
    whose cards win entered highest first (kiosk.table.flows.colour_up, tapped)."""
    _cards, winners = chipmath.deal({int(s): n for s, n in cu["deal_cards"].items()},
                                    cu["to_give"], cu["max_each"], rng)
    return ChipRaceReport(table=table, id=rid, data=ChipRaceData(round=rnd, winners=winners))


def command(kind: str, **fields: Any) -> Command:
    """A command named by its kind (the floor's, in tests), checked against its schema
    before it reaches the core. The dealers' own reports are built as their typed
    classes instead: a dict through JSON and back costs a tenth of a whole run."""
    return commands.decode({"kind": kind, **fields})


class Simulator:
    """Plays one tournament to a winner through a Field.

    Without a field it runs the tournament in this process (registering and starting
    it); with one, the tournament lives in a director and only reports cross over.
    `start` is the time of the first deal on the tournament clock's time line: by
    default 0 in this process, and the moment the director's clock started otherwise.
    """

    def __init__(self, players: int, seats: int = 9, profile: str | Profile = "tda-2017",
                 seed: int = 1,
                 structure: str | Structure = "standard", check_every: int = 2000,
                 timer: Callable[[], float] = time.perf_counter,
                 field: Field | None = None, hand_seconds: float = HAND_SECONDS,
                 pace: Callable[[float], None] | None = None,
                 skip: frozenset[int] = frozenset(), money: dict[str, Any] | None = None,
                 idle_timeout: float = 120.0, addons: bool = True,
                 chip_set: list[int] | None = None, buttons: Any = None,
                 start: float | None = None, report_prefix: str = "s",
                 chip_race: str = "draw") -> None:
        self.rng = random.Random(seed)
        prof = profile if isinstance(profile, Profile) else load_profile(profile)
        self.profile = prof
        self.structure = st = structure if isinstance(structure, Structure) \
            else load_structure(structure)
        self.levels = [st.level_number(i) or 1 for i in range(len(st.periods))]
        self.tour: Tournament | None = None
        if field is None:
            start = start or 0.0
            self.tour = Tournament.create(event="sim", profile=prof, structure=st, seats=seats,
                                          seed=seed, t=start, money=money, chip_set=chip_set,
                                          chip_race=chip_race)
            field = LocalField(self.tour, self.execute)
        elif start is None:
            start = field.clock().anchor

        self.field = field
        self.n = players
        self.start = start
        self.hand_seconds = hand_seconds
        self.pace = pace          # called with each event's time before it happens (demo)
        self.skip = skip          # tables a real kiosk deals (demo): never dealt here
        self.buttons = buttons    # a ButtonPresser (demo): ALL-IN, CLOCK, FLOOR presses
        self.res = SimResult(players, prof.id, seed)
        self.check_every = max(check_every, players)  # a full check costs O(players)
        self.timer = timer
        self.chips: dict[str, int] = {}                 # stacks: what no director knows
        self.credited: dict[str, int] = {}              # chips sold to each player so far
        self.out: set[str] = set()                      # busted without a rebuy
        self.seeded = False                             # first stacks handed out
        self.queue: list[tuple[float, int, int]] = []   # (time, seq, table): hand ends
        self.waiting: set[int] = set()                  # tables that could not start
        self.playing: dict[int, Hand] = {}              # table -> the hand it deals now
        self.seq = count(1)     # ties in the event queue: first pushed, first out
        self.rid = 0
        self.prefix = report_prefix   # report ids: a restarted dealer must not repeat one
        self.first_hand: dict[str, tuple[bool, bool]] = {}  # moved: (due BB, was BB) there
        self.halted_now: set[int] = set()
        self.pushes = PushWait(field, lambda at, tid: heapq.heappush(
            self.queue, (at, next(self.seq), -tid)))     # tables waiting for a relief
        self.now = start
        self.bought = 0                                 # chips sold: entries, rebuys, add-ons
        self.counted: set[tuple[int, int]] = set()      # (table, round) counts reported
        self.idle_timeout = idle_timeout
        e = prof.entries
        self.rebuy_until = st.index_of_level(e.rebuy_levels) if e.rebuy else -1
        self.addon_from = self.rebuy_until + 1 if e.addon and addons else None
        self.addon_until = next((i for i in range(self.rebuy_until + 1, len(st.periods))
                                 if not st.periods[i].is_break), self.rebuy_until)
        self.addon_done: set[int] = set()              # tables that sold their add-ons
        self.addon_players: set[str] = set()
        self.log: list[Event] | None = None   # set to a list to keep every event decided

    # ------------------------------------------------------------------ driving
    def send(self, kind: str, t: float, fields: dict[str, Any]) -> list[Event]:
        """In-process only: the command of `kind` with `fields`, as the floor gives it."""
        return self.execute(command(kind, **fields), t)

    def execute(self, cmd: Command, t: float) -> list[Event]:
        """In-process only: one command to the tournament, timed and observed."""
        tour = self.tour
        assert tour is not None
        start = self.timer()
        evs = tour.execute(cmd, t)
        elapsed = self.timer() - start
        self.res.events += len(evs)
        if self.log is not None:
            self.log += evs
        for e in evs:
            if type(e) in MOVE_EVENTS:
                self._decided(tour, evs, elapsed)
                break
        return evs

    def _decided(self, tour: Tournament, evs: list[Event], elapsed: float) -> None:
        """A balancing decision: time it, and watch every moved player's first hand."""
        self.res.decision_times.append(elapsed)
        self.res.decision_tables.append(len(tour.balancer) + tour.n_breaking)
        for ev in evs:
            if isinstance(ev, ev_.Moved):
                last = tour.tables[ev.table].positions   # the hand they just left
                self.moved(ev.player, ev.due_bb, ev.to_table,
                           last is not None and last.bb == ev.seat)

    def moved(self, pid: str, due_bb: bool, to_table: int, was_bb: bool = False) -> None:
        """A player changed tables: watch their first hand at the new one."""
        self.first_hand[pid] = (due_bb, was_bb)
        self.waiting.add(to_table)
        if self.tour is not None:
            moves = self.tour.players[pid].moves
            if moves > self.res.max_moves_one_player:
                self.res.max_moves_one_player = moves

    def _report(self, rep: AnyTableReport, t: float) -> bool:
        """Send a report (its id from `_id`); False when the director refused it."""
        field = self.field
        accepted = field.report(rep, t) is not False
        self._report_arrivals(t)
        return accepted

    def _report_arrivals(self, t: float) -> None:
        """Moved players sit down at once, and their new table deals when it can."""
        field = self.field
        for tid, seat, _pid in field.arriving():
            if tid in self.skip:
                continue
            field.report(PresentReport(table=tid, id=self._id(), data=SeatData(seat=seat)), t)
            self.waiting.add(tid)

    def _adopt(self, t: float) -> bool:
        """Deal at tables nobody deals or waits at: the final table drawn while every
        other table sat out a break, a table the floor gave the event meanwhile. Its
        players sit down first, as the dealer there would see them arrive."""
        known = set(self.playing) | self.waiting | {abs(q[2]) for q in self.queue}
        new = [tid for tid in self.field.tables() if tid not in known and tid not in self.skip]
        if not new:
            return False
        if not self.seeded:   # the event's first tables: everyone there has their stack
            self._seed_stacks(new, t)
        self._report_arrivals(t)
        for tid in new:
            self._try_start(tid, t)
        return True

    def _id(self) -> str:
        """The next report id: the prefix and a running number."""
        self.rid += 1
        return f"{self.prefix}{self.rid}"

    def run(self, progress: Callable[[int, int], None] | None = None) -> SimResult:
        # the tournament holds many long-lived objects and makes no reference cycles worth
        # collecting mid-run; the cyclic collector would rescan them all again and again
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._run(progress)
        finally:
            if enabled:
                gc.enable()

    def setup(self) -> None:
        """Register everyone and draw seats (in-process only; a director does its own)."""
        for i in range(self.n):
            self.execute(Register(name=f"Player {i + 1}"), self.start)
        self.execute(Start(), self.start)

    def _run(self, progress: Callable[[int, int], None] | None) -> SimResult:
        wall = time.perf_counter()
        if self.tour is not None:
            self.setup()
        # the first deal when the first level starts: a profile whose start waits for the
        # decks (TDA 2024 RP-20) starts it a minute on, in process and over MQTT alike
        clock = self.field.clock()
        if clock.period == 0 and not clock.paused:
            self.start = max(self.start, clock.anchor)
        t = self.start
        tables = self.field.tables()
        self.res.tables_max = len(tables)
        self._seed_stacks(tables, t)
        for tid in tables:
            self._try_start(tid, t)
        steps = 0
        last_busts = -1
        queue, waiting, finished = self.queue, self.waiting, self.field.finished
        while not finished():
            if not queue:
                if self._adopt(t):
                    continue
                if not self._wait_for_floor(t):
                    break
                continue
            t, _, tid = heapq.heappop(queue)
            if self.pace is not None:
                self.pace(t)
            self.now = t
            self._end_hand(tid, t)
            steps += 1
            if waiting:
                for w in sorted(waiting):
                    self._try_start(w, t)
            if steps % self.check_every == 0:
                self._check()
                busts = len(self.out)
                if progress and busts != last_busts:
                    progress(busts, self.n)
                    last_busts = busts
        if not self.field.finished():
            self.res.violation("tournament ended without a winner")
        self._check()
        if self.tour is not None:
            self._summarise(self.tour)
        self.res.sim_hours = round((t - self.start) / 3600, 2)
        self.res.wall_seconds = round(time.perf_counter() - wall, 3)
        if progress:
            progress(self.n, self.n)
        return self.res

    def _summarise(self, tour: Tournament) -> None:
        from kiosk.core.event.results import results, totals

        self.res.results = rows = results(tour)
        self.res.winner_keeps = totals(tour)["winner_keeps"]
        pool = tour.money_pool()
        self.res.prize_pool, self.res.bounty_pool = pool.prize_pool, pool.bounty_pool
        # the places the results hold (tour.places(), without working them out again)
        places = {r["player"]: r["place"] for r in rows if r["place"] is not None}
        self.res.places = sorted(places, key=lambda pid: (places[pid], pid))
        self._check_places(places, len(tour.players))
        st = tour.stats
        self.res.moves_balance = st["moves_balance"]
        self.res.moves_break = st["moves_break"] + st["moves_final"]
        self.res.moves_unavoidable = st["unavoidable"]
        self.res.moved_3plus = sum(1 for p in tour.players.values() if p.moves >= 3)

    def _wait_for_floor(self, t: float) -> bool:
        """Nothing to deal though the event goes on: every table holds (a day ended), or
        no table is the event's yet (over MQTT, the plans still on their way). Wait for
        the floor to release them, or for a table to come."""
        deadline = time.monotonic() + self.idle_timeout
        while time.monotonic() < deadline:
            if not self.field.idle():
                return False
            for w in sorted(self.waiting):
                self._try_start(w, t)
            if self.queue or self.field.finished() or self._adopt(t):
                return True
        self.res.violation("tables held longer than the idle timeout")
        return False

    # ------------------------------------------------------------------ chips
    def _seed_stacks(self, tables: list[int], t: float) -> None:
        """Everyone seated when the simulator first sees the event's tables gets the
        chips they bought (the starting stack: nobody is a late entry yet)."""
        for tid in tables:
            for pid in self.field.seats(tid).values():
                self._top_up(pid, t)
        self.seeded = bool(tables)

    def _top_up(self, pid: str, t: float) -> None:
        """Give a player the chips the floor sold them that are not in their stack yet:
        a late registration, a re-entry or a rebuy made on the dashboard. Over MQTT the
        plans carry no stacks, so the rules say what was sold."""
        have = self.credited.get(pid)
        bought = self.field.bought(pid)
        if bought is None:
            if have is not None and pid not in self.out:
                return
            bought = (have or 0) + self._entry_stack(t, fresh=have is None)
        extra = bought - (have or 0)
        if extra <= 0:
            return
        self.chips[pid] = self.chips.get(pid, 0) + extra
        self.credited[pid] = bought
        self.bought += extra
        self.out.discard(pid)
        if self.seeded:
            self.res.late_entries += 1

    def _entry_stack(self, t: float, fresh: bool) -> int:
        st = self.structure
        if not self.seeded:
            return st.start_stack
        period = self.field.clock().read(st, t).period
        if not fresh and period <= self.rebuy_until:
            return st.start_stack
        return late_stack(self.profile.late_reg, st.start_stack,
                          current_big_blind(st, period))

    def _count(self, tid: int, t: float) -> None:
        """A chip count asked for: enter every seat's stack; take a colour-up's result."""
        req = self.field.count_request(tid)
        if req is None or (tid, req["round"]) in self.counted:
            return
        self.counted.add((tid, req["round"]))
        seat_of = self.field.seats(tid)
        for pid in seat_of.values():
            self._top_up(pid, t)
        stacks = {s: self.chips[pid] for s, pid in sorted(seat_of.items())}
        self._report(ChipCountReport(table=tid, id=self._id(), data=ChipCountData(
            stacks=stacks, round=req["round"])), t)
        cu = self.field.colour_up(tid) if req["purpose"] == "colour_up" else None
        if cu is not None and cu.get("pending") and cu.get("race") == "dealer":
            if not self._report(race_entry(tid, self._id(), req["round"], cu, self.rng), t):
                self.res.violation(f"table {tid}: the dealer's chip race was refused")
            cu = self.field.colour_up(tid)      # the director's outcome of that race
        if cu is not None and not cu.get("pending"):
            for s, after in cu["after"].items():
                pid = seat_of[int(s)]
                self.res.chips_removed += self.chips[pid] - after
                self.chips[pid] = after

    def _addons(self, tid: int, t: float, period: int) -> None:
        """At the first hand after the rebuy period (through the next level of play, as
        the core sells them), most players take the add-on."""
        if self.addon_from is None or period < self.addon_from or tid in self.addon_done:
            return
        self.addon_done.add(tid)
        if period > self.addon_until:
            return
        stack = self.structure.start_stack * self.profile.entries.addon_stacks
        for seat, pid in sorted(self.field.seats(tid).items()):
            if pid not in self.addon_players and self.rng.random() < 0.7:
                self.addon_players.add(pid)
                self._top_up(pid, t)   # a newcomer's own stack first, then the add-on's
                if self._report(AddonReport(table=tid, id=self._id(),
                                            data=AddonData(seat=seat, player=pid)), t):
                    self._credit(pid, stack)
                    self.res.addons += 1

    def _credit(self, pid: str, stack: int) -> None:
        self.chips[pid] = self.chips.get(pid, 0) + stack
        self.credited[pid] = self.credited.get(pid, 0) + stack
        self.bought += stack

    # ------------------------------------------------------------------ hands
    def _try_start(self, tid: int, t: float) -> None:
        f = self.field
        if tid in self.playing or tid in self.skip or f.broken(tid):
            self.waiting.discard(tid)
            return
        self._count(tid, t)
        seat_of = f.seats(tid)
        if len(seat_of) < 2 or f.holding(tid):
            if f.halted(tid) and tid not in self.halted_now:
                self.halted_now.add(tid)
                self.res.halts += 1
            self.waiting.add(tid)
            return
        self.halted_now.discard(tid)
        period = self._period(tid, t)
        if period is None:
            return
        if self.pushes.holds(tid, t):     # the dealer's relief is due at this hand's end
            self.waiting.discard(tid)
            return
        self.waiting.discard(tid)
        self._addons(tid, t, period)
        self._deal(tid, t, seat_of, period)

    def _period(self, tid: int, t: float) -> int | None:
        """The clock's period for a hand starting now; None in a break: the table deals
        again when it is over, in simulated time. A break the floor stopped never ends by
        itself: the table waits for the floor as a held one does, or the run would go on
        waiting for the same moment again and again."""
        clock = self.field.clock()
        reading = clock.read(self.structure, t)
        if reading.period != clock.period and self.tour is not None:
            self.execute(Tick(), t)     # the level changed: as the director's clock does
        if self.structure.periods[reading.period].is_break:
            if reading.paused:
                self.waiting.add(tid)
                return None
            heapq.heappush(self.queue, (t + reading.remaining + 0.001, next(self.seq), -tid))
            self.waiting.discard(tid)
            return None
        return reading.period

    def _positions(self, tid: int, occupied: set[int]) -> btn.Positions:
        """This hand's button and blinds, from the last hand the tournament recorded."""
        f = self.field
        prev = None if f.redraw(tid) else f.positions(tid)
        if prev is None:
            button, _ = btn.draw_button(sorted(occupied), self.profile.button.start, self.rng)
            return btn.first_hand(occupied, button, f.seat_count(tid))
        rules = self.profile.button
        return btn.next_hand(prev, occupied, f.seat_count(tid), dead_button=rules.dead_button,
                             waits=rules.newcomer_waits, newcomers=f.newcomers(tid))

    def _deal(self, tid: int, t: float, seat_of: dict[int, str], period: int) -> None:
        pos = self._positions(tid, set(seat_of))
        res = self.res
        level = self.levels[period]
        if level > res.levels_reached:
            res.levels_reached = level
        spread = self.field.spread()
        if spread > res.max_spread_at_hand_start:
            res.max_spread_at_hand_start = spread
        hand = Hand(self.field.hand(tid) + 1, period, {s: seat_of[s] for s in pos.dealt})
        chips, start, players = self.chips, hand.start, hand.dealt.values()
        stacks = list(map(chips.get, players, repeat(0)))   # no Python loop when all have chips
        if not all(stacks):
            for pid in players:
                if not chips.get(pid):   # new here, or bought back in: what they paid for
                    self._top_up(pid, t)
            stacks = [chips[pid] for pid in players]
        start.update(zip(hand.dealt, stacks, strict=True))
        post_blinds(chips, hand, pos, self.structure.periods[period])
        data = HandStartedData(hand=hand.number, button=pos.button, sb=pos.sb, bb=pos.bb,
                               dealt=list(pos.dealt), waiting=list(pos.waiting))
        hand.report, hand.pos = self._id(), pos
        if not self._report(HandStartedReport(table=tid, id=hand.report, data=data), t):
            for seat, pid in hand.dealt.items():   # the floor held the table: no hand
                chips[pid] = start[seat]
            self.waiting.add(tid)
            return
        self.playing[tid] = hand
        if self.first_hand and not self.first_hand.keys().isdisjoint(hand.dealt.values()):
            self._watch_moved(hand, pos.bb)
        if self.buttons is not None:
            self.buttons.hand_started(tid, t, list(pos.dealt), hand.number)
        res.hands += 1
        length = self.hand_seconds * self.rng.uniform(0.6, 1.4)
        heapq.heappush(self.queue, (t + length, next(self.seq), tid))

    def _watch_moved(self, hand: Hand, bb: int) -> None:
        """A moved player takes the big blind when due at the old table, and never twice."""
        first = self.first_hand
        for seat, pid in hand.dealt.items():
            if pid in first:
                due, was_bb = first.pop(pid)
                if seat == bb and was_bb:
                    self.res.moved_bb_twice += 1
                elif due and seat != bb:
                    self.res.moved_skipped_bb += 1

    def _end_hand(self, tid: int, t: float) -> None:
        if tid < 0:  # a break ended, or the relief is looked for again: deal again
            self.pushes.looked(-tid)
            self._try_start(-tid, t)
            return
        hand = self.playing.pop(tid, None)   # its pot goes to the winners now
        if hand is None:
            return
        if not self.field.settled(hand.report):   # refused after all: no hand was played
            refund(self.chips, hand, self.structure.periods[hand.period])
            self.res.hands -= 1
            self.waiting.add(tid)
            self._try_start(tid, t)
            return
        seat_of = self.field.seats(tid)
        dealt = hand.dealt
        # nearly always everyone dealt in is still seated: one C-level subset test then
        live = dealt if dealt.items() <= seat_of.items() else \
            {s: pid for s, pid in dealt.items() if seat_of.get(s) == pid}
        if len(live) < len(dealt):   # moved away or out meanwhile: the pot keeps their chips
            for s in dealt.keys() - live.keys():
                del hand.start[s]
        pressed = self.buttons.hand_ending(tid, t) if self.buttons is not None else None
        outcome = showdown(self.rng, self.chips, hand, live,
                           self.structure.periods[hand.period].bb)
        if outcome.all_in is not None and outcome.all_in != pressed:
            self._report(AllInReport(table=tid, id=self._id(), data=AllInData(
                seat=outcome.all_in, hand=hand.number)), t)
        if outcome.busted:
            period = self.field.clock().read(self.structure, t).period
            for seat in outcome.busted:
                self._bust(tid, t, hand, live, seat, live[outcome.beaten_by[seat]], period)
                if self.field.finished():
                    return
        self._report(HandEndedReport(table=tid, id=self._id(),
                                     data=HandEndedData(hand=hand.number)), t)
        self._try_start(tid, t)

    def _bust(self, tid: int, t: float, hand: Hand, live: dict[int, str], seat: int,
              by: str, period: int) -> None:
        pid = live[seat]
        rebuy = period <= self.rebuy_until and self.rng.random() < 0.5
        self.res.knockouts.append((pid, [by], rebuy))
        eliminator = next(s for s, p in live.items() if p == by)
        self._report(BustReport(table=tid, id=self._id(), data=BustData(
            seat=seat, player=pid, stack=hand.start.get(seat), eliminator=eliminator,
            rebuy=rebuy)), t)
        if rebuy:
            self._credit(pid, self.structure.start_stack)
            self.res.rebuys += 1
        else:
            self.out.add(pid)

    # ------------------------------------------------------------------ checks
    def _check(self) -> None:
        tour = self.tour
        if tour is None:
            return
        b = tour.balancer
        rules = tour.profile.balance
        if len(b) > 1 and rules.mode == "tda" and not tour.final_pending \
                and b.max() - b.min() > rules.allowed_spread(len(b)):
            self.res.violation(f"tables out of tolerance: {b.min()}..{b.max()}")
        self._check_seats(tour)
        pots = sum(h.pot for h in self.playing.values())
        total = sum(self.chips.values()) + pots
        if total != self.bought - self.res.chips_removed:
            self.res.violation(f"chips not conserved: {total}")

    def _check_seats(self, tour: Tournament) -> None:
        for problem in seat_problems(tour):
            self.res.violation(problem)

    def _check_places(self, places: dict[str, int], players: int) -> None:
        if len(places) != players:
            self.res.violation(f"{len(places)} places for {players} players")
            return
        ordered = sorted(places.values())
        for i, place in enumerate(ordered):
            if place != i + 1 and place != ordered[i - 1]:
                self.res.violation(f"places are not 1..N with ties: {place} at position {i + 1}")
                break
        if ordered.count(1) != 1:
            self.res.violation("there must be exactly one winner")


def seat_problems(tour: Tournament) -> list[str]:
    """Where the players and the tables disagree: two in one seat, a player whose table
    does not hold him, a count of players in play that the tables do not add up to."""
    out: list[str] = []
    seen: dict[tuple[int, int], str] = {}
    alive = 0
    for p in tour.players.values():
        if p.status not in IN_PLAY:
            continue
        alive += 1
        key = (p.table or 0, p.seat or 0)
        if key in seen:
            out.append(f"{p.id} and {seen[key]} share table {key[0]} seat {key[1]}")
        seen[key] = p.id
        tab = tour.tables.get(p.table or 0)
        if tab is None or tab.broken or tab.seat_of.get(p.seat or 0) != p.id:
            out.append(f"{p.id} thinks it sits at {key} but the table disagrees")
    held = sum(t.count for t in tour.tables.values() if not t.broken)
    if held != alive or alive != tour.alive:
        out.append(f"{alive} players alive, tables hold {held}, count says {tour.alive}")
    return out


def simulate(players: int, seats: int = 9, profile: str = "tda-2017", seed: int = 1,
             structure: str = "standard", money: dict[str, Any] | None = None) -> SimResult:
    return Simulator(players, seats, profile, seed, structure, money=money).run()
