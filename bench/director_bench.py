"""Director benchmark: 1,000 tables on a real Mosquitto, and replay of a long log.

Prints: sustained table events per second the director absorbs; p50/p99 from a table's
report to the dashboard's live update (a real WebSocket client on /ws when the web app
is there); time for a level change to reach all 1,000 tables (1,000 real MQTT
connections); replay time of a 1,000,000-event log.

    python bench/director_bench.py [--tables 1000] [--seconds 20] [--replay 1000000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import selectors
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.broker import Mosquitto, free_port
from kiosk.config import BrokerConfig, EventConfig
from kiosk.core.tournament import Tournament
from kiosk.director.service import Director
from kiosk.director.store import EventLog
from kiosk.mqttclient import make_client
from kiosk.protocol.messages import encode
from kiosk.protocol.topics import Topics
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
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    work = Path(tempfile.mkdtemp(prefix="pk-dirbench-"))
    broker = Mosquitto(workdir=str(work)).start()
    cfg = EventConfig(name="bench", structure="standard", seats=9, seed=1,
                      broker=broker.config, db=str(work / "event.db"),
                      http_port=free_port(), floor_users={"floor": "floor"})
    director = Director(cfg)
    for i in range(tables * 9):
        director.tour.execute({"kind": "register", "name": f"P{i}"}, time.time())
    director.act({"kind": "start"})
    topics = Topics(cfg.name)
    out: dict[str, Any] = {"tables": len(director.tour.tables)}

    loop = asyncio.new_event_loop()
    dash_lat: list[float] = []
    sent_at: dict[int, float] = {}
    web = True
    try:
        import kiosk.director.web.app  # noqa: F401
    except ImportError:
        web = False

    async def serve() -> None:
        await director.serve(web=web)

    async def watch_dashboard() -> None:
        """The dashboard's view of it: a WebSocket client (or the hub, without web)."""
        if web:
            import aiohttp

            async with aiohttp.ClientSession() as s, \
                    s.ws_connect(f"http://127.0.0.1:{cfg.http_port}/ws") as ws:
                async for msg in ws:
                    now = time.time()
                    body = json.loads(msg.data)
                    for tv in body.get("tables", []) if body.get("type") == "tables" else []:
                        n = tv.get("table") if isinstance(tv, dict) else tv
                        if n in sent_at:
                            dash_lat.append(now - sent_at.pop(n))
        else:
            q = director.hub.subscribe()
            while True:
                msg = await q.get()
                now = time.time()
                for n in msg.get("tables", []):
                    if n in sent_at:
                        dash_lat.append(now - sent_at.pop(n))

    threading.Thread(target=loop.run_forever, daemon=True).start()
    asyncio.run_coroutine_threadsafe(serve(), loop)
    time.sleep(2.0)
    asyncio.run_coroutine_threadsafe(watch_dashboard(), loop)
    time.sleep(1.0)

    # --- 1,000 table connections that receive the schedule (the level change)
    got: dict[int, float] = {}
    receivers = ManyClients(broker.config, tables, "tbl")
    rev_before = director.log.last_seq
    for i, c in enumerate(receivers.clients):
        n = i + 1

        def on_msg(client: Any, userdata: Any, msg: Any, n: int = n) -> None:
            if json.loads(msg.payload).get("rev", 0) > rev_before:
                got.setdefault(n, time.perf_counter())

        c.on_message = on_msg
        c.subscribe(topics.schedule, 1)
    time.sleep(3.0)

    # --- load: every table reports once a second (absent/present toggles on seat 1)
    senders = [make_client(f"load-{k}", broker.config) for k in range(8)]
    for s in senders:
        s.connect(broker.config.host, broker.config.port)
        s.loop_start()
    per = tables // len(senders)
    seat1 = {n: min(director.tour.tables[n].seat_of) for n in director.tour.tables}
    start_seq = director.log.last_seq
    t0 = time.time()
    sent = 0
    for second in range(int(seconds)):
        tick = t0 + second
        for n in range(1, tables + 1):
            when = tick + (n - 1) / tables
            delay = when - time.time()
            if delay > 0:
                time.sleep(delay)
            kind = "absent" if second % 2 == 0 else "present"
            rep = {"table": n, "id": f"b{n}-{second}", "seq": second, "ts": time.time(),
                   "kind": kind, "data": {"seat": seat1[n]}}
            sent_at.setdefault(n, time.time())
            senders[(n - 1) // per % len(senders)].publish(topics.report(n), encode(rep), qos=1)
            sent += 1
    elapsed = time.time() - t0
    time.sleep(2.0)
    processed = director.log.last_seq - start_seq
    out["offered_events_per_s"] = round(sent / elapsed)
    out["absorbed_events_per_s"] = round(processed / (time.time() - t0))
    out["report_to_dashboard_ms"] = {"p50": round(1000 * pct(dash_lat, 50), 2),
                                     "p99": round(1000 * pct(dash_lat, 99), 2),
                                     "samples": len(dash_lat), "via": "websocket" if web else
                                     "hub"}

    # --- burst: as fast as the senders can publish, to find the ceiling
    b0, bseq = time.time(), director.log.last_seq
    for k in range(20000):
        n = k % tables + 1
        rep = {"table": n, "id": f"x{k}", "seq": k, "ts": time.time(),
               "kind": "absent" if (k // tables) % 2 == 0 else "present",
               "data": {"seat": seat1[n]}}
        senders[k % len(senders)].publish(topics.report(n), encode(rep), qos=1)
    while director.log.last_seq - bseq < 20000 and time.time() - b0 < 60:
        time.sleep(0.05)
    out["burst_events_per_s"] = round((director.log.last_seq - bseq) / (time.time() - b0))

    # --- a level change reaching every table
    got.clear()
    rev_before = director.log.last_seq
    t_change = time.perf_counter()
    fut = asyncio.run_coroutine_threadsafe(_act(director, {"kind": "clock", "action": "jump",
                                                           "period": 1}), loop)
    fut.result(10)
    deadline = time.monotonic() + 10
    while len(got) < tables and time.monotonic() < deadline:
        time.sleep(0.002)
    out["level_change_to_all_tables_ms"] = round(1000 * (max(got.values()) - t_change), 1) \
        if len(got) == tables else f"only {len(got)} of {tables} tables"

    for s in senders:
        s.loop_stop()
        s.disconnect()
    receivers.close()
    loop.call_soon_threadsafe(lambda: [t.cancel() for t in asyncio.all_tasks(loop)])
    time.sleep(1.0)
    broker.stop()
    return out


async def _act(director: Director, cmd: dict[str, Any]) -> None:
    director.act(cmd)


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


def run_replay(target: int) -> dict[str, Any]:
    """One tournament big enough for `target` events, logged; then a cold replay.

    The log is the first `target` events of that tournament (any prefix of a log is a
    log the director could have written)."""
    per_player = len(_play_logged(1000)) / 1000
    events = _play_logged(int(target / per_player * 1.05) + 1)[:target]
    log = EventLog(Path(tempfile.mkdtemp(prefix="pk-replay-")) / "event.db")
    for i in range(0, len(events), 50000):
        log.append(events[i:i + 50000])
    del events
    t0 = time.perf_counter()
    tour = Tournament.replay(log.read())
    replay_s = time.perf_counter() - t0
    return {"events": log.last_seq, "players": len(tour.players), "alive": tour.alive,
            "replay_s": round(replay_s, 2), "events_per_s": round(log.last_seq / replay_s)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--replay", type=int, default=1_000_000)
    args = ap.parse_args()
    print(json.dumps({"room": run_room(args.tables, args.seconds)}, indent=1), flush=True)
    print(json.dumps({"replay": run_replay(args.replay)}, indent=1), flush=True)


if __name__ == "__main__":
    main()
