"""bench/dealer_bench.py's contract, small: a day of pushes through the director, every
count of trouble zero, the pushes on time and the roadmap folded again the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench" / "dealer_bench.py"


def test_a_small_room_pushes_on_time_and_nothing_goes_wrong() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--tables", "16", "--dealers", "20",
                           "--hours", "4", "--seed", "2", "--json"], capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["pushes"] > 50
    assert out["pushes_mid_hand"] == 0 and out["mid_hand_pushes_refused"] > 0
    assert out["push_delay_p99_s"] <= out["hand_p99_s"] + 90, out
    assert out["max_down_within_one_hand"], out
    assert out["dealers_without_break"] == 0 and out["tables_without_dealer_s"] == 0
    assert out["early_outs_out_of_order"] == 0 and out["staff_share_mismatch_cents"] == 0
    assert out["replay_identical"] is True
