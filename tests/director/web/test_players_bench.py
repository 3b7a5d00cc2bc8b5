"""bench/players_bench.py's contract, small: every phone gets every bust, as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[3] / "bench" / "players_bench.py"


def test_every_phone_hears_every_bust() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--phones", "60", "--players", "40",
                           "--busts", "3", "--json"], capture_output=True, text=True,
                          timeout=120, check=False)
    out = json.loads(proc.stdout)
    assert out["updates"] == 60 * 3 and out["missing"] == 0, proc.stderr
    assert 0 < out["p50_ms"] <= out["p99_ms"] <= out["max_ms"]
    assert out["update_bytes_median"] < out["first_message_bytes"]   # changes, not all
    assert out["negative"] == 0
    assert proc.returncode == (0 if out["p99_ms"] < 250 else 1)


def test_a_phone_of_a_5000_field_gets_the_clock_and_a_page_not_the_field() -> None:
    """The first message of a phone stays under 20 KB however big the field (291 KB at
    5,000 players when it carried every player), and the bench checks so itself."""
    proc = subprocess.run([sys.executable, str(BENCH), "--phones", "40", "--players", "5000",
                           "--busts", "3", "--json"], capture_output=True, text=True,
                          timeout=300, check=False)
    out = json.loads(proc.stdout)
    assert out["first_message_bytes"] < 20_000 and out["missing"] == 0, proc.stderr
    assert out["negative"] == 0 and out["updates"] == 40 * 3
    assert "first message < 20,000 bytes: met" in proc.stderr


def test_phones_of_a_room_of_languages_each_get_their_page_and_the_same_feed() -> None:
    """Phones asking for German, Czech and Chinese: each is served its language, its
    first page under 20 KB, and every bust reaches every phone."""
    proc = subprocess.run([sys.executable, str(BENCH), "--phones", "30", "--players", "40",
                           "--busts", "2", "--languages", "de,cs,zh_Hans", "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    out = json.loads(proc.stdout)
    assert out["updates"] == 30 * 2 and out["missing"] == 0, proc.stderr
    assert sorted(out["first_page_bytes"]) == ["cs", "de", "zh_Hans"]
    assert all(0 < size < 20_000 for size in out["first_page_bytes"].values()), out
    assert "first page < 20,000 bytes in every language: met" in proc.stderr
