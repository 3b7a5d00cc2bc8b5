"""The individual checks behind `pokerkiosk doctor`: each returns one Check, never raises.

Each check names the thing it looked at and, when it fails, what to do about it, in
words a person setting up a room at 7 pm can act on.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kiosk.appliance import touch as touch_
from kiosk.base.errors import KioskError
from kiosk.config.database import (
    STORE_SCHEMA,
    connect,
    is_dsn,
    one_line,
    replication,
    schema_error,
    schema_version,
    shown,
)
from kiosk.config.files import BrokerConfig, EventConfig, GpioConfig, TableConfig
from kiosk.system import gpiochip

DEV = Path("/dev")
UNSTABLE_TTY = re.compile(r".*/tty(USB|ACM)\d+")   # numbered in the order they were found
ROOT = Path("/")     # where /sys and /dev/gpiochip* are read (a fake tree in tests)
MAX_OFFSET_S = 0.5   # tables more than half a second apart show different countdowns


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    status: str          # OK, WARN, FAIL or SKIP
    name: str
    message: str
    fix: str = ""

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    def line(self) -> str:
        text = f"{self.status:<4} {self.name}: {self.message}"
        return f"{text} — fix: {self.fix}" if self.fix else text


def ok(name: str, message: str) -> Check:
    return Check("OK", name, message)


def fail(name: str, message: str, fix: str) -> Check:
    return Check("FAIL", name, message, fix)


# ------------------------------------------------------------------------- broker
_REFUSED = {
    # Mosquitto answers a wrong password with "not authorized" (135), not 134.
    134: "bad user name or password", 135: "not authorized (wrong user name or password)",
    4: "bad user name or password", 5: "not authorized (wrong user name or password)",
}


def broker(cfg: BrokerConfig, *, timeout: float = 5.0) -> Check:
    """Log in exactly as the service will: same url, user, password and CA.

    Topic permissions are not probed: Mosquitto grants every SUBSCRIBE and drops what
    the ACL forbids silently, and a test publish would disturb the live tournament.
    """
    from kiosk.mqtt.client import make_client

    cfg = replace(cfg, more=())    # exactly this broker, not the next one that answers
    name, url = "broker", cfg.url
    as_user = f" as {cfg.username}" if cfg.username else " anonymously"
    if cfg.tls and cfg.ca_file and not Path(cfg.ca_file).is_file():
        return fail(name, f"CA file {cfg.ca_file} not found",
                    f"copy ca.crt from the provision output to {cfg.ca_file}")
    client = make_client(f"pokerkiosk-doctor-{socket.gethostname()}-{os.getpid()}", cfg)
    client.connect_timeout = timeout
    result: dict[str, Any] = {}
    client.on_connect = lambda _c, _u, _f, rc, _p: result.setdefault("rc", rc)
    try:
        client.connect(cfg.host, cfg.port, keepalive=10)
    except ConnectionRefusedError:
        return fail(name, f"nothing listening on {cfg.host}:{cfg.port} ({url})",
                    "start the broker on the director (systemctl status mosquitto) "
                    "and check the port in [broker] url")
    except socket.gaierror:
        return fail(name, f"cannot resolve host {cfg.host!r} ({url})",
                    "check the director's name or address in [broker] url and that "
                    "this Pi is on the room network")
    except ssl.SSLCertVerificationError as exc:
        return fail(name, f"TLS certificate of {url} rejected ({exc.verify_message})",
                    "use the ca.crt from the same provision run, and a host name the "
                    "certificate lists (provision --director-host)")
    except TimeoutError:
        return fail(name, f"no answer from {cfg.host}:{cfg.port} within {timeout:g} s",
                    "check the network and any firewall between this Pi and the director")
    except (ssl.SSLError, OSError) as exc:
        return fail(name, f"cannot connect to {url} ({exc})",
                    "check [broker] url; mqtts:// needs the broker's TLS port (8883)")
    try:
        deadline = time.monotonic() + timeout
        while "rc" not in result and time.monotonic() < deadline:
            client.loop(timeout=0.1)
        rc = result.get("rc")
        if rc is None:
            return fail(name, f"{url} accepted the connection but sent no MQTT answer "
                              f"within {timeout:g} s",
                        "the port is in use by something other than Mosquitto; check "
                        "[broker] url and `ss -ltnp` on the director")
        if rc.is_failure:
            reason = _REFUSED.get(rc.value, str(rc))
            return fail(name, f"{url} refused{as_user}: {reason}",
                        "copy this machine's config again from the provision output, and "
                        "install that run's broker/passwd and acl on the director")
        return ok(name, f"connected to {url}{as_user}")
    finally:
        client.disconnect()


def anonymous(cfg: BrokerConfig, *, timeout: float = 5.0) -> Check:
    """A room broker must refuse clients without a login (the ACL means nothing otherwise)."""
    from kiosk.mqtt.client import make_client

    anon = BrokerConfig(host=cfg.host, port=cfg.port, tls=cfg.tls, ca_file=cfg.ca_file,
                        mqtt_version=cfg.mqtt_version)
    try:
        client = make_client(f"pokerkiosk-doctor-anon-{os.getpid()}", anon)
    except (OSError, ssl.SSLError, ValueError):
        return Check("SKIP", "anonymous", "cannot set up TLS (see the broker line)")
    client.connect_timeout = timeout
    result: dict[str, Any] = {}
    client.on_connect = lambda _c, _u, _f, rc, _p: result.setdefault("rc", rc)
    try:
        client.connect(cfg.host, cfg.port, keepalive=10)
        deadline = time.monotonic() + timeout
        while "rc" not in result and time.monotonic() < deadline:
            client.loop(timeout=0.1)
    except (OSError, ssl.SSLError):
        return Check("SKIP", "anonymous", "broker not reachable (see the broker line)")
    finally:
        client.disconnect()
    rc = result.get("rc")
    if rc is None:
        return Check("SKIP", "anonymous", "no answer from the broker")
    if not rc.is_failure:
        return fail("anonymous", f"{cfg.url} accepts clients without a login: any device "
                                 "in the room can read and write every topic",
                    "install the provisioned mosquitto.conf (allow_anonymous false, "
                    "password_file, acl_file) and restart mosquitto")
    return ok("anonymous", f"{cfg.url} refuses clients without a login")


# -------------------------------------------------------------------------- clock
def parse_tracking(text: str) -> tuple[bool, float | None]:
    """(synchronised, offset seconds) from `chronyc tracking` output."""
    leap = re.search(r"^Leap status\s*:\s*(.+)$", text, re.M)
    off = re.search(r"^System time\s*:\s*([0-9.]+) seconds (fast|slow)", text, re.M)
    synced = bool(leap) and leap.group(1).strip() != "Not synchronised"  # type: ignore[union-attr]
    offset = float(off.group(1)) * (1 if off.group(2) == "fast" else -1) if off else None
    return synced, offset


def clock(chronyc: str | None = None) -> Check:
    exe = chronyc or shutil.which("chronyc")
    if exe is None:
        return Check("WARN", "clock", "sync unknown: chronyc not installed",
                     "install chrony (the images do) so tables and director agree on time")
    try:
        proc = subprocess.run([exe, "-n", "tracking"], capture_output=True, text=True,
                              timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("WARN", "clock", f"sync unknown: chronyc failed ({exc})",
                     "systemctl status chrony")
    if proc.returncode != 0:
        return Check("WARN", "clock", "sync unknown: chronyd not answering",
                     "systemctl start chrony")
    synced, offset = parse_tracking(proc.stdout)
    if not synced:
        return fail("clock", "not synchronised",
                    "check that chrony reaches the director: chronyc sources")
    if offset is None:
        return Check("WARN", "clock", "synchronised, offset unknown", "chronyc tracking")
    if abs(offset) > MAX_OFFSET_S:
        return fail("clock", f"{offset:+.3f} s from the reference",
                    "wait a minute for chrony to step, or run chronyc makestep")
    return ok("clock", f"synchronised, offset {offset * 1000:+.1f} ms")


# --------------------------------------------------------------------------- gpio
def gpio(cfg: GpioConfig | None) -> Check:
    if cfg is None:
        return ok("gpio", "disabled in config")
    try:
        from gpiozero import Button, OutputDevice
        from gpiozero.exc import GPIOPinInUse
    except ImportError:
        return fail("gpio", "gpiozero is not installed",
                    "install the table extra: pip install 'poker-kiosk[table]'")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        found = _open_pins(cfg, Button, OutputDevice, GPIOPinInUse)
    if found.failed and said:   # gpiozero's warnings join the line, never break it
        notes = "; ".join(dict.fromkeys(str(w.message).splitlines()[0] for w in said))
        return Check(found.status, found.name, f"{found.message} ({notes})", found.fix)
    return found


def _open_pins(cfg: GpioConfig, Button: Any, OutputDevice: Any, GPIOPinInUse: Any) -> Check:
    pins = {"allin": cfg.allin, "clock": cfg.clock, "floor": cfg.floor,
            "floor_led": cfg.floor_led, "clock_led": cfg.clock_led, "buzzer": cfg.buzzer}
    opened: list[Any] = []
    try:
        for role, pin in pins.items():
            kind = Button if role in ("allin", "clock", "floor") else OutputDevice
            try:
                opened.append(kind(pin, pull_up=True) if kind is Button else kind(pin))
            except GPIOPinInUse:
                return fail("gpio", f"pin {pin} ({role}) is in use",
                            "stop the kiosk first (systemctl stop pokerkiosk-table) or move "
                            f"[gpio] {role} to a free pin")
            except Exception as exc:   # BadPinFactory, PinInvalidPin, permission errors...
                return fail("gpio", f"cannot open pin {pin} ({role}): "
                                    f"{type(exc).__name__}: {exc}",
                            "run on the Pi as a member of group gpio, or set "
                            "[gpio] enabled = false")
    finally:
        for dev in opened:
            dev.close()
    listing = ", ".join(f"{k} {v}" for k, v in pins.items())
    return ok("gpio", f"pins free: {listing}")


def buttons(cfg: GpioConfig | None, root: Path | None = None) -> Check:
    """Whether the header's GPIO chip is there for the buttons (said, not guessed)."""
    if cfg is None:
        return ok("buttons", "GPIO disabled in config: dealing by touch")
    chip, seen = gpiochip.header_chip(ROOT if root is None else root)
    if chip is None:
        return Check("WARN", "buttons", gpiochip.no_chip_line(seen).partition(": ")[2] +
                     "; the kiosk deals by touch only",
                     "run on a Raspberry Pi (3, 4 or 5) with the kernel's GPIO driver, or "
                     "set [gpio] enabled = false")
    return ok("buttons", f"{chip.path} ({chip.label}) has the header's lines")


