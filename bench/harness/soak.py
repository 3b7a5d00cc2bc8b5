"""The soak: whole rooms on random seeds, played through the director to their ends while
the floor does what a floor does, with the room's invariants checked all the way.

One seed makes one room: an ordinary event always, and on the seed's throw a satellite
into a scheduled main event and two Day 1 flights into a Day 2 (or four in a festival's
two steps: Day 2ABC and Day 2D, each bagging, then Day 3), each on a random rule
profile and structure, some with bounties, colour-ups or hand-for-hand at the bubble.
Simulated dealers play every event at once (harness.room_loop). Between hands the floor
registers late, re-enters, pauses and resumes the clock, runs hand-for-hand at the bubble,
breaks a table, takes a bust back and gives it again, counts chips, hands out penalties,
agrees a deal, ends a flight's day and bags it, opens the target and the Day 2, gives a
freed table to another event, and re-sends reports a table already had acknowledged. Once
a room the director is killed and folded back from its log.

Checked at every step and at the end (each failure named with its seed):
- liveness: every event reaches its winner, its seats or its bag (`stuck` otherwise);
- no internal error: a bug any of its directors met and counted, refusing a command or
  after its write, publishing it (`internal_errors`);
- seats and counts agree, chips are conserved (in play + coloured up + bagged = bought),
  places are a permutation of the busted entries, a re-sent report is acknowledged as a
  duplicate (`invariant_violations`);
- the log replays to the same state (`replay_mismatches`).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from harness import soak_dealers
from harness.room_loop import DirectorField, LoopRoom, Turns
from kiosk.base.errors import RuleError
from kiosk.core.event.results import results
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.core.model.commands import AnyTableReport, BustReport, Command
from kiosk.core.model.state import BUSTED, IN_PLAY
from kiosk.director.service import Director
from kiosk.sim.engine import Simulator, seat_problems

PROFILES = ("tda-2017", "tda-2015", "irish-open", "sheridans", "home-roberts")
# the default for new events, on a throw of its own in place of the one it supersedes
NEW_PROFILE, SUPERSEDED, NEW_SHARE = "tda-2024", "tda-2017", 0.5
STRUCTURES = ("turbo", "standard", "deep")
CHIP_SET = "[25, 100, 500, 1000, 5000, 25000]"
SEATS = 9
T0 = 1_000_000.0
MAX_SIM_HOURS = 60.0          # no event of these sizes needs longer: past it, it is stuck


class Stuck(Exception):
    """An event stopped moving: its clock or its dealers went nowhere."""


@dataclass
class EventPlan:
    """One event of a soaked room."""

    name: str
    kind: str
    profile: str
    structure: str
    entrants: int
    seed: int
    money: dict[str, Any] = field(default_factory=dict)
    extra: str = ""

    def toml(self) -> str:
        money = "".join(f"{k} = {v}\n" for k, v in self.money.items())
        return (f'\n[[events]]\nname = "{self.name}"\nkind = "{self.kind}"\n'
                f'profile = "{self.profile}"\nstructure = "{self.structure}"\n'
                f"seats = {SEATS}\nseed = {self.seed}\nbuy_in = 100\n{self.extra}"
                + (f"[events.money]\n{money}" if money else ""))


def plan_room(seed: int) -> list[EventPlan]:
    """The events of seed `seed`'s room."""
    rng = random.Random(seed)

    def ev(name: str, kind: str, lo: int, hi: int, extra: str = "",
           structure: str | None = None) -> EventPlan:
        money: dict[str, Any] = {}
        roll = rng.random()
        if roll < 0.2:
            money.update(bounty_mode='"fixed"', bounty=20)
        elif roll < 0.35:
            money.update(bounty_mode='"pko"', bounty=20)
        if rng.random() < 0.35:
            money["chip_set"] = CHIP_SET
            money["chip_race"] = '"draw"'
        if rng.random() < 0.5:
            money["h4h_at_bubble"] = "true"
        profile = rng.choice(PROFILES)
        # a TDA 2017 event plays TDA 2024 on its own throw (every other draw stays as it
        # was for every seed)
        if profile == SUPERSEDED and \
                random.Random(f"{seed}:{name}:{NEW_PROFILE}").random() < NEW_SHARE:
            profile = NEW_PROFILE
        return EventPlan(name, kind, profile, structure or rng.choice(STRUCTURES),
                         rng.randint(lo, hi), rng.randrange(1, 10_000), money, extra)

    events = [ev("daily", "event", 12, 80)]
    if rng.random() < 0.5:
        sat = ev("sat", "satellite", 12, 40, 'target = "main"\n')
        sat.money["seat_value"] = 100 * rng.randint(3, 6)
        events += [sat, ev("main", "event", 0, 0, "scheduled = true\n")]
    if rng.random() < 0.5:
        structure = rng.choice(STRUCTURES)
        events += [ev(n, "flight", 18, 60, structure=structure) for n in ("d1a", "d1b")]
        # on a throw of its own (the rooms of other seeds stay as they were), a
        # festival's two steps: Day 2ABC from 1A-1C, Day 2D from 1D, then Day 3 from both
        if random.Random(f"{seed}:festival").random() < 0.5:
            events += [ev(n, "flight", 18, 60, structure=structure) for n in ("d1c", "d1d")]
    if len(events) == 1:
        events.append(ev("turbo", "event", 10, 30, structure="turbo"))
    return events


