"""bench/dealer_bench.py's contract, small: a day of pushes through the director, every
count of trouble zero, the pushes on time and the roadmap folded again the same; under
TDA 2024 no push in the 90 s before a level change or break (RP-7), where TDA 2017,
which the events created under it keep, pushes through them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from kiosk.rules.loader import load_profile

BENCH = Path(__file__).parents[3] / "bench" / "dealer_bench.py"


def _bench(profile: str, seed: int) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, str(BENCH), "--tables", "16", "--dealers", "20",
                           "--hours", "4", "--seed", str(seed), "--profile", profile,
                           "--json"], capture_output=True, text=True, timeout=600,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out: dict[str, Any] = json.loads(proc.stdout)
    assert out["profile"] == profile
    return out


def _nothing_goes_wrong(out: dict[str, Any], hold: float) -> None:
    assert out["pushes"] > 50
    assert out["pushes_mid_hand"] == 0 and out["mid_hand_pushes_refused"] > 0
    # a push held before a level change keeps its relief there: the hold on top
    assert out["push_delay_p99_s"] <= out["hand_p99_s"] + 90 + hold, out
    assert out["max_down_within_one_hand"], out
    assert out["dealers_without_break"] == 0 and out["tables_without_dealer_s"] == 0
    assert out["early_outs_out_of_order"] == 0 and out["staff_share_mismatch_cents"] == 0
    assert out["replay_identical"] is True


def test_a_small_room_pushes_on_time_and_nothing_goes_wrong() -> None:
    out = _bench("tda-2017", 2)
    _nothing_goes_wrong(out, 0)
    # TDA 2017 as built holds no push before a level change: the count can see them
    assert out["pushes_in_hold_window"] > 0 and out["pushes_held_back"] == 0


def test_under_tda_2024_no_push_lands_in_the_hold_before_a_level_change() -> None:
    hold = load_profile("tda-2024").dealing.push_hold_seconds
    assert hold == 90
    out = _bench("tda-2024", 1)
    _nothing_goes_wrong(out, hold)
    # reliefs came in the hold and were sent back to push after it
    assert out["pushes_in_hold_window"] == 0 and out["pushes_held_back"] > 0
