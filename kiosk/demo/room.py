"""`pokerkiosk demo`: a whole room on one machine.

A broker (Mosquitto if installed, otherwise an embedded one), the director with its
floor dashboard and TV clock, and simulated tables that deal in real time over the
real protocol. Ctrl-C (or SIGTERM, or SIGHUP when the terminal closes) stops
everything: the broker and the kiosk window go with the demo, and the temporary
folder is removed unless --dir or --keep says otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple

from kiosk.base.errors import KioskError
from kiosk.config import floor_users
from kiosk.config.files import LOOPBACK
from kiosk.config.public import network_address, unreachable
from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.demo import dealers as demo_dealers
from kiosk.demo.buttons import ButtonPresser
from kiosk.demo.versions import SimVersions
from kiosk.director.service import Director
from kiosk.mqtt.broker import free_port, start_broker, wait_port
from kiosk.protocol.messages import encode
from kiosk.rules.loader import DEFAULT_PROFILE
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

log = logging.getLogger("kiosk.demo")


@dataclass
class DemoOptions:
    """What `pokerkiosk demo` was asked for (kiosk.commands.demo parses it); `kiosk`
    ("auto", "yes" or "no") becomes whether a real kiosk joins as table 1."""

    players: int = 45
    profile: str = DEFAULT_PROFILE
    structure: str = "turbo"
    hand_seconds: float = 30.0
    http: tuple[str, int] | None = None
    broker: str = "mosquitto"
    dir: str | None = None
    keep: bool = False
    seed: int = 1
    printer: str | None = None
    kiosk: str | bool = "auto"
    language: str = "en"          # the room's (docs/languages.md); English beside it
    time_scale: float = 1.0   # tests only: the demo's one clock runs this many times as fast


PORT = 8080
NO_NETWORK = ("none found: the QR codes point phones at 127.0.0.1, which only this "
              "machine reaches")


ROOM = "demo"
DAILY, SATELLITE, TARGET = "daily", "sunday-sat", "sunday"
LEAGUE = "season"     # the demo's league over its three events (/p/league/season)
FREE_TABLES = 2       # the room keeps two tables free, so the floor can move one
SEATS = 9


def satellite_players(players: int) -> int:
    """The satellite's field beside a daily of `players`: one table's worth or so."""
    return max(6, min(SEATS, players // 5))


def room_tables(players: int) -> int:
    """Tables provisioned to the demo room: both events' draws and two free ones."""
    return -(-players // SEATS) + -(-satellite_players(players) // SEATS) + FREE_TABLES


def _write_config(folder: Path, args: DemoOptions, broker_url: str,
                  host: str, port: int, phones: str | None = None) -> Path:
    """room.toml: the daily and a satellite to Sunday's main event (announced, not open,
    taking reservations from phones), and a league over the three. `phones`: the address
    the QR codes give (the dashboard's own by default)."""
    path = folder / "room.toml"
    printer = getattr(args, "printer", None)
    public = f"http://{phones or host}:{port}"
    sat = satellite_players(args.players)
    event = (f'profile = "{args.profile}"\nstructure = "{args.structure}"\n'
             f"seats = {SEATS}\n")
    spoken = json.dumps(list(dict.fromkeys([getattr(args, "language", "en") or "en", "en"])))
    path.write_text(
        f'[room]\nname = "{ROOM}"\ntitle = "Demo Room"\n'
        f"tables = {room_tables(args.players)}\nlanguages = {spoken}\n\n"
        f'[broker]\nurl = "{broker_url}"\n\n'
        f'[director]\ndb = "demo.db"\nhttp = "{host}:{port}"\npublic_url = "{public}"\n\n'
        + (f"[printer]\nport = {json.dumps(printer)}\n"
           f'player_url = "{public}/p/{{event}}"\n\n' if printer else "")
        +
        f'[[events]]\nname = "{DAILY}"\ntitle = "Daily 100"\n{event}seed = {args.seed}\n'
        f"buy_in = 100\n\n"
        f'[[events]]\nname = "{TARGET}"\ntitle = "Sunday Main"\n{event}'
        f"seed = {args.seed + 2}\nbuy_in = 300\nscheduled = true\nreservations = true\n"
        f'starts = "{next_sunday()}"\n\n'
        f'[[events]]\nname = "{SATELLITE}"\ntitle = "Satellite to Sunday"\n'
        f'kind = "satellite"\ntarget = "{TARGET}"\n{event}seed = {args.seed + 1}\n'
        f"buy_in = 100\n[events.money]\nseat_value = 300\n\n"
        f'[[leagues]]\nname = "{LEAGUE}"\ntitle = "Demo Room season"\nformula = "sqrt"\n'
        f'events = ["{DAILY}", "{SATELLITE}", "{TARGET}"]\n\n'
        + demo_dealers.roster_toml(room_tables(args.players) - FREE_TABLES))
    # the demo's two logins: the floor's role (the play, the tables, the dealers) and the
    # director's (everything: events, sections, the roster), each named in the banner
    floor_users.save(folder / floor_users.FILE, {
        floor_users.DEMO_USER: floor_users.hash_password(floor_users.DEMO_PASSWORD),
        floor_users.DEMO_DIRECTOR: floor_users.hash_password(
            floor_users.DEMO_DIRECTOR_PASSWORD)}, {floor_users.DEMO_USER: "floor"})
    # the satellite's field: new faces, and two of the daily's players playing both
    rows = [f"{name},D{i + 1:04d}\n" for i, name in enumerate(_names(args.players + sat))]
    (folder / f"{DAILY}.csv").write_text("name,card\n" + "".join(rows[:args.players]))
    both = min(2, args.players)
    (folder / f"{SATELLITE}.csv").write_text(
        "name,card\n" + "".join(rows[args.players - both:args.players - both + sat]))
    return path


def next_sunday(now: float | None = None) -> str:
    """When the demo's Sunday Main starts (ISO 8601, the room's zone): the coming Sunday,
    19:00; each page says it in its reader's language."""
    day = datetime.fromtimestamp(time.time() if now is None else now, UTC).date()
    day += timedelta(days=(6 - day.weekday()) % 7 or 7)
    return f"{day.isoformat()}T19:00"


def _names(n: int) -> list[str]:
    first = ["Anna", "Bo", "Cian", "Dara", "Eve", "Finn", "Gus", "Hana", "Ines", "Jon", "Kate",
             "Liam", "Mia", "Noel", "Orla", "Pat", "Rose", "Sean", "Tess", "Ula"]
    last = ["Byrne", "Ryan", "Walsh", "Kelly", "Nolan", "Burke", "Doyle", "Quinn", "Lynch"]
    return [f"{first[i % len(first)]} {last[(i // len(first)) % len(last)]}" +
            (f" {i // 180 + 1}" if i >= 180 else "") for i in range(n)]


class _Stop(BaseException):
    """SIGTERM or SIGHUP before the event loop runs: unwind through every `finally`."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop(signum)


def _claim(host: str, port: int) -> int:
    """Fail early, before a broker starts or a URL is printed, when the port is taken."""
    if port == 0:
        return free_port()
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            raise KioskError(f"cannot serve the dashboard on {host}:{port}: {exc.strerror} "
                             "(another program holds it? try --http 127.0.0.1:0)") from None
    return port


class Address(NamedTuple):
    """Where the dashboard listens, the address the QR codes give phones, and a word for
    the banner when no phone can reach that one."""

    host: str
    port: int
    phones: str
    note: str = ""

    @property
    def base(self) -> str:
        return f"http://{self.phones}:{self.port}/"


def _address(http: tuple[str, int] | None) -> Address:
    """The demo's address: by default this machine's on its network (found without sending
    anything), so a phone that scans the TV's QR code reaches the players' pages."""
    host, port = http or ("", PORT)
    if host in ("", "0.0.0.0", "::"):
        found = network_address()
        listen = host or found or "127.0.0.1"
        return Address(listen, port, found) if found else \
            Address(listen, port, "127.0.0.1", NO_NETWORK)
    if unreachable(host):
        return Address(host, port, host, f"the dashboard listens on {host} only: the QR "
                       "codes reach no phone (--http 0.0.0.0:PORT serves the network)")
    return Address(host, port, host)


def run_demo(args: DemoOptions) -> int:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    where = _address(args.http)
    where = where._replace(port=_claim(where.host, where.port))
    temporary = args.dir is None
    folder = Path(args.dir or tempfile.mkdtemp(prefix="pokerkiosk-demo-"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return _run_in(folder, args, where)
    except _Stop:
        return 0
    finally:
        if temporary and not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


def _run_in(folder: Path, args: DemoOptions, where: Address) -> int:
    broker = start_broker(args.broker, die_with_parent=True, workdir=folder / "broker")
    kiosk = None
    try:
        url = f"mqtt://127.0.0.1:{broker.port}" + ("?mqtt311" if broker.config.mqtt_version
                                                   == 3 else "")
        # the file says 127.0.0.1 (a room's config refuses the network without HTTPS);
        # the demo, with its public demo login, then listens where phones reach it
        local = where.host if where.host in LOOPBACK else "127.0.0.1"
        room = load_director_config(_write_config(folder, args, url, local, where.port,
                                                  where.phones))
        config = dataclasses.replace(room, director=dataclasses.replace(
            room.director, allow_default_logins=True, http_host=where.host))
        director = Director(config, clock=scaled_clock(args.time_scale))
        _open_room(director, folder)
        display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        args.kiosk = args.kiosk == "yes" or (args.kiosk == "auto" and display and _has_kivy())
        banner = _banner(director, args, where, f"{config.broker.url} "
                                                f"({type(broker).__name__})")
        if args.kiosk:
            table_toml = _write_table_config(folder, url)
            banner.append(f"table 1     pokerkiosk table --config {table_toml}")
            if display:
                kiosk = subprocess.Popen([sys.executable, "-m", "kiosk", "table",
                                          "--config", str(table_toml)])
        asyncio.run(_serve(director, args, banner))
    finally:
        if kiosk is not None:
            kiosk.terminate()
            kiosk.wait()
        broker.close()
    return 0


def _banner(director: Director, args: DemoOptions, where: Address,
            broker: str) -> list[str]:
    """What the demo prints: where everything is, at the address phones reach."""
    base, config = where.base, director.config
    free = director.room.free_tables()
    users = floor_users
    lines = [f"broker      {broker}",
             f"dashboard   {base}   (logins: {users.DEMO_USER} / {users.DEMO_PASSWORD} "
             f"the floor's role, {users.DEMO_DIRECTOR} / {users.DEMO_DIRECTOR_PASSWORD} "
             "the director's)",
             f"TV clock    {base}clock",
             f"dealers     {base}dealers   (the break room's roadmap; a dealer's phone: "
             f"{base}dealers?dealer=Ann)",
             f"section     {base}floor/section   (a section's calls, on a floor phone)",
             f"room        {config.title}: {len(director.room.pool)} tables, "
             f"free {', '.join(map(str, free)) or 'none'}",
             *(f"event       {d.title} ({d.name}): tables "
               f"{', '.join(map(str, director.room.tables_of(d.name))) or 'none'}"
               for d in director.events.values()),
             f"rules       {director.tour.profile.name} ({director.tour.profile.id})"
             + (", the default for new events" if director.tour.profile.id == DEFAULT_PROFILE
                else ""),
             f"players     {base}p/{director.tour.event}   (the TV clock's QR code)",
             f"reserve     {base}p/{TARGET}   (Sunday Main takes reservations from phones)",
             f"league      {base}p/league/{LEAGUE}   (on the TV: {base}clock?league={LEAGUE})",
             f"event log   {config.db}" + ("" if args.dir or args.keep else
                                            " (removed at the end; --keep keeps it)")]
    if where.note:
        lines.insert(3, f"network     {where.note}")
    lines.append(f"printer     {base}printer   " + (
        f"(queue and reprints of {args.printer})" if config.printer is not None else
        "(no printer: --printer PORT connects one)"))
    return lines


def _open_room(director: Director, folder: Path) -> None:
    """Register both events' players and start them (once: a kept --dir restarts where
    it stopped). The satellite's payouts are locked, as a floor does before it plays."""
    for event in (DAILY, SATELLITE):
        tour = director.events[event].tour
        if not tour.players:
            director.import_csv((folder / f"{event}.csv").read_text(), event)
        if not director.events[event].tour.started:
            director.act(commands.Start(ready=True), event=event)   # dealing from the first minute
    if director.events[SATELLITE].tour.locked is None:
        director.act(commands.LockPayouts(), user="floor", event=SATELLITE)


