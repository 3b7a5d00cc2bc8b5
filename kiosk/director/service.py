"""The director service: the composition root that builds the room's service and its
adapters, wires them and runs them.

At the centre, kiosk.director.centre.room_service decides every command for the room and its
events and writes each in one transaction of the log. Around it, each adapter depends on
the centre and its ports, never the reverse: the MQTT inbox (reports in, acknowledged only
once on disk) and the publishing (plans, schedules, directories out) over one broker
connection, the ticker (the clock's beat), the pages' outbox (their live feed), the
dashboard, the receipt printer, and on PostgreSQL the leadership (the room's lease). This
module alone knows them all.

Threading: paho runs its network loop in its own thread and only hands messages over to
the asyncio loop; every change to the room or an event happens on that one loop thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.base.texts import M_, Msg
from kiosk.config.files import EventConfig
from kiosk.config.room import RoomConfig, RoomEvent
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import room_commands
from kiosk.core.model.commands import Command
from kiosk.core.model.events import Event
from kiosk.core.model.room_commands import RoomCommand
from kiosk.core.room.room import Room
from kiosk.director.adapters.csv_import import import_players
from kiosk.director.adapters.printing import make_printer
from kiosk.director.adapters.release_desk import ReleaseDesk
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.room_service import RoomService
from kiosk.director.log.logstore import StreamLog
from kiosk.director.log.pg_store import PgStore
from kiosk.director.log.store import open_store
from kiosk.director.mqtt.dealer_requests import DealerRequests
from kiosk.director.mqtt.inbox import Inbox
from kiosk.director.mqtt.mqtt_link import MqttLink
from kiosk.director.mqtt.publisher import Publisher, Publishing
from kiosk.director.mqtt.ticker import tick_forever
from kiosk.director.mqtt.wire import Wire
from kiosk.director.services.bookings import Bookings
from kiosk.director.services.dealers import Dealers
from kiosk.director.standby.leadership import Leadership, check_standby
from kiosk.director.standby.self_update import SelfUpdate
from kiosk.director.views.hub import Hub
from kiosk.director.views.page_notes import PageNotes
from kiosk.director.views.table_feed import TableFeed
from kiosk.director.web.server import start_web
from kiosk.protocol.topics import Topics
from kiosk.releases.ab import RESTART
from kiosk.system.sdnotify import Notifier

log = logging.getLogger("kiosk.director")


class Director:
    """The room's director, assembled: the room's service and every adapter around it.

    Reading and commanding go to the service (`act`, `room_act`, `open_event`, `event`,
    `room`); the attributes name the parts, for the entry points and the tests."""

    def __init__(self, config: EventConfig | RoomConfig,
                 clock: Callable[[], float] = time.time, standby: bool = False,
                 update_root: str | None = None, release_key: str | None = None) -> None:
        self.config = config if isinstance(config, RoomConfig) else RoomConfig.of_event(config)
        self.clock = clock
        self.hub = Hub()
        self.feed = TableFeed()
        self.health: dict[str, Msg | str] = {}   # background task -> how it failed (dashboard)
        check_standby(self.config.db, standby)
        self.store = open_store(self.config.db)
        self.wire = Wire(Topics(self.config.name), self.store, clock)
        # on PostgreSQL: the room's lease, taken (or followed) before anything is loaded
        self.ha = Leadership(self.store, self.config.name, self.dashboard_url, self.wire,
                             self.health, standby) if isinstance(self.store, PgStore) else None
        self.service = RoomService(self.config, self.store, clock,
                                   deposed=self.ha.step_down if self.ha else None)
        self.wire.bug = self.service.tx.after_write   # a message its schema refuses
        self.pages = PageNotes(self.hub)   # the pages' live feed, broker or not
        self.service.attach(self.pages)
        self.publishing = Publishing(self.service.repo, self.wire)
        self.service.attach(self.publishing)
        self.bookings = Bookings(self.service)   # settled in every write, the first too
        self.bookings.hook()
        self.dealers = Dealers(self.service)   # mirrors the room's tables
        self.dealers.hook()
        self.dealer_requests = DealerRequests(self.dealers, self.wire)
        try:
            if self.ha is not None:
                self.ha.claim()
            self.service.load(write=self.ha is None or self.ha.leading)
            if self.ha is not None:
                self.ha.loaded(self.service)
        except BaseException:
            if self.ha is not None:
                self.ha.close()
            self.store.close()
            raise
        # the tables' updates (docs/updates.md)
        self.releases = ReleaseDesk(self.service.repo, self.wire, self.feed, self.hub)
        self.inbox = Inbox(self.service, self.wire, self.hub, self.feed, self.health,
                           updates=self.releases.on_status, dealer=self.dealer_requests.on_request)
        self.link = MqttLink(self.config.broker, self.config.name, self.wire, self.inbox,
                             self.publishing,
                             [*self.releases.subscriptions, self.dealer_requests.subscription],
                             reconnected=lambda: self.releases.tick(force=True))
        self.exit_code = 0        # RESTART once the self-update switched this director
        self._running: tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]] | None = None
        self.self_update = self._self_update(update_root, release_key)
        self.printer = make_printer(self.config, self.service.repo, self.health)
        if self.printer is not None:
            self.service.attach(self.printer)
        self.events = self.service.repo.events   # the same dict, for the whole run
        self.topics = self.wire.topics
        self.connected = self.link.connected

    # ------------------------------------------------------------ the room's service
    def event(self, event: str | None = None) -> EventAggregate:
        """The event named, or the room's only (first open) event; RuleError if unknown."""
        return self.service.repo.event(event)

    def table_event(self, table: int) -> str | None:
        """The event table `table` serves now, or None for a free table."""
        return self.service.repo.table_event(table)

    @property
    def room(self) -> Room:
        return self.service.repo.room

    @property
    def tour(self) -> Tournament:
        """The default event's tournament (a room of one: the event)."""
        return self.event().tour

    @property
    def log(self) -> StreamLog:
        return self.event().log

    @property
    def out(self) -> Publisher:
        """The default event's publisher."""
        return self.publishing.of(self.event())

    def now(self) -> float:
        return self.clock()

    def act(self, cmd: Command | dict[str, Any], user: str | None = None,
            event: str | None = None) -> list[Event]:
        """See RoomService.act."""
        return self.service.act(cmd, user, event)

    def room_act(self, cmd: RoomCommand | dict[str, Any],
                 user: str | None = None) -> list[Event]:
        """See RoomService.room_act; a dealers' command through the dealers' adapter,
        which gives a push the table's hand and its event's clock period."""
        cmd = room_commands.decode(cmd)
        if cmd.kind.startswith("dealer_"):
            return self.dealers.act(cmd, user)
        return self.service.room_act(cmd, user)

    def open_event(self, spec: RoomEvent | dict[str, Any],
                   user: str | None = None) -> EventAggregate:
        """See RoomService.open_event."""
        return self.service.open_event(spec, user)

    def import_csv(self, text: str, event: str | None = None) -> tuple[int, list[Msg | str]]:
        """Register players from CSV with a `name` column (optional `card`, `id`)."""
        return import_players(self.service, text, event)

    @property
    def epoch(self) -> float:
        """This run's epoch, which every plan carries: tables follow the newest."""
        return self.wire.epoch

    @property
    def internal_errors(self) -> int:
        """Bugs met while deciding, each logged with its traceback and refused."""
        return self.service.tx.internal_errors

    # ------------------------------------------------------------ the broker
    def drain(self) -> None:
        """Handle every message the inbox holds (see Inbox.drain)."""
        self.inbox.drain()

    def republish_all(self) -> None:
        """Everything retained, again (see Publishing.republish_all), and the tables'
        wanted releases."""
        self.publishing.republish_all()
        self.releases.tick(force=True)

    def _self_update(self, root: str | None, key: str | None) -> SelfUpdate | None:
        """With the log on PostgreSQL and an A/B install folder (the supervisor's), this
        director updates itself when `pokerkiosk release self-update` asks; without the
        folder it answers that it cannot, so the command does not wait for it."""
        if self.ha is None:
            return None
        source = Path(self.config.source or ".")
        return SelfUpdate(self.ha, Path(root) if root else None, Path(key) if key else
                          source.parent / "release.pub", self.restart_for_update)

    def restart_for_update(self) -> None:
        """The self-update switched this director's environment (from its thread): stop
        with the code that asks the supervisor to start the new version."""
        self.exit_code = RESTART
        if self._running is not None:
            loop, task = self._running
            asyncio.run_coroutine_threadsafe(self._hand_over(task), loop)

    async def _hand_over(self, task: asyncio.Task[Any]) -> None:
        """A leader takes no more messages, decides every one it took, goes quietly (no
        "offline" to the tables) and releases the lease at once: its successor takes it
        within a poll, and the session hands it whatever came meanwhile."""
        if self.ha is not None and self.ha.leading:
            self.link.pause()
            for _ in range(3):          # the messages paho handed over before it stopped
                await asyncio.sleep(0)
            self.inbox.drain()
            self.wire.silence()
            self.ha.close()
        task.cancel()

    # ------------------------------------------------------------------ run
    def task_failed(self, task: str, exc: BaseException, restarted: bool) -> None:
        """A background task died: loud in the log (with its traceback) and on the
        dashboard's health line, never a silent half-working room."""
        log.error("%s failed%s", task, "; restarting it" if restarted else "", exc_info=exc)
        error = f"{type(exc).__name__}: {exc}"
        self.health[task] = (M_("health.restarted", "restarted after {error}", error=error)
                             if restarted else
                             M_("health.stopped", "stopped by {error}", error=error))

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        loop.default_exception_handler(context)
        exc = context.get("exception")
        self.health["director"] = f"{context.get('message')}: {exc!r}"

    async def serve(self, web: bool = True) -> None:
        """Run until cancelled: MQTT, the ticker and (optionally) the dashboard."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        if self.printer is not None:
            self.printer.loop = loop
        runner = None
        notifier = Notifier()   # before anything can fail: the shutdown below tells systemd
        task = asyncio.current_task()
        assert task is not None
        self._running = (loop, task)
        updating = (asyncio.ensure_future(self.self_update.run())
                    if self.self_update is not None else None)
        try:
            if web:
                runner = await start_web(self, self.dashboard_url)
            notifier.ready()

            async def lead() -> None:
                self.link.start(loop)
                notifier.status(f"room {self.config.name}: {len(self.events)} events")
                await tick_forever(self.service, self.publishing,
                                   beats=(self.releases.tick, self.dealers.tick))

            await (self.ha.serve(lead) if self.ha is not None else lead())
        finally:
            notifier.stopping()
            if updating is not None and self.self_update is not None:
                updating.cancel()
                self.self_update.close()
            if self.ha is None or self.ha.leading:
                self.link.stop()
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
