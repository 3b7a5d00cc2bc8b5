"""The director service: MQTT in and out, the event log, and the tournament.

Threading: paho runs its network loop in its own thread and only hands messages over
to the asyncio loop; every change to the tournament happens on that one loop thread.
Incoming reports are handled in batches: decide each, append all resulting events in
one fsynced transaction, then publish plans and acknowledge the reports. Nothing is
published or acknowledged before it is on disk.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import msgspec
import paho.mqtt.client as mqtt

from kiosk.appliance.sdnotify import Notifier
from kiosk.config import EventConfig
from kiosk.core import commands
from kiosk.core import events as ev_
from kiosk.core.commands import Command
from kiosk.core.events import Event
from kiosk.core.tournament import Tournament
from kiosk.csvcells import typed_text
from kiosk.director.budget import Budget
from kiosk.director.hub import Hub
from kiosk.director.publisher import Publisher
from kiosk.director.snapshots import Snapshots
from kiosk.director.store import EventLog
from kiosk.errors import ConfigError, KioskError, RuleError
from kiosk.mqttclient import make_client
from kiosk.protocol.messages import (
    ProtocolError,
    decode,
    encode,
    parse,
    report_id,
)
from kiosk.protocol.topics import SingleEventTopics
from kiosk.rules.loader import load_profile
from kiosk.rules.structure_files import load_structure

log = logging.getLogger("kiosk.director")


class Director:
    """One event's director. `act` is the only way anything changes."""

    def __init__(self, config: EventConfig, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.clock = clock
        self.topics = SingleEventTopics(config.name)
        self.log = EventLog(config.db)
        self.snapshots = Snapshots(self.log)
        self.tour = self._load()
        self.hub = Hub()
        self.live: dict[int, dict[str, Any]] = {}
        self.online: dict[int, bool] = {}
        self.client: mqtt.Client | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connected = asyncio.Event()
        self._inbox: deque[tuple[str, bytes]] = deque()
        self._draining = False
        self._stopping = False
        self._unreachable = False
        self.rejected = 0
        self.dropped = 0            # messages over a table's budget (the table re-sends)
        self.budget = Budget()
        self.epoch = round(self.clock(), 3)   # this run: tables follow a restored director
        self.health: dict[str, str] = {}      # background task -> how it failed (dashboard)
        self.out = Publisher(self)

    # ----------------------------------------------------------------- state
    def _load(self) -> Tournament:
        started = time.perf_counter()
        if self.log.last_seq == 0:
            c = self.config
            tour = Tournament.create(
                event=c.name, profile=load_profile(c.profile),
                structure=load_structure(c.structure), seats=c.seats,
                start_stack=c.start_stack, buy_in=c.buy_in,
                seed=c.seed if c.seed is not None else int.from_bytes(os.urandom(4), "big"),
                t=self.clock(), payout_percent=c.payout_percent,
                money=c.money or None, chip_set=list(c.chip_set) or None,
                h4h_at_bubble=c.h4h_at_bubble, chip_race=c.chip_race)
            self.log.append([tour.config])
            log.info("new event %s (%s, %s)", c.name, c.profile, c.structure)
            return tour
        tour = self.snapshots.load()
        log.info("replayed %d events in %.2f s", self.log.last_seq, time.perf_counter() - started)
        self._check_unchanged(tour.config)
        return tour

    def _check_unchanged(self, created: ev_.Created) -> None:
        """[event] settings are fixed once the event exists: a change is refused, not lost."""
        c = self.config
        structure = load_structure(c.structure)
        now = {"profile": load_profile(c.profile).id, "structure": structure.to_dict(),
               "seats": c.seats, "start_stack": c.start_stack or structure.start_stack,
               "buy_in": c.buy_in, "payout_percent": c.payout_percent, "seed": c.seed}
        for key, value in now.items():
            was = created.get(key)
            if key == "seed" and value is None:
                continue
            if value != was:
                shown = (c.structure, "the structure it was created with") \
                    if key == "structure" else (value, repr(was))
                self.log.close()
                raise ConfigError(
                    c.source or "event config", f"event.{key}",
                    f"{shown[0]!r} differs from {shown[1]} in {c.db}; an existing event "
                    "keeps its settings. Put it back, or start a new event with "
                    f"`pokerkiosk new-event --config {c.source or 'event.toml'}` "
                    "(the old log is kept)")

    def now(self) -> float:
        return self.clock()

    def act(self, cmd: Command, user: str | None = None) -> list[Event]:
        """Decide a command, log its events, publish what changed. RuleError if refused."""
        if user:
            cmd = msgspec.structs.replace(cmd, by=user)
        events, rows = self.decide(cmd, [])
        self._commit(rows)
        self.out.changes()
        return events

    def decide(self, cmd: Command,
               pending: list[Event]) -> tuple[list[Event], list[tuple[str, bytes]]]:
        """One command as a transaction: its events, each proven storable, or nothing.

        Whatever raises (a rule, a bug, an event that would not encode) leaves the state
        as if the command never came: when the command had already changed the state, it
        is rebuilt from the log plus `pending` (this batch's earlier, unwritten events).
        Raises RuleError with the reason.
        """
        before = self.tour.n_events
        try:
            events = self.tour.execute(cmd, self.now())
            rows = [(e.kind, ev_.check(e)) for e in events]
        except RuleError:
            if self.tour.n_events != before:
                self._rebuild(pending)
            raise
        except Exception as exc:
            log.error("command %s failed; state rolled back", cmd.kind, exc_info=True)
            if self.tour.n_events != before:
                self._rebuild(pending)
            raise RuleError(f"refused ({exc.__class__.__name__}: {exc})") from exc
        return events, rows

    def _rebuild(self, pending: list[Event]) -> None:
        """The state as logged, plus this batch's decided-but-unwritten events."""
        tour = self.snapshots.load()
        for ev in pending:
            tour.apply(ev)
        tour.dirty.update(tour.tables)
        tour.schedule_dirty = tour.seating_dirty = True
        self.tour = tour

    def _commit(self, rows: list[tuple[str, bytes]]) -> None:
        if not rows:
            return
        try:
            self.log.append_rows(rows)
        except Exception:  # the state is now ahead of the log: only a replay can fix that
            log.critical("cannot write the event log %s; stopping", self.log.path,
                         exc_info=True)
            os._exit(70)
        if self.snapshots.due():
            self.snapshots.save(self.tour)

    def import_csv(self, text: str) -> tuple[int, list[str]]:
        """Register players from CSV with a `name` column (optional `card`, `id`)."""
        rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
        if not rows or "name" not in (rows[0].keys() if rows else ()):
            return 0, ["line 1: the header needs a 'name' column"]
        added, errors = 0, []
        columns = len(rows[0]) - (None in rows[0])
        for n, row in enumerate(rows, start=2):
            if None in row:   # DictReader keeps surplus fields under None
                errors.append(f"line {n}: {columns + len(row[None])} fields, but the header "  # type: ignore[index]
                              f"names {columns}; not imported")
                continue
            try:
                self.act(commands.decode({
                    "kind": "register", "name": typed_text((row.get("name") or "").strip()),
                    "card": typed_text((row.get("card") or "").strip()) or None,
                    "player": (row.get("id") or "").strip() or None}))
                added += 1
            except RuleError as exc:
                errors.append(f"line {n}: {exc}")
        return added, errors

    # -------------------------------------------------------------- incoming
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    props: Any = None) -> None:
        if reason.is_failure:
            log.error("broker refused the director: %s", reason)
            return
        t = self.topics
        client.subscribe([(t.all_reports, 1), (t.all_live, 0), (t.all_status, 1)])
        if self.loop:
            self.loop.call_soon_threadsafe(self._connected)

    def _connected(self) -> None:
        self._unreachable = False
        log.info("connected to %s", self.config.broker.url)
        self.out.republish_all()
        self.connected.set()

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if not self._unreachable:   # once per outage, not every retry
            self._unreachable = True
            log.warning("cannot reach the broker at %s; retrying", self.config.broker.url)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       props: Any = None) -> None:
        if self._stopping:
            log.info("disconnected from the broker")
            return
        log.warning("broker connection lost (%s); retrying", reason)
        if self.loop:
            self.loop.call_soon_threadsafe(self.connected.clear)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """On paho's thread: a table over its budget is dropped here, before it costs the
        loop anything (its outbox re-sends what mattered, later)."""
        if not self.budget.take(msg.topic, time.monotonic()):
            self.dropped += 1
            return
        if self.loop:
            self.loop.call_soon_threadsafe(self._enqueue, msg.topic, bytes(msg.payload))

    def _enqueue(self, topic: str, payload: bytes) -> None:
        self._inbox.append((topic, payload))
        if not self._draining:
            self._draining = True
            assert self.loop is not None
            self.loop.call_soon(self.drain)

    def drain(self) -> None:
        """Handle every waiting message, commit once, then publish and acknowledge."""
        self._draining = False
        events: list[Event] = []
        rows: list[tuple[str, bytes]] = []
        acks: dict[int, list[str]] = {}
        rejected: dict[int, dict[str, str]] = {}
        tables_changed: set[int] = set()
        while self._inbox:
            topic, payload = self._inbox.popleft()
            parsed = self.topics.parse_table_topic(topic)
            if parsed is None:
                log.warning("ignored message on unexpected topic %s", topic)
                continue
            table, leaf = parsed
            if leaf == "report":
                self._report(table, payload, events, rows, acks, rejected)
            elif leaf == "live":
                self._live(table, payload, tables_changed)
            elif leaf == "status":
                self._status(table, payload, tables_changed)
        self._commit(rows)
        self.out.changes()
        for table, ids in acks.items():
            body: dict[str, Any] = {"ids": ids}
            if rejected.get(table):
                body["rejected"] = rejected[table]
            self.out.send(self.topics.ack(table), body, retain=False)
        if tables_changed:
            self.hub.publish({"type": "tables", "tables": sorted(tables_changed)})

    def _report(self, table: int, payload: bytes, events: list[Event],
                rows: list[tuple[str, bytes]], acks: dict[int, list[str]],
                rejected: dict[int, dict[str, str]]) -> None:
        """One report: applied and logged whole, or acknowledged as rejected with why."""

        def refuse(rid: str | None, reason: str) -> None:
            self.rejected += 1
            log.warning("table %d: report %s rejected: %s", table, rid or "(no id)", reason)
            if rid:  # a refused report never gets better: tell the table to stop sending it
                acks.setdefault(table, []).append(rid)
                rejected.setdefault(table, {})[rid] = reason[:500]

        try:
            msg = parse("report", payload)
        except ProtocolError as exc:
            refuse(report_id(payload), str(exc))
            return
        if msg.table != table:
            refuse(msg.id, f"names table {msg.table} but came from table {table}")
            return
        duplicate = (table, msg.id) in self.tour.seen_reports
        try:
            evs, new_rows = self.decide(commands.report_command(table, payload), events)
        except RuleError as exc:
            refuse(msg.id, str(exc))
            return
        events += evs
        rows += new_rows
        if duplicate:
            log.info("table %d: report %s was already applied; acknowledged again", table,
                     msg.id)
        acks.setdefault(table, []).append(msg.id)

    @staticmethod
    def _decode_from(table: int, kind: str, payload: bytes) -> dict[str, Any] | None:
        """A table's retained message, or None (logged) when it is empty or invalid."""
        if not payload:   # a cleared retained message
            return None
        try:
            msg = decode(kind, payload)
        except ProtocolError as exc:
            log.warning("table %d: dropped a %s message: %s", table, kind, exc)
            return None
        if msg.get("table", table) != table:
            log.warning("table %d: %s message names table %s; dropped", table, kind,
                        msg["table"])
            return None
        return msg

    def _live(self, table: int, payload: bytes, changed: set[int]) -> None:
        msg = self._decode_from(table, "live", payload)
        if msg is not None:
            self.live[table] = msg
            changed.add(table)

    def _status(self, table: int, payload: bytes, changed: set[int]) -> None:
        msg = self._decode_from(table, "status", payload)
        if msg is None:
            return
        online = msg["state"] == "online"
        if self.online.get(table) != online:
            log.info("table %d is %s", table, msg["state"])
        self.online[table] = online
        changed.add(table)

    # ------------------------------------------------------------------ run
    def start_mqtt(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        b = self.config.broker
        offline = encode({"state": "offline", "ts": 0})
        self.client = make_client(f"director-{self.config.name}", b,
                                  will_topic=self.topics.director_status, will_payload=offline)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_message = self._on_message
        self.client.max_queued_messages_set(0)
        self.client.connect_async(b.host, b.port, keepalive=15)
        self.client.loop_start()

    def stop_mqtt(self) -> None:
        if self.client is not None:
            self._stopping = True
            self.out.send(self.topics.director_status, {"state": "offline", "ts": self.now()})
            self.client.disconnect()
            self.client.loop_stop()
            self.client = None

    def task_failed(self, task: str, exc: BaseException, restarted: bool) -> None:
        """A background task died: loud in the log (with its traceback) and on the
        dashboard's health line, never a silent half-working room."""
        log.error("%s failed%s", task, "; restarting it" if restarted else "", exc_info=exc)
        self.health[task] = (f"{'restarted after' if restarted else 'stopped by'} "
                             f"{type(exc).__name__}: {exc}")

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        loop.default_exception_handler(context)
        exc = context.get("exception")
        self.health["director"] = f"{context.get('message')}: {exc!r}"

    async def tick_forever(self, every: float = 0.25) -> None:
        """Level changes, timed penalties, seating directory, watchdog."""
        notifier = Notifier()
        while True:
            if self.tour.started and self.tour.finished_at is None:
                try:
                    self.act(commands.Tick())
                except RuleError as exc:  # pragma: no cover - tick decides, never refuses
                    log.error("tick refused: %s", exc)
            self.out.seating()
            notifier.watchdog()
            # wake exactly at a level boundary, so the new level goes out at once
            reading = self.tour.clock.read(self.tour.structure, self.now())
            wait = every if reading.paused or reading.finished else \
                min(every, reading.remaining + 0.001)
            await asyncio.sleep(max(0.001, wait))

    async def serve(self, web: bool = True) -> None:
        """Run until cancelled: MQTT, the ticker and (optionally) the dashboard."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        runner = None
        try:
            if web:
                runner = await self._start_web()
            self.start_mqtt(loop)
            notifier = Notifier()
            notifier.ready()
            notifier.status(f"event {self.config.name}: {self.tour.alive} players in play")
            await self.tick_forever()
        finally:
            notifier.stopping()
            self.stop_mqtt()
            if runner is not None:
                await runner.cleanup()
            self.log.close()


    async def _start_web(self) -> Any:
        """The dashboard, on HTTPS when a certificate is configured; a busy port is one line."""
        import ssl

        from aiohttp import web as aioweb

        from kiosk.director.web.app import make_app

        c = self.config
        context = None
        if c.tls_cert and c.tls_key:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            try:
                context.load_cert_chain(c.tls_cert, c.tls_key)
            except (OSError, ssl.SSLError) as exc:
                raise KioskError(f"cannot load the dashboard certificate {c.tls_cert}: "
                                 f"{exc}") from None
        runner = aioweb.AppRunner(make_app(self), access_log=None)
        await runner.setup()
        site = aioweb.TCPSite(runner, c.http_host, c.http_port, ssl_context=context)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise KioskError(f"cannot serve the dashboard on {c.http_host}:{c.http_port}: "
                             f"{exc.strerror or exc} (another program holds the port? "
                             "change [director] http)") from None
        log.info("dashboard on %s and clock on /clock", self.dashboard_url)
        return runner

    @property
    def dashboard_url(self) -> str:
        c = self.config
        return f"{'https' if c.https else 'http'}://{c.http_host}:{c.http_port}/"
