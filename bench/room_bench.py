"""Room benchmark: four events at once on one director, a kill and a rebuild mid-way.

A satellite feeding a main event, two Day 1 flights merging into a Day 2 and a daily run
at the same time in one room, each played to its end by the simulator's dealers. Every
report goes through the director's own inbox (decoded, routed by its event, decided,
written in one fsynced transaction, plans published and the report acknowledged) into a
loopback client that keeps what would be retained on a broker: no broker is needed.
Mid-way the director object is thrown away and a new one folds the room back from its log
(a "kill"); a reference run of the same seeds without the kill must give every event the
same places. The dealers take turns in the order of the tournament clock, so both runs
see the same interleaving.

    python bench/room_bench.py [--entrants 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness.room_loop import DirectorField, LoopRoom, Turns

from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as rev
from kiosk.director.service import Director
from kiosk.sim.engine import Simulator

T0 = 1_000_000.0          # the room's clock at the start, in seconds
SEATS = 9
RUNNING = ("sat", "d1a", "d1b", "daily")
FLIGHTS = ("d1a", "d1b")
DEALT = (*RUNNING, "day2")      # the events the dealers play, each with its own seed
DAY2 = {"name": "day2", "title": "Day 2", "kind": "day2", "flights": list(FLIGHTS),
        "structure": "turbo", "seats": SEATS, "seed": 16}


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


def room_toml(entrants: int, tables: int = 0, head: str = '[director]\ndb = "room.db"\n') -> str:
    """The room: `tables` (default: the four events' draws and eight more), the
    director's sections in `head`, the five events."""
    tables = tables or min(500, 4 * math.ceil(entrants / SEATS) + 8)
    seat_value = 10 * 100   # satellite: one seat for every ten entrants
    events = [("sat", "satellite", 11, f'target = "main"\n[events.money]\nseat_value = '
                                       f'{seat_value}\n'),
              ("main", "event", 12, "buy_in = 1000\nscheduled = true\n"),
              ("d1a", "flight", 13, ""), ("d1b", "flight", 14, ""), ("daily", "event", 15, "")]
    return f'[room]\nname = "bench-room"\ntitle = "Bench Room"\ntables = {tables}\n\n' \
           + head + "".join(
               f'\n[[events]]\nname = "{name}"\nkind = "{kind}"\nstructure = "turbo"\n'
               f"seats = {SEATS}\nseed = {seed}\n" + ("buy_in = 100\n" if "buy_in" not in extra
                                                     else "") + extra
               for name, kind, seed, extra in events)


def sim_seed(event: str, seed: int = 1) -> int:
    """The dealers' seed for `event` (the same in a run over a broker)."""
    return seed + 7 * DEALT.index(event)


def survivors(entrants: int) -> int:
    """A flight ends its day when this many are left."""
    return max(4, entrants // 8)


def open_events(d: Director, entrants: int) -> None:
    """Every running event's field registered, each started; the satellite's payouts
    locked (a satellite plays for its seats)."""
    for event in RUNNING:
        for i in range(entrants):
            d.act(commands.Register(name=f"{event} {i + 1}", card=f"{event}-{i + 1}"),
                  event=event)
        d.act(commands.Start(), event=event)
    d.act(commands.LockPayouts(), user="floor", event="sat")


def places(d: Director) -> dict[str, list[tuple[int, str]]]:
    """Every event's places (place, player), best first."""
    from kiosk.core.event.results import results

    return {name: sorted((r["place"], r["player"]) for r in results(desk.tour)
                         if r["place"] is not None)
            for name, desk in d.events.items()}


class BenchRoom(LoopRoom):
    """The room under test: a director, its loopback, the clock, the kill."""

    def __init__(self, folder: Path, entrants: int, kill_at: int | None,
                 tables: int = 0) -> None:
        super().__init__(folder, room_toml(entrants, tables), kill_at, T0)


def director_field(room: BenchRoom, event: str, floor: Floor) -> DirectorField:
    """One event's tables: a flight is done once bagged; its tables hold at the end of
    its day until every table counted, then the floor bags."""
    done = (lambda: event in floor.bagged) if event in floor.flights else None
    return DirectorField(room, event, done=done, idle=lambda: floor.try_bag(event))


class Floor:
    """The floor's part: starting events, a flight's end of day, the satellite's target
    opened, a freed table given to another event, the Day 2 once both flights bagged."""

    def __init__(self, room: BenchRoom, turns: Turns, entrants: int, seed: int) -> None:
        self.room, self.turns, self.entrants, self.seed = room, turns, entrants, seed
        self.flights = FLIGHTS
        self.ended: set[str] = set()
        self.bagged: set[str] = set()
        self.survive = survivors(entrants)
        self.results: dict[str, Any] = {}
        self.threads: list[threading.Thread] = []
        self.reassigned: list[tuple[int, str]] = []

    @property
    def d(self) -> Director:
        return self.room.d

    def start(self) -> None:
        """Every event's dealers wait for their turn before the first one deals: a dealer
        let go while the next were still being started would deal a few hands alone, as
        far as the machine's load lets it, and the two runs would interleave apart."""
        open_events(self.d, self.entrants)
        with self.turns.together():
            for event in RUNNING:
                self.play(event)

    def play(self, event: str) -> None:
        field = director_field(self.room, event, self)
        tour = self.d.events[event].tour
        sim = Simulator(tour.alive, seats=SEATS, profile=tour.profile,
                        structure=tour.structure, seed=sim_seed(event, self.seed),
                        field=field, pace=lambda t: self.step(event, t),
                        start=self.room.now, report_prefix=f"{event}-", idle_timeout=5.0)
        self.results[event] = None

        def body() -> None:
            self.results[event] = sim.run()
            self.over(event)

        self.threads.append(self.turns.spawn(event, self.room.now, body))

    def step(self, event: str, t: float) -> None:
        """Before each hand end: wait for this event's turn, then what the floor does."""
        self.turns.pace(event, t)
        self.room.now = max(self.room.now, t)
        d = self.d
        tour = d.events[event].tour
        if tour.clock.read(tour.structure, t).period != tour.clock.period:
            d.act(commands.Tick(), event=event)
        if event in self.flights and event not in self.ended and tour.alive <= self.survive:
            self.ended.add(event)
            d.act(commands.EndDay(), user="floor", event=event)

    def try_bag(self, event: str) -> bool:
        tour = self.d.events[event].tour
        if event in self.bagged or not tour.chipcount.day_over:
            return False
        if any(x.id not in tour.chipcount.counts for x in tour.seating.active_tables()):
            return False
        self.d.act(commands.Bag(accept_difference=True), user="floor", event=event)
        self.bagged.add(event)
        return True

    def over(self, event: str) -> None:
        """An event's dealers are done: its target opens, its freed tables move on."""
        d = self.d
        if event == "sat":
            d.room_act(rc.SetEventState(event="main", state="open"), user="td")
            free = d.room.free_tables()
            if free:     # a table the satellite gave back serves the main event at once
                d.room_act(rc.AssignTable(table=free[0], event="main"), user="floor")
                self.reassigned.append((free[0], "main"))
        if event in self.flights and set(self.flights) <= self.bagged \
                and "day2" not in d.events:
            d.open_event(DAY2, user="td")
            d.act(commands.Start(), event="day2")
            self.play("day2")


def run(entrants: int, kill: bool, seed: int = 1, tables: int = 0) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="pk-roombench-"))
    try:
        # the kill comes about halfway through the reports (about 12 per entrant)
        room = BenchRoom(folder, entrants, kill_at=6 * entrants * 4 if kill else None,
                         tables=tables)
        turns = Turns()
        floor = Floor(room, turns, entrants, seed)
        wall = time.perf_counter()
        floor.start()
        turns.join(floor.threads)
        return _summary(room, floor, time.perf_counter() - wall)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _summary(room: BenchRoom, floor: Floor, wall: float) -> dict[str, Any]:
    d = room.d
    served: dict[int, set[str]] = {}
    tickets = 0
    for ev in d.store.read("room"):
        if isinstance(ev, rev.TableAssigned):
            served.setdefault(ev.table, set()).add(ev.event)
        elif isinstance(ev, rev.TicketIssued):
            tickets += 1
    lost = sum(1 for table, rid in room.net.acked
               if not any((table, rid) in desk.tour.seen_reports for desk in d.events.values()))
    day2 = d.events.get("day2")
    return {"places": places(d), "lost_acked": lost,
            "tables_reassigned": sum(1 for evs in served.values() if len(evs) > 1),
            "satellite_seats_issued": tickets,
            "main_entrants": len(d.events["main"].tour.players),
            "day2_entrants": 0 if day2 is None else len(day2.tour.players),
            "reports": room.reports, "director_kills": room.kills,
            "log_events": d.store.last_seq, "wall_s": round(wall, 1),
            "latency": room.latency}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entrants", type=int, default=1000, help="entrants per event")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object (the default too)")
    args = ap.parse_args()
    killed = run(args.entrants, kill=True, seed=args.seed)
    reference = run(args.entrants, kill=False, seed=args.seed)
    lat = killed.pop("latency")
    reference.pop("latency")
    out = {"entrants_per_event": args.entrants, "concurrent_events": len(RUNNING),
           "tables_reassigned": killed["tables_reassigned"],
           "satellite_seats_issued": killed["satellite_seats_issued"],
           "main_entrants": killed["main_entrants"],
           "day2_entrants": killed["day2_entrants"],
           "director_kills": killed["director_kills"],
           "places_identical": killed["places"] == reference["places"],
           "events_compared": sorted(killed["places"]),
           "lost_acked": killed["lost_acked"],
           "reports": killed["reports"], "log_events": killed["log_events"],
           "report_to_plan_p50_ms": round(1000 * pct(lat, 50), 2),
           "report_to_plan_p99_ms": round(1000 * pct(lat, 99), 2),
           "wall_s": {"with_kill": killed["wall_s"], "reference": reference["wall_s"]}}
    print(json.dumps(out, indent=None if args.json else 1), flush=True)


if __name__ == "__main__":
    main()
