"""`pokerkiosk provision`: everything a room needs before the SD cards are written.

One broker user per table plus the director, the broker's password file and ACL
(table n may only write its own topics), a mosquitto.conf, optionally a private CA
and server certificate, and the config file each Pi reads. Re-running keeps every
existing password and the CA, so adding tables never touches the tables already set up.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from kiosk.appliance import broker_files, credentials
from kiosk.base import tomlwrite
from kiosk.base.errors import KioskError
from kiosk.base.files import PUBLIC, SECRET, write
from kiosk.config import floor_users
from kiosk.config.files import LOOPBACK, parse_http
from kiosk.protocol.topics import check_event_name
from kiosk.releases.signing import make_key
from kiosk.system import tls

STATE_DIR = "/var/lib/pokerkiosk"


@dataclass(frozen=True)
class Room:
    """What one provisioning run decided; returned for tests and the summary."""

    out: Path
    event: str
    tables: list[int]
    added: list[str]
    tls: bool
    broker_url: str
    dashboard: str = ""


def provision(out: Path, *, event: str, tables: int, use_tls: bool = False,
              director_host: str | None = None, port: int | None = None,
              config_dir: str = "/etc/pokerkiosk",
              broker_dir: str = "/etc/mosquitto/pokerkiosk", state_dir: str = STATE_DIR,
              reader_port: str | None = "/dev/ttyAMA0", dashboard: str | None = None) -> Room:
    """Write (or bring up to date) every file of a room in `out`."""
    try:
        check_event_name(event)
    except ValueError as exc:
        raise KioskError(str(exc)) from None
    if tables < 1:
        raise KioskError("--tables must be at least 1")
    dashboard = dashboard or ("0.0.0.0:8443" if use_tls else "127.0.0.1:8080")
    try:
        web_host, web_port = parse_http(dashboard)
    except ValueError as exc:
        raise KioskError(f"--dashboard: {exc}") from None
    if web_host not in LOOPBACK and not use_tls:
        raise KioskError(f"--dashboard {dashboard} would send floor passwords across the "
                         "room in clear: add --tls, or keep it on 127.0.0.1")
    try:
        out.mkdir(parents=True, exist_ok=True)
        out.chmod(0o700)
    except OSError as exc:
        raise KioskError(f"cannot use --out {out}: {exc.strerror}") from None
    secrets = credentials.load(out, event, director_host)
    added = secrets.ensure(tables)
    credentials.save(out, secrets)

    port = port or (8883 if use_tls else 1883)
    layout = broker_files.BrokerLayout(broker_dir=broker_dir, port=port, tls_port=port)
    broker = out / "broker"
    write(broker / "passwd", broker_files.password_file(secrets.users), SECRET)
    write(broker / "acl", broker_files.acl_file(event, secrets.tables), PUBLIC)
    write(broker / "mosquitto.conf", broker_files.mosquitto_conf(layout, tls=use_tls), PUBLIC)

    director = out / "director"
    _write_floor_users(director / floor_users.FILE, secrets.floor_users)
    ca_file = None
    if use_tls:
        pki = tls.TlsFiles(ca_key=out / "ca" / "ca.key", ca_cert=out / "ca" / "ca.crt",
                           server_key=broker / "server.key", server_cert=broker / "server.crt")
        tls.ensure_pki(pki, event, secrets.director_host)
        for dest in (broker, director, out / "tables"):
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pki.ca_cert, dest / "ca.crt")
        # The dashboard serves HTTPS with the broker's certificate (same host, same names).
        write(director / "https.crt", pki.server_cert.read_bytes(), PUBLIC)
        write(director / "https.key", pki.server_key.read_bytes(), SECRET)
        ca_file = f"{config_dir}/ca.crt"
    else:
        for stale in (broker / "server.key", broker / "server.crt", broker / "ca.crt",
                      director / "https.crt", director / "https.key"):
            stale.unlink(missing_ok=True)   # a plain room must not look half-TLS

    release_keys(out, secrets.users)
    scheme = "mqtts" if use_tls else "mqtt"
    table_url = f"{scheme}://{secrets.director_host}:{port}"
    write(director / "event.toml", _event_toml(secrets, f"{scheme}://127.0.0.1:{port}",
                                               ca_file, state_dir, use_tls, dashboard), SECRET)
    for n in secrets.tables:
        write(out / "tables" / f"table-{n}.toml",
              _table_toml(secrets, n, table_url, ca_file, reader_port, state_dir), SECRET)
    updates = out / "tables" / "update.toml"
    if use_tls:
        write(updates, _update_toml(f"https://{secrets.director_host}:{web_port}"), PUBLIC)
    else:
        updates.unlink(missing_ok=True)   # the dashboard stays on the director itself
    shown = secrets.director_host if web_host in ("0.0.0.0", "::") else web_host
    return Room(out=out, event=event, tables=secrets.tables, added=added, tls=use_tls,
                broker_url=table_url,
                dashboard=f"{'https' if use_tls else 'http'}://{shown}:{web_port}/")


def release_keys(out: Path, users: dict[str, str]) -> None:
    """The release signing key (made once, kept), its public half for every table, and
    the tables' logins the director checks before it serves a release (docs/updates.md)."""
    key = out / "director" / "release-signing.key"
    if not key.exists():
        make_key(key, out / "director" / "release.pub")
    (out / "tables").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(out / "director" / "release.pub", out / "tables" / "release.pub")
    tables = {u: pw for u, pw in users.items() if u != broker_files.DIRECTOR_USER}
    write(out / "director" / "table-logins", broker_files.password_file(tables), SECRET)


