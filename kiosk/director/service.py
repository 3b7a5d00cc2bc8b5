"""The director service: MQTT in and out, the room's log, every event's desk.

Threading: paho runs its network loop in its own thread and only hands messages over
to the asyncio loop; every change to the room or an event happens on that one loop thread.
Incoming reports are handled in batches: decide each (routed to the event its table
serves), append all resulting events of every stream in one fsynced transaction, then
publish plans and acknowledge the reports. Nothing is published or acknowledged before it
is on disk.
"""

from __future__ import annotations

import asyncio
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
from kiosk.core import commands, room_commands
from kiosk.core.commands import Command
from kiosk.core.events import Event
from kiosk.core.room import Room
from kiosk.core.room_commands import RoomCommand
from kiosk.core.tournament import Tournament
from kiosk.director import inbox
from kiosk.director.bookings import Bookings
from kiosk.director.budget import Budget
from kiosk.director.csv_import import import_players
from kiosk.director.desk import Desk
from kiosk.director.hub import Hub
from kiosk.director.leadership import Leadership, check_standby
from kiosk.director.logstore import Fenced
from kiosk.director.pg_store import PgStore
from kiosk.director.printing import attach_printer
from kiosk.director.publisher import Publisher, free_plan_msg, publish_directory, send
from kiosk.director.release_desk import ReleaseDesk
from kiosk.director.roomdesk import ROOM_STREAM, RoomDesk
from kiosk.director.store import LogStore, StreamLog, open_store
from kiosk.director.transactions import Batch, Transactions
from kiosk.director.web.server import start_web
from kiosk.errors import RuleError
from kiosk.mqttclient import make_client
from kiosk.protocol.messages import encode
from kiosk.protocol.topics import Topics, V1Topics
from kiosk.roomconfig import RoomConfig, RoomEvent, event_spec

log = logging.getLogger("kiosk.director")


