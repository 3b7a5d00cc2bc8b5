"""Roll kiosk releases out to a room of table kiosks, as processes, while they deal.

A real Mosquitto, a director (`pokerkiosk director`, with its dashboard) and N table
kiosks (`pokerkiosk table --headless`), each under its supervisor
(kiosk.releases.supervisor) with its own install folder standing in for /opt/pokerkiosk.
Every table deals hands all along. Three releases go out, each built as a wheel from the
working tree with a bumped version:

1. a tampered one (a wheel changed after signing): every table refuses it;
2. a broken one (its kiosk exits at start): every table takes it and rolls back;
3. a good one, to the first half of the tables (the room then deals on two versions for a
   while), then to every table: each switches, between hands, with its outbox empty.

Then the drivers stop, the outboxes drain, and every report a table accepted is looked
for in the director's log.

    python bench/update_bench.py --tables 20 --json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import kiosk
from kiosk.director.log.store import EventLog
from kiosk.mqtt.broker import Mosquitto, free_port, stop_process
from kiosk.releases.ab import Install
from kiosk.releases.signing import make_key
from kiosk.system.passwords import hash_line

ROOT = Path(__file__).resolve().parents[1]
BASE = kiosk.__version__
SEATS = 9
MIXED_S = 10.0    # the room deals on two versions this long before the rest follow


def bumped(version: str, step: int) -> str:
    parts = version.split(".")
    return ".".join([*parts[:-1], str(int(parts[-1]) + step)])


def build_wheel(work: Path, version: str, broken: bool = False, part: str = "table") -> Path:
    """The working tree's kiosk as a wheel of `version` (offline, `pip wheel --no-deps`);
    `broken`: its table kiosk (or director, `part`) exits at start."""
    src = work / f"src-{version}"
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(ROOT / "kiosk", src / "kiosk",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for rel in ("pyproject.toml", "kiosk/__init__.py"):
        p = src / rel
        p.write_text(p.read_text().replace(f'version = "{BASE}"', f'version = "{version}"')
                     .replace(f'__version__ = "{BASE}"', f'__version__ = "{version}"'))
    if broken:
        cli = src / "kiosk" / "commands" / f"{part}.py"
        cli.write_text(cli.read_text().replace(
            "def run(args: argparse.Namespace) -> int:\n",
            "def run(args: argparse.Namespace) -> int:\n"
            "    raise SystemExit('this release is broken on purpose')\n"))
    out = work / "wheels"
    if (out / f"poker_kiosk-{version}-py3-none-any.whl").exists() and \
            os.environ.get("PK_BENCH_REUSE_WHEELS"):
        return out / f"poker_kiosk-{version}-py3-none-any.whl"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out),
                    str(src)], check=True, capture_output=True, timeout=600)
    return out / f"poker_kiosk-{version}-py3-none-any.whl"


def first_env(root: Path) -> None:
    """The version running today in the install folder `root`: a virtual environment
    whose packages are this Python's (a `pokerkiosk-base.pth` layer, carried into every
    new environment)."""
    env = Install(root).env(BASE)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site = next(env.glob("lib/python*/site-packages"))
    purelib = sysconfig.get_paths()["purelib"]
    (site / "pokerkiosk-base.pth").write_text(f"import site; site.addsitedir({purelib!r})\n")
    exe = env / "bin" / "pokerkiosk"
    exe.write_text(f"#!{env}/bin/python\nimport sys\nfrom kiosk.commands.main import main\n"
                   "sys.exit(main())\n")
    exe.chmod(0o755)
    Install(root).point("current", BASE)


class Table:
    """One table's card, install folder, supervisor and dealer."""

    def __init__(self, work: Path, n: int, broker_port: int, web_port: int, pub: Path) -> None:
        self.n = n
        self.dir = work / "tables" / f"t{n}"
        etc, self.root, self.state = self.dir / "etc", self.dir / "opt", self.dir / "state"
        for d in (etc, self.root, self.state):
            d.mkdir(parents=True, exist_ok=True)
        shutil.copy(pub, etc / "release.pub")
        self.password = f"secret-{n}"
        (etc / "table.toml").write_text(
            f'[table]\nnumber = {n}\nroom = "bench"\nstate_dir = "{self.state}"\n\n'
            f'[broker]\nurl = "mqtt://127.0.0.1:{broker_port}"\nusername = "table-{n}"\n'
            f'password = "{self.password}"\n\n[gpio]\nenabled = false\n')
        (etc / "update.toml").write_text(
            f'[update]\nroot = "{self.root}"\nurl = "http://127.0.0.1:{web_port}"\n'
            f'public_key = "release.pub"\nretry_s = 600\npoll_s = 0.5\n')
        self.config = etc / "table.toml"
        first_env(self.root)
        self.lines: list[tuple[float, str]] = []
        self.ids: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def start(self) -> None:
        log = (self.dir / "kiosk.log").open("a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk.releases.supervisor", str(self.root), "--ready", "30",
             "--crash", "20", "--", "table", "--config", str(self.config), "--headless"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            with self.lock:
                self.lines.append((time.time(), line.strip()))

    def readies(self) -> list[float]:
        with self.lock:
            return [t for t, line in self.lines if line.startswith(f"table {self.n} ready")]

    def send(self, command: str, timeout: float = 60.0) -> dict[str, Any] | None:
        """One command, its JSON answer; sent again when the kiosk restarted and the
        line went with the old process."""
        assert self.proc is not None and self.proc.stdin is not None
        with self.lock:
            n, starts = len(self.lines), len(self.readies_unlocked())
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for _, line in self.lines[n:]:
                    if line.startswith("{"):
                        return dict(json.loads(line))
                restarted = len(self.readies_unlocked()) > starts
            if restarted:
                time.sleep(0.5)
                return self.send(command, max(1.0, end - time.monotonic()))
            time.sleep(0.02)
        return None

    def readies_unlocked(self) -> list[float]:
        return [t for t, line in self.lines if line.startswith(f"table {self.n} ready")]

    def deal(self, rng: random.Random) -> None:
        """Hands, one after another, until told to stop: a new hand, a pause, its end."""
        while not self.stop.is_set():
            for command in ("new", "end"):
                reply = self.send(command)
                if reply and reply.get("ok") and reply.get("report"):
                    self.ids.append(reply["report"])
                time.sleep(rng.uniform(0.2, 0.8))

    def pending(self) -> int:
        with contextlib.closing(sqlite3.connect(self.state / f"table-{self.n}.db")) as db:
            return int(db.execute("SELECT count(*) FROM outbox").fetchone()[0])

    def quit(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(OSError):
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                stop_process(self.proc)   # type: ignore[arg-type]


class Room:
    def __init__(self, work: Path, tables: int) -> None:
        self.work = work
        (work / "broker").mkdir(parents=True, exist_ok=True)
        self.broker = Mosquitto(workdir=str(work / "broker"))
        self.web_port = free_port()
        self.key, self.pub = work / "keys" / "release-signing.key", work / "keys" / "release.pub"
        make_key(self.key, self.pub)
        self.n = tables
        self.director: subprocess.Popen[bytes] | None = None
        self.tables: list[Table] = []

    def start(self) -> None:
        self.broker.start()
        d = self.work / "director"
        d.mkdir()
        (d / "event.toml").write_text(
            '[event]\nname = "bench"\nprofile = "tda-2017"\nstructure = "standard"\n'
            f"seats = {SEATS}\nseed = 7\nbuy_in = 100\nstart_stack = 20000\n\n"
            f'[broker]\nurl = "mqtt://127.0.0.1:{self.broker.port}"\n\n'
            f'[director]\ndb = "event.db"\nhttp = "127.0.0.1:{self.web_port}"\n')
        (d / "players.csv").write_text("name,card\n" + "".join(
            f"Player {i + 1},C{i + 1:04d}\n" for i in range(self.n * SEATS)))
        (d / "table-logins").write_text("".join(
            hash_line(f"table-{n}", f"secret-{n}") + "\n" for n in range(1, self.n + 1)))
        with (d / "director.log").open("ab") as out:
            self.director = subprocess.Popen(
                [sys.executable, "-m", "kiosk", "director", "--config", "event.toml",
                 "--players", "players.csv", "--start", "--ready"], cwd=d, stdout=out, stderr=out)
        wait(lambda: self.api() is not None, 30, "the director's dashboard")
        self.tables = [Table(self.work, n, self.broker.port, self.web_port, self.pub)
                       for n in range(1, self.n + 1)]
        for t in self.tables:
            t.start()

    def api(self) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/api/releases",
                                        timeout=5) as r:
                return dict(json.loads(r.read()))
        except OSError:
            return None

    def rows(self) -> list[dict[str, Any]]:
        found = self.api()
        return [r for r in (found or {}).get("tables", []) if r["table"] <= self.n]

    def release(self, *args: str) -> str:
        r = subprocess.run([sys.executable, "-m", "kiosk", "release", *args, "--dir",
                            str(self.work / "director" / "releases"), "--key", str(self.key)],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"release {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def stop(self) -> None:
        for t in self.tables:
            t.stop.set()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda t: t.quit(), self.tables))
        stop_process(self.director, grace=10)
        self.broker.stop()