# -------------------------------------------------------------------------- touch
def touch(config: Path | None = None, root: Path | None = None, *,
          windowed: bool = False) -> Check:
    """Which input devices the kiosk's Kivy config would take as the touch panel. A
    windowed kiosk (a PC, the try-out) is tapped with the mouse: no panel only warns."""
    if config is None:
        config = touch_.INSTALLED if touch_.INSTALLED.exists() else touch_.SHIPPED
    found, message = touch_.summary(config, ROOT if root is None else root)
    if found:
        return ok("touch", message)
    if windowed:
        return Check("WARN", "touch", message + "; windowed, so the mouse taps",
                     "on the table's Pi, plug the panel in")
    return fail("touch", message,
                "plug the panel in (and its dtoverlay in config.txt), or add its name to "
                "a match= of [input] in firmware_cfg/kivy_config.ini (the mtdev line for "
                "a multitouch panel)")


# ------------------------------------------------------------------------- reader
def reader(port: str | None, baud: int) -> Check:
    if not port:
        return ok("reader", "no card reader configured")
    try:
        import serial
    except ImportError:
        return fail("reader", "pyserial is not installed",
                    "install the table extra: pip install 'poker-kiosk[table]'")
    try:
        s = serial.serial_for_url(port, baudrate=baud, timeout=0)
    except serial.SerialException as exc:
        cause = exc.__cause__ or exc.__context__
        why = getattr(cause, "strerror", None) or str(exc)
        fix = ("add the service user to group dialout" if "ermission" in str(why) else
               "enable the UART (firmware_cfg/config.txt), plug the reader in, or set "
               "[reader] port")
        return fail("reader", f"cannot open {port} ({why})", fix)
    except ValueError as exc:
        return fail("reader", f"bad port {port!r} ({exc})", "set [reader] port")
    s.close()
    if UNSTABLE_TTY.fullmatch(port):
        return Check("WARN", "reader", f"{port} opens at {baud} baud, but a USB device's "
                     "number can change at the next boot",
                     "set [reader] port to its /dev/serial/by-id/... name (docs/install.md)")
    return ok("reader", f"{port} opens at {baud} baud")


