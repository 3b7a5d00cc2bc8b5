"""`pokerkiosk sim`: whole tournaments through the core under every profile."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from core_kit import PROFILES

from kiosk.rules.loader import load_profile
from kiosk.sim.engine import Simulator

KEYS = {"players", "profile", "seed", "hands", "levels_reached", "tables_max",
        "moves_balance", "moves_break", "halts", "max_spread_at_hand_start",
        "moved_skipped_bb", "moved_bb_twice", "places", "invariant_violations",
        "replay_identical"}


def _sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", "sim", *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("profile", PROFILES)
def test_thousand_players_reach_a_winner(profile: str) -> None:
    proc = _sim("--players", "1000", "--seed", "1", "--json", "--profile", profile)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) >= KEYS
    assert out["profile"] == profile and out["players"] == 1000 and out["seed"] == 1
    assert out["invariant_violations"] == 0 and out["replay_identical"] is True
    assert len(out["places"]) == 1000 == len(set(out["places"]))
    assert out["tables_max"] == 112 and out["hands"] > 1000
    if load_profile(profile).balance.mode == "tda":
        assert out["max_spread_at_hand_start"] <= 2
    # same seed, byte-identical output
    assert _sim("--players", "1000", "--seed", "1", "--json", "--profile",
                profile).stdout == proc.stdout


def test_other_seed_other_tournament() -> None:
    a = Simulator(200, seed=1, structure="turbo").run()
    b = Simulator(200, seed=2, structure="turbo").run()
    assert a.places != b.places and a.invariant_violations == b.invariant_violations == 0


@pytest.mark.parametrize("bad", ["1", "0", "-5", "many"])
def test_bad_players_is_one_error_line(bad: str) -> None:
    proc = _sim("--players", bad, "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    errors = [ln for ln in proc.stderr.splitlines() if "error" in ln]
    assert len(errors) == 1 and "--players" in errors[0]


def test_human_summary() -> None:
    proc = _sim("--players", "60", "--seed", "4", "--structure", "turbo")
    assert proc.returncode == 0
    assert "60 players" in proc.stdout and "invariant violations 0" in proc.stdout


def test_simulator_moves_close_to_unavoidable() -> None:
    res = Simulator(1000, seed=1).run()
    moves = res.moves_balance + res.moves_break
    assert res.invariant_violations == 0
    assert moves <= 1.10 * res.moves_unavoidable
    assert res.decision_times and len(res.decision_times) == len(res.decision_tables)


@pytest.mark.parametrize("kind", ["register", "reenter"])
def test_a_player_the_floor_sells_a_seat_mid_run_is_dealt_in(kind: str) -> None:
    """The floor registers a newcomer (or re-enters a busted player) while the tables
    deal: the simulator deals them in with the stack the tournament sold them."""
    sim = Simulator(60, seed=3, structure="turbo")
    sold: list[str] = []

    def floor(t: float) -> None:
        if sold or t < 600 or (kind == "reenter" and not sim.out):
            return
        fields = {"name": "Late Comer"} if kind == "register" else {"player": min(sim.out)}
        evs = sim.send(kind, t, fields)
        sold.append(next(e["player"] for e in evs if e["kind"] == "seated"))

    sim.pace = floor
    res = sim.run()
    assert sold, "the floor sold a seat during play"
    assert res.invariant_violations == 0, res.violations
    assert res.late_entries == 1
    assert len(res.places) == 60 + (kind == "register") and sold[0] in res.places
    assert sim.tour is not None
    newcomer = sim.tour.players[sold[0]]
    assert newcomer.bust_hand is not None or res.places[0] == sold[0], \
        "the newcomer played until out (or won)"


def _clock_guard(sim: Simulator) -> None:
    """A frozen event shows as simulated time running on with no hand dealt: stop there."""
    assert sim.tour is not None
    if sim.now - sim.start > 48 * 3600:
        c = sim.tour.clock
        raise AssertionError(f"no winner after 48 h of play: clock in period {c.period}, "
                             f"paused with {c.paused_remaining} s left")


def test_hand_for_hand_through_a_break_reaches_a_winner() -> None:
    """The floor plays hand-for-hand from 30 players left to 21 (turbo): a run-off carries
    the clock into the break after level 6, the break runs its five minutes while the
    tables wait in simulated time, and level 7 then waits for its first hand."""
    sim = Simulator(40, seed=1, structure="turbo")
    clocks: list[tuple[bool, int, float | None]] = []
    real = sim.execute

    def execute(cmd: Any, t: float) -> list[Any]:
        evs = real(cmd, t)
        clocks.extend((sim.tour.h4h_on, e.clock["period"], e.clock["paused_remaining"])
                      for e in evs if e.kind == "clock_set")
        return evs

    def floor(t: float) -> None:
        _clock_guard(sim)
        tour = sim.tour
        if not tour.h4h_on and 21 < tour.alive <= 30 and not tour.h4h_round:
            sim.send("h4h", t, {"on": True})
        elif tour.h4h_on and tour.alive <= 21:
            sim.send("h4h", t, {"on": False})

    sim.execute = sim.field.execute = execute   # type: ignore[method-assign]
    sim.pace = floor
    res = sim.run()
    assert res.invariant_violations == 0, res.violations
    assert len(res.places) == 40
    assert sim.structure.periods[6].is_break
    in_h4h = [(period, left) for on, period, left in clocks if on]
    assert (6, None) in in_h4h, "the break came during hand-for-hand and ran"
    assert (7, 600.0) in in_h4h, "level 7 waited, in full, for its first hand"
    assert not any(sim.structure.periods[p].is_break and left is not None
                   for _, p, left in clocks), "a break was never stopped"


def test_a_break_the_floor_stops_holds_the_tables_without_spinning() -> None:
    """The floor stops the clock in a break and nobody starts it again: the dealers give
    up with a violation instead of waiting for the same moment over and over."""
    sim = Simulator(40, seed=1, structure="turbo")

    def floor(t: float) -> None:
        _clock_guard(sim)
        tour = sim.tour
        reading = tour.clock.read(tour.structure, t)
        if tour.structure.periods[reading.period].is_break and not reading.paused:
            sim.send("clock", t, {"action": "pause"})

    sim.pace = floor
    res = sim.run()
    assert res.violations[0] == "tournament ended without a winner"
    assert sim.tour.clock.paused and sim.tour.clock.period == 6
    assert sim.now - sim.start < 3 * 3600


def test_the_default_profile_is_tda_2024() -> None:
    """`pokerkiosk sim` with no --profile plays the default for new events."""
    proc = _sim("--players", "60", "--seed", "2", "--structure", "turbo", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["profile"] == "tda-2024" and out["invariant_violations"] == 0
    assert len(out["places"]) == 60
    assert out["replay_identical"] is True     # folded again from its own events


def test_a_replay_that_lost_an_event_is_told_apart() -> None:
    """The sim's replay check compares what people saw: a log missing one bust differs."""
    from kiosk.commands.sim import replays_identically
    from kiosk.core.model.events import Busted

    sim = Simulator(40, profile="tda-2024", seed=3, structure="turbo")
    sim.log = []
    sim.run()
    assert replays_identically(sim)
    assert sim.log is not None
    first = next(i for i, ev in enumerate(sim.log) if isinstance(ev, Busted))
    del sim.log[first]
    assert not replays_identically(sim)