FLIGHTS_4 = ("d1a", "d1b", "d1c", "d1d")
# the days of two-step flights: each Day 2 and the days it is made of, then Day 3
TWO_STEP = {"day2abc": ["d1a", "d1b", "d1c"], "day2d": ["d1d"],
            "day3": ["day2abc", "day2d"]}


def room_toml(events: list[EventPlan]) -> str:
    tables = 6 + sum(-(-max(e.entrants, 20) // SEATS) for e in events)
    return (f'[room]\nname = "soak"\ntitle = "Soak"\ntables = {tables}\n\n'
            '[director]\ndb = "room.db"\n' + "".join(e.toml() for e in events)
            + soak_dealers.TOML)


@dataclass
class Findings:
    """What one room showed."""

    seed: int
    events_played: int = 0
    stuck: list[str] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    replay_mismatches: list[str] = field(default_factory=list)
    reports: int = 0
    resent: int = 0
    floor_actions: int = 0
    kills: int = 0
    wall_s: float = 0.0
    dealer_pushes: int = 0              # pushes of the room's dealers (harness.soak_dealers)
    pushes_refused_mid_hand: int = 0
    profiles: dict[str, int] = field(default_factory=dict)   # events played, by rule profile

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


class Referee:
    """The room's invariants, checked as the floor plays: what breaks one is written
    into the room's findings with the event it happened in."""

    def __init__(self, found: Findings, plans: dict[str, EventPlan]) -> None:
        self.found, self.plans = found, plans

    def violation(self, event: str, what: str) -> None:
        self.found.violations.append(f"{event}: {what}")

    def check_seats(self, event: str, tour: Tournament) -> None:
        for problem in seat_problems(tour):
            self.violation(event, problem)

    def check_chips(self, event: str, sim: Simulator, tour: Tournament) -> None:
        """The dealers' stacks and pots plus what colour-ups took equal what was sold."""
        in_play = sum(sim.chips.values()) + sum(h.pot for h in sim.playing.values())
        if in_play != sim.bought - sim.res.chips_removed:
            self.violation(event, f"chips not conserved: {in_play:,} in play, "
                                  f"{sim.bought:,} sold, {sim.res.chips_removed:,} removed")
        if tour.chips != in_play:
            self.violation(event, f"the director counts {tour.chips:,} chips in play, the "
                                  f"tables hold {in_play:,}")

    def check_bags(self, event: str, tour: Tournament, sim: Simulator | None) -> None:
        bags = tour.chipcount.bags.get(tour.chipcount.day, {})
        if sim is not None and bags and sum(bags.values()) != sum(
                sim.chips.get(pid, 0) for pid in bags):
            self.violation(event, f"bags hold {sum(bags.values()):,} chips, the players "
                                  f"{sum(sim.chips.get(pid, 0) for pid in bags):,}")

    def check_places(self, event: str, tour: Tournament, bagged: bool) -> None:
        """Places are a permutation of the busted entries (ties share), one winner."""
        rows = results(tour)
        placed = [r["place"] for r in rows if r["place"] is not None]
        busted = [p.id for p in tour.players.values() if p.status == BUSTED]
        if tour.finished_at is None:
            if not bagged:
                self.found.stuck.append(f"{event}: no winner, no seats, no bag")
            return
        if len(placed) != len(tour.players):
            self.violation(event, f"{len(placed)} places for {len(tour.players)} entrants")
        ordered = sorted(placed)
        for i, place in enumerate(ordered):
            if place != i + 1 and (i == 0 or place != ordered[i - 1]):
                self.violation(event, f"place {place} at position {i + 1}: not 1..N")
                break
        plan = self.plans.get(event)
        if (plan is None or plan.kind != "satellite") and ordered.count(1) != 1:
            self.violation(event, f"{ordered.count(1)} winners")
        if len(busted) != len(tour.players) - ordered.count(1):
            self.violation(event, f"{len(busted)} busted of {len(tour.players)} entrants")


class SoakFloor:
    """The floor of one soaked room: its events started, its dealers paced, and what the
    floor does between their hands; the referee checks as it goes."""

    def __init__(self, room: LoopRoom, plans: list[EventPlan], seed: int,
                 found: Findings) -> None:
        self.room, self.plans, self.found = room, {p.name: p for p in plans}, found
        self.referee = Referee(found, self.plans)
        self.rng = random.Random(seed * 7919 + 1)
        self.turns = Turns()
        self.threads: list[threading.Thread] = []
        self.sims: dict[str, Simulator] = {}
        self.ended: set[str] = set()
        self.bagged: set[str] = set()
        self.done: set[str] = set()
        self.paused: dict[str, int] = {}        # event -> steps until the floor resumes
        self.sent: dict[str, list[AnyTableReport]] = {}   # reports acknowledged, by event
        self.steps: dict[str, int] = {}
        self.began: dict[str, float] = {}        # event -> its first hand's time
        self.extra = 0
        self.refusal = ""                        # the floor's last refusal, in its words
        self.last_bust: dict[str, str] = {}    # event -> the newest bust a table reported
        self.dealers = soak_dealers.SoakDealers(room, self.violation)   # the rotation
        self.two_step = set(FLIGHTS_4) <= set(self.plans)
        self.day_size: dict[str, int] = {}     # a Day 2 that bags: the players it began with

    @property
    def d(self) -> Director:
        return self.room.d

    # ------------------------------------------------------------------ acting
    def act(self, cmd: Command, event: str) -> bool:
        """A floor command; False when refused by a rule, an internal error noted."""
        self.found.floor_actions += 1
        try:
            self.d.act(cmd, user="floor", event=event)
        except RuleError as exc:
            self.refusal = str(exc)
            return False
        return True

    def room_act(self, cmd: rc.RoomCommand) -> bool:
        try:
            self.d.room_act(cmd, user="td")
        except RuleError:
            return False
        return True

    def violation(self, event: str, what: str) -> None:
        self.found.violations.append(f"{event}: {what}")

    # ------------------------------------------------------------------ the run
    def start(self) -> None:
        """Every event that opens with the room registers its field and starts; then the
        dealers of all of them begin (none deals while the floor is still registering)."""
        opening = [n for n, p in self.plans.items() if p.entrants]
        self.dealers.start()
        for name in opening:
            for i in range(self.plans[name].entrants):
                self.act(commands.Register(name=f"{name} {i + 1}"), name)
            self.act(commands.Start(), name)
            if self.plans[name].kind == "satellite":
                self.act(commands.LockPayouts(), name)
        with self.turns.together():
            for name in opening:
                self.play(name)

    def play(self, event: str) -> None:
        tour = self.d.events[event].tour
        field_ = SoakField(self, event)
        sim = Simulator(tour.alive, seats=SEATS, profile=tour.profile,
                        structure=tour.structure, seed=self.plans[event].seed
                        if event in self.plans else 99, field=field_,
                        pace=lambda t: self.step(event, t), start=self.room.now,
                        report_prefix=f"{event}-", idle_timeout=0.5)
        self.sims[event] = sim
        self.sent[event] = []

        def body() -> None:
            res = sim.run()
            self.over(event, sim, res.violations)

        self.threads.append(self.turns.spawn(event, self.room.now, body))

    def reported(self, event: str, rep: AnyTableReport, ack: dict[str, Any]) -> bool:
        """A table's report and its acknowledgement: kept for re-sending when applied."""
        self.found.reports += 1
        why = ack.get("rejected", {}).get(rep.id)
        ok = rep.id in ack.get("ids", ()) and why is None
        if ok:
            self.sent[event].append(rep)
            if isinstance(rep, BustReport) and rep.data.player:
                self.last_bust[event] = rep.data.player
        return ok

    def step(self, event: str, t: float) -> None:
        """Before each hand end: this event's turn, the director's clock, the floor."""
        self.turns.pace(event, t)
        self.room.now = max(self.room.now, t)
        tour = self.d.events[event].tour
        n = self.steps[event] = self.steps.get(event, 0) + 1
        began = self.began.setdefault(event, t)
        if t - began > MAX_SIM_HOURS * 3600 or n > 40_000:
            raise Stuck(f"{event}: no end after {n} hands and "
                        f"{(t - began) / 3600:.0f} h on the clock ({stuck_state(tour)})")
        self.act(commands.Tick(), event)
        self.found.floor_actions -= 1    # the director's own tick is not the floor's
        tour = self.d.events[event].tour   # a kill or a refusal's rebuild makes a new one
        if tour.finished_at is not None:
            return
        self.floor(event, tour)
        if n % 25 == 0:
            self.referee.check_seats(event, self.d.events[event].tour)

    def floor(self, event: str, tour: Tournament) -> None:
        """What the floor does between two hands: the clock, a flight's end of day, the
        bubble, then one more thing on a throw of the dice."""
        self.clock(event)
        plan = self.plans.get(event)
        size = plan.entrants if plan is not None and plan.kind == "flight" \
            else self.day_size.get(event)
        if size is not None and event not in self.ended and tour.alive <= max(4, size // 4):
            self.ended.add(event)
            self.act(commands.EndDay(), event)
            return
        self.bubble(event, tour)
        roll = self.rng.random()
        for chance, action in self.ACTIONS:
            if roll < chance:
                action(self, event, tour)
                return
            roll -= chance

    def clock(self, event: str) -> None:
        """Now and then the floor pauses the clock, and resumes it a few hands later."""
        if event in self.paused:
            self.paused[event] -= 1
            if self.paused[event] <= 0:
                del self.paused[event]
                self.act(commands.ClockAction(action="resume"), event)
        elif self.rng.random() < 0.01 and self.act(commands.ClockAction(action="pause"),
                                                   event):
            self.paused[event] = self.rng.randint(1, 6)

    def late(self, event: str, tour: Tournament) -> None:
        self.extra += 1
        self.act(commands.Register(name=f"late {event} {self.extra}"), event)

    def reenter(self, event: str, tour: Tournament) -> None:
        out = sorted(p.id for p in tour.players.values() if p.status == BUSTED)
        if out:
            self.act(commands.Reenter(player=self.rng.choice(out)), event)

    def break_one(self, event: str, tour: Tournament) -> None:
        tables = sorted(x.id for x in tour.seating.active_tables())
        if len(tables) > 2:
            self.act(commands.BreakTable(table=self.rng.choice(tables)), event)

    def count(self, event: str, tour: Tournament) -> None:
        self.act(commands.CountChips(label="soak"), event)

    def bubble(self, event: str, tour: Tournament) -> None:
        """Hand-for-hand from the bubble to the money, where the floor runs it by hand."""
        if tour.profile.hand_for_hand is None or tour.money.h4h_at_bubble:
            return
        paid = len(tour.current_payouts())
        on = tour.levels.h4h_on
        if not on and tour.alive == paid + 1 and paid > 0:
            self.act(commands.HandForHand(on=True), event)
        elif on and tour.alive <= paid:
            self.act(commands.HandForHand(on=False), event)

    def take_back(self, event: str, tour: Tournament) -> None:
        """The floor takes the newest bust back, then gives it again (a dealer's slip)."""
        pid = self.last_bust.get(event)
        if pid is None or tour.finished_at is not None or tour.players[pid].status != BUSTED:
            return
        if self.act(commands.Unbust(player=pid), event):
            self.act(commands.Bust(player=pid), event)

    def resend(self, event: str, tour: Tournament) -> None:
        """A table sends again a report it had acknowledged: a duplicate, and said so."""
        sent = self.sent.get(event)
        if not sent:
            return
        rep = self.rng.choice(sent)
        self.found.resent += 1
        ack = self.room.send(event, rep, self.room.now)
        if rep.id not in ack.get("ids", ()) or rep.id in ack.get("rejected", {}):
            self.referee.violation(event, f"re-sent report {rep.id} ({rep.kind}, table "
                                          f"{rep.table}) answered {ack}")

    def penalty(self, event: str, tour: Tournament) -> None:
        seated = sorted(p.id for p in tour.players.values() if p.status in IN_PLAY)
        kinds = [k for k in tour.profile.penalties.kinds if k != "disqualify"]
        if seated and kinds:
            self.act(commands.Penalty(player=self.rng.choice(seated),
                                      type=self.rng.choice(kinds)), event)

    def deal(self, event: str, tour: Tournament) -> None:
        """Two or three left at the final table agree to split what is left evenly."""
        alive = sorted(p.id for p in tour.players.values() if p.status in IN_PLAY)
        plan = self.plans.get(event)
        if not 2 <= len(alive) <= 3 or tour.deal or (plan and plan.kind == "satellite"):
            return
        left = sum(tour.current_payouts()[: len(alive)])
        share, rest = divmod(left, len(alive))
        amounts = {pid: share + (rest if i == 0 else 0) for i, pid in enumerate(alive)}
        self.act(commands.Deal(amounts=amounts, method="even"), event)

    def idle(self, event: str) -> bool:
        """Every table of the event holds: the floor resumes a clock it paused (a break
        the floor stopped ends only when it resumes), or bags a flight's day."""
        if self.paused.pop(event, None) is not None:
            return self.act(commands.ClockAction(action="resume"), event)
        return self.try_bag(event)

    def try_bag(self, event: str) -> bool:
        """A flight's tables all hold at the end of its day: bag once every table counted
        (the count must match the chips in play: no difference to accept)."""
        tour = self.d.events[event].tour
        if event in self.bagged or not tour.chipcount.day_over:
            return False
        if any(x.id not in tour.chipcount.counts for x in tour.seating.active_tables()):
            return False
        if not self.act(commands.Bag(), event):
            self.referee.violation(event, "the bag was refused though every table counted: "
                                          + self.refusal)
            if not self.act(commands.Bag(accept_difference=True), event):
                return False
        self.bagged.add(event)
        self.referee.check_bags(event, self.d.events[event].tour, self.sims.get(event))
        return True

    # the floor's other steps, each with its chance between two hands
    ACTIONS: ClassVar[list[tuple[float, Callable[[SoakFloor, str, Tournament], None]]]] = [
        (0.015, late), (0.015, reenter), (0.01, take_back), (0.005, break_one),
        (0.005, count), (0.005, penalty), (0.025, resend), (0.02, deal)]

    # ------------------------------------------------------------------ endings
    def over(self, event: str, sim: Simulator, violations: list[str]) -> None:
        """An event's dealers stopped: check it, then what its end opens."""
        tour = self.d.events[event].tour
        for v in violations:
            if "without a winner" in v or "held longer" in v:
                self.found.stuck.append(f"{event}: {v} ({stuck_state(tour)})")
            else:
                self.found.violations.append(f"{event}: {v}")
        self.done.add(event)
        self.found.events_played += 1
        self.found.profiles[tour.profile.id] = self.found.profiles.get(tour.profile.id, 0) + 1
        self.referee.check_chips(event, sim, tour)
        self.referee.check_places(event, tour, event in self.bagged)
        if event == "sat" and tour.finished_at is not None:
            self.open_main()
        flights = [n for n, p in self.plans.items() if p.kind == "flight"]
        if self.two_step:
            self.next_days(event)
        elif event in flights and set(flights) <= self.bagged and "day2" not in self.d.events:
            self.open_day2(flights)
        self.reassign(event)

    def next_days(self, event: str) -> None:
        """Two-step flights: each day whose days are all bagged opens (a Day 2 that bags
        again, then the Day 3 played to its winner)."""
        for day, made_of in TWO_STEP.items():
            if event in made_of and set(made_of) <= self.bagged and day not in self.d.events:
                self.open_day2(made_of, day, bags=day != "day3")

    def open_main(self) -> None:
        if not self.room_act(rc.SetEventState(event="main", state="open")):
            return
        for i in range(self.rng.randint(6, 14)):
            self.act(commands.Register(name=f"main {i + 1}"), "main")
        if self.act(commands.Start(), "main"):
            self.play("main")

    def open_day2(self, flights: list[str], name: str = "day2", bags: bool = False) -> None:
        first = self.plans.get(flights[0]) or self.plans["d1a"]
        spec = {"name": name, "title": name.capitalize(), "kind": "day2", "flights": flights,
                "structure": first.structure, "profile": first.profile, "seats": SEATS,
                "seed": first.seed + 1 + len(name)}
        try:
            self.d.open_event(spec, user="td")
        except RuleError as exc:
            self.referee.violation(name, f"could not open: {exc}")
            return
        if bags:
            self.day_size[name] = len(self.d.events[name].tour.players)
        if self.act(commands.Start(), name):
            self.play(name)

    def reassign(self, event: str) -> None:
        """A table this event gave back goes to an event still playing."""
        free = self.d.room.free_tables()
        playing = sorted(n for n in self.sims if n not in self.done)
        if free and playing:
            self.room_act(rc.AssignTable(table=free[0], event=self.rng.choice(playing)))


class SoakField(DirectorField):
    """An event's tables in the soak: a flight is done once bagged, its held tables ask
    the floor to bag, and every acknowledgement goes to the referee."""

    def __init__(self, floor: SoakFloor, event: str) -> None:
        super().__init__(floor.room, event, done=lambda: event in floor.bagged,
                         idle=lambda: floor.idle(event))
        self.floor = floor

    def report(self, rep: AnyTableReport, t: float) -> bool:  # type: ignore[override]
        self.room.now = max(self.room.now, t)
        ok = self.floor.reported(self.event, rep, self.room.send(self.event, rep, t))
        self.floor.dealers.after(rep.kind, rep.table, t)
        return ok


def stuck_state(tour: Tournament) -> str:
    """Where a stopped event stands, for the person who reads the failure."""
    lv, cc = tour.levels, tour.chipcount
    holds = {x.id: tour.balancing.hold_reason(x) for x in tour.seating.active_tables()
             if tour.balancing.holding(x)}
    r = cc.count_round
    owed = sorted(x.id for x in tour.seating.active_tables()
                  if r is not None and x.id in r["tables"] and x.id not in cc.counts)
    return (f"alive {tour.alive}, clock {tour.clock.to_dict()}, h4h {lv.h4h_on} round "
            f"{lv.h4h_round} waiting {sorted(lv.h4h_waiting)}, last count "
            f"{r and r['purpose']} owed by {owed or 'no table'}, day over {cc.day_over}, "
            f"holding {holds}, in hand "
            f"{[x.id for x in tour.seating.active_tables() if x.in_hand]}")


def digest(d: Director) -> dict[str, Any]:
    """What a replay must give back: every event's results, seating, clock, money and
    counts, and the room's tables and events, as people see them."""
    out: dict[str, Any] = {"room": (sorted(d.room.free_tables()), sorted(
        (n, e.state) for n, e in d.room.events.items())),
        "dealers": soak_dealers.snapshot_of(d)}
    for name, desk in d.events.items():
        tour = desk.tour
        out[name] = {
            "events": tour.n_events, "results": results(tour),
            "tables": sorted((x.id, x.broken, sorted(x.seat_of.items()), x.hand)
                             for x in tour.tables.values()),
            "clock": tour.clock.to_dict(), "alive": tour.alive,
            "h4h": (tour.levels.h4h_on, tour.levels.h4h_round),
            "bags": tour.chipcount.bags, "payouts": tour.current_payouts(),
            "moves": sorted(tour.seating.moving)}
    return out


@contextmanager
def scratch() -> Iterator[Path]:
    """A folder for a room's log: in memory where the machine has one (the soak measures
    decisions, not the disk's fsync), removed afterwards."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="pk-soak-", dir=shm if shm.is_dir() else None))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def soak_room(seed: int) -> Findings:
    """Play seed `seed`'s room to its end; what it showed."""
    found = Findings(seed)
    wall = time.perf_counter()
    plans = plan_room(seed)
    with scratch() as folder:
        expected_reports = sum(p.entrants for p in plans) * 10
        kill_at = random.Random(seed).randint(expected_reports // 5, expected_reports // 2)
        room = LoopRoom(folder, room_toml(plans), kill_at=kill_at, t0=T0)
        floor = SoakFloor(room, plans, seed, found)
        try:
            floor.start()
            floor.turns.join(floor.threads)
        except Stuck as exc:
            found.stuck.append(str(exc))
        except Exception as exc:   # a crash of the director or the dealers: a bug
            found.internal_errors.append(f"{exc.__class__.__name__}: {exc}")
        found.kills = room.kills
        found.dealer_pushes = floor.dealers.pushes
        found.pushes_refused_mid_hand = floor.dealers.refused_mid_hand
        # every bug a director met, refusing a command or after its write (publishing)
        found.internal_errors += room.bugs + list(room.d.service.tx.bugs)
        live = digest(room.d)
        room.d.store.close()
        again = room.director()
        replayed = digest(again)
        again.store.close()
        for key in sorted(set(live) | set(replayed)):
            if live.get(key) != replayed.get(key):
                found.replay_mismatches.append(f"{key}: replay differs")
    found.wall_s = round(time.perf_counter() - wall, 2)
    return found
