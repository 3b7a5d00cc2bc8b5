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

from kiosk.broker import free_port, start_broker, wait_port
from kiosk.config import load_event_config
from kiosk.director.service import Director
from kiosk.sim.buttons import ButtonPresser
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
    p.add_argument("--kiosk", choices=("auto", "yes", "no"), default="auto",
                   help="leave table 1 to a real `pokerkiosk table`; auto (the default): "
                        "yes when a display is present and Kivy is installed (the window "
                        "opens by itself), otherwise no. With yes and no display, the "
                        "kiosk's command is printed (opened when a display "
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
    display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    args.kiosk = args.kiosk == "yes" or (args.kiosk == "auto" and display and _has_kivy())
    banner = [f"broker      {config.broker.url} ({type(broker).__name__})",
              f"dashboard   http://{config.http_host}:{config.http_port}/   "
              "(floor login: floor / floor)",
              f"TV clock    http://{config.http_host}:{config.http_port}/clock",
              f"event log   {config.db}"]
    kiosk = None
    if args.kiosk:
        table_toml = _write_table_config(folder, url)
        banner.append(f"table 1     pokerkiosk table --config {table_toml}")
        if display:
            kiosk = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "table", "--config",
                                      str(table_toml)])
    try:
        asyncio.run(_serve(director, args, banner))
    finally:
        if kiosk is not None:
            kiosk.terminate()
        broker.stop()
    return 0


def _has_kivy() -> bool:
    try:
        import kivy  # noqa: F401
    except ImportError:
        return False
    return True


def _write_table_config(folder: Path, broker_url: str) -> Path:
    path = folder / "table-1.toml"
    path.write_text(f'[table]\nnumber = 1\nevent = "demo"\nstate_dir = "table-1"\n\n'
                    f'[broker]\nurl = "{broker_url}"\n\n[gpio]\nenabled = false\n\n'
                    f'[ui]\nsize = "1280x720"\n')
    return path


async def _serve(director: Director, args: argparse.Namespace, banner: list[str]) -> None:
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
        await loop.run_in_executor(None, wait_port, director.config.http_port)
        print("\n".join([*banner, "Ctrl-C stops the demo."]), flush=True)
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
                    skip=frozenset({1}) if args.kiosk else frozenset(),
                    buttons=ButtonPresser(field, args.seed))
    with contextlib.suppress(SystemExit):
        sim.run()
        log.info("the demo tournament is over; the dashboard stays up (Ctrl-C to stop)")
    field.close()
