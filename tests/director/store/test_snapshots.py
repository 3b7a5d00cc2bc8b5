"""Snapshots: the same state as a full replay, and ignored when the rules code changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.core.event.tournament import Tournament
from kiosk.director.log import snapshots
from kiosk.director.log.store import EventLog
from kiosk.sim.engine import Simulator


def played(players: int = 300) -> list[dict]:
    sim = Simulator(players, seed=5)
    events = [sim.tour.config]
    orig = sim.tour.execute

    def capture(cmd: dict, t: float) -> list[dict]:
        evs = orig(cmd, t)
        events.extend(evs)
        return evs

    sim.tour.execute = capture  # type: ignore[method-assign]
    sim.run()
    return events


def digest(t: Tournament) -> tuple:
    return (sorted((p.id, p.status, p.table, p.seat, p.moves, p.chips_bought)
                   for p in t.players.values()),
            sorted((n, sorted(x.seat_of.items()), x.hand, x.broken) for n, x in t.tables.items()),
            t.places(), t.clock, t.stats, sorted(t.balancer.count.items()), t.alive,
            sorted(t.seen_reports))


def test_snapshot_plus_tail_equals_a_full_replay_and_decides_alike(tmp_path: Path) -> None:
    events = played()
    cut = len(events) * 2 // 3
    log = EventLog(tmp_path / "e.db")
    log.append(events[:cut])
    snaps = snapshots.Snapshots(log)
    snaps.save(Tournament.replay(log.read()))
    log.append(events[cut:])
    from_snapshot = snaps.load()
    full = Tournament.replay(log.read())
    assert digest(from_snapshot) == digest(full)
    # and both go on to make the same decision from here
    pid = next(p for p in full.players.values() if p.status == "busted").id
    cmd = {"kind": "unbust", "player": pid}
    assert full.execute(cmd, 1e9) == from_snapshot.execute(cmd, 1e9)


def test_a_snapshot_from_other_code_is_ignored(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    events = played(60)
    log = EventLog(tmp_path / "e.db")
    log.append(events)
    snaps = snapshots.Snapshots(log)
    broken = Tournament.replay(log.read())
    broken.alive = -1                     # a state no replay could produce
    snaps.save(broken)
    assert snaps.load().alive == -1       # same code: the snapshot is used
    monkeypatch.setattr(snapshots, "code_version", lambda: "other-rules")
    assert snaps.load().alive == Tournament.replay(log.read()).alive == 1
