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
                                    (kiosk.director.self_update; docs/updates.md)

The running director reads the store's folder within a second and publishes the wanted
version to each table (docs/updates.md).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from kiosk.errors import KioskError
from kiosk.releases import manifest as mf
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
        return self_update(store, _one(args, "version"), args)
    else:
        _steer(store, args)
    owned_like_its_folder(store.root)
    return 0


def owned_like_its_folder(root: Path) -> None:
    """Run as root, the store stays its director's (user pokerkiosk owns the state
    folder): the director writes the rollout when the floor steers it from the room page."""
    if os.geteuid() != 0 or not root.exists():
        return
    owner = root.parent.stat()
    if owner.st_uid == 0:
        return
    for path in (root, *root.rglob("*")):
        os.chown(path, owner.st_uid, owner.st_gid, follow_symlinks=False)


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


def self_update(store: ReleaseStore, version: str, args: argparse.Namespace) -> int:
    """Ask every director of the room for `version`, then follow them until each runs it
    (0), or one refuses or rolls back (1, with the reason)."""
    from kiosk.database import is_dsn
    from kiosk.director.self_update import CANNOT, Releases, Wanted
    from kiosk.roomconfig import load_director_config

    if not args.config:
        raise KioskError("release self-update: give the director's --config")
    cfg = load_director_config(args.config)
    if not is_dsn(cfg.db):
        raise KioskError(f"release self-update needs the log on PostgreSQL; {cfg.db} is one "
                         "machine's SQLite: stop the director, install, start it "
                         "(docs/ha.md, \"Updating the director\")")
    data, signature = store.manifest(version)
    files = {e.name: store.file(version, e.name).read_bytes()
             for e in mf.decode(data).files}
    db = Releases(cfg.db, cfg.name)
    db.want(Wanted(version, data.decode(), signature, args.alone), files)
    print(f"room {cfg.name}: directors asked for {version}"
          f"{' (alone: the leader switches at once)' if args.alone else ''}")
    deadline, seen, most = time.monotonic() + args.timeout, "", 0
    while time.monotonic() < deadline:
        rows = db.directors()
        most = max(most, len(rows))     # a switching director is gone for a moment
        line = "; ".join(f"{d['role']} {d['holder']}: {d['version']} {d['state']}"
                         f"{' (' + d['reason'] + ')' if d['reason'] else ''}" for d in rows)
        if line != seen:
            print(line or "no director reports yet", flush=True)
            seen = line
        done = verdict(rows, version, most, CANNOT)
        if done is not None:
            print(done[1])
            return done[0]
        time.sleep(0.5)
    print(f"self-update: not done after {args.timeout:.0f} s (the directors go on)")
    return 1


def verdict(rows: list[dict[str, Any]], version: str, most: int,
            cannot: str) -> tuple[int, str] | None:
    """The command's exit code and last line once the directors' lines decide it: one
    refused, rolled back or unable to update itself (1), or every one on `version` with
    a leader among them (0); None while it is still under way."""
    bad = [d for d in rows if d["state"] in ("refused", "rolled back", cannot)
           and d["wanted"] == version]
    if bad:
        who = f"{bad[0]['role']} {bad[0]['holder']}"
        return 1, (f"self-update stopped: {who} cannot update itself: {bad[0]['reason']}"
                   if bad[0]["state"] == cannot else
                   f"self-update stopped: {bad[0]['state']}: {bad[0]['reason']}")
    if len(rows) >= most and any(d["role"] == "leader" for d in rows) and all(
            d["version"] == version and d["state"] == "current" for d in rows):
        return 0, f"every director runs {version}"
    return None
