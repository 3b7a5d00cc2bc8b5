"""Dealers' rotation benchmark: a room's day of pushes through the director.

The director runs in process on its SQLite log, with a clock the bench moves: each dealer
command is the room command the tables and the floor send (`dealer_clock_in`,
`dealer_push` at a hand's end, `dealer_back`, `dealer_release`), decided, written in one
transaction and folded; the tables the room frees and assigns re-form the strings through
the director's own hook. Every table deals hands back to back (log-normal lengths); the
main event breaks its tables over the day and a second day's event opens mid-way on tables
of its own. Both events run under `--profile` (default: the default for new events) on
their own clocks, with 21-minute levels and a 15-minute break every two hours, and the
director's beat holds each event's push clock through its breaks and, under a profile
that says so, each level's last moments before a level change or a break (RP-7). A
virtual dealer walks 0 to 90 s to the table due and tries the push at each hand's end
until it is taken; back from break after the same walk. A few dealers sign the EO list
and the floor releases whoever the room offers. At the end a fresh director folds the
log again.

    python bench/dealer_bench.py --tables 60 --dealers 75 --hours 10 [--seed 1]
        [--profile tda-2024] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.base.errors import RuleError
from kiosk.config.room import load_director_config
from kiosk.core.calc.clock import level_ends_at
from kiosk.core.dealers import records
from kiosk.core.model import dealer_events as de
from kiosk.core.model import room_commands as rc
from kiosk.director.service import Director
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile

T0 = 1_800_000_000.0
DOWN_S = 30 * 60                # the room's down length
STEP = 5.0                     # seconds of the room per turn of the bench
WALK = 90.0                    # a dealer's walk to the table, at most
RP7_WINDOW = 90.0              # TDA RP-7: no push this long before a level change or break
LEVEL_MIN, BREAK_MIN = 21, 15  # five levels and a break: two hours
STAFF = {"main": 1_234_567, "day2": 654_321}     # each event's staff share, in cents


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else 0.0


def structure_toml(hours: float) -> str:
    """Levels of LEVEL_MIN minutes, a break of BREAK_MIN after every fifth, for `hours`."""
    out, bb = 'name = "Bench"\nstart_stack = 50000\n', 100
    for block in range(int(hours // 2) + 2):
        for _ in range(5):
            out += (f"\n[[level]]\nsb = {bb // 2}\nbb = {bb}\nbb_ante = {bb if block else 0}"
                    f"\nminutes = {LEVEL_MIN}\n")
            bb += bb // 2 // 100 * 100 or 100
        out += f"\n[[level]]\nbreak = {BREAK_MIN}\n"
    return out


def room_toml(tables: int, day2: int, structure: str, profile: str = DEFAULT_PROFILE) -> str:
    return (f'[room]\nname = "bench"\ntables = {tables + day2}\n\n[director]\n'
            f'db = "room.db"\n\n[[events]]\nname = "main"\nstructure = "{structure}"\n'
            f'profile = "{profile}"\ntables = {tables}\n\n[[events]]\nname = "day2"\n'
            f'structure = "{structure}"\nprofile = "{profile}"\nscheduled = true\n\n'
            f'[dealers]\ndown_minutes = {DOWN_S // 60}\nbreak_minutes = 15\n'
            f'downs_between_breaks = 4\nstring_size = 4\n')


def start_event(d: Director, event: str) -> None:
    """The event's clock starts (two players: the bench's tables deal without them)."""
    if d.room.events[event].state == "scheduled":
        d.room_act(rc.SetEventState(event=event, state="open"), user="bench")
    for i in range(2):
        d.act({"kind": "register", "name": f"{event} {i + 1}"}, event=event)
    d.act({"kind": "start"}, user="bench", event=event)


@dataclass
class Sim:
    d: Director
    rng: random.Random
    clock: list[float]
    hand_end: dict[int, float] = field(default_factory=dict)
    hand_no: dict[int, int] = field(default_factory=dict)
    hands: list[float] = field(default_factory=list)
    arrive: dict[tuple[int, str], float] = field(default_factory=dict)
    back_at: dict[str, float] = field(default_factory=dict)
    delays: list[float] = field(default_factory=list)
    mid_hand: int = 0
    refused_mid_hand: int = 0
    held_back: int = 0           # pushes tried at a hand's end in a hold before a level change
    no_dealer_s: float = 0.0
    released: list[str] = field(default_factory=list)
    signed: list[str] = field(default_factory=list)

    @property
    def t(self) -> float:
        return self.clock[0]

    @property
    def road(self) -> Any:
        return self.d.room.roadmap

    def act(self, cmd: dict[str, Any]) -> None:
        self.d.room_act(cmd, user="bench")

    def hand(self, table: int) -> None:
        length = min(900.0, self.rng.lognormvariate(math.log(140), 0.45))
        self.hands.append(length)
        self.hand_end[table] = self.t + length
        self.hand_no[table] = self.hand_no.get(table, 0) + 1

    def held(self, table: int) -> bool:
        tb = self.road.tables.get(table)
        return tb is not None and tb.event in self.road.held

    def turn(self) -> None:
        road, t = self.road, self.t
        for n in sorted(road.tables):
            if self.held(n):
                continue
            if n not in self.hand_end:
                self.hand(n)
            tb = road.tables[n]
            who = road.incoming(n, t)
            if tb.dealer and tb.push_at is not None and t >= tb.push_at and who:
                key = (n, who)
                self.arrive.setdefault(key, t + self.rng.uniform(0, WALK))
                if t >= self.arrive[key] and t < self.hand_end[n]:
                    self.try_mid_hand(n, who)
            if t >= self.hand_end[n]:
                self.hand_over(n)
        for name, until in road.breaks():
            back = self.back_at.setdefault(name, until + self.rng.uniform(0, WALK))
            if t >= back:
                self.act({"kind": "dealer_back", "dealer": name})
                del self.back_at[name]
        needed = len(road.tables) + len(road.strings)
        present = sum(1 for x in road.dealers.values() if x.status != "out")
        if present >= len(road.tables):
            self.no_dealer_s += STEP * sum(1 for tb in road.tables.values() if not tb.dealer)
        offer = road.offer()
        if offer is not None and present > needed + 2 and road.dealers[offer].status != "dealing":
            self.act({"kind": "dealer_release", "dealer": offer})
            self.released.append(offer)

    def try_mid_hand(self, n: int, who: str) -> None:
        """An incoming dealer arrived mid-hand: the director must refuse the push."""
        try:
            self.act({"kind": "dealer_push", "table": n, "dealer": who, "in_hand": True,
                      "hand": self.hand_no[n]})
            self.mid_hand += 1
        except RuleError:
            self.refused_mid_hand += 1

    def hand_over(self, n: int) -> None:
        road, t = self.road, self.t
        tb = road.tables[n]
        who = road.incoming(n, t)
        if tb.dealer and who and tb.push_at is not None and t >= tb.push_at \
                and t >= self.arrive.get((n, who), math.inf):
            due = tb.push_at
            try:
                self.act({"kind": "dealer_push", "table": n, "dealer": who,
                          "hand": self.hand_no[n]})
            except RuleError:        # the hold before a level change: after it, then
                self.held_back += 1
            else:
                # the push's delay beyond the hold it met (RP-7 holds it on purpose)
                start, until = road.push_holds.get(tb.event, (t, t))
                self.delays.append(t - due - max(0.0, min(t, until) - max(due, start)))
                self.arrive.pop((n, who), None)
        self.hand(n)


def schedule(sim: Sim, tables: int, day2: int, hours: float) -> None:
    """The room's day: tables break, the second day opens, breaks, EO signatures."""
    d, t = sim.d, sim.t
    elapsed = t - T0
    main = d.room.tables_of("main")
    # the main event loses a table every 8 minutes from the second hour, down to a third
    if elapsed >= 3600 and int(elapsed) % 480 == 0 and len(main) > tables // 3:
        table = max(main)
        sim.hand_end.pop(table, None)
        d.room_act(rc.FreeTable(table=table, why="broken"), user="bench")
    if int(elapsed) == int(hours * 3600 * 0.55):     # the second day's event opens
        for table in range(tables + 1, tables + day2 + 1):
            d.room_act(rc.AssignTable(table=table, event="day2"), user="bench")
        start_event(d, "day2")
    held = set(sim.road.held)
    d.dealers.tick()     # the director's beat: the events' breaks and RP-7's holds
    for event in held - sim.road.held:
        for n in d.room.tables_of(event):
            sim.hand_end.pop(n, None)     # play resumes after the break: a new hand
    if int(elapsed) == 3 * 3600:
        for name in sim.rng.sample(sorted(n for n, x in sim.road.dealers.items()
                                          if x.status != "out"), 6):
            sim.act({"kind": "dealer_sign_early_out", "dealer": name})
            sim.signed.append(name)


