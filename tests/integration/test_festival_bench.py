"""bench/festival_bench.py's contract, small: a flight in sections played to its winner
through a real Mosquitto and a director process, every table on its own connection, and
every key the issue asks for printed as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench" / "festival_bench.py"
KEYS = {"tables", "sections", "report_ack_p50_ms", "report_ack_p99_ms",
        "level_change_all_tables_ms", "dashboard_update_p99_ms", "director_rss_mb",
        "log_events", "replay_s", "lost_acked", "places_complete"}


def test_a_small_flight_plays_to_its_winner_and_loses_nothing_acknowledged() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--entrants", "45", "--sections", "6",
                           "--level-seconds", "3", "--json"], capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert set(out) >= KEYS
    assert (out["tables"], out["sections"]) == (7, 6)
    assert out["places_complete"] is True and out["lost_acked"] == 0 and out["winner"]
    assert 0 < out["report_ack_p50_ms"] <= out["report_ack_p99_ms"]
    assert isinstance(out["level_change_all_tables_ms"], float), out
    assert out["log_events"] > 45 and out["replay_s"] < 5
