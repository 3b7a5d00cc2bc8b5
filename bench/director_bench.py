"""Director benchmark: 1,000 tables on a real Mosquitto, and replay of a long log.

Prints: sustained table events per second the director absorbs; p50/p99 from a table's
report to the dashboard's live update (a real WebSocket client on /ws when the web app
is there); time for a level change to reach all 1,000 tables (1,000 real MQTT
connections); replay time of a 1,000,000-event log, on SQLite and (--backend) on
PostgreSQL (a scratch database of --dsn's server, created and dropped).

    python bench/director_bench.py [--tables 1000] [--seconds 20] [--replay 1000000]
        [--backend sqlite|postgresql|both] [--dsn postgresql://...] [--no-room]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import resource
import selectors
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from harness.pg_admin import LOCAL_SERVER, scratch_database

from kiosk.config.files import BrokerConfig
from kiosk.core.event.tournament import Tournament
from kiosk.director.log.snapshots import SNAPSHOT_EVERY, Snapshots
from kiosk.director.log.store import EventLog
from kiosk.mqtt.broker import Mosquitto, free_port
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import encode
from kiosk.protocol.topics import SingleEventTopics
from kiosk.sim.engine import Simulator


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


class ManyClients:
    """N MQTT connections served by one thread through a selector (paho's external loop)."""

    def __init__(self, broker: BrokerConfig, n: int, prefix: str) -> None:
        self.sel = selectors.DefaultSelector()
        self.clients: list[mqtt.Client] = []
        for i in range(n):
            c = make_client(f"{prefix}-{i}", broker)
            c.connect(broker.host, broker.port, keepalive=60)
            self.clients.append(c)
            self.sel.register(c.socket(), selectors.EVENT_READ, c)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        last_misc = 0.0
        while not self.stop.is_set():
            for key, _ in self.sel.select(0.05):
                key.data.loop_read()
            for c in self.clients:
                if c.want_write():
                    c.loop_write()
            if time.monotonic() - last_misc > 1:
                last_misc = time.monotonic()
                for c in self.clients:
                    c.loop_misc()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for c in self.clients:
            c.disconnect()


def run_room(tables: int, seconds: float) -> dict[str, Any]:
    """The director as its own process (as deployed); tables and a dashboard client here."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    work = Path(tempfile.mkdtemp(prefix="pk-dirbench-"))
    broker = Mosquitto(workdir=str(work)).start()
    http = free_port()
    (work / "event.toml").write_text(
        f'[event]\nname = "bench"\nstructure = "{work / "bench.toml"}"\nseed = 1\n\n'
        f'[broker]\nurl = "mqtt://127.0.0.1:{broker.port}"\n\n'
        f'[director]\ndb = "event.db"\nhttp = "127.0.0.1:{http}"\n')
    (work / "bench.toml").write_text(
        'name = "Bench"\nstart_stack = 20000\n\n[[level]]\nsb = 25\nbb = 50\nminutes = 0.5\n\n'
        '[[level]]\nsb = 50\nbb = 100\nminutes = 60\n')
    (work / "players.csv").write_text("name\n" + "".join(f"P{i}\n" for i in range(tables * 9)))
    web = _has_web()
    cmd = [sys.executable, "-m", "kiosk", "director", "--config", str(work / "event.toml"),
           "--players", str(work / "players.csv"), "--start", "--ready"]
    cmd += [] if web else ["--no-web"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    topics = SingleEventTopics("bench")
    out: dict[str, Any] = {"tables": tables, "dashboard": "websocket /ws" if web else
                           "plan topic (no web app)"}
    try:
        plans = _Plans(broker.config, topics, tables)
        plans.wait_all(60)
        seat1 = {n: min(int(k) for k in plans.latest[n]["seats"]) for n in plans.latest}
        sent_at: dict[str, float] = {}
        lat: list[float] = []
        expect: dict[int, str] = {}
        watcher = _Dashboard(http, expect, sent_at, lat) if web else None
        if watcher is None:
            plans.expect = expect
        if watcher is None:
            plans.on_rev = lambda n, rid: lat.append(time.time() - sent_at.pop(rid)) \
                if rid in sent_at else None
        receivers = ManyClients(broker.config, tables, "tbl")
        got: dict[int, float] = {}
        for i, c in enumerate(receivers.clients):
            def on_msg(client: Any, userdata: Any, msg: Any, n: int = i + 1) -> None:
                if json.loads(msg.payload).get("clock", {}).get("period") == 1:
                    got.setdefault(n, time.time())
            c.on_message = on_msg
            c.subscribe(topics.schedule, 1)
        # the first level lasts 30 s: measure from its end to the last table's schedule
        anchor = plans.schedule_anchor()
        _wait(lambda: len(got) >= tables, anchor + 45 - time.time())
        boundary = anchor + 30
        out["level_change_to_all_tables_ms"] = (
            round(1000 * (max(got.values()) - boundary), 1) if len(got) >= tables
            else f"only {len(got)} of {tables}")
        receivers.close()   # 1,000 connections in this process would starve the load below

        senders = [make_client(f"load-{k}", broker.config) for k in range(4)]
        for s in senders:
            s.connect(broker.config.host, broker.config.port)
            s.loop_start()
        seq0 = _last_seq(work)
        t0, sent = time.time(), 0
        for second in range(int(seconds)):
            for n in range(1, tables + 1):
                delay = t0 + second + (n - 1) / tables - time.time()
                if delay > 0:
                    time.sleep(delay)
                rid = f"b{n}-{second}"
                rep = {"table": n, "id": rid, "seq": second, "ts": time.time(),
                       "kind": "absent" if second % 2 == 0 else "present",
                       "data": {"seat": seat1[n]}}
                sent_at[rid] = time.time()
                expect[n] = rid
                senders[n % len(senders)].publish(topics.report(n), encode(rep), qos=1)
                sent += 1
        elapsed = time.time() - t0
        _wait(lambda: _last_seq(work) - seq0 >= sent, 30)
        out["offered_events_per_s"] = round(sent / elapsed)
        out["absorbed_events_per_s"] = round((_last_seq(work) - seq0) /
                                             (time.time() - t0))
        out["report_to_dashboard_ms"] = {"p50": round(1000 * pct(lat, 50), 2),
                                         "p99": round(1000 * pct(lat, 99), 2),
                                         "samples": len(lat)}
        b0, bseq = time.time(), _last_seq(work)
        burst = 20000
        for k in range(burst):
            n = k % tables + 1
            rep = {"table": n, "id": f"x{k}", "seq": k, "ts": time.time(),
                   "kind": "absent" if (k // tables) % 2 == 0 else "present",
                   "data": {"seat": seat1[n]}}
            senders[k % len(senders)].publish(topics.report(n), encode(rep), qos=1)
        _wait(lambda: _last_seq(work) - bseq >= burst, 120)
        out["burst_events_per_s"] = round((_last_seq(work) - bseq) / (time.time() - b0))

        for s in senders:
            s.loop_stop()
            s.disconnect()
        plans.close()
        if watcher:
            watcher.close()
    finally:
        proc.terminate()
        proc.wait(10)
        broker.stop()
    return out


def _has_web() -> bool:
    try:
        import kiosk.director.web.app  # noqa: F401
    except ImportError:
        return False
    return True


def _last_seq(work: Path) -> int:
    import sqlite3

    db = sqlite3.connect(work / "event.db", timeout=5)
    try:
        return db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
    finally:
        db.close()


def _wait(cond: Any, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        time.sleep(0.05)


class _Dashboard:
    """A floor dashboard's WebSocket: notes when a table's update follows a report."""

    def __init__(self, http: int, expect: dict[int, str], sent_at: dict[str, float],
                 lat: list[float]) -> None:
        self.loop = asyncio.new_event_loop()
        self.expect, self.sent_at, self.lat = expect, sent_at, lat
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.task = asyncio.run_coroutine_threadsafe(self._watch(http), self.loop)

    async def _watch(self, http: int) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as s, \
                s.ws_connect(f"http://127.0.0.1:{http}/ws") as ws:
            async for msg in ws:
                now = time.time()
                body = json.loads(msg.data)
                if body.get("type") != "tables":
                    continue
                for view in body.get("tables", []):
                    rid = self.expect.pop(view.get("table"), None)
                    if rid in self.sent_at:
                        self.lat.append(now - self.sent_at.pop(rid))

    def close(self) -> None:
        self.task.cancel()
        self.loop.call_soon_threadsafe(self.loop.stop)


class _Plans:
    """Every table's retained plan; notes when a plan answers an expected report."""

    def __init__(self, broker: BrokerConfig, topics: SingleEventTopics, tables: int) -> None:
        self.latest: dict[int, dict[str, Any]] = {}
        self.expect: dict[int, str] = {}
        self.on_rev: Any = None
        self.tables = tables
        self.broker, self.topics = broker, topics
        self.client = make_client("bench-plans", broker)
        self.client.on_message = self._on_message
        self.client.connect(broker.host, broker.port)
        self.client.subscribe(f"{topics.base}/table/+/plan", 1)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        body = json.loads(msg.payload)
        n = body["table"]
        self.latest[n] = body
        rid = self.expect.pop(n, None)
        if rid and self.on_rev:
            self.on_rev(n, rid)

    def schedule_anchor(self) -> float:
        """When the first level started, from the retained schedule."""
        got: dict[str, Any] = {}
        c = make_client("bench-schedule", self.broker)
        c.on_message = lambda _c, _u, m: got.setdefault("s", json.loads(m.payload))
        c.connect(self.broker.host, self.broker.port)
        c.subscribe(self.topics.schedule, 1)
        c.loop_start()
        _wait(lambda: "s" in got, 10)
        c.loop_stop()
        c.disconnect()
        return float(got["s"]["clock"]["anchor"])

    def wait_all(self, timeout: float) -> None:
        _wait(lambda: len(self.latest) >= self.tables, timeout)
        if len(self.latest) < self.tables:
            raise RuntimeError(f"only {len(self.latest)} plans arrived")

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def _play_logged(players: int) -> list[dict[str, Any]]:
    """Every event of one simulated tournament, in order."""
    sim = Simulator(players, seed=1)
    events: list[dict[str, Any]] = [sim.tour.config]
    orig = sim.tour.execute

    def capture(cmd: dict[str, Any], t: float) -> list[dict[str, Any]]:
        evs = orig(cmd, t)
        events.extend(evs)
        return evs

    sim.tour.execute = capture  # type: ignore[method-assign]
    sim.run()
    return events


def run_replay(target: int, backend: str = "sqlite",
               server: str = LOCAL_SERVER) -> dict[str, Any]:
    """The replay benchmark on one backend (PostgreSQL: a scratch database of `server`)."""
    if backend == "sqlite":
        return {"backend": "sqlite", **_replay(target, Path(tempfile.mkdtemp(
            prefix="pk-replay-")) / "event.db")}
    with scratch_database(server, prefix="pk_bench") as dsn:
        return {"backend": "postgresql", **_replay(target, dsn)}


def _replay(target: int, db: str | Path) -> dict[str, Any]:
    """One tournament big enough for `target` events, logged; then a cold replay.

    The log is the first `target` events of that tournament (any prefix of a log is a
    log the director could have written)."""
    per_player = len(_play_logged(1000)) / 1000
    events = _play_logged(int(target / per_player * 1.05) + 1)[:target]
    log = EventLog(db)
    for i in range(0, len(events), 50000):
        log.append(events[i:i + 50000])
    del events
    log.close()
    log = EventLog(db)   # cold: what a director starting on this log opens
    t0 = time.perf_counter()
    tour = Tournament.replay(log.read())
    replay_s = time.perf_counter() - t0
    # what a restart does: the newest snapshot (at most SNAPSHOT_EVERY old) plus the tail
    snaps = Snapshots(log)
    at = log.last_seq - SNAPSHOT_EVERY
    snaps.save(Tournament.replay(itertools.islice(log.read(), at)), seq=at)
    t0 = time.perf_counter()
    again = snaps.load()
    restart_s = time.perf_counter() - t0
    assert again.alive == tour.alive
    log.close()
    return {"events": log.last_seq, "players": len(tour.players), "alive": tour.alive,
            "full_replay_s": round(replay_s, 2), "events_per_s": round(log.last_seq / replay_s),
            "restart_from_snapshot_s": round(restart_s, 2),
            "snapshot_every": SNAPSHOT_EVERY}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--replay", type=int, default=1_000_000)
    ap.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="sqlite",
                    help="where the replayed log is kept")
    ap.add_argument("--dsn", default=LOCAL_SERVER, help="the PostgreSQL server to use")
    ap.add_argument("--no-room", action="store_true", help="the replay only")
    args = ap.parse_args()
    if not args.no_room:
        print(json.dumps({"room": run_room(args.tables, args.seconds)}, indent=1), flush=True)
    for backend in ("sqlite", "postgresql") if args.backend == "both" else (args.backend,):
        print(json.dumps({"replay": run_replay(args.replay, backend, args.dsn)}, indent=1),
              flush=True)


if __name__ == "__main__":
    main()
