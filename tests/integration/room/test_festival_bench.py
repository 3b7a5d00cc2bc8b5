"""bench/festival_bench.py's contract, small: a flight in sections played to its winner
through a real Mosquitto and a director process, every table on its own connection, and
every key the issue asks for printed as JSON."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from kiosk.core.model.events import Busted

BENCH = Path(__file__).parents[3] / "bench" / "festival_bench.py"
KEYS = {"tables", "sections", "report_ack_p50_ms", "report_ack_p99_ms",
        "level_change_all_tables_ms", "dashboard_update_p99_ms", "director_rss_mb",
        "log_events", "replay_s", "lost_acked", "places_complete"}


def test_a_small_flight_plays_to_its_winner_and_loses_nothing_acknowledged() -> None:
    """In a room of three languages, each table speaking one and each entrant keeping
    one: the same flight, the same checks."""
    proc = subprocess.run([sys.executable, str(BENCH), "--entrants", "45", "--sections", "6",
                           "--level-seconds", "1", "--languages", "de,cs,zh-CN", "--json"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert set(out) >= KEYS and out["languages"] == ["de", "cs", "zh_Hans"]
    assert (out["tables"], out["sections"]) == (7, 6)
    assert out["places_complete"] is True and out["lost_acked"] == 0 and out["winner"]
    assert 0 < out["report_ack_p50_ms"] <= out["report_ack_p99_ms"]
    assert isinstance(out["level_change_all_tables_ms"], float), out
    assert out["log_events"] > 45 and out["replay_s"] < 5


def test_an_unknown_language_is_refused_before_the_room_opens() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--entrants", "45", "--sections", "6",
                           "--languages", "de,klingon"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert proc.returncode == 2 and "--languages: unknown language 'klingon'" in proc.stderr


def bench_module() -> Any:
    spec = importlib.util.spec_from_file_location("festival_bench", BENCH)
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(BENCH.parent))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH.parent))
    return module


def out(player: str, hand: int, stack: int) -> Busted:
    return Busted(t=0.0, player=player, table=4, seat=1, hand=hand, stack=stack,
                  group=["hand", 4, hand])


def test_the_bench_takes_a_tie_as_a_shared_place_and_nothing_else() -> None:
    """Two players out of one hand from equal stacks share 3rd (TDA), and 5th follows;
    a shared place that is no such tie, or a gap, fails the bench's check."""
    check = bench_module()._places_check
    busted = {"a": out("a", 9, 20000), "b": out("b", 9, 20000), "c": out("c", 8, 500),
              "d": out("d", 10, 20000), "e": out("e", 10, 31000)}
    tie = {"w": 1, "d": 2, "a": 3, "b": 3, "c": 5}
    assert check(tie, busted, 5) == {"places_complete": True, "places_shared": 1,
                                     "false_ties": []}
    no_tie = {"w": 1, "d": 3, "e": 3, "c": 5, "a": 2}        # unequal stacks
    assert check(no_tie, busted, 5)["false_ties"] == [3]
    gap = {"w": 1, "d": 2, "a": 3, "b": 4, "c": 6}
    assert check(gap, busted, 5)["places_complete"] is False
