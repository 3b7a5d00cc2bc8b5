"""`pokerkiosk provision --tables N --event NAME --out DIR [--tls]`: everything a room needs
before the SD cards are written (kiosk.appliance.provision does it), and where each file
goes."""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.appliance.provision import STATE_DIR, provision, ranges


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tables", type=int, required=True, help="number of tables (1..N)")
    p.add_argument("--event", required=True, help="event name, as used in the MQTT topics")
    p.add_argument("--out", required=True, help="directory for the room's files (kept secret)")
    p.add_argument("--tls", action="store_true", help="broker on TLS only, with a private CA")
    p.add_argument("--director-host",
                   help="name or address the tables use to reach the director's broker "
                        "(default pk-director.local, or the one used last time)")
    p.add_argument("--port", type=int, help="broker port (default 1883, or 8883 with --tls)")
    p.add_argument("--config-dir", default="/etc/pokerkiosk",
                   help="where the Pis keep their config and ca.crt (default %(default)s)")
    p.add_argument("--broker-dir", default="/etc/mosquitto/pokerkiosk",
                   help="where the broker's passwd, acl and certificates go "
                        "(default %(default)s)")
    p.add_argument("--state-dir", default=STATE_DIR,
                   help="where tables keep their outbox and the director its event log "
                        "(default %(default)s)")
    p.add_argument("--dashboard", metavar="HOST:PORT",
                   help="where the director serves the dashboard (default 127.0.0.1:8080; "
                        "with --tls 0.0.0.0:8443, HTTPS for the whole room)")
    p.add_argument("--reader-port", default="/dev/ttyAMA0",
                   help="card reader serial port on the tables, or 'none' (default "
                        "%(default)s, the header's UART); a USB reader by the name that "
                        "stays: /dev/serial/by-id/... (docs/install.md)")


def run(args: argparse.Namespace) -> int:
    room = provision(Path(args.out), event=args.event, tables=args.tables, use_tls=args.tls,
                     director_host=args.director_host, port=args.port,
                     config_dir=args.config_dir, broker_dir=args.broker_dir,
                     state_dir=args.state_dir, dashboard=args.dashboard,
                     reader_port=None if args.reader_port == "none" else args.reader_port)
    print(f"provisioned event {room.event!r}: tables {ranges(room.tables)}, "
          f"broker {room.broker_url}")
    print(f"new users: {', '.join(room.added)}" if room.added
          else "no new users: existing passwords kept")
    print(f"  {room.out}/broker/    -> director Pi {args.broker_dir}/ "
          "(mosquitto.conf -> /etc/mosquitto/mosquitto.conf)")
    print(f"  {room.out}/director/  -> director Pi {args.config_dir}/")
    print(f"  {room.out}/tables/table-N.toml -> table N {args.config_dir}/table.toml"
          + (" (with ca.crt, release.pub and update.toml)" if room.tls
             else " (with release.pub)"))
    print(f"  {room.out}/secrets.toml: every password in clear; keep it off the Pis")
    if room.tls:
        print(f"  {room.out}/ca/ca.key: signs certificates; never copy it to a Pi")
    print(f"dashboard: {room.dashboard} (floor login: secrets.toml [floor_users])"
          + ("" if room.tls else "; plain HTTP stays on the director itself: --tls opens "
             "it to the room"))
    return 0
