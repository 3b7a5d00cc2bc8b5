"""The room end to end: the director as a process over a real Mosquitto, 32 virtual tables,
four events at once (a satellite feeding a main event, two flights merging into a Day 2, a
daily), a freed table given to another event, the floor acting on the dashboard's API, and
the director killed with SIGKILL mid-way and started again. Every event ends with the places
of an in-process run of the same seeds (bench/room_bench.py, without the kill), and no
report a table saw acknowledged is missing from the log."""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.error
from collections.abc import Callable
from pathlib import Path
from typing import Any

from director_process import DirectorProcess
from floor_client import FloorClient
from waiting import wait_for

from kiosk.config.room import load_director_config
from kiosk.core.event.results import results
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.commands import AnyTableReport
from kiosk.director.log.store import Store
from kiosk.director.service import Director
from kiosk.mqtt.broker import Mosquitto
from kiosk.mqtt.client import make_client
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

sys.path.insert(0, str(Path(__file__).parents[3] / "bench"))
import room_bench as rb

ENTRANTS, TABLES = 72, 32          # four events of eight 9-max tables fill the room
ROOM = "bench-room"
USER, PASSWORD = "td", "room-e2e-floor"
KILL_AFTER = 1500                  # acknowledged reports before the SIGKILL


class Floor:
    """The floor at the dashboard's API; it holds `lock` while it acts, so the SIGKILL
    never cuts one of its requests in half (each is answered before the next step)."""

    def __init__(self, director: DirectorProcess) -> None:
        self.director = director
        self.lock = threading.Lock()
        self.client = self._login()
        self.ended: set[str] = set()
        self.bagged: set[str] = set()
        self.kills = 0

    def _login(self) -> FloorClient:
        return wait_for(lambda: _answer(lambda: FloorClient(
            f"http://127.0.0.1:{self.director.http_port}/", USER, PASSWORD)), timeout=20)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            return self.client.post(path, body)

    def act(self, event: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.post(f"api/act?event={event}", body)

    def kill_and_restart(self, sent: Callable[[], int]) -> None:
        """kill -9, and a new director once the tables have sent a report the dead one
        could not acknowledge (`sent`: the reports they sent so far)."""
        with self.lock:
            self.director.kill9()
            before = sent()
            wait_for(lambda: sent() > before)
            self.director.start(start_event=False)
            self.client = self._login()
            self.kills += 1


def _answer(call: Any) -> Any:
    try:
        return call()
    except (urllib.error.URLError, ConnectionError):
        return None


class Directory:
    """The room's retained events directory: which tables serve an event now."""

    def __init__(self, mosquitto: Mosquitto) -> None:
        self.body: dict[str, Any] = {}
        self.client = make_client(f"e2e-directory-{time.monotonic_ns()}", mosquitto.config)
        self.client.on_connect = lambda c, *_: c.subscribe(f"pk/v2/{ROOM}/events", 1)
        self.client.on_message = lambda c, u, m: setattr(self, "body", json.loads(m.payload))
        self.client.connect(mosquitto.config.host, mosquitto.config.port)
        self.client.loop_start()

    def free(self) -> list[int]:
        busy = {t for e in self.body.get("events", ()) for t in e["tables"]}
        return sorted(set(range(1, TABLES + 1)) - busy)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class EventTables(MqttField):
    """One event's virtual tables; a flight's day ends, is counted and bagged through the
    floor; a Day 2's players bring their bags; every acknowledged report is remembered."""

    def __init__(self, mosquitto: Mosquitto, event: str, floor: Floor,
                 bags: dict[str, int]) -> None:
        super().__init__(mosquitto.config, event, client_id=f"e2e-{event}", room=ROOM,
                         resend_every=1.0, ack_timeout=60)
        self.floor, self.bags = floor, bags
        self.acked_at: set[tuple[int, str]] = set()   # (table, id): ids are per table

    def bought(self, player: str) -> int | None:
        """A Day 2 player sits down with the chips in his bag (the plans carry no stacks)."""
        return self.bags.get(player) if self.event == "day2" else None

    def report(self, rep: AnyTableReport, t: float) -> bool:
        accepted = super().report(rep, t)
        self.acked_at.add((rep.table, rep.id))
        return accepted

    def finished(self) -> bool:
        if self.event in rb.FLIGHTS:
            return self.event in self.floor.bagged
        return super().finished()

    def idle(self) -> bool:
        """Every table holds: a flight bags once every table has counted."""
        if self.event in rb.FLIGHTS and self.event in self.floor.ended \
                and self.floor.act(self.event, {"kind": "bag", "accept_difference": True})["ok"]:
            self.floor.bagged.add(self.event)
            return True
        return super().idle()

    def seated(self) -> int:
        return sum(len(self.seats(t)) for t in self.tables())


class Room:
    """The dealers of every event, each in its own thread, and the floor's steps between
    hands, as the bench takes them."""

    def __init__(self, mosquitto: Mosquitto, floor: Floor) -> None:
        self.mosquitto, self.floor = mosquitto, floor
        self.fields: dict[str, EventTables] = {}
        self.threads: list[threading.Thread] = []
        self.errors: list[BaseException] = []
        self.directory = Directory(mosquitto)
        self.moved: list[int] = []
        self.bags: dict[str, int] = {}     # player -> the largest stack a flight bagged
        self.day2 = threading.Lock()

    def play(self, event: str) -> None:
        field = self.fields[event] = EventTables(self.mosquitto, event, self.floor, self.bags)

        def deal() -> None:
            try:
                field.wait_ready(30)
                wait_for(lambda: field.tables() and field.seated()
                         == field.schedule.get("players_left"), timeout=30)
                n = field.seated()
                sim = Simulator(n, profile="tda-2017", structure="turbo",
                                seed=rb.sim_seed(event), field=field, idle_timeout=60,
                                report_prefix=f"{event}-",
                                pace=lambda t: self.step(event, sim, n))
                sim.run()
                if event in rb.FLIGHTS:
                    for pid, chips in sim.chips.items():
                        if chips and pid not in sim.out:
                            self.bags[pid] = max(chips, self.bags.get(pid, 0))
                self.over(event)
            except BaseException as exc:
                self.errors.append(exc)

        th = threading.Thread(target=deal, name=f"e2e-{event}", daemon=True)
        self.threads.append(th)
        th.start()

    def step(self, event: str, sim: Simulator, n: int) -> None:
        """Before each hand end: a flight down to its survivors ends its day."""
        if event in rb.FLIGHTS and event not in self.floor.ended \
                and n - len(sim.out) <= rb.survivors(ENTRANTS):
            assert self.floor.act(event, {"kind": "end_day"})["ok"]
            self.floor.ended.add(event)

    def over(self, event: str) -> None:
        if event == "sat":    # the main event opens; a table the satellite gave back joins it
            assert self.floor.post("api/room/act", {"kind": "set_event_state",
                                                    "event": "main", "state": "open"})["ok"]
            free = wait_for(lambda: self.directory.free(), timeout=10)
            answer = self.floor.post("api/room/act", {"kind": "assign_table",
                                                      "table": free[0], "event": "main"})
            assert answer["ok"], answer
            self.moved.append(free[0])
        with self.day2:
            if event in rb.FLIGHTS and set(rb.FLIGHTS) <= self.floor.bagged \
                    and "day2" not in self.fields:
                answer = self.floor.post("api/room/events", rb.DAY2)
                assert answer["ok"], answer
                assert self.floor.act("day2", {"kind": "start"})["ok"]
                self.play("day2")

    def acked(self) -> int:
        return sum(len(f.acked_at) for f in list(self.fields.values()))

    def sent(self) -> int:
        """Reports the tables sent, re-sent ones included."""
        return sum(f.seq + f.resent for f in list(self.fields.values()))

    def wait(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while any(th.is_alive() for th in list(self.threads)) and time.monotonic() < end:
            for th in list(self.threads):
                th.join(0.2)
        assert not self.errors, self.errors
        assert not any(th.is_alive() for th in self.threads), "dealers still dealing"

    def close(self) -> None:
        for f in self.fields.values():
            f.close()
        self.directory.close()


def room_director(tmp_path: Path, mosquitto: Mosquitto) -> DirectorProcess:
    """`pokerkiosk director --config room.toml`, its four events' fields registered and
    started first in the same log (the bench's own setup, for the same player ids)."""
    proc = DirectorProcess(tmp_path, mosquitto, web=True, floor_users={USER: PASSWORD})
    proc.config = tmp_path / "room.toml"
    proc.config.write_text(rb.room_toml(ENTRANTS, TABLES, head=(
        f'[broker]\nurl = "mqtt://127.0.0.1:{mosquitto.port}"\n\n'
        f'[director]\ndb = "event.db"\nhttp = "127.0.0.1:{proc.http_port}"\n')))
    d = Director(load_director_config(proc.config))
    rb.open_events(d, ENTRANTS)
    d.store.close()
    return proc


def logged(db: Path) -> tuple[dict[str, list[tuple[int, str]]], set[tuple[int, str]], int]:
    """Every event's places, every applied report, main's entrants, from the log."""
    store = Store(db)
    try:
        tours = {name: Tournament.replay(store.read(name)) for name in store.event_streams()}
    finally:
        store.close()
    places = {name: sorted((r["place"], r["player"]) for r in results(t)
                           if r["place"] is not None) for name, t in tours.items()}
    seen = {key for t in tours.values() for key in t.seen_reports}
    return places, seen, len(tours["main"].players)


def test_a_room_of_four_events_survives_a_sigkill_with_the_reference_places(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    reference = rb.run(ENTRANTS, kill=False, tables=TABLES)
    director = room_director(tmp_path, mosquitto).start(start_event=False)
    floor = Floor(director)
    room = Room(mosquitto, floor)
    try:
        for event in rb.RUNNING:
            room.play(event)
        wait_for(lambda: room.acked() >= KILL_AFTER or room.errors, timeout=60)
        assert not room.errors, room.errors
        running = [e for e, f in room.fields.items() if not f.finished()]
        assert len(running) == 4, "the kill comes while all four events deal"
        floor.kill_and_restart(room.sent)
        room.wait(timeout=75)
        rejected = {rid for f in room.fields.values() for rid in f.rejected}
        acked = {key for f in room.fields.values() for key in f.acked_at
                 if key[1] not in rejected}
    finally:
        room.close()
        director.stop()
    places, seen, main_entrants = logged(director.db)
    assert floor.kills == 1 and director.log_text().count("replayed") >= 1
    assert sorted(places) == sorted(reference["places"]) == \
        ["d1a", "d1b", "daily", "day2", "main", "sat"]
    for event, ranked in reference["places"].items():
        assert places[event] == ranked, f"{event}: places differ from the reference"
    assert acked - seen == set(), "acknowledged reports missing from the log"
    assert main_entrants == reference["main_entrants"] > 0    # satellite seats, registered
    assert room.moved and len(room.fields["day2"].acked_at) > 0