def wait(cond: Any, timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.25)
    raise TimeoutError(f"{what}: not within {timeout:.0f} s")


def all_in(room: Room, version: str, states: set[str]) -> bool:
    rows = room.rows()
    return len(rows) == room.n and all(r["wanted"] == version and r["state"] in states
                                       for r in rows)


def roll(room: Room, version: str, timeout: float, done: Any) -> float:
    """Roll `version` out to every table, told to switch now; seconds until `done`."""
    t0 = time.monotonic()
    room.release("rollout", version)
    room.release("now", f"1-{room.n}")
    try:
        wait(lambda: done(room), timeout, f"rollout of {version}")
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}; the tables: {json.dumps(room.rows())}") from None
    return time.monotonic() - t0


def first_tables(room: Room, version: str, timeout: float) -> dict[str, Any]:
    """`version` to the first half of the room only, as a floor trying a release on a few
    tables: once they run it, the room deals on two versions for MIXED_S; what each half
    reported meanwhile (every report must reach the director's log all the same)."""
    half = max(1, room.n // 2)
    t0 = time.monotonic()
    room.release("rollout", version, "--tables", f"1-{half}")
    room.release("now", f"1-{half}")
    wait(lambda: sum(r["version"] == version and r["online"] for r in room.rows()) == half,
         timeout, f"{version} on tables 1-{half}")
    took = time.monotonic() - t0
    marks = {t.n: len(t.ids) for t in room.tables}
    time.sleep(MIXED_S)
    rows = room.rows()
    new = [t.ids[marks[t.n]:] for t in room.tables if t.n <= half]
    old = [t.ids[marks[t.n]:] for t in room.tables if t.n > half]
    return {"first_tables": half, "first_tables_s": round(took, 1),
            "mixed_versions": sorted({str(r["version"]) for r in rows}),
            "mixed_others_untouched": all(r["wanted"] is None and r["version"] == BASE
                                          for r in rows if r["table"] > half),
            "mixed_reports_new": sum(map(len, new)), "mixed_reports_old": sum(map(len, old)),
            "ids": [i for ids in new + old for i in ids]}


def run(tables: int, work: Path) -> dict[str, Any]:
    tampered_v, broken_v, good_v = bumped(BASE, 3), bumped(BASE, 2), bumped(BASE, 1)
    builds = work / "builds"
    builds.mkdir(exist_ok=True)
    with ThreadPoolExecutor(3) as pool:
        good, broken, tampered = pool.map(lambda a: build_wheel(builds, *a),
                                          [(good_v, False), (broken_v, True),
                                           (tampered_v, False)])
    room = Room(work, tables)
    result: dict[str, Any] = {"tables": tables}
    try:
        room.start()
        wait(lambda: all_in(room, None, {"current"}) and  # type: ignore[arg-type]
             all(r["online"] and r["version"] == BASE for r in room.rows()),
             120, "every table online")
        dealers = [threading.Thread(target=t.deal, args=(random.Random(t.n),), daemon=True)
                   for t in room.tables]
        for d in dealers:
            d.start()
        for wheel in (tampered, broken, good):
            room.release("add", str(wheel))
        stored = work / "director" / "releases" / tampered_v / tampered.name
        stored.write_bytes(stored.read_bytes()[:-10] + b"tampered!!")
        timeout = 120 + 30 * tables    # each table installs with pip: slow on a busy machine
        result["refused_s"] = round(roll(room, tampered_v, timeout, lambda r: all_in(
            r, tampered_v, {"refused"})), 1)
        result["refused"] = sum(r["state"] == "refused" and r["version"] == BASE
                                for r in room.rows())
        result["refused_reason"] = room.rows()[0]["reason"]
        result["rolled_back_s"] = round(roll(room, broken_v, timeout, lambda r: all_in(
            r, broken_v, {"rolled back"})), 1)
        result["rolled_back"] = sum(r["state"] == "rolled back" and r["version"] == BASE
                                    for r in room.rows())
        result["rolled_back_reason"] = room.rows()[0]["reason"]
        starts = {t.n: len(t.readies()) for t in room.tables}
        t0 = time.monotonic()
        mixed = first_tables(room, good_v, timeout)
        result.update({k: v for k, v in mixed.items() if k != "ids"})
        result["rollout_s"] = round(roll(room, good_v, timeout, lambda r: all(
            row["version"] == good_v and row["online"] for row in r.rows())
            and len(r.rows()) == r.n) + mixed["first_tables_s"], 1)
        result["rollout_wall_s"] = round(time.monotonic() - t0, 1)
        result["updated"] = sum(r["version"] == good_v for r in room.rows())
        down = []
        for t in room.tables:
            switch = [s for s in Install(t.root).switches() if s["to"] == good_v][-1]
            after = [ts for ts in t.readies()[starts[t.n]:] if ts >= switch["at"]]
            down.append(after[0] - switch["at"] if after else float("inf"))
        down.sort()
        result["table_downtime_p99_s"] = round(down[max(0, int(0.99 * len(down)) - 1)
                                                   if len(down) < 100 else
                                                   int(0.99 * len(down))], 2)
        result["table_downtime_max_s"] = round(down[-1], 2)
        for t in room.tables:
            t.stop.set()
        for d in dealers:
            d.join(60)
        wait(lambda: all(t.pending() == 0 for t in room.tables), 60, "outboxes empty")
        switches = [s for t in room.tables for s in Install(t.root).switches()]
        result["switches"] = len(switches)
        result["switches_mid_hand"] = sum(bool(s["in_hand"]) for s in switches)
        result["switches_with_reports_waiting"] = sum(s["pending"] > 0 for s in switches)
        sent = {i for t in room.tables for i in t.ids}
        logged = {e.get("report") for e in EventLog(work / "director" / "event.db").read()}
        result["reports"] = len(sent)
        result["reports_lost"] = len(sent - logged)
        result["mixed_reports_lost"] = len(set(mixed["ids"]) - logged)
    finally:
        room.stop()
    return result


def bench_main(argv: list[str] | None, doc: str, run_bench: Callable[[int, Path], Any],
               tables: int, prefix: str) -> int:
    """The command line of a rollout bench: --tables, --json, --keep FOLDER."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--tables", type=int, default=tables)
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.add_argument("--keep", help="work in this folder and keep it (logs, installs)")
    a = p.parse_args(argv)
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix=prefix))
    work.mkdir(parents=True, exist_ok=True)
    try:
        result = run_bench(a.tables, work)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    if a.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:32} {v}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return bench_main(argv, __doc__ or "", run, 20, "update-bench-")


if __name__ == "__main__":
    sys.exit(main())
