"""The directors update themselves, standby first, while the tables deal.

A real Mosquitto, a scratch database on the machine's PostgreSQL, two directors
(`pokerkiosk director --standby --update-root`), each under its supervisor
(kiosk.releases.supervisor) with its own install folder standing in for
/opt/pokerkiosk on its own machine, and N table kiosks dealing all along
(update_bench.Table). Two releases, built as wheels from the working tree with bumped
versions, are asked for with `pokerkiosk release self-update`:

1. a tampered one (a wheel changed after signing): both directors refuse it;
2. a broken one (its director exits at start): the standby takes it and goes back by
   itself; the leader, with no successor on it, never hands over;
3. a good one: the standby switches, the leader hands over and switches, and comes back
   as the standby;
4. with the standby stopped, one more with `--alone`: the leader switches at once (the
   short stop of a room with one director).

Measured: how long the room had no leader (the lease sampled every 50 ms), the command's
time, and every report a table made looked for once in the log.

    python bench/director_update_bench.py --tables 4 --json
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
from harness.pg_admin import scratch_database
from update_bench import BASE, SEATS, Table, bench_main, build_wheel, bumped, first_env, wait

from kiosk.director.standby.self_update import TABLES
from kiosk.mqtt.broker import Mosquitto, free_port, stop_process
from kiosk.releases.ab import Install
from kiosk.releases.signing import make_key


class Machine:
    """One director machine: its config, its install folder and its supervisor."""

    def __init__(self, work: Path, name: str, dsn: str, broker_port: int, pub: Path) -> None:
        self.dir = work / name
        self.root = self.dir / "opt"
        self.dir.mkdir(parents=True)
        shutil.copy(pub, self.dir / "release.pub")
        (self.dir / "event.toml").write_text(
            '[event]\nname = "bench"\nprofile = "tda-2017"\nstructure = "standard"\n'
            f"seats = {SEATS}\nseed = 7\nbuy_in = 100\nstart_stack = 20000\n\n"
            f'[broker]\nurl = "mqtt://127.0.0.1:{broker_port}"\n\n'
            f'[director]\ndb = "{dsn}"\nhttp = "127.0.0.1:{free_port()}"\n')
        first_env(self.root)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, *extra: str) -> None:
        out = (self.dir / "director.log").open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk.releases.supervisor", str(self.root), "--ready",
             "60", "--crash", "15", "--", "director", "--config", "event.toml", "--standby",
             "--update-root", str(self.root), *extra], cwd=self.dir, stdout=out, stderr=out)

    def switches(self) -> list[dict[str, Any]]:
        return Install(self.root).switches()

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, grace=15)   # type: ignore[arg-type]


class Watch:
    """The lease, sampled every 50 ms: the longest stretch with no valid leader."""

    def __init__(self, dsn: str) -> None:
        self.dsn, self.gaps, self.holders = dsn, [0.0], []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as db:
            since = None
            while not self.stop.wait(0.05):
                row = db.execute("SELECT holder, expires > clock_timestamp() FROM lease "
                                 "WHERE room = 'bench'").fetchone()
                now = time.monotonic()
                if row and row[1]:
                    if since is not None:
                        self.gaps.append(now - since)
                        since = None
                    if not self.holders or self.holders[-1] != row[0]:
                        self.holders.append(row[0])
                elif since is None:
                    since = now


def versions(dsn: str) -> list[tuple[str, str, str]]:
    """(role, version, update state) of each director seen in the last 5 s."""
    with psycopg.connect(dsn, autocommit=True) as db:
        for stmt in TABLES:
            db.execute(stmt)   # type: ignore[arg-type]
        return [tuple(r) for r in db.execute(
            "SELECT role, version, state FROM director_versions WHERE seen > "
            "clock_timestamp() - interval '5 s' ORDER BY role")]


def logged_reports(dsn: str) -> list[str]:
    with psycopg.connect(dsn, autocommit=True) as db:
        bodies = [bytes(r[0]) for r in db.execute("SELECT body FROM events")]
    return [r for r in (json.loads(b).get("report") for b in bodies) if r]


def self_update(work: Path, machine: Machine, key: Path, version: str,
                *extra: str) -> tuple[int, str, float]:
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "kiosk", "release", "self-update", version,
                        "--config", str(machine.dir / "event.toml"), "--dir",
                        str(work / "store"), "--key", str(key), "--timeout", "300", *extra],
                       capture_output=True, text=True, timeout=700)
    return r.returncode, r.stdout or r.stderr, time.monotonic() - t0


def run(tables: int, work: Path, dsn: str) -> dict[str, Any]:
    good_v, broken_v, alone_v, tampered_v = (bumped(BASE, n) for n in (11, 12, 13, 14))
    builds = work / "builds"
    builds.mkdir()
    wheels = [build_wheel(builds, good_v), build_wheel(builds, alone_v),
              build_wheel(builds, tampered_v),
              build_wheel(builds, broken_v, broken=True, part="director")]
    key, pub = work / "keys" / "release-signing.key", work / "keys" / "release.pub"
    make_key(key, pub)
    for wheel in wheels:
        subprocess.run([sys.executable, "-m", "kiosk", "release", "add", str(wheel),
                        "--dir", str(work / "store"), "--key", str(key)], check=True,
                       capture_output=True, timeout=120)
    stored = work / "store" / tampered_v / wheels[2].name
    stored.write_bytes(stored.read_bytes()[:-10] + b"tampered!!")
    (work / "broker").mkdir()
    broker = Mosquitto(workdir=str(work / "broker")).start()
    a = Machine(work, "a", dsn, broker.port, pub)
    b = Machine(work, "b", dsn, broker.port, pub)
    (a.dir / "players.csv").write_text("name,card\n" + "".join(
        f"Player {i + 1},C{i + 1:04d}\n" for i in range(tables * SEATS)))
    watch = Watch(dsn)
    kiosks: list[Table] = []
    result: dict[str, Any] = {"tables": tables, "from": BASE, "good": good_v}
    try:
        a.start("--players", "players.csv", "--start", "--ready")
        wait(lambda: ("leader", BASE, "current") in versions(dsn), 120, "director a leading")
        b.start()
        wait(lambda: ("standby", BASE, "current") in versions(dsn), 120, "director b following")
        kiosks = [Table(work, n, broker.port, free_port(), pub) for n in range(1, tables + 1)]
        for t in kiosks:
            t.start()
        dealers = [threading.Thread(target=t.deal, args=(random.Random(t.n),), daemon=True)
                   for t in kiosks]
        for d in dealers:
            d.start()
        watch.thread.start()
        time.sleep(3)
        code, out, _ = self_update(work, a, key, tampered_v)
        result["tampered_exit"], result["tampered_said"] = code, out.strip().splitlines()[-1]
        result["tampered_switched"] = sum(s["to"] == tampered_v
                                          for m in (a, b) for s in m.switches())
        code, out, _ = self_update(work, a, key, broken_v)
        result["broken_exit"], result["broken_said"] = code, out.strip().splitlines()[-1]
        result["broken_rolled_back"] = sum(s["to"] == broken_v for s in b.switches())
        result["broken_leader_switched"] = sum(s["to"] == broken_v for s in a.switches())
        code, out, took = self_update(work, a, key, good_v)
        result["good_exit"], result["self_update_s"] = code, round(took, 1)
        result["good_said"] = out.strip().splitlines()
        sa, sb = ([s for s in m.switches() if s["to"] == good_v] for m in (a, b))
        result["standby_first"] = bool(sa and sb and sb[0]["at"] < sa[0]["at"]
                                       and sb[0]["role"] == "standby"
                                       and sa[0]["role"] == "leader")
        result["directors_after"] = versions(dsn)
        gaps = len(watch.gaps)
        b.stop()
        wait(lambda: [r[0] for r in versions(dsn)] == ["leader"], 30, "the standby gone")
        code, out, took = self_update(work, a, key, alone_v, "--alone")
        result["alone_exit"], result["alone_s"] = code, round(took, 1)
        result["alone_leaderless_s"] = round(max([0.0, *watch.gaps[gaps:]]), 2)
        for t in kiosks:
            t.stop.set()
        for d in dealers:
            d.join(60)
        wait(lambda: all(t.pending() == 0 for t in kiosks), 120, "outboxes empty")
        watch.stop.set()
        result["leaders"] = len(watch.holders)
        result["leaderless_max_s"] = round(max(watch.gaps[:gaps]), 2)
        sent = [i for t in kiosks for i in t.ids]
        logged = logged_reports(dsn)
        result["reports"] = len(sent)
        result["reports_lost"] = len(set(sent) - set(logged))
    finally:
        watch.stop.set()
        for t in kiosks:
            t.quit()
        for m in (a, b):
            m.stop()
        broker.stop()
    return result


def on_scratch_database(tables: int, work: Path) -> dict[str, Any]:
    with scratch_database() as dsn:
        return run(tables, work, dsn)


def main(argv: list[str] | None = None) -> int:
    return bench_main(argv, __doc__ or "", on_scratch_database, 4, "director-update-")


if __name__ == "__main__":
    sys.exit(main())
