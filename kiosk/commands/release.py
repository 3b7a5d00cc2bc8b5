"""`pokerkiosk release ACTION`: kiosk releases on the director machine.

    keygen                          the signing key pair (provisioning makes it too)
    add WHEEL [--wheelhouse DIR]    record a release: its wheels, hashes, signature
    list                            the releases and the rollout
    remove VERSION                  forget a release (not the one rolled out)
    rollout VERSION [--tables 1,2]  make it the tables' wanted version
    hold | resume                   stop / let the tables switch (downloads go ahead)
    now TABLES                      those tables switch at their next moment between hands
    self-update VERSION --config room.toml [--alone]
                                    the directors update themselves: the standby first,
                                    then the hand-over, then the old leader
                                    (kiosk.director.standby.self_update; docs/updates.md)

The running director reads the store's folder within a second and publishes the wanted
version to each table (docs/updates.md).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from kiosk.base.errors import KioskError
from kiosk.releases.signing import make_key
from kiosk.releases.store import ReleaseStore

DEFAULT_DIR = "/var/lib/pokerkiosk/releases"
DEFAULT_KEY = "/etc/pokerkiosk/release-signing.key"
ACTIONS = ("keygen", "add", "list", "remove", "rollout", "hold", "resume", "now",
           "self-update")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=ACTIONS, metavar="ACTION", help=" | ".join(ACTIONS))
    p.add_argument("args", nargs="*", metavar="ARG", help="the wheel, version or tables")
    p.add_argument("--dir", default=os.environ.get("PK_RELEASES", DEFAULT_DIR),
                   help=f"the release store (default: $PK_RELEASES or {DEFAULT_DIR})")
    p.add_argument("--key", default=os.environ.get("PK_RELEASE_KEY", DEFAULT_KEY),
                   help=f"the private signing key (default: $PK_RELEASE_KEY or {DEFAULT_KEY})")
    p.add_argument("--wheelhouse", help="add: the wheels the kiosk needs on the tables")
    p.add_argument("--tables", help="rollout: only these tables first, e.g. 1,2,5-8")
    p.add_argument("--config", help="self-update: the director's room.toml (its database)")
    p.add_argument("--alone", action="store_true",
                   help="self-update: no standby, the leader switches at once (a short stop)")
    p.add_argument("--timeout", type=float, default=900.0,
                   help="self-update: seconds to wait for every director (default 900)")


def tables_arg(text: str) -> list[int]:
    """'1,2,5-8' -> [1, 2, 5, 6, 7, 8]."""
    out: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            out += range(int(lo), int(hi or lo) + 1)
    except ValueError:
        raise KioskError(f"tables {text!r}: give numbers like 1,2,5-8") from None
    if not out or min(out) < 1:
        raise KioskError(f"tables {text!r}: give numbers like 1,2,5-8")
    return sorted(set(out))


def _one(args: argparse.Namespace, what: str) -> str:
    if len(args.args) != 1:
        raise KioskError(f"release {args.action}: give one {what}")
    return str(args.args[0])


def run(args: argparse.Namespace) -> int:
    store = ReleaseStore(Path(args.dir))
    key = Path(args.key)
    act = args.action
    if act == "keygen":
        public = key.with_name("release.pub")
        print(f"public key {make_key(key, public)} written to {public}: put it on every "
              "table's card beside table.toml")
    elif act == "add":
        m = store.add(Path(_one(args, "wheel")), key,
                      Path(args.wheelhouse) if args.wheelhouse else None)
        print(f"release {m.version}: {len(m.files)} file(s), {m.size:,} bytes, signed")
    elif act == "list":
        print(json.dumps({"releases": store.listing(), "rollout": vars(store.rollout())},
                         indent=1))
    elif act == "remove":
        store.remove(_one(args, "version"))
        print(f"release {args.args[0]} removed")
    elif act == "self-update":
        from kiosk.director.standby.self_update import ask_and_follow
        return ask_and_follow(store, _one(args, "version"), args.config,
                              alone=args.alone, timeout=args.timeout)
    else:
        _steer(store, args)
    store.owned_like_its_folder()
    return 0


def _steer(store: ReleaseStore, args: argparse.Namespace) -> None:
    r = store.rollout()
    if args.action == "rollout":
        tables = tables_arg(args.tables) if args.tables else None
        r = store.set_rollout(_one(args, "version"), tables)
    elif args.action == "now":
        r = store.set_rollout(r.version, r.tables, hold=r.hold,
                              now=r.now + tables_arg(",".join(args.args)))
    else:
        r = store.set_rollout(r.version, r.tables, hold=args.action == "hold", now=r.now)
    print(f"rollout: {r.version or 'none'} to "
          f"{'every table' if r.tables is None else 'tables ' + ','.join(map(str, r.tables))}"
          f"{' (held)' if r.hold else ''}")
