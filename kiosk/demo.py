"""`pokerkiosk demo`: a whole room on one machine.

A broker (Mosquitto if installed, otherwise an embedded one), the director with its
floor dashboard and TV clock, and simulated tables that deal in real time over the
real protocol. Ctrl-C stops everything.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from kiosk.broker import free_port, start_broker
from kiosk.config import load_event_config
from kiosk.director.service import Director
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

log = logging.getLogger("kiosk.demo")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=45, help="entrants (default 45)")
    p.add_argument("--profile", default="tda-2017")
    p.add_argument("--structure", default="turbo")
    p.add_argument("--hand-seconds", type=float, default=30.0,
                   help="average length of a simulated hand (default 30)")
    p.add_argument("--http", default="127.0.0.1:8080", help="dashboard address")
    p.add_argument("--broker", choices=("mosquitto", "embedded"), default="mosquitto",
                   help="which broker to start (default: Mosquitto when installed)")
    p.add_argument("--dir", help="keep the event log here (default: a temporary folder)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kiosk", action="store_true",
                   help="leave table 1 to a real `pokerkiosk table` (opened when a display "
                        "is present; otherwise its command is printed)")


def _write_config(folder: Path, args: argparse.Namespace, broker_url: str) -> Path:
    host, _, port = args.http.rpartition(":")
    if int(port) == 0:
        port = str(free_port())
    path = folder / "event.toml"
    path.write_text(
        f'[event]\nname = "demo"\nprofile = "{args.profile}"\nstructure = "{args.structure}"\n'
        f"seats = 9\nseed = {args.seed}\nbuy_in = 100\n\n"
        f'[broker]\nurl = "{broker_url}"\n\n'
        f'[director]\ndb = "demo.db"\nhttp = "{host}:{port}"\n'
        f'floor_users = {{ floor = "floor" }}\n')
    (folder / "players.csv").write_text("name,card\n" + "".join(
        f"{name},D{i + 1:04d}\n" for i, name in enumerate(_names(args.players))))
    return path


def _names(n: int) -> list[str]:
    first = ["Anna", "Bo", "Cian", "Dara", "Eve", "Finn", "Gus", "Hana", "Ines", "Jon", "Kate",
             "Liam", "Mia", "Noel", "Orla", "Pat", "Rose", "Sean", "Tess", "Ula"]
    last = ["Byrne", "Ryan", "Walsh", "Kelly", "Nolan", "Burke", "Doyle", "Quinn", "Lynch"]
    return [f"{first[i % len(first)]} {last[(i // len(first)) % len(last)]}" +
            (f" {i // 180 + 1}" if i >= 180 else "") for i in range(n)]


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir or tempfile.mkdtemp(prefix="pokerkiosk-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    broker = start_broker(args.broker)
    url = f"mqtt://127.0.0.1:{broker.port}" + ("?mqtt311" if broker.config.mqtt_version == 3
                                               else "")
    config = load_event_config(_write_config(folder, args, url))
    director = Director(config)
    if not director.tour.players:
        director.import_csv((folder / "players.csv").read_text())
    if not director.tour.started:
        director.act({"kind": "start"})
    print(f"broker      {config.broker.url} ({type(broker).__name__})")
    base = f"http://{config.http_host}:{config.http_port}"
    print(f"dashboard   {base}/   (floor login: floor / floor)")
    print(f"TV clock    {base}/clock")
    print(f"event log   {config.db}")
    kiosk = None
    if args.kiosk:
        table_toml = _write_table_config(folder, url)
        print(f"table 1     pokerkiosk table --config {table_toml}")
        if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
            kiosk = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "table", "--config",
                                      str(table_toml)])
    print("Ctrl-C stops the demo.", flush=True)
    try:
        asyncio.run(_serve(director, args))
    finally:
        if kiosk is not None:
            kiosk.terminate()
        broker.stop()
    return 0


def _write_table_config(folder: Path, broker_url: str) -> Path:
    path = folder / "table-1.toml"
    path.write_text(f'[table]\nnumber = 1\nevent = "demo"\nstate_dir = "table-1"\n\n'
                    f'[broker]\nurl = "{broker_url}"\n\n[gpio]\nenabled = false\n\n'
                    f'[ui]\nsize = "1280x720"\n')
    return path


async def _serve(director: Director, args: argparse.Namespace) -> None:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    stop = threading.Event()
    tables = threading.Thread(target=_deal, args=(director, args, stop), daemon=True,
                              name="demo-tables")
    serving = asyncio.ensure_future(director.serve(web=True))
    try:
        await asyncio.wait_for(director.connected.wait(), 15)
        tables.start()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
    finally:
        stop.set()
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving


def _deal(director: Director, args: argparse.Namespace, stop: threading.Event) -> None:
    """The simulated tables: real-time hands over MQTT until the event ends."""
    field = MqttField(director.config.broker, director.config.name, client_id="demo-tables")
    field.wait_ready()
    start = time.monotonic()

    def pace(t: float) -> None:
        while not stop.is_set() and time.monotonic() - start < t:
            time.sleep(min(0.2, t - (time.monotonic() - start)))
        if stop.is_set():
            raise SystemExit

    sim = Simulator(len(director.tour.players), profile=director.tour.profile.id,
                    seed=args.seed, structure=director.tour.structure, field=field,
                    hand_seconds=args.hand_seconds, pace=pace,
                    skip=frozenset({1}) if args.kiosk else frozenset())
    with contextlib.suppress(SystemExit):
        sim.run()
        log.info("the demo tournament is over; the dashboard stays up (Ctrl-C to stop)")
    field.close()
