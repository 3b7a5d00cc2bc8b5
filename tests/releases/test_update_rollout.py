"""The whole rollout, as processes: a real Mosquitto, a director and eight table kiosks
under their supervisors, dealing all along (bench/update_bench.py, on eight tables)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[2] / "bench" / "update_bench.py"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_eight_tables_refuse_a_tampered_release_roll_back_a_broken_one_then_update(
        tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(BENCH), "--tables", "8", "--json", "--keep",
                        str(tmp_path / "room")], capture_output=True, text=True, timeout=880)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    # the tampered release: refused everywhere, with the reason, the old version running
    assert got["refused"] == 8 and "wrong hash" in got["refused_reason"]
    # the broken one: every table took it, and went back by itself
    assert got["rolled_back"] == 8 and "exited" in got["rolled_back_reason"]
    # the good one, to tables 1-4 first: the room then deals on two versions, tables 5-8
    # untouched, and both halves' reports reach the director
    assert got["first_tables"] == 4 and len(got["mixed_versions"]) == 2
    assert got["mixed_others_untouched"]
    assert got["mixed_reports_new"] > 0 and got["mixed_reports_old"] > 0
    assert got["mixed_reports_lost"] == 0
    # then every table runs it, each switch between hands with an empty outbox
    assert got["updated"] == 8
    assert got["switches"] == 16
    assert got["switches_mid_hand"] == 0 and got["switches_with_reports_waiting"] == 0
    assert got["reports"] > 8 and got["reports_lost"] == 0
    # each table came back on its own (the downtime's figure is the bench's to report)
    assert 0 < got["table_downtime_p99_s"] < 120
