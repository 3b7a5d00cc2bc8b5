"""Festival benchmark: one flight of 5,000 entrants on 558+ tables in sections, played to
its winner through a real Mosquitto and a director process.

The room has `--tables` tables (default: 558 for 5,000 entrants, the draw seating 8 or 9
a table) split into `--sections` sections. The director runs as its own process (as
deployed), with its dashboard. Every table is its own MQTT connection: it publishes its
reports and hears its event's schedule on it (the virtual tables share this process, and
one bookkeeping connection that follows every plan and acknowledgement for the dealers).
The simulator's dealers play the event to its winner on an accelerated structure (levels
of `--level-seconds`). A real WebSocket client on the event's /ws is the floor dashboard.

Prints (with --json, one object): tables, sections, report_ack_p50_ms / p99 (a report
published until the director's acknowledgement), level_change_all_tables_ms (a level's
end until the last table connection has the new schedule, the worst level change),
dashboard_update_p99_ms (a report until the dashboard's update of that table),
director_rss_mb (peak), log_events, replay_s (the flight's stream folded anew from the
log), lost_acked (busts acknowledged that the log lacks), places_complete (places 1..N,
each once), wall_s.

    python bench/festival_bench.py [--entrants 5000] [--tables N] [--sections 8]
                                   [--level-seconds 20] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from director_bench import ManyClients, _Dashboard, _wait, pct

from kiosk.core.event.tournament import Tournament
from kiosk.core.model.commands import AnyTableReport
from kiosk.director.log.store import open_store
from kiosk.mqtt.broker import Mosquitto, free_port
from kiosk.protocol.topics import Topics
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

ROOM, EVENT, SEATS = "festival", "day1d", 9


def structure(level_s: float) -> str:
    """Blinds that double about every two levels, no breaks, no colour-ups."""
    out = ['name = "Festival bench"', "start_stack = 20000", ""]
    sb = 25
    for _ in range(60):
        out += ["[[level]]", f"sb = {sb}", f"bb = {2 * sb}", f"minutes = {level_s / 60:.4f}", ""]
        sb = int(sb * 1.45 // 25 * 25) or 25
    return "\n".join(out)


def room_toml(tables: int, sections: int, port: int, http: int, structure_file: Path) -> str:
    size = math.ceil(tables / sections)
    secs = "".join(f'\n[[sections]]\nname = "Section {i + 1}"\n'
                   f'tables = "{i * size + 1}-{min(tables, (i + 1) * size)}"\n'
                   for i in range(sections) if i * size < tables)
    return (f'[room]\nname = "{ROOM}"\ntables = {tables}\n\n'
            f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n\n'
            f'[director]\ndb = "room.db"\nhttp = "127.0.0.1:{http}"\n\n'
            f'[[events]]\nname = "{EVENT}"\nkind = "flight"\nstructure = "{structure_file}"\n'
            f"seats = {SEATS}\nseed = 7\n" + secs)


class TableField(MqttField):
    """The virtual tables: each report goes out on its own table's connection; the time
    to its acknowledgement is kept, and so is every bust acknowledged."""

    def __init__(self, *args: Any, tables: ManyClients, dashboard: dict[str, Any],
                 **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.conns = tables
        self.ack_ms: list[float] = []
        self.busts: list[str] = []
        self.dash = dashboard

    def report(self, report: AnyTableReport, t: float) -> bool:
        conn = self.conns.clients[report.table - 1]
        main, self.client = self.client, conn
        sent = time.perf_counter()
        self.dash["sent_at"][report.id] = time.time()
        self.dash["expect"][report.table] = report.id
        try:
            ok = super().report(report, t)
        finally:
            self.client = main
        self.ack_ms.append((time.perf_counter() - sent) * 1000)
        if ok and report.kind == "bust":
            self.busts.append(report.id)
        return ok


def run(entrants: int, tables: int, sections: int, level_s: float) -> dict[str, Any]:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    work = Path(tempfile.mkdtemp(prefix="pk-festival-"))
    broker = Mosquitto(workdir=str(work)).start()
    http = free_port()
    (work / "bench.toml").write_text(structure(level_s))
    (work / "room.toml").write_text(room_toml(tables, sections, broker.port, http,
                                              work / "bench.toml"))
    (work / "players.csv").write_text("name\n" + "".join(f"Entrant {i + 1}\n"
                                                          for i in range(entrants)))
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "director", "--config",
                             str(work / "room.toml"), "--players", str(work / "players.csv"),
                             "--start"], stdout=subprocess.DEVNULL,
                            stderr=open(work / "director.log", "wb"))  # noqa: SIM115
    topics = Topics(ROOM)
    out: dict[str, Any] = {"entrants": entrants, "tables": tables, "sections": sections}
    conns: ManyClients | None = None
    field: TableField | None = None
    try:
        # every table's connection hears the schedule: when each has each level
        conns = ManyClients(broker.config, tables, "tbl")
        got: dict[int, dict[int, float]] = {}
        lock = threading.Lock()
        for i, c in enumerate(conns.clients):
            def on_msg(client: Any, userdata: Any, msg: Any, n: int = i + 1) -> None:
                period = json.loads(msg.payload).get("clock", {}).get("period")
                if isinstance(period, int):
                    with lock:
                        got.setdefault(period, {}).setdefault(n, time.time())
            c.on_message = on_msg
            c.subscribe(topics.schedule(EVENT), 1)
        dash: dict[str, Any] = {"expect": {}, "sent_at": {}, "lat": []}
        field = TableField(broker.config, EVENT, client_id="festival-tables", room=ROOM,
                           ack_timeout=300, tables=conns, dashboard=dash)
        field.wait_ready(120)
        seated = field
        _wait(lambda: sum(seated.seat_count(t) for t in seated.tables()) >= entrants, 120)
        watcher = _EventDashboard(http, dash)
        sim = Simulator(entrants, seats=SEATS, structure=_structure(work), field=field,
                        seed=7, idle_timeout=60, report_prefix="f-")
        res = sim.run()
        out["wall_play_s"] = round(time.perf_counter() - began, 1)
        out["sim_violations"] = len(res.violations)
        watcher.close()
        out["report_ack_p50_ms"] = round(pct(field.ack_ms, 50), 2)
        out["report_ack_p99_ms"] = round(pct(field.ack_ms, 99), 2)
        out["reports"] = len(field.ack_ms)
        out["level_change_all_tables_ms"] = _level_change(got, tables, work, level_s)
        out["dashboard_update_p99_ms"] = round(1000 * pct(dash["lat"], 99), 1)
        out["dashboard_samples"] = len(dash["lat"])
        out["director_rss_mb"] = _peak_rss_mb(proc.pid)
    finally:
        if field is not None:
            field.close()
        if conns is not None:
            conns.close()
        proc.terminate()
        proc.wait(20)
        broker.stop()
    out.update(_from_log(work / "room.db", entrants, field.busts if field else []))
    out["wall_s"] = round(time.perf_counter() - began, 1)
    out["under_10_min"] = out["wall_s"] < 600
    shutil.rmtree(work, ignore_errors=True)
    return out


def _structure(work: Path) -> Any:
    from kiosk.rules.structure_files import load_structure
    return load_structure(str(work / "bench.toml"))


def _level_change(got: dict[int, dict[int, float]], tables: int, work: Path,
                  level_s: float) -> float | str:
    """The worst level change: its boundary until the last table had the new level."""
    first = got.get(0)
    if not first:
        return "no schedule heard"
    start = _anchor(work)
    worst = None
    for period, heard in sorted(got.items()):
        if period == 0 or len(heard) < tables:
            continue
        boundary = start + period * level_s
        last = (max(heard.values()) - boundary) * 1000
        worst = last if worst is None else max(worst, last)
    return round(worst, 1) if worst is not None else "no level change heard by every table"


def _anchor(work: Path) -> float:
    """When the first level began: the event's `started` event in the log."""
    store = open_store(work / "room.db")
    try:
        for ev in store.stream(EVENT).read():
            if ev.kind == "started":
                return float(ev.t)
    finally:
        store.close()
    return 0.0


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def _from_log(db: Path, entrants: int, busts: list[str]) -> dict[str, Any]:
    """The log as a restarted director reads it: its size, a fold of the flight anew,
    the acknowledged busts it holds, and the places."""
    store = open_store(db)
    try:
        t0 = time.perf_counter()
        tour = Tournament.replay(store.stream(EVENT).read())
        replay_s = time.perf_counter() - t0
        logged = {ev.report for ev in store.stream(EVENT).read()
                  if ev.kind == "busted" and ev.report}
        events = store.last_seq
    finally:
        store.close()
    places = sorted(tour.places().values())
    return {"log_events": events, "replay_s": round(replay_s, 2),
            "lost_acked": sum(1 for rid in busts if rid not in logged),
            "places_complete": places == list(range(1, entrants + 1)),
            "winner": tour.finished_at is not None}


class _EventDashboard(_Dashboard):
    """The floor dashboard of the flight: a real WebSocket client on /ws?event=NAME."""

    def __init__(self, http: int, dash: dict[str, Any]) -> None:
        super().__init__(http, dash["expect"], dash["sent_at"], dash["lat"])

    async def _watch(self, http: int) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as s, \
                s.ws_connect(f"http://127.0.0.1:{http}/ws?event={EVENT}") as ws:
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
        """End the client's task inside its loop, then stop the loop."""
        async def stop() -> None:
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--entrants", type=int, default=5000)
    ap.add_argument("--tables", type=int, default=0,
                    help="tables in the room (default: 558 for 5,000, as the draw needs)")
    ap.add_argument("--sections", type=int, default=8)
    ap.add_argument("--level-seconds", type=float, default=20.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.entrants < 20:
        ap.error("--entrants must be at least 20")
    tables = args.tables or max(math.ceil(args.entrants / SEATS) + 2,
                                558 if args.entrants >= 5000 else 0)
    if not 6 <= args.sections <= tables:
        ap.error("--sections must be 6 or more, at most one a table")
    out = run(args.entrants, tables, args.sections, args.level_seconds)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    ok = out["lost_acked"] == 0 and out["places_complete"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
