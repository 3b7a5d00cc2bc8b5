"""Hand-for-hand from the bubble into a break, over a real Mosquitto with the director as
a process: the run-off carries the clock into the break, the break runs on the director's
clock instead of stopping for good, and the simulated tables play on to a winner with no
floor help (the director starts the event itself and turns hand-for-hand on and off at
the bubble; nobody touches the clock).

The dealers' simulated time runs far ahead of the director's wall clock, so they never
wait out its five-minute break; the break's end (the next level stopped, in full, until
its first hand) is followed in simulated time in tests/core/clock/test_clock.py and
tests/core/tournament/test_sim.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from waiting import wait_for

from kiosk.core.calc.clock import Clock
from kiosk.core.event.results import results
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.events import ClockSet, Event, HandForHand, HandForHandGo
from kiosk.director.log.store import EventLog
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import load_structure_file
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

# Level 1 lasts two minutes of the director's clock: when the bubble comes (well within
# the break after it, whatever the machine's speed) the clock is either less than one
# hand-for-hand run-off (TDA RP-8B: two minutes) from the break, or in it.
STRUCTURE = """name = "Bubble break"
start_stack = 10000

[[level]]
sb = 50
bb = 100
minutes = 2

[[level]]
break = 5
""" + "".join(f"""
[[level]]
sb = {sb}
bb = {2 * sb}
bb_ante = {2 * sb}
minutes = 30
""" for sb in (100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 4000, 6000, 8000,
               10000, 15000, 20000, 30000, 40000, 60000))

WALL_SECONDS = 240     # far more than the run takes; an event that stops waits for ever
SIM_HOURS = 100        # simulated play: a stopped clock makes the dealers' time run away


def _guard(sim: Simulator, deadline: float) -> None:
    """Called before every step of the dealers: a frozen event fails here, with the
    clock it froze on, instead of spinning for ever."""
    if time.monotonic() > deadline or sim.now - sim.start > SIM_HOURS * 3600:
        raise AssertionError(f"no winner: the director's clock is {sim.field.clock()}")


def _clock_story(log: list[Event], s: Structure) -> tuple[list[Clock], list[bool]]:
    """Every clock the director set, and for each hand-for-hand round whether it started
    while the director's clock was in a break."""
    clocks: list[Clock] = []
    clock, on, rounds = Clock.stopped(s), False, []
    for ev in log:
        if isinstance(ev, ClockSet):
            clock = Clock.from_dict(ev.clock)
            clocks.append(clock)
        elif isinstance(ev, HandForHand):
            on = ev.on
        elif isinstance(ev, HandForHandGo) and on:
            rounds.append(s.periods[clock.read(s, ev.t).period].is_break)
    return clocks, rounds


@pytest.mark.parametrize(("players", "money"), [
    (40, 'table = "percent"\npercent_paid = 50\n'),   # 20 paid: the bubble at 3 tables
    (150, ""),                                         # 23 paid: the bubble at 3 tables
])
def test_hand_for_hand_from_the_bubble_through_a_break_to_a_winner(
        mosquitto, director_factory, tmp_path: Path, players: int, money: str) -> None:
    path = tmp_path / "bubble-break.toml"
    path.write_text(STRUCTURE)
    structure = load_structure_file(path)
    director = director_factory(players=players, structure=str(path), seed=5,
                                extra_toml=f"[money]\nh4h_at_bubble = true\n{money}").start()
    field = MqttField(mosquitto.config, director.name, resend_every=1.0, ack_timeout=40)
    try:
        field.wait_ready()
        wait_for(lambda: sum(map(len, map(field.seats, field.tables()))) >= players)
        sim = Simulator(players, seed=5, structure=structure, field=field, idle_timeout=30)
        wall = time.monotonic() + WALL_SECONDS
        sim.pace = lambda t: _guard(sim, wall)
        res = sim.run()
    finally:
        field.close()
    director.stop()
    assert res.invariant_violations == 0, res.violations
    log = list(EventLog(str(director.db)).read())
    tour = Tournament.replay(log)
    assert tour.finished_at is not None and tour.alive == 1
    places = [r["place"] for r in results(tour)]
    assert len(places) == players and None not in places and places.count(1) == 1
    clocks, rounds = _clock_story(log, structure)
    assert any(rounds), "hand-for-hand rounds went on in the break"
    stopped = [c for c in clocks if c.paused and structure.periods[c.period].is_break]
    assert not stopped, f"the director stopped the clock in a break: {stopped}"
    assert "rejected" not in director.log_text()
