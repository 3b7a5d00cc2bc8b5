"""`pokerkiosk demo`: the whole room on one machine, with either broker."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from waiting import wait_for

from kiosk.config import load_table_config
from kiosk.table.service import TableService


def start_demo(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[bytes], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "demo.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "demo", "--http",
                                 "127.0.0.1:0", "--hand-seconds", "0.5", "--players", "27",
                                 "--dir", str(tmp_path / "demo"), *extra],
                                stdout=sink, stderr=subprocess.STDOUT, env=env)
    wait_for(lambda: "Ctrl-C" in out.read_text() or proc.poll() is not None)
    found = {m.group(1).strip(): m.group(2) for m in
             re.finditer(r"^(\w[\w ]*?)\s{2,}(\S+)", out.read_text(), re.M)}
    assert "dashboard" in found, out.read_text()
    return proc, found


def snapshot(url: str) -> dict:
    """The dashboard's snapshot, or {} while its server is still starting."""
    try:
        with urllib.request.urlopen(url + "api/snapshot", timeout=5) as r:
            return json.load(r)
    except urllib.error.URLError:
        return {}



def stop(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(20)


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_demo_runs_a_live_room(tmp_path: Path, broker: str) -> None:
    proc, found = start_demo(tmp_path, "--broker", broker)
    try:
        url = found["dashboard"]
        snap = wait_for(lambda: (s := snapshot(url)) and len(s["tables"]) == 3
                        and all(t["online"] and t["hand"] >= 3 for t in s["tables"]) and s)
        assert snap["summary"]["started"] and snap["summary"]["players_left"] <= 27
        # the simulated tables press CLOCK and FLOOR too: calls reach the floor's queue
        wait_for(lambda: (s := snapshot(url)) and s["calls"]["floor"] and s["calls"]["clock"],
                 timeout=60)
        with urllib.request.urlopen(url + "clock", timeout=5) as r:
            assert b"/static/live.js" in r.read()
    finally:
        assert stop(proc) == 0


def test_a_real_kiosk_plays_table_1_of_the_demo(tmp_path: Path) -> None:
    proc, found = start_demo(tmp_path, "--kiosk", "yes")
    try:
        url = found["dashboard"]
        cfg = load_table_config(tmp_path / "demo" / "table-1.toml")
        kiosk = TableService(cfg, resend_s=1.0, debounce_s=0.0)
        kiosk.start()
        wait_for(lambda: sum(1 for s in kiosk.view().seats if s.name) >= 8)
        others = wait_for(lambda: (s := snapshot(url)) and all(
            t["hand"] >= 2 for t in s["tables"] if t["table"] != 1) and s)
        assert next(t for t in others["tables"] if t["table"] == 1)["hand"] == 0
        for _ in range(2):                       # the dealer plays two hands by touch
            assert not kiosk.act("new_hand").refused
            assert not kiosk.act("end_hand").refused
        wait_for(lambda: next(t for t in snapshot(url)["tables"] if t["table"] == 1)["hand"]
                 == 2)
        kiosk.stop()
    finally:
        assert stop(proc) == 0