def no_break_dealers(events: list[Any], limit: int) -> int:
    """Dealers who began more than `limit` downs without a break between."""
    since: dict[str, int] = {}
    at: dict[int, str] = {}
    over: set[str] = set()
    for ev in events:
        if isinstance(ev, de.DealerSeated):
            since[ev.dealer] = since.get(ev.dealer, 0) + 1
            at[ev.table] = ev.dealer
        elif isinstance(ev, de.PushDone):
            since[ev.incoming] = since.get(ev.incoming, 0) + 1
            at[ev.table] = ev.incoming
            if ev.next == "break":
                since[ev.outgoing] = 0
        elif isinstance(ev, de.DealTableClosed) and ev.table in at:
            gone = at.pop(ev.table)
            if ev.until:
                since[gone] = 0
        for name, n in since.items():
            if n > limit:
                over.add(name)
    return len(over)


def dealt(down: Any, events: list[Any]) -> float:
    """Seconds of a down on the push clock: its event's breaks (held) left out."""
    held, since = 0.0, None
    for ev in events:
        if isinstance(ev, de.ClockHeld) and ev.event == down.event:
            if ev.held:
                since = ev.t
            elif since is not None:
                held += max(0.0, min(ev.t, down.end) - max(since, down.start))
                since = None
    return (down.end or down.start) - down.start - held