def _write_floor_users(path: Path, plain: dict[str, str]) -> None:
    """Hashes of the floor passwords; a hash that still matches is kept as it is."""
    old = floor_users.load(path)
    users = {u: old[u] if u in old and floor_users.verify(old[u], pw)
             else floor_users.hash_password(pw) for u, pw in plain.items()}
    if users != old or not path.exists():
        floor_users.save(path, users)


def _event_toml(s: credentials.RoomSecrets, url: str, ca_file: str | None,
                state_dir: str, use_tls: bool, dashboard: str) -> str:
    web: dict[str, object] = {"http": dashboard}
    if use_tls:
        web = {"http": dashboard, "tls_cert": "https.crt", "tls_key": "https.key"}
    host, port = parse_http(dashboard)
    if host in ("0.0.0.0", "::"):   # the QR codes name the machine as the tables do
        web["public_url"] = f"{'https' if use_tls else 'http'}://{s.director_host}:{port}"
    return tomlwrite.dumps({
        "event": {"name": s.event},
        "broker": {"url": url, "username": broker_files.DIRECTOR_USER,
                   "password": s.users[broker_files.DIRECTOR_USER], "ca_file": ca_file},
        "director": {"db": f"{state_dir}/event.db", **web},
    }, "Director config for this room (pokerkiosk provision). Contains passwords: mode 0600.\n"
       "Set profile, structure, seats, start_stack ... under [event] BEFORE the first start\n"
       "(docs/config.md). Floor logins: floor-users.toml (pokerkiosk floor-user).")


def _table_toml(s: credentials.RoomSecrets, n: int, url: str, ca_file: str | None,
                reader_port: str | None, state_dir: str) -> str:
    user = broker_files.table_user(n)
    doc: dict[str, dict[str, object]] = {
        "table": {"number": n, "room": s.event, "state_dir": state_dir},
        "broker": {"url": url, "username": user, "password": s.users[user], "ca_file": ca_file},
        "ui": {"size": "800x480", "fullscreen": True},
    }
    if reader_port:
        doc["reader"] = {"port": reader_port, "baud": 9600}
    return tomlwrite.dumps(doc, f"Table {n} of room {s.event} (pokerkiosk provision). "
                                "Contains its broker password: mode 0600.")


def _update_toml(url: str) -> str:
    """The tables' updater (docs/updates.md): releases from the director's HTTPS, checked
    with release.pub, installed into the image's A/B folder."""
    return tomlwrite.dumps({"update": {"root": "/opt/pokerkiosk/ab", "url": url,
                                       "public_key": "release.pub"}},
                           "Every table's updater (pokerkiosk provision): beside table.toml.")


def ranges(nums: list[int]) -> str:
    """1-12 rather than a list of twelve numbers."""
    if not nums:
        return "none"
    return f"{nums[0]}-{nums[-1]}" if nums == list(range(nums[0], nums[-1] + 1)) \
        else ", ".join(map(str, nums))
