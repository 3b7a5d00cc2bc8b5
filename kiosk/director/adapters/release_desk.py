"""The director's side of updates: the wanted release per table, the tables' update
states, and who may download.

The store (kiosk.releases.store) is a folder that `pokerkiosk release` and the room page
write; `tick` notices a change within a tick and publishes each table's wanted release,
retained, on `table/<n>/release`. A table answers on `table/<n>/update` with its version
and what its updater is doing; the room page shows both. Files are served only to a
table's login (`<config folder>/table-logins`, the broker's password lines of the tables).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import msgspec

from kiosk.director.centre.repository import Repository
from kiosk.director.mqtt.wire import Wire
from kiosk.director.views.hub import Hub
from kiosk.director.views.table_feed import TableFeed
from kiosk.releases import messages as rm
from kiosk.releases.manifest import ReleaseError
from kiosk.releases.store import ReleaseStore, Rollout
from kiosk.system.passwords import check_line

log = logging.getLogger("kiosk.director")
LOGINS = "table-logins"


class ReleaseDesk:
    """The releases the tables should run and what they say they run: it reads the room
    (`repo`), the tables' feed and the release store, and publishes through the wire."""

    def __init__(self, repo: Repository, wire: Wire, feed: TableFeed, hub: Hub) -> None:
        self.repo = repo
        self.wire = wire
        self.feed = feed
        self.hub = hub
        cfg = repo.config
        self.store = ReleaseStore(Path(cfg.state_dir) / "releases")
        self.logins = Path(cfg.source).parent / LOGINS if cfg.source else None
        self.states: dict[int, rm.UpdateStatus] = {}
        self._stamp: tuple[int, ...] | None = None
        self._sent: dict[int, bytes] = {}     # table -> the wanted message last published
        self.rollout = Rollout()
        self.problem = ""                     # why the store cannot be read, for the floor

    @property
    def subscriptions(self) -> list[str]:
        return [rm.update_topic(self.wire.topics, "+")]

    def tables(self) -> set[int]:
        """Every table the director knows of: online once, reporting, or in an event."""
        known = set(self.feed.online) | set(self.states)
        for desk in self.repo.events.values():
            known |= set(desk.tour.tables)
        if self.repo.config.pool:
            known |= set(self.repo.room.pool)
        return known

    def wanted(self, table: int) -> rm.Wanted:
        r = self.rollout
        version = r.wanted(table)
        if version is None:
            return rm.Wanted()
        data, sig = self.store.manifest(version)
        return rm.Wanted(version=version, manifest=data.decode(), signature=sig, hold=r.hold,
                         now=table in r.now)

    def tick(self, force: bool = False) -> None:
        """Publish what changed: a new rollout, a new table. Cheap when nothing did."""
        stamp, tables = self.store.stamp(), self.tables()
        if not force and stamp == self._stamp and tables <= set(self._sent):
            return
        if force:
            self._sent = {}
        self._stamp = stamp
        try:
            self.rollout, self.problem = self.store.rollout(), ""
        except ReleaseError as exc:
            self.problem = str(exc)
        for table in sorted(tables):
            try:
                body = rm.encode(self.wanted(table))
            except ReleaseError as exc:
                self.problem = str(exc)
                continue
            if self._sent.get(table) != body and \
                    self.wire.send_encoded(rm.release_topic(self.wire.topics, table), body):
                self._sent[table] = body
                self.hub.publish({"type": "releases"})

    def republish(self) -> None:
        self._sent = {}
        self.tick()

    def on_status(self, table: int, payload: bytes) -> None:
        try:
            msg = rm.decode_status(payload)
        except (ValueError, msgspec.DecodeError) as exc:
            log.warning("table %d: bad update status dropped: %s", table, exc)
            return
        if msg.table != table:
            log.warning("table %d: update status names table %d; dropped", table, msg.table)
            return
        old = self.states.get(table)
        if old is None or (old.state, old.version, old.reason) != \
                (msg.state, msg.version, msg.reason):
            log.info("table %d: version %s, update %s%s", table, msg.version, msg.state,
                     f": {msg.reason}" if msg.reason else "")
        self.states[table] = msg
        self.hub.publish({"type": "releases"})

    def view(self) -> dict[str, Any]:
        """The room page's updates: releases, the rollout, each table's state."""
        r = self.rollout
        rows = []
        for table in sorted(self.tables()):
            s = self.states.get(table)
            rows.append({"table": table, "version": s.version if s else None,
                         "wanted": r.wanted(table), "state": s.state if s else "unknown",
                         "reason": s.reason if s else "", "ts": s.ts if s else None,
                         "online": self.feed.online.get(table, False)})
        try:
            releases = self.store.listing()
        except ReleaseError as exc:
            releases, self.problem = [], str(exc)
        return {"releases": releases, "rollout": vars(r), "tables": rows,
                "problem": self.problem}

    def login_ok(self, user: str, password: str) -> bool:
        """A table's broker login, checked against the table-logins file."""
        if self.logins is None or not user.startswith("table-"):
            return False
        try:
            lines = self.logins.read_text().splitlines()
        except OSError:
            return False
        return any(check_line(line, user, password) for line in lines)
