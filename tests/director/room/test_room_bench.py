"""bench/room_bench.py's contract, on a small room: four events at once, the satellite's
seats registered in its target, a Day 2 from two flights, a freed table serving another
event, the director rebuilt from its log mid-way, and every event's places the same as a
run of the same seeds without the kill."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[3] / "bench" / "room_bench.py"
KEYS = {"concurrent_events", "tables_reassigned", "satellite_seats_issued", "day2_entrants",
        "director_kills", "places_identical", "lost_acked", "report_to_plan_p99_ms"}


def test_a_killed_room_ends_every_event_as_the_reference_run() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--entrants", "60", "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) >= KEYS
    assert out["concurrent_events"] == 4 and out["director_kills"] == 1
    assert out["places_identical"] is True and out["lost_acked"] == 0
    assert out["events_compared"] == ["d1a", "d1b", "daily", "day2", "main", "sat"]
    # 60 entrants at 100: 6,000 in the satellite's pool, seats of 1,000
    assert out["satellite_seats_issued"] == 6 == out["main_entrants"]
    assert 2 <= out["day2_entrants"] <= 2 * 15
    assert out["tables_reassigned"] >= 1
