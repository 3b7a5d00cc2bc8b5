"""`pokerkiosk room` against a real director process: the floor runs the room from a
terminal with its login; a refusal is one line and a non-zero exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from room_process import PASSWORD, room_process


def pokerkiosk(url: str, user: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PK_FLOOR_PASSWORD": PASSWORD}
    login = ["--user", user] if user else []
    return subprocess.run([sys.executable, "-m", "kiosk", "room", *args, "--url", url,
                           *login], capture_output=True, text=True, env=env, timeout=60,
                          stdin=subprocess.DEVNULL)


def room(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/room", timeout=10) as r:
        return json.load(r)  # type: ignore[no-any-return]


def test_the_floor_runs_the_room_from_the_command_line(
        tmp_path: Path, mosquitto: Any, director_factory: Any) -> None:
    d = room_process(director_factory, mosquitto, tmp_path)
    url = d.url

    def ok(user: str | None, *args: str) -> str:
        proc = pokerkiosk(url, user, *args)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def refused(user: str | None, *args: str) -> str:
        proc = pokerkiosk(url, user, *args)
        assert proc.returncode == 2 and proc.stdout == "", proc
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        return proc.stderr

    listing = ok(None, "events")
    assert "Casino Hall (casino): 6 free tables (3, 4, 5, 6, 7, 8)" in listing
    assert "daily" in listing and "sunday           scheduled" in listing

    assert "created" in ok("td", "open", "late", "--title", "Late Turbo", "--structure",
                           "turbo", "--tables", "1", "--set", "seats=6")
    events = {e["event"]: e for e in room(url)["events"]}
    assert events["late"]["title"] == "Late Turbo" and events["late"]["tables"] == [3]
    assert "sunday is open" in ok("td", "open", "sunday")
    assert "started" in ok("td", "start", "daily")
    assert "paused" in ok("fl", "pause", "daily")
    assert room(url)["events"][0]["paused"]
    assert "resumed" in ok("fl", "resume", "daily")
    assert "table 8 now serves late" in ok("fl", "assign", "8", "late")
    assert "table 8 is free" in ok("fl", "free", "8")
    assert 8 in room(url)["free_tables"]

    # refusals: the role, a busy table, an unknown event, bad arguments
    assert "your role (floor) may not start events" in refused("fl", "start", "late")
    assert "your role (cashier) may not assign tables" in refused("cash", "assign", "8",
                                                                  "late")
    assert "daily" in refused("td", "assign", "1", "late")     # daily's players sit there
    assert "no event 'nowhere'" in refused("td", "start", "nowhere")
    assert "wrong user or password" in refused("nobody", "pause", "daily")
    assert "needs a TABLE and an EVENT" in refused("td", "assign", "8")
    assert "only a running event finishes" in refused("td", "finish", "sunday")
    assert "finish it first" in refused("td", "archive", "late")
    assert "no tickets" in ok(None, "tickets")
    assert "t-none" in refused("cash", "refund", "t-none")
    after = {e["event"]: e["state"] for e in room(url)["events"]}
    assert (after["daily"], after["sunday"], after["late"]) == ("running", "open", "open")
    assert d.proc is not None and d.proc.poll() is None
