"""`pokerkiosk demo` as a child process: started (every event dealing at every table of
its own), read over its HTTP API and stopped."""

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

from waiting import wait_for


def start_demo(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[bytes], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "demo.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "demo", "--http",
                                 "127.0.0.1:0", "--hand-seconds", "0.5", "--players", "27",
                                 "--dir", str(tmp_path / "demo"), *extra],
                                stdout=sink, stderr=subprocess.STDOUT, env=env)
    wait_for(lambda: "Ctrl-C" in out.read_text() or proc.poll() is not None, timeout=120)
    found = {m.group(1).strip(): m.group(2) for m in
             re.finditer(r"^(\w[\w ]*?)\s{2,}(\S+)", out.read_text(), re.M)}
    assert "dashboard" in found, out.read_text()
    # every event that runs deals at every table of its own within a minute of the start
    # (the real kiosk's table 1 waits for its dealer)
    kiosk = "--kiosk" in extra and extra[extra.index("--kiosk") + 1] == "yes"
    try:
        wait_for(lambda: undealt(found["dashboard"], {1} if kiosk else set()) == {},
                 timeout=60)
    except BaseException:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
        raise AssertionError(f"tables not dealt a minute after the start: "
                             f"{undealt(found['dashboard'], set())}\n{out.read_text()}"
                             ) from None
    return proc, found


def stop(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(20)


def undealt(url: str, skip: set[int]) -> dict[str, list[int]]:
    """The tables of each running event that have not dealt a hand yet."""
    room = get(url, "api/room")
    out = {}
    for event in room.get("events", ()) if room else ():
        if event["state"] != "running":
            continue
        snap = get(url, f"api/snapshot?event={event['event']}")
        hands = {t["table"]: t["hand"] for t in snap.get("tables", ())}
        idle = [n for n in event["tables"] if n not in skip and not hands.get(n)]
        if idle:
            out[event["event"]] = idle
    return out if room else {"": []}


def get(url: str, path: str) -> dict:
    """A JSON page of the dashboard, or {} while its server is still starting (or too
    busy to answer: the caller's wait asks again)."""
    try:
        with urllib.request.urlopen(url + path, timeout=30) as r:
            return json.load(r)
    except (urllib.error.URLError, TimeoutError):
        return {}
