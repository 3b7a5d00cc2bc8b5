"""The demo's start, with its race made certain: an event's schedule reaches the broker
before its tables' plans, and the dealers that subscribe in between must still deal.

The room is the demo's own (its room.toml, players and start), its director real and
served over a real Mosquitto; only the satellite's plans are held back on the director's
loop until its dealers have started (they have its schedule by then), as a busy machine
does now and then.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from served import Served
from waiting import wait_for

from kiosk.config.room import load_director_config
from kiosk.demo import room as demo
from kiosk.director.service import Director
from kiosk.mqtt.broker import Mosquitto, free_port
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

LATE = 1.0     # seconds the satellite's plans follow its dealers' start


class DemoRoom:
    """The demo's room, its director served on a loop of its own; the satellite's plans
    are held on that loop until the test releases them (the rest goes out at once)."""

    def __init__(self, folder: Path, broker: Mosquitto) -> None:
        self.args = argparse.Namespace(players=27, profile="tda-2017", structure="turbo",
                                       hand_seconds=0.5, seed=1, kiosk=False, printer=None)
        folder.mkdir()
        path = demo._write_config(folder, self.args, broker.config.url, "127.0.0.1",
                                  free_port())
        self.d = Director(load_director_config(path))
        demo._open_room(self.d, folder)
        self.table = self.d.room.tables_of(demo.SATELLITE)[0]
        sat = self.d.publishing.of(self.d.events[demo.SATELLITE])
        self.on_time, self.held = sat.send_plan, list[int]()
        sat.send_plan = self.held.append   # type: ignore[method-assign]
        self.sat = sat
        self.served = Served(self.d)

    def release(self, after: float = 0.0) -> None:
        """The satellite's plans held so far go out `after` seconds from now, on the
        director's loop, and the later ones as they come."""
        def send() -> None:
            self.sat.send_plan = self.on_time   # type: ignore[method-assign]
            for table in self.held:
                self.on_time(table)
        self.served.loop.call_soon_threadsafe(self.served.loop.call_later, after, send)

    def hands(self) -> int:
        """Hands dealt at the satellite's table."""
        return self.d.events[demo.SATELLITE].tour.tables[self.table].hand

    def close(self) -> None:
        self.served.close()


@pytest.fixture
def room(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[DemoRoom]:
    r = DemoRoom(tmp_path / "demo", mosquitto)
    yield r
    r.close()


def test_the_demos_satellite_deals_when_its_plans_come_after_its_schedule(
        room: DemoRoom) -> None:
    """The demo's own dealers for the satellite start at once, as the demo starts them:
    they deal within the minute, and never call the satellite over."""
    stop, ended = threading.Event(), []
    dealers = threading.Thread(target=demo._deal, args=(room.d, room.args, demo.SATELLITE,
                                                        stop, ended.append), daemon=True)
    dealers.start()
    room.release(after=LATE)
    try:
        wait_for(lambda: ended or room.hands() >= 3, timeout=60)
        assert not ended, f"the satellite's dealers stopped with {ended} after " \
                          f"{room.hands()} hands, its tables unplayed"
        assert room.d.health == {}
    finally:
        stop.set()
        dealers.join(20)


def test_dealers_that_began_before_any_plan_deal_once_the_plans_come(
        room: DemoRoom, mosquitto: Mosquitto) -> None:
    """Dealers that stopped waiting for the plans (a director slower than their
    patience) wait for the event's tables, and deal at them when they come."""
    field = MqttField(mosquitto.config, demo.SATELLITE, room=room.d.config.name,
                      client_id="late-plans")
    stop = threading.Event()
    runner: threading.Thread | None = None

    def pace(t: float) -> None:   # the demo's: hands in the director's time
        while not stop.is_set() and room.d.now() < t:
            stop.wait(min(0.2, t - room.d.now()))
        if stop.is_set():
            raise SystemExit

    try:
        wait_for(lambda: field.schedule)
        field.wait_ready(0.0)
        assert field.tables() == []    # the schedule came, the plans did not
        tour = room.d.events[demo.SATELLITE].tour
        sim = Simulator(len(tour.players), profile=tour.profile.id, structure=tour.structure,
                        field=field, hand_seconds=0.5, pace=pace, start=room.d.now(),
                        idle_timeout=30, report_prefix="late-")

        def run() -> None:
            with contextlib.suppress(SystemExit):   # the test is over: the dealers stop
                sim.run()

        runner = threading.Thread(target=run, daemon=True)
        runner.start()
        room.release()
        wait_for(lambda: room.hands() >= 3 or not runner.is_alive(), timeout=60)
        assert room.hands() >= 3, sim.res.violations
    finally:
        stop.set()
        if runner is not None:   # a report in flight is acknowledged before the field closes
            runner.join(20)
        field.close()