def scaled_clock(scale: float) -> Callable[[], float]:
    """The demo's one clock: the director's, which its simulated tables, their hands and
    its dealers all follow. A test runs it `scale` times as fast, so nine minutes of the
    room play in less; every part of the demo still meets every other in the same order
    and at the same distance on that clock."""
    if scale == 1.0:
        return time.time
    start = time.time()
    return lambda: start + (time.time() - start) * scale


def _has_kivy() -> bool:
    try:
        import kivy  # noqa: F401
    except ImportError:
        return False
    return True


def _write_table_config(folder: Path, broker_url: str) -> Path:
    path = folder / "table-1.toml"
    path.write_text(f'[table]\nnumber = 1\nroom = "{ROOM}"\nstate_dir = "table-1"\n\n'
                    f'[broker]\nurl = "{broker_url}"\n\n[gpio]\nenabled = false\n\n'
                    f'[ui]\nsize = "1280x720"\n')
    return path


TABLES = "simulated tables"
DEALT = (DAILY, SATELLITE)   # the events the demo's dealers play (Sunday only takes tickets)
RESTARTS = 3          # the simulated tables come back this often before the demo gives up


async def _serve(director: Director, args: DemoOptions, banner: list[str]) -> None:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, task.cancel)
    stop = threading.Event()
    over: asyncio.Future[BaseException | None] = loop.create_future()

    def settle(exc: BaseException | None) -> None:
        if not over.done():
            over.set_result(exc)

    def done(exc: BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):   # a table's thread outlived a stopped demo
            loop.call_soon_threadsafe(settle, exc)

    left = [len(DEALT)]

    def one_done(exc: BaseException | None) -> None:
        """A failure stops the demo at once; success only once every event is over."""
        left[0] -= 1
        if exc is not None or left[0] == 0:
            done(exc)

    tables = [threading.Thread(target=_deal, args=(director, args, event, stop, one_done),
                               daemon=True, name=f"demo-tables-{event}") for event in DEALT]
    serving = asyncio.ensure_future(director.serve(web=True))
    try:
        connected = asyncio.ensure_future(director.connected.wait())
        await asyncio.wait({serving, connected}, timeout=15,
                           return_when=asyncio.FIRST_COMPLETED)
        if serving.done():
            connected.cancel()
            serving.result()            # the director could not start: say why
        if not connected.done():
            connected.cancel()
            raise KioskError(f"the director did not reach the broker at "
                             f"{director.config.broker.url} within 15 s")
        await loop.run_in_executor(None, wait_port, director.config.http_port,
                                   10.0, director.config.http_host)
        print("\n".join([*banner, "Ctrl-C stops the demo."]), flush=True)
        for thread in tables:
            thread.start()
        demo_dealers.DemoDealers(director, stop, args.seed,     # the rotation runs
                                 getattr(args, "time_scale", 1.0)).start()
        with contextlib.suppress(asyncio.CancelledError):
            either: list[asyncio.Future[Any]] = [serving, over]
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if over.done() and over.result() is not None:
                raise KioskError(f"the {TABLES} stopped for good: {over.result()!r} "
                                 "(traceback in the log above)")
            await serving
    finally:
        stop.set()
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving


