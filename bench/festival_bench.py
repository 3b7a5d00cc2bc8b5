"""Festival benchmark: one flight of 5,000 entrants on 558+ tables in sections, played to
its winner through a real Mosquitto and a director process.

The room has `--tables` tables (default: 558 for 5,000 entrants, the draw seating 8 or 9
a table) split into `--sections` sections. The director runs as its own process (as
deployed), with its dashboard. Every table is its own MQTT connection: it publishes its
reports and hears its event's schedule on it. The connections live in `--workers`
processes (each serving its share on its own network thread), so the dealers never
starve them; one bookkeeping connection here follows every plan and acknowledgement for
the dealers. The simulator's dealers play the event to its winner on an accelerated
structure (levels of `--level-seconds`), the tables side by side: up to `--in-flight`
reports await their acknowledgement at once, each table's in its own order on its own
connection. A real WebSocket client on the event's /ws is the floor dashboard.

Prints (with --json, one object): tables, sections, report_ack_p50_ms / p99 (a report
published on its table's connection until the director's acknowledgement reached that
connection; report_ack_dealers_p99_ms, the same as the dealers' process saw it),
level_change_all_tables_ms (a level's end until the last table connection has the new
schedule, the worst level change), dashboard_update_p99_ms (a report until the
dashboard's update of that table), director_rss_mb (peak), log_events, replay_s (the
flight's stream folded anew from the log), lost_acked (busts acknowledged that the log
lacks), places_complete (places 1..N, each once but for ties: players out in one hand
from equal stacks share a place, as the TDA rules say; places_shared counts them),
seating_kb_per_s (the seating directories the tables heard, as kiosks hear every one:
with --cards each entrant has a check-in card in it), wall_s.

With `--languages de,cs,zh_Hans` the room speaks those (the first its default), the
tables take them in turn (`table_languages`) and each entrant keeps one at registration:
the plans carry each table's language and its messages as keys, a mixed room's load.

    python bench/festival_bench.py [--entrants 5000] [--tables N] [--sections 8]
                                   [--level-seconds 20] [--in-flight 8] [--workers 2]
                                   [--cards] [--languages de,cs] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from director_bench import _Dashboard, _wait, pct

from kiosk.core.event.tournament import Tournament
from kiosk.core.model.commands import AnyTableReport
from kiosk.core.model.events import ClockSet
from kiosk.director.log.store import open_store
from kiosk.lang.codes import UnknownLanguage, check
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
        sb = max(sb + 25, round(sb * 1.45 / 25) * 25)   # never stuck at 25 by the rounding
    return "\n".join(out)


def room_toml(tables: int, sections: int, port: int, http: int, structure_file: Path,
              languages: tuple[str, ...] = ()) -> str:
    size = math.ceil(tables / sections)
    secs = "".join(f'\n[[sections]]\nname = "Section {i + 1}"\n'
                   f'tables = "{i * size + 1}-{min(tables, (i + 1) * size)}"\n'
                   for i in range(sections) if i * size < tables)
    spoken = ""
    if languages:
        each = ", ".join(f'"{t}" = "{languages[t % len(languages)]}"'
                         for t in range(1, tables + 1))
        spoken = f"languages = {json.dumps(list(languages))}\ntable_languages = {{ {each} }}\n"
    return (f'[room]\nname = "{ROOM}"\ntables = {tables}\n{spoken}\n'
            f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n\n'
            f'[director]\ndb = "room.db"\nhttp = "127.0.0.1:{http}"\n\n'
            f'[[events]]\nname = "{EVENT}"\nkind = "flight"\nstructure = "{structure_file}"\n'
            f"seats = {SEATS}\nseed = 7\n" + secs)


def _serve_tables(broker: Any, tables: list[int], schedule: str, pipe: Any) -> None:
    """A worker process: the connections of `tables`, each hearing the schedule (when it
    has each level) and its own acknowledgements (how long each report waited for its
    ack, on the table's own connection as a kiosk waits), and publishing its own table's
    reports in the order they come. One thread serves the sockets and the pipe alike, so
    no connection is written from two."""
    import selectors
    import signal

    from kiosk.mqtt.client import make_client
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    topics = Topics(ROOM)
    sel = selectors.DefaultSelector()
    got: dict[int, dict[int, float]] = {}
    sent: dict[str, float] = {}      # report id -> first published (perf_counter)
    acked_ms: list[float] = []
    heard: dict[str, int] = {}      # bytes of seating directories heard
    by_table: dict[int, Any] = {}

    def on_msg(client: Any, userdata: Any, msg: Any, n: int) -> None:
        body = json.loads(msg.payload)
        if msg.topic == topics.seating(EVENT):
            heard["seating"] = heard.get("seating", 0) + len(msg.payload)
            return
        if msg.topic != schedule:
            now = time.perf_counter()
            acked_ms.extend((now - sent.pop(rid)) * 1000 for rid in body.get("ids", ())
                            if rid in sent)
            return
        period = body.get("clock", {}).get("period")
        if isinstance(period, int):
            got.setdefault(period, {}).setdefault(n, time.time())

    for n in tables:
        c = make_client(f"tbl-{n}", broker)
        c.connect(broker.host, broker.port, keepalive=60)
        c.on_message = lambda cl, ud, msg, n=n: on_msg(cl, ud, msg, n)
        # as a kiosk: its event's schedule, every seating directory, its acknowledgements
        c.subscribe([(schedule, 1), (topics.all_seating, 1), (topics.ack(n), 1)])
        by_table[n] = c
        sel.register(c.socket(), selectors.EVENT_READ, c)
    sel.register(pipe, selectors.EVENT_READ, None)
    pipe.send("ready")
    last_misc, running = 0.0, True
    while running:
        for key, _ in sel.select(0.05):
            if key.data is not None:
                key.data.loop_read()
                continue
            while running and pipe.poll():
                item = pipe.recv()
                if item is None:
                    running = False
                    break
                for table, topic, payload in item:
                    if topic.endswith("/report"):   # a re-send keeps its first time
                        sent.setdefault(json.loads(payload)["id"], time.perf_counter())
                    by_table[table].publish(topic, payload, qos=1)
        for c in by_table.values():
            if c.want_write():
                c.loop_write()
        if time.monotonic() - last_misc > 1:
            last_misc = time.monotonic()
            for c in by_table.values():
                c.loop_misc()
    for c in by_table.values():
        c.disconnect()
    pipe.send((got, acked_ms, heard.get("seating", 0)))


class TableConnections:
    """Every table's MQTT connection, shared among a few worker processes."""

    def __init__(self, broker: Any, tables: int, workers: int, schedule: str) -> None:
        ctx = mp.get_context("spawn")
        self.pipes: list[Any] = []
        self.procs: list[Any] = []
        for w in range(workers):
            mine = list(range(w + 1, tables + 1, workers))
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve_tables, args=(broker, mine, schedule, theirs),
                               daemon=True)
            proc.start()
            self.pipes.append(ours)
            self.procs.append(proc)
        for p in self.pipes:
            if not p.poll(120) or p.recv() != "ready":
                raise TimeoutError("a worker's table connections did not come up")

    def publish(self, table: int, topic: str, payload: bytes) -> None:
        self.pipes[(table - 1) % len(self.pipes)].send([(table, topic, payload)])

    def close(self) -> tuple[dict[int, dict[int, float]], list[float], int]:
        """Stop the workers; when each table had each level, each report's wait for its
        acknowledgement on its table's connection (ms), and the bytes of seating
        directories the tables heard."""
        got: dict[int, dict[int, float]] = {}
        acked_ms: list[float] = []
        seating = 0
        for p in self.pipes:
            with contextlib.suppress(OSError):
                p.send(None)
        for p, proc in zip(self.pipes, self.procs, strict=True):
            with contextlib.suppress(OSError, EOFError):
                if p.poll(30):
                    heard_by, waits, seating_bytes = p.recv()
                    acked_ms += waits
                    seating += seating_bytes
                    for period, heard in heard_by.items():
                        got.setdefault(period, {}).update(heard)
            proc.join(10)
        return got, acked_ms, seating


