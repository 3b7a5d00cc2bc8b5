"""The demo's dealers' rotation, left alone as a newcomer leaves it: within nine minutes a
push is done, a relief takes the table it was due at, a dealer goes on break, and no
table is past its push by more than three minutes without an alert naming it.

The demo runs with its test-only `--time-scale 6`: the demo's one clock (the director's,
which the simulated tables' hands, the push times and the virtual dealers' walks all
follow) runs six times as fast, so the nine minutes play in a minute and a half of wall
time. Nothing is skipped or shortened on that clock: every hand, walk and push keeps its
length and order in demo minutes, which is what the check counts (the `t` of the
director's own answers); only the broker's and the machine's delays grow six-fold by
comparison, which makes the check harder, not easier.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from floor_client import FloorClient
from waiting import STARTUP_S, wait_for

from kiosk.config import floor_users
from kiosk.director.log.store import Store

SCALE = 6.0
ALONE_S = 9 * 60          # on the demo's clock
LATE_S = 3 * 60           # a push later than this must be on the board's alerts

pytestmark = pytest.mark.slow


def start(tmp_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "demo.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "demo", "--http",
                                 "127.0.0.1:0", "--dir", str(tmp_path / "demo"),
                                 "--time-scale", str(SCALE)],
                                stdout=sink, stderr=subprocess.STDOUT, env=env)
    wait_for(lambda: "Ctrl-C" in out.read_text() or proc.poll() is not None,
             timeout=STARTUP_S)
    found = re.search(r"^dashboard\s+(\S+)", out.read_text(), re.M)
    assert found and proc.poll() is None, out.read_text()
    return proc, found.group(1)


def log_in(url: str) -> FloorClient | None:
    try:
        return FloorClient(url, floor_users.DEMO_USER, floor_users.DEMO_PASSWORD)
    except OSError:
        return None


def test_the_demo_left_alone_pushes_relieves_breaks_and_alerts_every_late_push(
        tmp_path: Path) -> None:
    proc, url = start(tmp_path)
    try:
        floor = wait_for(lambda: log_in(url), timeout=STARTUP_S)   # the room is still opening
        first = floor.get("api/dealers")
        began, unseen = first["t"], []

        def nine_minutes_watched() -> bool:
            """The board read once more: whether the demo's clock is past nine minutes."""
            board = floor.get("api/dealers")
            now = board["t"]
            named = {a["table"] for a in board["alerts"] if a["kind"] == "push_late"}
            unseen.extend(f"table {t['table']} {t['late']} s late at {(now - began) / 60:.1f}"
                          f" min, no alert" for t in board["tables"]
                          if t["late"] > LATE_S and t["table"] not in named)
            assert proc.poll() is None, (tmp_path / "demo.out").read_text()[-3000:]
            return bool(now - began >= ALONE_S)

        # the board every half second until the demo's clock has run nine minutes (a
        # minute and a half of wall time; the deadline, on the wall clock, is six times that)
        wait_for(nine_minutes_watched, timeout=ALONE_S, step=0.5)
        assert not unseen, unseen[:5]
    finally:
        proc.send_signal(2)
        assert proc.wait(30) == 0
    store = Store(tmp_path / "demo" / "demo.db")
    try:
        room = [e for e in store.read("room") if e.t <= began + ALONE_S]
    finally:
        store.close()
    pushes = [e for e in room if e.kind == "push_done"]
    reliefs = {e.dealer for e in room if e.kind == "relief_set"}   # reliefs at the start
    assert pushes, "no push in nine minutes of the demo"
    assert any(p.incoming in reliefs for p in pushes), pushes     # a relief took its table
    assert any(p.next == "break" for p in pushes), pushes         # a dealer went on break
    assert any(p.next == "relief" and p.to for p in pushes), pushes   # walked on as relief
