"""A 90-player PKO rebuy event with add-ons over a real Mosquitto, with an end-of-day bag
and a day-2 redraw, checked against an independent calculation of prizes, bounties and
chips. The director and the simulated tables share one virtual clock, so the rebuy
period and the add-on window close for both at the same moment."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from floor_client import FloorClient
from harness.sim_clock import VirtualClock
from waiting import eventually, wait_for

from kiosk.config.files import load_event_config
from kiosk.director.log.store import EventLog
from kiosk.director.service import Director
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

PLAYERS, SEED, STACK = 90, 11, 10000   # STACK: the turbo structure's
BUY_IN, BOUNTY, PKO = 100, 50, 50
SHARES = (50, 30, 20)
HANDS_S = 240.0   # for the simulated tables to deal so far: the whole event takes less
MONEY = (f'[money]\nbounty = {BOUNTY}\nbounty_mode = "pko"\npko_percent = {PKO}\n'
         f'fee = 10\nshares_csv = "payouts.csv"\n')


def floor_at(port: int) -> FloorClient:
    """The tournament director at the dashboard: logs in and acts over HTTP."""
    return FloorClient(f"http://127.0.0.1:{port}", "td", "pw")


class ClockedDirector(logging.Handler):
    """The director in this process (its own thread and event loop) on the simulator's
    virtual clock; the files are the ones `pokerkiosk director` would be given."""

    def __init__(self, files: Any, clock: VirtualClock) -> None:
        super().__init__(logging.WARNING)
        self.http_port, self.db, self.name = files.http_port, files.db, files.name
        self.lines: list[str] = []
        self.director = Director(load_event_config(files.config), clock=clock.now)
        self.director.import_csv(files.players_csv.read_text())
        self.director.act({"kind": "start"})
        self.loop = asyncio.new_event_loop()
        self.task = self.loop.create_task(self.director.serve(web=True))
        self.thread = threading.Thread(target=self._run, daemon=True)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def _run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            self.loop.run_until_complete(self.task)

    def start(self) -> ClockedDirector:
        logging.getLogger("kiosk.director").addHandler(self)
        self.thread.start()
        wait_for(self.director.connected.is_set)     # the director reached the broker
        return self

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(20)
        logging.getLogger("kiosk.director").removeHandler(self)

    def log_text(self) -> str:
        return "\n".join(self.lines)


def end_the_day(director, sim: Simulator, clock: VirtualClock, seen: dict) -> None:
    """After the add-ons were sold: stop, let every table count, bag, redraw for day 2."""
    periods = sim.structure.periods
    window_over = sum(p.seconds for p in periods[:sim.addon_until + 1])
    wait_for(lambda: sim.res.hands >= 120 and clock.now() >= window_over, HANDS_S,
             step=0.02)
    floor = floor_at(director.http_port)
    floor.post("/api/act", {"kind": "end_day"})

    def counted() -> bool:
        count = floor.get("/api/snapshot")["summary"]["money"]["chip_count"]
        return bool(count and not count["flags"])

    # the bag below says what is wrong if the count never settles
    eventually(counted, True, 60, step=0.1)
    # the virtual dealers wait while the tables hold: their stacks are what was counted
    seen["stacks"] = {pid: c for pid, c in sim.chips.items() if c > 0}
    seen["bought"], seen["rebuys"], seen["addons"] = sim.bought, sim.res.rebuys, sim.res.addons
    seen["bag"] = floor.post("/api/act", {"kind": "bag"})
    seen["redraw"] = floor.post("/api/act", {"kind": "redraw"})


def expected_prizes(entries: int, addons: int) -> list[int]:
    pool = (entries + addons) * BUY_IN      # an add-on costs a buy-in
    rest = [pool * s // 100 for s in SHARES[1:]]
    return [pool - sum(rest), *rest]


def expected_bounties(knockouts: list[tuple[str, list[str], bool]]) -> tuple[dict, dict]:
    """PKO by hand: half of each head in cash to the eliminator, half onto his head."""
    head = {f"p{i + 1}": BOUNTY for i in range(PLAYERS)}
    won: dict[str, int] = {}
    for busted, (by,), rebuy in knockouts:
        h = head[busted]
        cash = h * PKO // 100
        won[by] = won.get(by, 0) + cash
        head[by] += h - cash
        head[busted] = BOUNTY if rebuy else 0
    return won, head


def test_pko_rebuy_event_with_add_ons_a_bag_and_a_redraw(tmp_path: Path, mosquitto,
                                                         director_factory) -> None:
    (tmp_path / "payouts.csv").write_text("place,percent\n" + "".join(
        f"{i + 1},{s}\n" for i, s in enumerate(SHARES)))
    files = director_factory(players=PLAYERS, profile="home-roberts", structure="turbo",
                             seed=SEED, web=True, floor_users={"td": "pw"}, extra_toml=MONEY,
                             start_stack=STACK)     # its files only: it runs in this process
    clock = VirtualClock()
    director = ClockedDirector(files, clock).start()
    field = MqttField(mosquitto.config, director.name, resend_every=1.0, ack_timeout=40)
    field.wait_ready()
    wait_for(lambda: len(field.tables()) >= 10)
    sim = Simulator(PLAYERS, profile="home-roberts", seed=SEED, structure="turbo", field=field,
                    pace=clock.advance)
    seen: dict = {}
    floor = threading.Thread(target=end_the_day, args=(director, sim, clock, seen),
                             daemon=True)
    floor.start()
    res = sim.run()
    floor.join(5)
    field.close()
    director.stop()
    assert seen["bag"]["ok"] and seen["redraw"]["ok"], (seen["bag"], seen["redraw"])
    assert res.invariant_violations == 0, res.violations
    assert res.rebuys > 0, "the rebuy period saw rebuys"
    assert seen["addons"] == res.addons > 0, "the add-ons were sold before the day ended"
    # only a hand a dealer started just as the day ended may be turned away
    refused = [line for line in director.log_text().splitlines() if "rejected" in line]
    assert all("must not deal now" in line for line in refused), refused

    # chips: the bags hold every chip sold, each player's bag what his dealer counted
    events = list(EventLog(director.db).read())
    bagged = next(e for e in events if e["kind"] == "bagged")
    assert bagged["bags"] == seen["stacks"]
    addon_chips = res.addons * 2 * STACK    # home-roberts: twice the starting stack
    assert sum(bagged["bags"].values()) == (PLAYERS + seen["rebuys"]) * STACK + addon_chips \
        == seen["bought"]
    redraw = [e for e in events if e["kind"] == "seated" and e["reason"] == "redraw"]
    assert sorted(e["player"] for e in redraw) == sorted(bagged["bags"])

    # the exported results against the independent calculation
    out = subprocess.run([sys.executable, "-m", "kiosk", "results", "--db",
                          str(director.db), "--json"], capture_output=True, text=True,
                         timeout=60, check=True)
    data = json.loads(out.stdout)
    entries = PLAYERS + res.rebuys
    assert data["entries"] == entries
    assert data["addons"] == res.addons
    assert data["prize_pool"] == (entries + res.addons) * BUY_IN
    assert data["bounty_pool"] == entries * BOUNTY
    rows = data["results"]
    assert sorted(r["place"] for r in rows) == list(range(1, PLAYERS + 1))
    prizes = expected_prizes(entries, res.addons)
    assert [r["prize"] for r in rows[:4]] == [*prizes, 0]
    assert sum(r["prize"] for r in rows) == data["prize_pool"]
    won, head = expected_bounties(res.knockouts)
    assert {r["player"]: r["bounty"] for r in rows if r["bounty"]} == won
    winner = rows[0]["player"]
    assert data["winner_keeps"] == head[winner]
    assert sum(won.values()) + head[winner] == data["bounty_pool"]
    assert all(r["eliminated_by"] for r in rows[1:])
    csv_out = subprocess.run([sys.executable, "-m", "kiosk", "results", "--db",
                              str(director.db), "--site"], capture_output=True, text=True,
                             timeout=60, check=True).stdout.splitlines()
    assert csv_out[0] == "place,name,prize,country"
    assert csv_out[1].startswith(f"1,{rows[0]['name']},{prizes[0]}")
    assert len(csv_out) == 1 + len(SHARES)
