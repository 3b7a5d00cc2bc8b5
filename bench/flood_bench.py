"""Load isolation: one table floods the director; how long do another table's acks take?

A real Mosquitto and the director as its own process. Table 2 behaves (a report every
50 ms, each a real decision); table 1 sends as fast as it can (target 10,000 reports/s,
each one a valid decision if applied). Prints the well-behaved table's ack latency
without and with the flood, what the flood achieved, and how much it grew the log.

    python bench/flood_bench.py [--seconds 10] [--rate 10000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kiosk.director.log.store import EventLog
from kiosk.mqtt.broker import Mosquitto
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import encode
from kiosk.protocol.topics import SingleEventTopics


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


class Table:
    """A raw table client that times each report until the ack naming it."""

    def __init__(self, broker: Any, topics: SingleEventTopics, n: int) -> None:
        self.n, self.topics = n, topics
        self.sent: dict[str, float] = {}
        self.lat: list[float] = []
        self.client = make_client(f"bench-table-{n}", broker)
        self.client.on_message = self._ack
        self.client.connect(broker.host, broker.port)
        self.client.subscribe(topics.ack(n), 1)
        self.client.loop_start()
        self.seq = 0

    def _ack(self, client: Any, userdata: Any, msg: Any) -> None:
        now = time.perf_counter()
        for rid in json.loads(msg.payload)["ids"]:
            t = self.sent.pop(rid, None)
            if t is not None:
                self.lat.append(now - t)

    def report(self, seat: int, qos: int = 1) -> None:
        self.seq += 1
        kind = "absent" if self.seq % 2 else "present"
        rid = f"{self.n}-b-{self.seq}"
        body = {"table": self.n, "id": rid, "seq": self.seq, "ts": time.time(), "kind": kind,
                "data": {"seat": seat}}
        if qos:
            self.sent[rid] = time.perf_counter()
        self.client.publish(self.topics.report(self.n), encode(body), qos=qos)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=int, default=10_000)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pk-flood-"))
    broker = Mosquitto(workdir=str(work)).start()
    (work / "event.toml").write_text(
        f'[event]\nname = "flood"\nstructure = "standard"\nseed = 1\n\n'
        f'[broker]\nurl = "mqtt://127.0.0.1:{broker.port}"\n\n[director]\ndb = "event.db"\n')
    (work / "players.csv").write_text("name\n" + "".join(f"P{i}\n" for i in range(18)))
    log_path = work / "director.log"
    with log_path.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "director", "--config",
                                 str(work / "event.toml"), "--players",
                                 str(work / "players.csv"), "--start", "--ready", "--no-web"],
                                stdout=out, stderr=out)
    topics = SingleEventTopics("flood")
    try:
        while "connected to" not in log_path.read_text():
            time.sleep(0.1)
        time.sleep(1.0)
        db = EventLog(work / "event.db")
        tour_seats = _seats(db)
        good, bad = Table(broker.config, topics, 2), Table(broker.config, topics, 1)
        stop = threading.Event()

        def behave() -> None:
            while not stop.is_set():
                good.report(tour_seats[2])
                time.sleep(0.05)

        threading.Thread(target=behave, daemon=True).start()
        time.sleep(args.seconds / 2)
        quiet = list(good.lat)
        good.lat.clear()
        events0, size0 = len(EventLog(work / "event.db")), (work / "event.db").stat().st_size
        flood_sent, t0 = 0, time.perf_counter()
        end = t0 + args.seconds
        while (now := time.perf_counter()) < end:
            if flood_sent < (now - t0) * args.rate:
                bad.report(tour_seats[1], qos=0)
                flood_sent += 1
            else:
                time.sleep(0.0005)
        elapsed = time.perf_counter() - t0
        time.sleep(1.0)
        stop.set()
        flooded = list(good.lat)
        events1 = len(EventLog(work / "event.db"))
        size1 = (work / "event.db").stat().st_size
        good_events = len(flooded)
        applied = events1 - events0 - good_events
        print(f"well-behaved table, no flood: {len(quiet)} acks, "
              f"p50 {1000 * pct(quiet, 50):.1f} ms, p99 {1000 * pct(quiet, 99):.1f} ms")
        print(f"flood from table 1: {flood_sent} reports in {elapsed:.1f} s "
              f"({flood_sent / elapsed:,.0f}/s)")
        print(f"well-behaved table during the flood: {len(flooded)} acks, "
              f"p50 {1000 * pct(flooded, 50):.1f} ms, p99 {1000 * pct(flooded, 99):.1f} ms "
              f"(target p99 < 100 ms)")
        print(f"events logged during the flood: {events1 - events0} "
              f"(+{(size1 - size0) / 1e6:.2f} MB): {applied} from the flood, "
              f"{flood_sent - applied} flood reports dropped by the budget")
        print(f"director alive: {proc.poll() is None}")
    finally:
        proc.terminate()
        proc.wait(10)
        broker.stop()


def _seats(db: EventLog) -> dict[int, int]:
    """A seated player's seat at tables 1 and 2, from the director's own log."""
    seats: dict[int, int] = {}
    for ev in db.read():
        if ev.kind == "seated" and ev["table"] in (1, 2):
            seats.setdefault(ev["table"], ev["seat"])
    return seats


if __name__ == "__main__":
    main()
