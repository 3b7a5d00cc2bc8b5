"""bench/players_bench.py's contract, small: every phone gets every bust, as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench" / "players_bench.py"


def test_every_phone_hears_every_bust() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--phones", "60", "--players", "40",
                           "--busts", "3", "--json"], capture_output=True, text=True,
                          timeout=120, check=False)
    out = json.loads(proc.stdout)
    assert out["updates"] == 60 * 3 and out["missing"] == 0, proc.stderr
    assert 0 < out["p50_ms"] <= out["p99_ms"] <= out["max_ms"]
    assert out["update_bytes_median"] < out["first_message_bytes"]   # changes, not all
    assert proc.returncode == (0 if out["p99_ms"] < 200 else 1)
