"""Chaos over a real Mosquitto and a real PostgreSQL (a private cluster, so it can be
restarted): two director processes, a tournament played by virtual tables, the leader
killed with SIGKILL again and again, frozen with SIGSTOP and woken after the standby took
over, the database restarted twice. The log must equal the fault-free reference."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness.failover import Plan, rehearse
from waiting import PROMPT_S


@pytest.mark.slow
def test_kills_a_zombie_and_database_restarts_lose_and_double_nothing(tmp_path: Path) -> None:
    got = rehearse(Plan(kills=3, zombies=1, pg_restarts=2), private=True, work=tmp_path)
    assert (got["kills"], got["zombies"], got["pg_restarts"]) == (3, 1, 2), got
    assert got["places_identical"] and got["decisions_identical"], got
    assert got["lost_acked"] == 0 and got["applied_twice"] == 0, got
    assert got["zombie_writes"] == 0 and got["zombies_stepped_down"] == 1, got
    assert got["takeover_p99_s"] < PROMPT_S, got
    assert got["invariant_violations"] == 0 and got["rejected"] == 0, got
