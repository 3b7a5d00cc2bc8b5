"""One running table: controller + outbox + MQTT link behind one lock.

The UI, the GPIO adapter, the card reader and the headless runner all act through
`TableService.act`, which commits each report to the outbox before publishing it,
so every front end gets the same guarantees.
"""

from __future__ import annotations

import copy
import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.config.files import TableConfig
from kiosk.lang.active import _, render
from kiosk.table.controller import DEBOUNCE_S, Result, TableController
from kiosk.table.link import TableLink
from kiosk.table.outbox import Outbox, StorageFull
from kiosk.table.printing import TablePrinter
from kiosk.table.view import TableView

log = logging.getLogger(__name__)
SEATING = "seating:"    # the state key of each event's seating directory, by event


class TableService:
    """Thread-safe front door to one table's controller."""

    def __init__(self, cfg: TableConfig, *, now: Callable[[], float] = time.time,
                 rng: random.Random | None = None, connect: bool = True,
                 resend_s: float = 10.0, reconnect: tuple[int, int] = (1, 16),
                 debounce_s: float = DEBOUNCE_S) -> None:
        self.cfg, self.now = cfg, now
        self.lock = threading.RLock()
        self.outbox = Outbox(Path(cfg.state_dir) / f"table-{cfg.table}.db")
        self.ctl = TableController(cfg.table, rng=rng, seq=self.outbox.last_seq(),
                                   debounce_s=debounce_s)
        self._restore()
        self.printer = TablePrinter.of(cfg, self.outbox)   # seat cards of players moved here
        self.link = TableLink(cfg, self.outbox, self._on_message, self._on_state,
                              resend_s=resend_s, reconnect=reconnect)
        self.link.follow(self.ctl.event)
        self._connect = connect
        self._last_live: dict[str, Any] | None = None
        self.listeners: list[Callable[[], None]] = []   # told after every change
        self.closing = ""    # the version an update restarts for: actions are refused

    def _restore(self) -> None:
        """Last plan, schedule, seating directories and hand state from disk: the clock
        runs offline."""
        plan = self.outbox.get("plan")
        if plan:
            self.ctl.apply_plan(plan, self.now())
        for kind, apply in (("schedule", self.ctl.directions.apply_schedule),
                            ("events", self.ctl.directions.apply_directory)):
            msg = self.outbox.get(kind)
            if msg:
                apply(msg)
        for msg in self.outbox.values(SEATING):
            self.ctl.directions.apply_seating(msg)
        state = self.outbox.get("controller")
        if state:
            self.ctl.import_state(state)
        self.ctl.set_link(False, self.outbox.pending_count())

    def start(self) -> None:
        if self._connect:
            self.link.start()

    def stop(self) -> None:
        if self._connect:
            self.link.stop()
        if self.printer is not None:
            self.printer.close()
        self.outbox.close()

    # ---------------------------------------------------------------- actions
    def act(self, name: str, *args: Any, **kw: Any) -> Result:
        """Run controller action `name` at the current time; queue and send its report."""
        with self.lock:
            if self.closing:
                return Result(message=_("Restarting for version {version}").format(
                    version=self.closing), refused=True)
            before = copy.deepcopy(self.ctl)   # a press the disk cannot keep is undone
            res = self.ctl.act(name, self.now(), *args, **kw)
            payloads: list[bytes] = []
            try:
                if res.reports:
                    payloads = self.outbox.add_all(res.reports, state=self.ctl.export_state())
                elif not res.refused:   # e.g. a colour-up finished: no report, but kept
                    self.outbox.put("controller", self.ctl.export_state())
            except StorageFull as exc:
                log.error("table %s: %s not saved: %s", self.cfg.table, name, exc)
                self.ctl = before
                self._storage(str(exc))
                res = Result(message=_("NOT SAVED: {problem}; free space in the state "
                                       "folder").format(problem=_(str(exc).split(":")[0])),
                             refused=True)
                self.ctl.ctx.message = (res.message, self.now(), True)
            else:
                self._storage("")
                for rep, payload in zip(res.reports, payloads, strict=True):
                    self.link.send(rep["id"], payload)
            if res.dealer is not None and not self.link.send_dealer(res.dealer):
                res = self.ctl.act("dealer_answer", self.now(),
                                   _("Offline: badge again once the table is online"), False)
            self._after_change()
        return res

    def _storage(self, problem: str) -> None:
        """Show (or clear) a full disk: the queued reports stay where they are."""
        if problem and not self.ctl.ctx.storage:
            log.error("table %s: the state folder takes no write: %s", self.cfg.table, problem)
        self.ctl.set_storage(storage_text(problem, self.outbox.pending_count()))

    def _keep(self, key: str, value: Any) -> None:
        """Keep a message the director sent; a full disk keeps it in memory only."""
        try:
            self.outbox.put(key, value)
        except StorageFull as exc:
            self._storage(str(exc))
        else:
            self._storage("")

    def tick(self) -> TableView:
        """Periodic work (link state, live snapshot) and the view to draw."""
        with self.lock:
            t = self.now()
            self.ctl.set_link(self.link.connected, self.outbox.pending_count(),
                              self.link.refused)
            self._publish_live(t)
            return self.ctl.view(t)

    def view(self) -> TableView:
        with self.lock:
            return self.ctl.view(self.now())

    # ---------------------------------------------------------------- link callbacks
    def _on_message(self, kind: str, msg: dict[str, Any]) -> None:
        with self.lock:
            if kind == "plan":
                self._plan(msg)
            elif kind == "schedule" and self.ctl.directions.apply_schedule(msg):
                self._keep("schedule", msg)
            elif kind == "seating" and self.ctl.directions.apply_seating(msg):
                self._keep(SEATING + str(msg.get("event") or ""), msg)
            elif kind == "events" and self.ctl.directions.apply_directory(msg):
                self._keep("events", msg)
            elif kind == "director":
                self.ctl.directions.set_director(msg["state"] == "online")
            elif kind == "ack" and msg.get("rejected"):
                self._refused(msg)
            elif kind == "dealer_answer":   # the director's word on a badge or a PIN
                self.ctl.act("dealer_answer", self.now(), str(msg.get("text", "")),
                             bool(msg.get("ok")), msg.get("text_msg"), msg.get("language"))
            self.ctl.set_link(self.link.connected, self.outbox.pending_count(),
                              self.link.refused)
            self._after_change()

    def _refused(self, ack: dict[str, Any]) -> None:
        """The director refused a report: why, in this kiosk's language (the key), else
        in the room's words, on the message line."""
        keys = ack.get("rejected_msgs") or {}
        rid, words = next(iter(sorted(ack["rejected"].items())))
        log.warning("table %s: report %s refused: %s", self.cfg.table, rid, words)
        self.ctl.ctx.message = (_("Refused: {why}").format(why=render(keys.get(rid), words)),
                                self.now(), True)

    def _plan(self, msg: dict[str, Any]) -> None:
        """Take a plan; when it names another event than the last, drop the old event's
        schedule and listen to the new one's."""
        before = self.ctl.event
        if not self.ctl.apply_plan(msg, self.now()):
            return
        self._keep("plan", msg)
        if self.printer is not None:
            self.printer.plan(msg, self.now())
        if self.ctl.event != before:
            self._keep("schedule", None)
            self.link.follow(self.ctl.event)

    def _on_state(self, online: bool) -> None:
        with self.lock:
            self.ctl.set_link(online, self.outbox.pending_count(), self.link.refused)
            if online:
                self._last_live = None   # republish the snapshot on the new connection
            self._after_change()

    def _after_change(self) -> None:
        self._publish_live(self.now())
        for listener in self.listeners:
            try:
                listener()
            except Exception:
                log.exception("table %s: listener failed", self.cfg.table)

    def _publish_live(self, t: float) -> None:
        live = self.ctl.live(t)
        same = {k: v for k, v in live.items() if k != "ts"}
        if same != self._last_live:
            self._last_live = same
            self.link.publish_live(live)


def storage_text(problem: str, kept: int) -> str:
    """The line a state folder that takes no write puts on the screen ("" when it takes
    them again): the problem's first words (DISK FULL) in the dealer's language."""
    if not problem:
        return ""
    return _("{problem}: not saving ({n} kept)").format(problem=_(problem.split(":")[0]),
                                                        n=kept)
