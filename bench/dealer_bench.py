"""Dealers' rotation benchmark: a room's day of pushes through the director.

The director runs in process on its SQLite log, with a clock the bench moves: each dealer
command is the room command the tables and the floor send (`dealer_clock_in`,
`dealer_push` at a hand's end, `dealer_back`, `dealer_release`), decided, written in one
transaction and folded; the tables the room frees and assigns re-form the strings through
the director's own hook. Every table deals hands back to back (log-normal lengths); the
main event breaks its tables over the day and a second day's event opens mid-way on tables
of its own; every two hours each event takes a 15-minute break, which holds its push
clock. A virtual dealer walks 0 to 90 s to the table due and takes it at the first hand's
end; back from break after the same walk. A few dealers sign the EO list and the floor
releases whoever the room offers. At the end a fresh director folds the log again.

    python bench/dealer_bench.py --tables 60 --dealers 75 --hours 10 [--seed 1] [--json]
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
from kiosk.core.dealers import records
from kiosk.core.model import dealer_events as de
from kiosk.core.model import room_commands as rc
from kiosk.director.service import Director

T0 = 1_800_000_000.0
DOWN_S = 30 * 60                # the room's down length
STEP = 5.0                     # seconds of the room per turn of the bench
WALK = 90.0                    # a dealer's walk to the table, at most
BREAK_EVERY, BREAK_LEN = 7200.0, 900.0
STAFF = {"main": 1_234_567, "day2": 654_321}     # each event's staff share, in cents


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else 0.0


def room_toml(tables: int, day2: int) -> str:
    return (f'[room]\nname = "bench"\ntables = {tables + day2}\n\n[director]\n'
            f'db = "room.db"\n\n[[events]]\nname = "main"\nstructure = "turbo"\n'
            f'tables = {tables}\n\n[[events]]\nname = "day2"\nstructure = "turbo"\n'
            f'scheduled = true\n\n[dealers]\ndown_minutes = {DOWN_S // 60}\nbreak_minutes = 15\n'
            f'downs_between_breaks = 4\nstring_size = 4\n')


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
            self.act({"kind": "dealer_push", "table": n, "dealer": who,
                      "hand": self.hand_no[n]})
            self.delays.append(t - due)
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
    period = elapsed % BREAK_EVERY
    for event in ("main", "day2"):
        on_break = period >= BREAK_EVERY - BREAK_LEN and elapsed > BREAK_LEN
        if d.room.tables_of(event) and (event in sim.road.held) != on_break:
            sim.act({"kind": "dealer_hold", "event": event, "held": on_break})
            if not on_break:
                for n in d.room.tables_of(event):
                    sim.hand_end.pop(n, None)     # play resumes: a new hand
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


def snapshot(road: Any) -> Any:
    return (sorted((n, tb.dealer, tb.push_at, tb.string) for n, tb in road.tables.items()),
            road.strings, sorted(road.reliefs.items()), road.breaks(), list(road.eo),
            [(x.dealer, x.table, x.start, x.end, x.hands) for x in road.downs])


def run(tables: int, dealers: int, hours: float, seed: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="dealer-bench-"))
    try:
        day2 = max(4, tables // 3)
        (work / "room.toml").write_text(room_toml(tables, day2))
        cfg = load_director_config(work / "room.toml")
        clock = [T0]
        d = Director(cfg, clock=lambda: clock[0])
        sim = Sim(d, random.Random(seed), clock)
        started = time.perf_counter()
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
        seen = snapshot(road)
        d.store.close()
        again = Director(load_director_config(work / "room.toml"), clock=lambda: clock[0])
        identical = snapshot(again.room.roadmap) == seen
        again.store.close()
        order = [n for n in sim.signed if n in sim.released]
        longest = max(dealt(x, events) for x in downs)
        return {
            "tables": tables, "dealers": dealers, "hours": hours, "seed": seed,
            "pushes": sum(isinstance(e, de.PushDone) for e in events),
            "hand_p99_s": round(hand_p99, 1),
            "push_delay_p50_s": round(pct(sim.delays, 50), 1),
            "push_delay_p99_s": round(pct(sim.delays, 99), 1),
            "pushes_mid_hand": sim.mid_hand,
            "mid_hand_pushes_refused": sim.refused_mid_hand,
            "max_down_minutes": round(longest / 60, 1),
            # a push never cuts a hand: a relief who comes as a hand starts waits it out,
            # so no down can be held shorter than the down plus the longest hand
            "hand_max_s": round(max(sim.hands), 1),
            "max_down_within_one_hand": longest <= DOWN_S + max(sim.hands),
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
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    out = run(args.tables, args.dealers, args.hours, args.seed)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