def in_hold_window(d: Director, events: list[Any]) -> int:
    """Pushes done in the RP7_WINDOW seconds before their event's level change or break,
    read off each event's clock (the bench never moves a clock by hand)."""
    table_event: dict[int, str] = {}
    count = 0
    for ev in events:
        if isinstance(ev, de.DealTableOpened):
            table_event[ev.table] = ev.event
        elif isinstance(ev, de.PushDone):
            tour = d.events[table_event[ev.table]].tour
            ends = level_ends_at(tour.clock, tour.structure, ev.t)
            count += ends is not None and ends - ev.t <= RP7_WINDOW
    return count


def snapshot(road: Any) -> Any:
    return (sorted((n, tb.dealer, tb.push_at, tb.string) for n, tb in road.tables.items()),
            road.strings, sorted(road.reliefs.items()), road.breaks(), list(road.eo),
            [(x.dealer, x.table, x.start, x.end, x.hands) for x in road.downs])


def run(tables: int, dealers: int, hours: float, seed: int,
        profile: str = DEFAULT_PROFILE) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="dealer-bench-"))
    hold = load_profile(profile).dealing.push_hold_seconds
    try:
        day2 = max(4, tables // 3)
        (work / "bench.toml").write_text(structure_toml(hours))
        (work / "room.toml").write_text(room_toml(tables, day2, str(work / "bench.toml"),
                                                  profile))
        cfg = load_director_config(work / "room.toml")
        clock = [T0]
        d = Director(cfg, clock=lambda: clock[0])
        sim = Sim(d, random.Random(seed), clock)
        started = time.perf_counter()
        start_event(d, "main")
        for i in range(dealers):
            sim.act({"kind": "dealer_clock_in", "dealer": f"D{i + 1:03d}"})
        end = T0 + hours * 3600
        while clock[0] < end:
            schedule(sim, tables, day2, hours)
            sim.turn()
            clock[0] += STEP
        wall = time.perf_counter() - started
        road = d.room.roadmap
        events = list(d.store.stream("room").read())
        downs = records.closed(road.downs)
        staff = {e: STAFF[e] for e in STAFF if any(x.event == e for x in downs)}
        shares = records.split_staff(downs, staff)
        hand_p99 = pct(sim.hands, 99)
        in_window = in_hold_window(d, events)
        seen = snapshot(road)
        d.store.close()
        again = Director(load_director_config(work / "room.toml"), clock=lambda: clock[0])
        identical = snapshot(again.room.roadmap) == seen
        again.store.close()
        order = [n for n in sim.signed if n in sim.released]
        longest = max(dealt(x, events) for x in downs)
        return {
            "tables": tables, "dealers": dealers, "hours": hours, "seed": seed,
            "profile": profile,
            "pushes": sum(isinstance(e, de.PushDone) for e in events),
            # pushes in the 90 s before a level change or break (RP-7); a profile that
            # holds them has none, and tries at a hand's end in the hold wait for its end
            "pushes_in_hold_window": in_window,
            "pushes_held_back": sim.held_back,
            "hand_p99_s": round(hand_p99, 1),
            "push_delay_p50_s": round(pct(sim.delays, 50), 1),
            "push_delay_p99_s": round(pct(sim.delays, 99), 1),
            "pushes_mid_hand": sim.mid_hand,
            "mid_hand_pushes_refused": sim.refused_mid_hand,
            "max_down_minutes": round(longest / 60, 1),
            # a push never cuts a hand: a relief who comes as a hand starts waits it out,
            # so no down can be held shorter than the down plus the longest hand (and the
            # hold before a level change, under a profile that holds pushes then)
            "hand_max_s": round(max(sim.hands), 1),
            "max_down_within_one_hand": longest <= DOWN_S + hold + max(sim.hands),
            "dealers_without_break": no_break_dealers(events, 4),
            "tables_without_dealer_s": sim.no_dealer_s,
            "early_outs": len(sim.released),
            "early_outs_out_of_order": sum(1 for a, b in zip(order, sim.released,
                                                             strict=False) if a != b),
            "staff_share_mismatch_cents": abs(sum(shares.values()) - sum(staff.values())),
            "replay_identical": identical,
            "room_events": len(events),
            "wall_s": round(wall, 1),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--dealers", type=int, default=75)
    p.add_argument("--hours", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", default=DEFAULT_PROFILE,
                   help=f"the events' rule profile (default {DEFAULT_PROFILE})")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    out = run(args.tables, args.dealers, args.hours, args.seed, args.profile)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
