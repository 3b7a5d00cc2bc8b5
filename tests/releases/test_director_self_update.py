"""The directors update themselves as processes, on a real PostgreSQL and Mosquitto,
while four table kiosks deal: a tampered release is refused by both, a broken one rolls
back on the standby and the leader never hands over to it, a good one goes to the
standby first, then the leader hands over, with no report lost; alone, the leader
switches at once (bench/director_update_bench.py). A director that cannot update itself
(no --update-root) says so, and the command stops on it instead of waiting."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from release_helpers import fake_wheel, keys
from waiting import PROMPT_S

from kiosk.releases.store import ReleaseStore

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
    assert got["leaders"] >= 2 and got["leaderless_max_s"] < PROMPT_S
    # the tables dealt all along and every report is in the log
    assert got["reports"] > 8 and got["reports_lost"] == 0
    # alone: the leader switched at once, a short stop
    assert got["alone_exit"] == 0 and 0 < got["alone_leaderless_s"] < 60


def test_a_director_without_an_update_root_says_it_cannot_and_the_command_stops(
        tmp_path: Path, pg_dsn: str, director_factory) -> None:
    """Run by hand (no supervisor, no A/B folder), the leader answers the command with
    why it cannot switch; the command names it and stops at once rather than printing
    "no director reports yet" until its timeout."""
    d = director_factory(db=pg_dsn).start(start_event=False)
    private, _public = keys(tmp_path)
    store = tmp_path / "releases"
    ReleaseStore(store).add(fake_wheel(tmp_path / "wheels", "9.9.1"), private)
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "kiosk", "release", "self-update", "9.9.1",
                        "--config", str(d.config), "--dir", str(store), "--key", str(private),
                        "--timeout", "60"], capture_output=True, text=True, timeout=90)
    said = r.stdout + r.stderr
    assert r.returncode == 1, said
    assert "self-update stopped: leader " in said and "cannot update itself" in said, said
    assert "started without --update-root" in said and "install 9.9.1 on it by hand" in said
    assert time.monotonic() - started < 30, said            # not the command's timeout
    assert "Traceback" not in said
    assert "self-update: cannot update" in d.log_text()     # its own log says it too