# ------------------------------------------------------------------------ display
def display(env: dict[str, str] | None = None) -> Check:
    env = dict(os.environ) if env is None else env
    for var in ("WAYLAND_DISPLAY", "DISPLAY"):
        if env.get(var):
            return ok("display", f"{var}={env[var]}")
    cards = sorted(DEV.glob("dri/card*"))
    for node in [*cards, DEV / "fb0"]:
        if node.exists():
            if not os.access(node, os.R_OK | os.W_OK):
                return fail("display", f"{node} exists but is not writable by this user",
                            "add the service user to groups video and render")
            return ok("display", f"{node} ({'KMS' if 'dri' in str(node) else 'framebuffer'})")
    return fail("display", "no DISPLAY, WAYLAND_DISPLAY, /dev/dri/card* or /dev/fb0",
                "connect the display and keep dtoverlay=vc4-kms-v3d in config.txt")


# ----------------------------------------------------------------------- director
def running_director(cfg: EventConfig, timeout: float = 3.0) -> dict[str, Any] | None:
    """The health of this event's director if it serves the configured port, else None."""
    host = "127.0.0.1" if cfg.http_host in ("0.0.0.0", "::") else cfg.http_host
    scheme = "https" if cfg.https else "http"
    context = ssl._create_unverified_context() if cfg.https else None  # our own port
    try:
        with urllib.request.urlopen(f"{scheme}://{host}:{cfg.http_port}/api/health",
                                    timeout=timeout, context=context) as r:
            health = json.load(r)
    except (OSError, ValueError, urllib.error.URLError):
        return None
    if not isinstance(health, dict) or health.get("service") != "pokerkiosk-director":
        return None
    return health


