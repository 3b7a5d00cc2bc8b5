"""A director updating itself with its standby: `pokerkiosk release self-update VERSION`.

The command writes the wanted director release (its signed manifest) into the room's
PostgreSQL, beside the lease; it is a retained plan, not a command, so each director
acts on it in its own time and a director that restarts reads it again:

1. A standby installs the release beside its running environment (the files from the
   database, where the command put them: any director can reach it, whichever machine
   the release was added on; the signature and every hash checked) and switches at
   once: it serves nobody.
2. The leader installs it too, then waits for a standby that runs the new version and
   has folded the whole log. It releases the lease (the standby takes over within a
   poll, about 0.2 s) and switches; it comes back as the standby.
3. Each switch is A/B under the supervisor (kiosk.releases.supervisor): a new director
   that does not reach READY=1, or exits within a minute, goes back by itself.

With `--alone` (no standby) the leader switches without waiting: the room has no leader
for the length of one restart (docs/ha.md). Each director writes its version, role and
update state into `director_versions`, which the command prints as it goes. A director
started without `--update-root` (not under the supervisor) answers too, "cannot update",
so the command stops and says which one to update by hand instead of waiting for it. The
tables are made here, outside the log's versioned schema, so directors of both versions
share one database during the hand-over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from kiosk import __version__
from kiosk.base.errors import KioskError
from kiosk.config.database import connect, is_dsn, one_line
from kiosk.config.room import load_director_config
from kiosk.director.standby.leadership import Leadership
from kiosk.releases import manifest as mf
from kiosk.releases.ab import Install
from kiosk.releases.installer import Installer, Refused, keep_checked, why
from kiosk.releases.manifest import FileEntry
from kiosk.releases.signing import load_public
from kiosk.releases.store import ReleaseStore

log = logging.getLogger("kiosk.director")
POLL_S = 0.5          # seconds between looks at the wanted release
RETRY_S = 300.0       # a refused release is tried again after this long
FRESH_S = 5.0         # a director's row older than this is not counted
BEHIND = 50           # events a successor may still have to fold (it reads them on taking over)
CANNOT = "cannot update"
NO_ROOT = ("it was started without --update-root (not from an A/B install under the "
           "supervisor): install {version} on it by hand, or run it under the supervisor "
           "with --update-root (docs/updates.md)")
TABLES = (
    "CREATE TABLE IF NOT EXISTS director_release (room TEXT PRIMARY KEY, version TEXT NOT "
    "NULL, manifest TEXT NOT NULL, signature TEXT NOT NULL, alone BOOLEAN NOT NULL, "
    "set_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())",
    "CREATE TABLE IF NOT EXISTS director_release_files (room TEXT NOT NULL, version TEXT "
    "NOT NULL, name TEXT NOT NULL, data BYTEA NOT NULL, PRIMARY KEY (room, version, name))",
    "CREATE TABLE IF NOT EXISTS director_versions (holder TEXT PRIMARY KEY, room TEXT NOT "
    "NULL, version TEXT NOT NULL, role TEXT NOT NULL, state TEXT NOT NULL, reason TEXT NOT "
    "NULL DEFAULT '', wanted TEXT NOT NULL DEFAULT '', seen TIMESTAMPTZ NOT NULL)",
)


@dataclass(frozen=True)
class Wanted:
    version: str
    manifest: str
    signature: str
    alone: bool


class Releases:
    """The wanted release, its files and each director's version, on a connection of
    their own."""

    def __init__(self, dsn: str, room: str) -> None:
        self.dsn, self.room = dsn, room
        self.conn: psycopg.Connection[Any] | None = None

    def _db(self) -> psycopg.Connection[Any]:
        if self.conn is None or self.conn.closed or self.conn.broken:
            self.conn = connect(self.dsn, timeout=2)
            for stmt in TABLES:
                self.conn.execute(stmt)   # type: ignore[arg-type]
        return self.conn

    def want(self, w: Wanted, files: dict[str, bytes]) -> None:
        """The wanted release and its files, in one transaction (the old files go)."""
        db = self._db()
        with db.transaction():
            db.execute("DELETE FROM director_release_files WHERE room = %s", (self.room,))
            for name, data in files.items():
                db.execute("INSERT INTO director_release_files (room, version, name, data) "
                           "VALUES (%s, %s, %s, %s)", (self.room, w.version, name, data))
            db.execute(
                "INSERT INTO director_release (room, version, manifest, signature, alone) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (room) DO UPDATE SET version = "
                "EXCLUDED.version, manifest = EXCLUDED.manifest, signature = "
                "EXCLUDED.signature, alone = EXCLUDED.alone, set_at = clock_timestamp()",
                (self.room, w.version, w.manifest, w.signature, w.alone))

    def fetch(self, version: str, entry: FileEntry, folder: Path) -> None:
        """One file of the wanted release, kept once its size and hash are the signed
        ones (kiosk.releases.installer.keep_checked)."""
        row = self._db().execute(
            "SELECT data FROM director_release_files WHERE room = %s AND version = %s AND "
            "name = %s", (self.room, version, entry.name)).fetchone()
        if row is None:
            raise Refused(f"{entry.name} of {version} is not in the database")
        keep_checked(entry, folder, [bytes(row[0])])

    def wanted(self) -> Wanted | None:
        row = self._db().execute("SELECT version, manifest, signature, alone FROM "
                                 "director_release WHERE room = %s", (self.room,)).fetchone()
        return None if row is None else Wanted(*row)

    def report(self, holder: str, version: str, role: str, state: str, reason: str,
               wanted: str) -> None:
        """One director's line: what it runs and what it does about `wanted`."""
        self._db().execute(
            "INSERT INTO director_versions (holder, room, version, role, state, reason, wanted,"
            " seen) VALUES (%s, %s, %s, %s, %s, %s, %s, clock_timestamp()) ON CONFLICT "
            "(holder) DO UPDATE SET version = EXCLUDED.version, role = EXCLUDED.role, state = "
            "EXCLUDED.state, reason = EXCLUDED.reason, wanted = EXCLUDED.wanted, seen = "
            "EXCLUDED.seen", (holder, self.room, version, role, state, reason[:500], wanted))

    def directors(self) -> list[dict[str, Any]]:
        """Every director seen in the last FRESH_S seconds."""
        rows = self._db().execute(
            "SELECT holder, version, role, state, reason, wanted FROM director_versions WHERE "
            "room = %s AND seen > clock_timestamp() - make_interval(secs => %s) ORDER BY holder",
            (self.room, FRESH_S)).fetchall()
        return [dict(zip(("holder", "version", "role", "state", "reason", "wanted"), r,
                         strict=True)) for r in rows]

    def forget(self, holder: str) -> None:
        self._db().execute("DELETE FROM director_versions WHERE holder = %s", (holder,))

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class SelfUpdate:
    """This director's side: install the wanted release, switch when its role allows.
    Without an install folder (`root` None) it only answers that it cannot."""

    def __init__(self, ha: Leadership, root: Path | None, public_key: Path,
                 restart: Callable[[], None], *, version: str = __version__) -> None:
        self.ha, self.version, self.restart = ha, version, restart
        self.install = Install(root) if root is not None else None
        self.installer = Installer(self.install, load_public(public_key), on_state=self._set) \
            if self.install is not None else None
        self.db = Releases(ha.store.dsn, ha.room)
        self.state, self.reason = "current", ""
        self._ready: str | None = None        # the version installed and waiting
        self._refused: dict[tuple[str, str], float] = {}
        self.switched = False

    def _set(self, state: str, reason: str = "") -> None:
        if (state, reason) != (self.state, self.reason):
            log.info("self-update: %s%s", state, f": {reason}" if reason else "")
        self.state, self.reason = state, reason

    async def run(self) -> None:
        """Look, act, report, until switched (the director then stops for the supervisor)."""
        while not self.switched:
            try:
                await asyncio.to_thread(self.step)
            except (KioskError, psycopg.Error, OSError) as exc:
                self._set("waiting", f"the database: {one_line(exc)}")
            await asyncio.sleep(POLL_S)

    def step(self) -> None:
        """One look: what is wanted, what this director may do about it now, and our
        line for the operator."""
        w = self.db.wanted()
        try:
            self._act(w)
        finally:
            with contextlib.suppress(Exception):   # the line is for the operator only
                self.db.report(self.ha.lease.me, self.version, self.ha.role, self.state,
                               self.reason, w.version if w else "")

    def _act(self, w: Wanted | None) -> None:
        role = self.ha.role
        if w is None or w.version == self.version:
            self._set("current")
            return
        if self.install is None:
            self._set(CANNOT, NO_ROOT.format(version=w.version))
            return
        back = self.install.rolled_back()
        if back is not None and back.get("version") == w.version:
            self._set("rolled back", f"{w.version}: {back.get('reason')}")
            return
        if not self._prepared(w):
            return
        if role == "leader" and not w.alone:
            waiting = self._no_successor(w.version)
            if waiting:
                self._set("waiting", waiting)
                return
        if role in ("leader", "standby"):
            self._switch(w.version)

    def _prepared(self, w: Wanted) -> bool:
        key = (w.version, w.signature)
        if self._ready == w.version:
            return True
        if self._refused.get(key, 0.0) > time.monotonic():
            return False
        assert self.installer is not None, "an install folder is checked first"
        try:
            self.installer.prepare(w.version, w.manifest, w.signature, self.db.fetch)
        except (Refused, OSError) as exc:
            self._refused[key] = time.monotonic() + RETRY_S
            self._set("refused", why(exc))
            log.warning("self-update to %s refused: %s", w.version, why(exc))
            return False
        self._ready = w.version
        return True

    def _no_successor(self, version: str) -> str:
        """Why the leader cannot hand over yet ("" when a standby on `version` has the
        whole log)."""
        fresh = {s["holder"]: s for s in self.ha.lease.standbys}
        ready = [d for d in self.db.directors() if d["role"] == "standby"
                 and d["version"] == version and d["holder"] in fresh
                 and self.ha.store.last_seq - fresh[d["holder"]]["seq"] <= BEHIND]
        return "" if ready else f"for a standby on {version} with the whole log"

    def _switch(self, version: str) -> None:
        """current -> the new environment; the director stops, the supervisor starts it."""
        assert self.install is not None, "an install folder is checked first"
        old = self.install.target() or self.version
        self.install.begin_trial(old, version, {"role": self.ha.role})
        self._set("switching", f"from {old} to {version} as the {self.ha.role}")
        self.switched = True
        self.restart()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.db.forget(self.ha.lease.me)
        self.db.close()


def ask_and_follow(store: ReleaseStore, version: str, config: str | None, *, alone: bool,
                   timeout: float) -> int:
    """Ask every director of the room for `version`, then follow them until each runs it
    (0), or one refuses or rolls back (1, with the reason)."""
    if not config:
        raise KioskError("release self-update: give the director's --config")
    cfg = load_director_config(config)
    if not is_dsn(cfg.db):
        raise KioskError(f"release self-update needs the log on PostgreSQL; {cfg.db} is one "
                         "machine's SQLite: stop the director, install, start it "
                         "(docs/ha.md, \"Updating the director\")")
    data, signature = store.manifest(version)
    files = {e.name: store.file(version, e.name).read_bytes()
             for e in mf.decode(data).files}
    db = Releases(cfg.db, cfg.name)
    db.want(Wanted(version, data.decode(), signature, alone), files)
    print(f"room {cfg.name}: directors asked for {version}"
          f"{' (alone: the leader switches at once)' if alone else ''}")
    deadline, seen, most = time.monotonic() + timeout, "", 0
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
    print(f"self-update: not done after {timeout:.0f} s (the directors go on)")
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
