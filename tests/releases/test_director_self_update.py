"""The directors update themselves as processes, on a real PostgreSQL and Mosquitto,
while four table kiosks deal: a tampered release is refused by both, a broken one rolls
back on the standby and the leader never hands over to it, a good one goes to the
standby first, then the leader hands over, with no report lost; alone, the leader
switches at once (bench/director_update_bench.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[2] / "bench" / "director_update_bench.py"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_directors_update_standby_first_and_hand_over_losing_nothing(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(BENCH), "--tables", "4", "--json", "--keep",
                        str(tmp_path / "room")], capture_output=True, text=True, timeout=880)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    # tampered: refused by both directors, with the reason; nobody switched
    assert got["tampered_exit"] == 1 and "wrong hash" in got["tampered_said"]
    assert got["tampered_switched"] == 0
    # broken: the standby took it and went back by itself; the leader stayed
    assert got["broken_exit"] == 1 and "rolled back" in got["broken_said"]
    assert got["broken_rolled_back"] == 1 and got["broken_leader_switched"] == 0
    # good: standby first, then the hand-over; both on the new version at the end
    assert got["good_exit"] == 0 and got["standby_first"]
    assert sorted(got["directors_after"]) == [["leader", got["good"], "current"],
                                              ["standby", got["good"], "current"]]
    assert got["leaders"] >= 2 and got["leaderless_max_s"] < 5
    # the tables dealt all along and every report is in the log
    assert got["reports"] > 8 and got["reports_lost"] == 0
    # alone: the leader switched at once, a short stop
    assert got["alone_exit"] == 0 and 0 < got["alone_leaderless_s"] < 60