PACE, PACE_BURST = 20.0, 60.0   # reports a second, and at once, from one table


class TableField(MqttField):
    """The virtual tables: each report goes out on its own table's connection; every
    bust acknowledged is kept. A table reports no faster than PACE a second (with its
    live snapshots, within the director's per-table budget): the last tables of a
    field, dealt as fast as acknowledgements come, would otherwise be cut there."""

    def __init__(self, *args: Any, tables: TableConnections, dashboard: dict[str, Any],
                 **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.conns = tables
        self.dash = dashboard
        self.busts: list[str] = []
        self._pace: dict[int, tuple[float, float]] = {}   # table -> (reports allowed, at)

    def publish(self, table: int, topic: str, payload: bytes) -> None:
        self.conns.publish(table, topic, payload)

    def report(self, report: AnyTableReport, t: float) -> bool:
        now = time.monotonic()
        allowed, at = self._pace.get(report.table, (PACE_BURST, now))
        allowed = min(PACE_BURST, allowed + (now - at) * PACE)
        if allowed < 1.0:
            time.sleep((1.0 - allowed) / PACE)
            allowed, now = 1.0, time.monotonic()
        self._pace[report.table] = (allowed - 1.0, now)
        self.dash["sent_at"][report.id] = time.time()
        self.dash["expect"][report.table] = report.id
        return super().report(report, t)

    def _took(self, rep: dict[str, Any]) -> bool:
        ok = super()._took(rep)
        if ok and rep["kind"] == "bust":
            self.busts.append(rep["id"])
        return ok


def run(entrants: int, tables: int, sections: int, level_s: float, in_flight: int = 8,
        workers: int = 2, cards: bool = False,
        languages: tuple[str, ...] = ()) -> dict[str, Any]:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    work = Path(tempfile.mkdtemp(prefix="pk-festival-"))
    broker = Mosquitto(workdir=str(work)).start()
    http = free_port()
    (work / "bench.toml").write_text(structure(level_s))
    (work / "room.toml").write_text(room_toml(tables, sections, broker.port, http,
                                              work / "bench.toml", languages))
    (work / "players.csv").write_text(    # with --cards, each a check-in card
        "name" + (",card" if cards else "") + (",language" if languages else "") + "\n"
        + "".join(f"Entrant {i + 1}" + (f",04{i:010X}" if cards else "")
                  + (f",{languages[i % len(languages)]}" if languages else "") + "\n"
                  for i in range(entrants)))
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "director", "--config",
                             str(work / "room.toml"), "--players", str(work / "players.csv"),
                             "--start", "--ready"], stdout=subprocess.DEVNULL,
                            stderr=open(work / "director.log", "wb"))  # noqa: SIM115
    topics = Topics(ROOM)
    out: dict[str, Any] = {"entrants": entrants, "tables": tables, "sections": sections,
                           "in_flight": in_flight, "workers": workers, "cards": cards,
                           "languages": list(languages)}
    conns: TableConnections | None = None
    field: TableField | None = None
    got: dict[int, dict[int, float]] = {}
    try:
        # every table's connection hears the schedule: when each has each level
        conns = TableConnections(broker.config, tables, workers, topics.schedule(EVENT))
        dash: dict[str, Any] = {"expect": {}, "sent_at": {}, "lat": []}
        field = TableField(broker.config, EVENT, client_id="festival-tables", room=ROOM,
                           ack_timeout=300, tables=conns, dashboard=dash, window=in_flight)
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
        began_close = time.perf_counter()
        got, acked_ms, seating = conns.close()
        conns = None
        out["report_ack_p50_ms"] = round(pct(acked_ms, 50), 2)
        out["report_ack_p99_ms"] = round(pct(acked_ms, 99), 2)
        out["reports"] = len(acked_ms)
        # the same waits as the dealers' process saw them, behind its own work
        out["report_ack_dealers_p99_ms"] = round(pct(field.ack_ms, 99), 2)
        # the seating directories every table heard, a second of play (check-in cards)
        out["seating_kb_per_s"] = round(seating / 1e3 / (began_close - began), 1)
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
    if out["places_complete"]:
        shutil.rmtree(work, ignore_errors=True)
    else:
        out["kept"] = str(work)      # the log and the director's output, to look into
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
    """When the first level began: the clock the start set (a minute after the start
    under a profile whose dealers prepare their decks first, TDA 2024 RP-20)."""
    store = open_store(work / "room.db")
    try:
        for ev in store.stream(EVENT).read():
            if isinstance(ev, ClockSet) and ev.why == "start":
                return float(ev.clock["anchor"])
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
        busted = {ev.player: ev for ev in store.stream(EVENT).read() if ev.kind == "busted"}
        events = store.last_seq
    finally:
        store.close()
    placed = tour.places()
    out = {"log_events": events, "replay_s": round(replay_s, 2),
           "lost_acked": sum(1 for rid in busts
                             if rid not in {ev.report for ev in busted.values()}),
           **_places_check(placed, busted, entrants),
           "winner": tour.finished_at is not None}
    if not out["places_complete"]:   # what is wrong with them, to look into
        seen = Counter(placed.values())
        out["places_missing"] = [n for n in range(1, entrants + 1) if n not in seen][:20]
        out["unplaced"] = sorted((pid, tour.players[pid].status) for pid in tour.players
                                 if pid not in placed)[:20]
    return out