class Director:
    """The room's director: every event's desk, the room's own aggregate, one log, one
    broker connection. `act` and `room_act` are the only ways anything changes."""

    def __init__(self, config: EventConfig | RoomConfig,
                 clock: Callable[[], float] = time.time, standby: bool = False) -> None:
        self.config = config if isinstance(config, RoomConfig) else RoomConfig.of_event(config)
        self.clock = clock
        self.topics = Topics(self.config.name)
        self.epoch = round(self.clock(), 3)   # this run: tables follow a restored director
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
        self.internal_errors = 0    # bugs met while deciding (Transactions.internal)
        self.dropped = 0            # messages over a table's budget (the table re-sends)
        self.budget = Budget()
        self.health: dict[str, str] = {}      # background task -> how it failed (dashboard)
        self.old_tables: set[tuple[str, int]] = set()   # v1 kiosks told to update
        check_standby(self.config.db, standby)
        self.store: LogStore = open_store(self.config.db)
        self.desks: dict[str, Desk] = {}
        self.observers: list[Callable[[Batch], None]] = []   # after each commit (printer)
        self.tx = Transactions(self)
        self.bookings = Bookings(self)
        # on PostgreSQL: the room's lease, taken (or followed) before anything is loaded
        self.ha = Leadership(self, self.store, standby) \
            if isinstance(self.store, PgStore) else None
        try:
            if self.ha is not None:
                self.ha.claim()
            self.roomdesk = RoomDesk.load(self, self.store.stream(ROOM_STREAM))
            self.tx.open_room(write=self.ha is None or self.ha.leading)
            if self.ha is not None:
                self.ha.loaded()
        except BaseException:
            if self.ha is not None:
                self.ha.close()
            self.store.close()
            raise
        self.printer = attach_printer(self)
        self.releases = ReleaseDesk(self)     # the tables' updates (docs/updates.md)

    # ----------------------------------------------------------------- state
    def desk(self, event: str | None = None) -> Desk:
        """The event named, or the room's only (first open) event; RuleError if unknown."""
        if event is None:
            live = [d for d in self.desks.values()
                    if self.room.events[d.name].state != "archived"]
            if not live:
                raise RuleError("the room has no event yet: create one first")
            return live[0]
        try:
            return self.desks[event]
        except KeyError:
            raise RuleError(f"no event {event!r} in this room (events: "
                            f"{', '.join(self.desks) or 'none'})") from None

    @property
    def room(self) -> Room:
        return self.roomdesk.room

    @property
    def tour(self) -> Tournament:
        """The default event's tournament (a room of one: the event)."""
        return self.desk().tour

    @property
    def log(self) -> StreamLog:
        return self.desk().log

    @property
    def out(self) -> Publisher:
        return self.desk().out

    def table_event(self, table: int) -> str | None:
        """The event table `table` serves now, or None for a free table."""
        if self.config.pool:
            return self.room.table_event(table)
        for desk in self.desks.values():
            if table in desk.tour.tables:
                return desk.name
        return None

    def now(self) -> float:
        return self.clock()

    def send(self, topic: str, body: dict[str, Any], retain: bool = True) -> None:
        """Publish at QoS 1 (the one door every outgoing message takes)."""
        send(self, topic, body, retain)

    def act(self, cmd: Command | dict[str, Any], user: str | None = None,
            event: str | None = None) -> list[Event]:
        """Decide a command of one event, with whatever it carries into the room, write it
        all in one transaction, publish what changed. RuleError if refused."""
        cmd = commands.decode(cmd)   # a dict (tools, tests) fits its schema first
        if user:
            cmd = msgspec.structs.replace(cmd, by=user)
        batch = Batch()
        desk = self.desk(event)
        events = self.tx.atomic(batch, lambda: self.tx.event(desk, cmd, batch),
                                f"{desk.name}: {cmd.kind}")
        self.commit(batch)
        return events

    def room_act(self, cmd: RoomCommand | dict[str, Any],
                 user: str | None = None) -> list[Event]:
        """A room command (open an event, move a table, a ticket...), as `act`."""
        cmd = room_commands.decode(cmd)
        if user and hasattr(cmd, "by"):
            cmd = msgspec.structs.replace(cmd, by=user)
        batch = Batch()
        events = self.tx.atomic(batch, lambda: self.tx.room(cmd, batch), f"room: {cmd.kind}")
        self.commit(batch)
        return events

    def open_event(self, spec: RoomEvent | dict[str, Any], user: str | None = None) -> Desk:
        """A new event in the room while it runs (dashboard, CLI): its stream, tables,
        carried stacks and held tickets, in one transaction. RuleError/ConfigError why."""
        if isinstance(spec, dict):
            spec = event_spec(self.config, spec)
        batch = Batch()
        desk = self.tx.atomic(batch, lambda: self.tx.open_event(spec, batch, user),
                              f"room: opening {spec.name}")
        self.commit(batch)
        return desk

    def commit(self, batch: Batch) -> None:
        """Write every stream the batch touched in one transaction, publish, then tell the
        observers (the printer) what was written."""
        self.bookings.settle(batch)
        if batch.rows:
            try:
                self.store.append_many(batch.rows)
            except Fenced as exc:   # deposed: nothing written, nothing published
                if self.ha is not None:
                    self.ha.step_down(str(exc))
                raise
            except Exception:  # the state is now ahead of the log: only a replay can fix it
                log.critical("cannot write the event log %s; stopping", self.config.db,
                             exc_info=True)
                os._exit(70)
            for name in batch.rows:
                if name in self.desks:
                    self.desks[name].after_commit()
        self.publish(batch)
        for observer in self.observers:
            observer(batch)

    def publish(self, batch: Batch) -> None:
        """What the batch changed: each event's plans and schedule, freed tables' plans,
        the events directory."""
        for desk in list(self.desks.values()):
            desk.out.changes()
        for table in batch.assigned:
            event = self.table_event(table)
            if event in self.desks:
                self.desks[event].out.send_plan(table)
        for table in batch.freed:
            if self.table_event(table) is None:
                self.send(self.topics.plan(table), free_plan_msg(self, table))
        if ROOM_STREAM in batch.rows:
            publish_directory(self)
            self.hub.publish({"type": "room"})

    def import_csv(self, text: str, event: str | None = None) -> tuple[int, list[str]]:
        """Register players from CSV with a `name` column (optional `card`, `id`)."""
        return import_players(self, text, event)

    # -------------------------------------------------------------- incoming
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    props: Any = None) -> None:
        if reason.is_failure:
            log.error("broker refused the director: %s", reason)
            return
        t = self.topics
        client.subscribe([(t.all_reports, 1), (t.all_live, 0), (t.all_status, 1),
                          (V1Topics.all_status, 1),
                          *((topic, 1) for topic in self.releases.subscriptions)])
        if self.loop:
            self.loop.call_soon_threadsafe(self._connected)

    def _connected(self) -> None:
        self._unreachable = False
        log.info("connected to %s", self.config.broker.url)
        self.republish_all()
        self.connected.set()

    def republish_all(self) -> None:
        """Everything retained, again: after a (re)connect the broker may have lost it."""
        self.send(self.topics.director_status, {"state": "online", "ts": self.now()})
        publish_directory(self)
        for desk in self.desks.values():
            desk.out.republish_all()
        for table in self.room.free_tables() if self.config.pool else ():
            self.send(self.topics.plan(table), free_plan_msg(self, table))
        self.releases.tick(force=True)

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
        batch = Batch()
        acks: dict[int, list[str]] = {}
        rejected: dict[int, dict[str, str]] = {}
        tables_changed: set[int] = set()
        while self._inbox:
            topic, payload = self._inbox.popleft()
            try:
                inbox.take(self, topic, payload, batch, acks, rejected, tables_changed)
            except Exception as exc:   # a bug: this message is lost, never the batch
                self.tx.internal(f"a message on {topic}", exc)
        try:
            self.commit(batch)
        except Fenced:   # no longer the leader: acknowledge nothing
            return
        for table, ids in acks.items():
            body: dict[str, Any] = {"ids": ids}
            if rejected.get(table):
                body["rejected"] = rejected[table]
            self.send(self.topics.ack(table), body, retain=False)
        if tables_changed:
            self.hub.publish({"type": "tables", "tables": sorted(tables_changed)})

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
            self.send(self.topics.director_status, {"state": "offline", "ts": self.now()})
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
        """Level changes, timed penalties, seating directories, watchdog: every event."""
        notifier = Notifier()
        while True:
            wait = every
            for desk in list(self.desks.values()):
                tour = desk.tour
                if tour.started and tour.finished_at is None:
                    try:
                        self.act(commands.Tick(), event=desk.name)
                    except RuleError as exc:  # a tick never refuses: a bug, already counted
                        log.error("%s: tick refused: %s", desk.name, exc)
                desk.out.seating()
                # wake exactly at a level boundary, so the new level goes out at once
                reading = desk.tour.clock.read(desk.tour.structure, self.now())
                if not (reading.paused or reading.finished):
                    wait = min(wait, reading.remaining + 0.001)
            self.releases.tick()
            notifier.watchdog()
            await asyncio.sleep(max(0.001, wait))

    async def serve(self, web: bool = True) -> None:
        """Run until cancelled: MQTT, the ticker and (optionally) the dashboard."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        runner = None
        notifier = Notifier()   # before anything can fail: the shutdown below tells systemd
        try:
            if web:
                runner = await start_web(self)
            notifier.ready()

            async def lead() -> None:
                self.start_mqtt(loop)
                notifier.status(f"room {self.config.name}: {len(self.desks)} events")
                await self.tick_forever()

            await (self.ha.serve(lead) if self.ha is not None else lead())
        finally:
            notifier.stopping()
            if self.ha is None or self.ha.leading:
                self.stop_mqtt()
            if self.ha is not None:
                self.ha.close()
            if runner is not None:
                await runner.cleanup()
            if self.printer is not None:
                self.printer.close()
            self.store.close()


    @property
    def dashboard_url(self) -> str:
        c = self.config
        return f"{'https' if c.https else 'http'}://{c.http_host}:{c.http_port}/"