def http_port(cfg: EventConfig, health: dict[str, Any] | None) -> Check:
    """The dashboard's port is free, or held by this very event's director."""
    host, port = cfg.http_host, cfg.http_port
    scheme = "https" if cfg.https else "http"
    if health is not None:
        if health.get("event") == cfg.name:
            return ok("http", f"the director of {cfg.name} serves {scheme}://{host}:{port}/")
        return fail("http", f"{host}:{port} is served by the director of another event "
                            f"({health.get('event')!r})",
                    "stop that director, or change [director] http")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET,
                       socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            return fail("http", f"cannot listen on {host}:{port} ({exc.strerror})",
                        "another program holds the port (`ss -ltnp`); stop it or change "
                        "[director] http")
    return ok("http", f"{host}:{port} is free for the dashboard ({scheme})")


def director_broker(cfg: EventConfig, health: dict[str, Any] | None,
                    timeout: float) -> Check:
    """Through the running director when there is one: logging in as `director` would
    take over its session (one client id per login)."""
    if health is None:
        return broker(cfg.broker, timeout=timeout)
    if health.get("broker_connected"):
        return ok("broker", f"the running director is connected to {cfg.broker.url} as "
                            f"{cfg.broker.username or 'anonymous'}")
    return fail("broker", f"the running director is not connected to {cfg.broker.url}",
                "journalctl -u pokerkiosk-director -b says why; check the broker "
                "(systemctl status mosquitto) and [broker] in event.toml")


def director_health(health: dict[str, Any] | None) -> list[Check]:
    """What the running director's health line says: commands a bug refused (each in its
    log with the traceback) and what it flagged. WARN, not FAIL: the setup is sound and
    the room goes on, but someone should read the log."""
    if health is None:
        return []
    errors = health.get("internal_errors")
    flagged = health.get("failed")
    out = []
    if isinstance(errors, int) and errors > 0:
        out.append(Check("WARN", "health", f"the running director refused {errors} "
                         "command(s) on an internal error (a bug; nothing of them written)",
                         "journalctl -u pokerkiosk-director | grep -A40 'internal error' "
                         "shows each with its traceback: report it"))
    if isinstance(flagged, dict):
        out += [Check("WARN", "health", f"{what}: {why}",
                      "journalctl -u pokerkiosk-director -b says more")
                for what, why in sorted(flagged.items())]
    return out or [ok("health", "the running director met no internal error")]