def _places_check(placed: dict[str, int], busted: dict[str, Any],
                  entrants: int) -> dict[str, Any]:
    """Places 1..N, each once, except a place shared by a tie: players out in the same
    hand who began it with the same stack share it (TDA), and the next place is the one
    after all of them (two at 910th, then 912th). Every shared place is checked to be
    such a tie."""
    seen = Counter(placed.values())
    ranking, before = len(placed) == entrants, 0
    for p in sorted(seen):
        ranking, before = ranking and p == before + 1, before + seen[p]
    shared = {p: [pid for pid, q in placed.items() if q == p]
              for p, k in seen.items() if k > 1}
    false_ties = sorted(p for p, pids in shared.items()
                        if len({(tuple(busted[x].group), busted[x].stack)
                                if x in busted else x for x in pids}) != 1)
    return {"places_complete": ranking and not false_ties,
            "places_shared": len(shared), "false_ties": false_ties[:20]}


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
    ap.add_argument("--in-flight", type=int, default=8,
                    help="reports awaiting their acknowledgement at once, across the tables")
    ap.add_argument("--workers", type=int, default=2,
                    help="processes that hold the tables' connections")
    ap.add_argument("--cards", action="store_true",
                    help="every entrant has a check-in card (the seating directory)")
    ap.add_argument("--languages", default="",
                    help="the room's languages, comma-separated (the tables and entrants "
                         "take them in turn)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.entrants < 20:
        ap.error("--entrants must be at least 20")
    tables = args.tables or max(math.ceil(args.entrants / SEATS) + 2,
                                558 if args.entrants >= 5000 else 0)
    if not 6 <= args.sections <= tables:
        ap.error("--sections must be 6 or more, at most one a table")
    if args.in_flight < 1 or args.workers < 1:
        ap.error("--in-flight and --workers must be at least 1")
    try:
        languages = tuple(check(c) for c in args.languages.split(",") if c.strip())
    except UnknownLanguage as exc:
        ap.error(f"--languages: {exc}")
    out = run(args.entrants, tables, args.sections, args.level_seconds, args.in_flight,
              args.workers, args.cards, languages)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    ok = out["lost_acked"] == 0 and out["places_complete"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
