"""A leader frozen (SIGSTOP) in the middle of a write, woken after its standby took over,
as two director processes on one PostgreSQL log: it reads as deposed (one clear line, then
a standby again), never as a disk it cannot write, and the log loses and doubles nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
import urllib.request
from pathlib import Path

import psycopg
from floor_client import FloorClient
from waiting import wait_for

from kiosk.director.log.pg_store import WRITE_LOCK, WRITE_RETRY_S

PASSWORD = "a-long-one-9"


def waiting_for_the_write_lock(dsn: str) -> bool:
    """A session of another process waits for the log's write lock (its append began)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = "
                           "'Lock' AND wait_event = 'advisory' AND pid <> pg_backend_pid()"
                           ).fetchone()
    return bool(row and row[0])


def health(port: int) -> dict:
    """The director's /api/health; {"leadership": None} while it does not answer."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
            return json.load(r)  # type: ignore[no-any-return]
    except OSError:
        return {"leadership": None}


def ask(floor: FloorClient, name: str) -> None:
    """A registration the frozen leader never answers (the floor's page times out)."""
    with contextlib.suppress(OSError):
        floor.post("api/act", {"kind": "register", "name": name})


def test_a_leader_frozen_mid_write_wakes_deposed_and_rejoins_as_a_standby(
        tmp_path: Path, pg_dsn: str, director_factory) -> None:
    a = director_factory(tmp_path / "a", db=pg_dsn, web=True, players=6,
                         floor_users={"td": PASSWORD}).start(start_event=False)
    b = director_factory(tmp_path / "b", db=pg_dsn, standby=True, web=True,
                         floor_users={"td": PASSWORD}).start()
    floor = FloorClient(f"http://127.0.0.1:{a.http_port}", "td", PASSWORD)
    assert floor.post("api/act", {"kind": "register", "name": "Before"})["ok"]
    # the leader's next append waits for the write lock; frozen there, it is mid-write
    lock = psycopg.connect(pg_dsn, autocommit=True)
    lock.execute("SELECT pg_advisory_lock(%s)", (WRITE_LOCK,))
    asked = threading.Thread(target=ask, args=(floor, "Frozen"), daemon=True)
    try:
        asked.start()
        wait_for(lambda: waiting_for_the_write_lock(pg_dsn), timeout=10)
        assert a.proc is not None
        frozen = time.monotonic()
        os.kill(a.proc.pid, signal.SIGSTOP)
        lock.execute("SELECT pg_advisory_unlock(%s)", (WRITE_LOCK,))
        b.wait_log("took over room", timeout=30)
        # longer than the write's own retries: a freeze has no length the leader can know
        time.sleep(max(0.0, WRITE_RETRY_S + 2 - (time.monotonic() - frozen)))
    finally:
        lock.close()
        if a.proc is not None:
            os.kill(a.proc.pid, signal.SIGCONT)
    a.wait_log("no longer leads room", timeout=30)
    a.wait_log("standby of room", timeout=60)
    text = a.log_text()
    assert "cannot write the event log" not in text and "Traceback" not in text, text[-3000:]
    assert "loop is stuck" not in text, text[-3000:]                # deposed, not stuck
    assert a.proc is not None and a.proc.poll() is None       # the same process, a standby
    asked.join(15)
    wait_for(lambda: (health(a.http_port)["leadership"] or {}).get("role") == "standby",
             timeout=30)
    # the new leader goes on; the old one, a standby now, folds what it writes
    new = FloorClient(f"http://127.0.0.1:{b.http_port}", "td", PASSWORD)
    assert new.post("api/act", {"kind": "register", "name": "After"})["ok"]
    wait_for(lambda: (health(a.http_port)["leadership"] or {}).get("behind") == 0
             and "After" in names(pg_dsn), timeout=30)
    # nothing lost, nothing twice: the write frozen in the old term never landed
    with psycopg.connect(pg_dsn) as conn:
        terms = [t for (t,) in conn.execute("SELECT term FROM events ORDER BY seq")]
    assert terms == sorted(terms) and terms[-1] == terms[0] + 1
    assert names(pg_dsn).count("Before") == 1 and "Frozen" not in names(pg_dsn)


def names(dsn: str) -> list[str]:
    """The names of every registration in the log, in order."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT convert_from(body, 'UTF8') FROM events WHERE kind = "
                            "'registered' ORDER BY seq").fetchall()
    return [json.loads(body)["name"] for (body,) in rows]