def floor_logins(cfg: EventConfig) -> Check:
    from kiosk.config import floor_users

    where = cfg.floor_users_file or "the config"
    if not cfg.floor_users:
        return fail("floor", f"no floor users in {where}: nobody can act on the dashboard",
                    f"pokerkiosk floor-user add NAME --config {cfg.source}")
    weak = sorted(u for u, h in cfg.floor_users.items()
                  if floor_users.has_default_password(u, h))
    if weak:
        return fail("floor", f"{', '.join(weak)} in {where} has a password anyone could guess",
                    f"pokerkiosk floor-user add {weak[0]} --config {cfg.source}")
    return ok("floor", f"{len(cfg.floor_users)} floor user(s), none with a default password")


def public_address(cfg: EventConfig) -> Check:
    """The address the players' QR codes carry: `[director] public_url`, else the
    dashboard's own, which phones cannot reach when it is 127.0.0.1. WARN: the room runs,
    but a phone that scans the TV clock finds nothing."""
    from kiosk.config import public as qr

    why = qr.phones_cannot_reach(cfg)
    if why is None:
        return ok("qr", f"QR codes point phones at {qr.public_base(cfg)}")
    here = qr.network_address()
    example = f"https://{here}:{cfg.http_port}" if here else "https://poker.example.org"
    return Check("WARN", "qr", why, f'set [director] public_url = "{example}", the address '
                 "phones reach the director by (serving it there takes tls_cert and tls_key "
                 "on that address, or a proxy in front)")


def database(db: str) -> Check:
    if is_dsn(db):
        return pg_database(db)
    folder = Path(db).parent
    if not folder.is_dir():
        return fail("db", f"folder {folder} does not exist",
                    "create it (the director unit's StateDirectory does) or change "
                    "[director] db")
    if not os.access(folder, os.W_OK):
        return fail("db", f"{folder} is not writable by this user",
                    "run as the pokerkiosk user or fix the folder's owner")
    return ok("db", f"event log {db}" + (" (exists)" if Path(db).exists() else " (new)"))


def each_broker(cfg: BrokerConfig) -> list[BrokerConfig]:
    """One config per broker of `[broker] urls`: a table must reach every one of them."""
    return [replace(cfg, host=h, port=p, more=()) for h, p in cfg.addresses]


def pg_database(dsn: str) -> Check:
    """A PostgreSQL log: reachable, of our schema version, and where it stands in
    replication (a primary with no standby is a single point of failure: said, not failed)."""
    try:
        conn = connect(dsn)
    except KioskError as exc:
        return fail("db", str(exc), "start PostgreSQL, or fix [director] db (user, host, "
                    "port, database name)")
    try:
        version = schema_version(conn)
        role = replication(conn)
    except Exception as exc:
        return fail("db", f"{shown(dsn)}: {one_line(exc)}", "check the database's logs")
    finally:
        conn.close()
    if version not in (0, STORE_SCHEMA):
        return fail("db", str(schema_error(shown(dsn), version)),
                    "point [director] db at this release's database, or upgrade pokerkiosk")
    held = f"schema version {version}" if version else "empty (the director creates it)"
    return ok("db", f"event log {shown(dsn)}: {held}; {role}")


def table_checks(cfg: TableConfig, timeout: float) -> list[Check]:
    brokers = each_broker(cfg.broker)
    return [*(broker(b, timeout=timeout) for b in brokers),
            *(anonymous(b, timeout=timeout) for b in brokers),
            clock(), buttons(cfg.gpio), gpio(cfg.gpio), reader(cfg.reader_port, cfg.reader_baud),
            display(), touch(windowed=not cfg.fullscreen)]


def director_checks(cfg: EventConfig, timeout: float) -> list[Check]:
    health = running_director(cfg)
    return [director_broker(cfg, health, timeout), anonymous(cfg.broker, timeout=timeout),
            clock(), http_port(cfg, health), *director_health(health), database(cfg.db),
            floor_logins(cfg), public_address(cfg)]