def _deal(director: Director, args: DemoOptions, event: str, stop: threading.Event,
          done: Callable[[BaseException | None], None]) -> None:
    """One event's simulated tables: real-time hands over MQTT until the event ends, on
    whichever tables the room gives it. Dealers that fail are logged, shown on the
    dashboard's health line and started again; after RESTARTS failures `done` gets the
    error and the demo stops with a non-zero exit."""
    field = MqttField(director.config.broker, event, client_id=f"demo-tables-{event}",
                      room=director.config.name)
    name = f"{TABLES} ({event})"
    try:
        field.wait_ready()
        if event == DAILY:
            _power_on(director, args, field)
        presser = ButtonPresser(field, args.seed)
        for attempt in range(RESTARTS + 1):
            try:
                _play(director, args, event, stop, field, presser, attempt)
                done(None)
                return
            except SystemExit:
                return                  # the demo is stopping
            except Exception as exc:
                director.task_failed(name, exc, restarted=attempt < RESTARTS)
                if attempt == RESTARTS:
                    done(exc)
                    return
                field.end_open_hands(director.now())
    except Exception as exc:   # no schedule, no broker: the dealers never started
        director.task_failed(name, exc, restarted=False)
        done(exc)
    finally:
        field.close()


def _power_on(director: Director, args: DemoOptions, field: MqttField) -> None:
    """Every simulated kiosk of the room is switched on, the free ones too (they show the
    idle screen): the dashboard shows them online, as in a room whose tables are all up,
    and the room page's Updates panel the version each runs."""
    tables = [t for t in sorted(director.room.pool)
              if not (args.kiosk and t == 1)]      # a real kiosk says so itself
    for table in tables:
        field.client.publish(field.topics.table_status(table),
                             encode({"state": "online", "ts": director.now()}), qos=1,
                             retain=True)
    SimVersions(field, tables).start()


def _play(director: Director, args: DemoOptions, event: str, stop: threading.Event,
          field: MqttField, presser: ButtonPresser, attempt: int) -> None:
    """One run of one event's dealers, on the director's own clock (its time line and
    pace)."""
    def pace(t: float) -> None:
        while not stop.is_set() and (wait := t - director.now()) > 0:
            time.sleep(min(0.2, wait))
        if stop.is_set():
            raise SystemExit

    tour = director.events[event].tour
    skip = frozenset({1}) if args.kiosk and director.table_event(1) == event else frozenset()
    sim = Simulator(len(tour.players), profile=tour.profile.id, seed=args.seed + attempt,
                    structure=tour.structure, field=field, hand_seconds=args.hand_seconds,
                    pace=pace, skip=skip, buttons=presser, start=director.now(),
                    report_prefix=f"s{director.epoch:.0f}-{event}-{attempt}-")
    res = sim.run()
    if not field.finished():   # never "over" while the event plays on: deal again
        raise RuntimeError(f"the dealers of {event} stopped before it ended: "
                           + "; ".join(res.violations))
    log.info("%s is over; the dashboard stays up (Ctrl-C to stop)", event)
