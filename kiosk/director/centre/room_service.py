"""The room's application service: the centre every adapter of the director works around.

It decides commands for the room and its events (`act`, `room_act`, `open_event`), writes
each command's whole batch in one transaction of the log (`commit`) and says what changed
to its outboxes. It knows no MQTT, HTTP, printer, lease or wall clock of its own: the log
store, the clock and the outboxes are ports (kiosk.director.centre.ports) the composition root
fills (kiosk.director.service). Threading: it runs on one thread, the asyncio loop's; the
adapters hand it their input there.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from kiosk.config.room import RoomConfig, RoomEvent, event_spec
from kiosk.core.model import commands, room_commands
from kiosk.core.model.commands import Command
from kiosk.core.model.events import Event
from kiosk.core.model.room_commands import RoomCommand
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.changed import Changed
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.ports import Clock, Outbox, RoomLog
from kiosk.director.centre.repository import Repository
from kiosk.director.centre.transactions import Transactions, player_language
from kiosk.director.log.logstore import ROOM_STREAM, Fenced

log = logging.getLogger("kiosk.director")


class RoomService:
    """Every change to the room or an event goes through `act`, `room_act`, `open_event`
    (or, at start, `open_room`): decided, written whole, then told to the outboxes."""

    def __init__(self, config: RoomConfig, store: RoomLog, clock: Clock,
                 deposed: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.store = store
        self.clock = clock
        self.deposed = deposed      # told when the log refuses a write: another leads
        self.repo = Repository(config, store.stream, clock)
        self.tx = Transactions(self.repo, store.event_streams)
        self.outboxes: list[Outbox] = []
        # before each write, steps that belong in the same transaction (bookings settling)
        self.before_write: list[Callable[[Batch], None]] = []
        # a player's card given to a command is offered to each: RuleError refuses it
        # (a dealer's badge is never a player's card)
        self.card_checks: list[Callable[[str], None]] = []

    def attach(self, outbox: Outbox) -> None:
        """`outbox` hears of every desk held (those held already first) and every batch
        written from now on, after the outboxes attached before it."""
        self.outboxes.append(outbox)
        self.repo.watchers.append(outbox.opened)
        for desk in list(self.repo.events.values()):
            outbox.opened(desk)

    def load(self, write: bool = True) -> None:
        """The room and its events as logged; `write=False` (a standby) only loads."""
        self.repo.load_room()
        self.open_room(write)

    def open_room(self, write: bool = True) -> None:
        """Every event of the log at its desk, and (leading) the events the config lists
        and the log lacks, opened, in one transaction."""
        self.commit(self.tx.open_room(write))

    def now(self) -> float:
        return self.clock()

    # ---------------------------------------------------------------- commands
    def act(self, cmd: Command | dict[str, Any], user: str | None = None,
            event: str | None = None) -> list[Event]:
        """Decide a command of one event, with whatever it carries into the room, write it
        all in one transaction, publish what changed. RuleError if refused."""
        cmd = _language(commands.decode(cmd))   # a dict (tools, tests) fits its schema first
        self._check_card(cmd)
        if user:
            cmd = msgspec.structs.replace(cmd, by=user)
        batch = Batch()
        desk = self.repo.event(event)
        events = self.tx.atomic(batch, lambda: self.tx.event(desk, cmd, batch),
                                f"{desk.name}: {cmd.kind}")
        self.commit(batch)
        return events

    def room_act(self, cmd: RoomCommand | dict[str, Any],
                 user: str | None = None) -> list[Event]:
        """A room command (open an event, move a table, a ticket...), as `act`."""
        cmd = _language(room_commands.decode(cmd))
        self._check_card(cmd)
        if user and hasattr(cmd, "by"):
            cmd = msgspec.structs.replace(cmd, by=user)
        batch = Batch()
        events = self.tx.atomic(batch, lambda: self.tx.room(cmd, batch), f"room: {cmd.kind}")
        self.commit(batch)
        return events

    def _check_card(self, cmd: Command | RoomCommand) -> None:
        """A card a command gives a player (a registration, a player added or changed)
        passes every card check first."""
        card = getattr(cmd, "card", None)
        if isinstance(card, str) and card:
            for check in self.card_checks:
                check(card)

    def open_event(self, spec: RoomEvent | dict[str, Any],
                   user: str | None = None) -> EventAggregate:
        """A new event in the room while it runs (dashboard, CLI): its stream, tables,
        carried stacks and held tickets, in one transaction. RuleError/ConfigError why."""
        if isinstance(spec, dict):
            spec = event_spec(self.config, spec)
        batch = Batch()
        desk = self.tx.atomic(batch, lambda: self.tx.open_event(spec, batch, user),
                              f"room: opening {spec.name}")
        self.commit(batch)
        return desk

    # ---------------------------------------------------------------- the write
    def commit(self, batch: Batch) -> None:
        """Write every stream the batch touched in one transaction, then tell the outboxes
        (the pages' notes, the publishing, then the printer) what was written and what it
        changed, taken once from the events' change sets (`changed`). The `before_write`
        steps decide into the batch first."""
        for step in self.before_write:
            step(batch)
        if batch.rows:
            try:
                self.store.append_many(batch.rows)
            except Fenced as exc:   # deposed: nothing written, nothing published
                if self.deposed is not None:
                    self.deposed(str(exc))
                raise
            except Exception:  # the state is now ahead of the log: only a replay can fix it
                log.critical("cannot write the event log %s; stopping", self.config.db,
                             exc_info=True)
                os._exit(70)
            for name in batch.rows:
                if name in self.repo.events:
                    self.repo.events[name].after_commit()
        changed = self.changed(batch)
        for outbox in self.outboxes:
            try:
                outbox.committed(batch, changed)
            except Exception as exc:   # written: the decision stands, the bug is counted
                self.tx.after_write(f"{type(outbox).__name__} after the write", exc)

    def changed(self, batch: Batch) -> Changed:
        """What `batch` changed, the marks of each event's change set since the last commit
        with it (a standby's fold marks them too): handed out once, then cleared here, so
        no outbox clears another's."""
        events = {}
        for name, desk in self.repo.events.items():
            one = desk.take_changes(written=name in batch.rows)
            if one:
                events[name] = one
        return Changed(events, room=ROOM_STREAM in batch.rows)

C = TypeVar("C", Command, RoomCommand)


def _language(cmd: C) -> C:
    """A command that names a player's language names it as the catalogues do ("zh-CN"
    is zh_Hans); an unknown code refuses the command, saying which there are."""
    code = getattr(cmd, "language", "")
    if not isinstance(code, str) or not code:
        return cmd
    found = player_language(code)
    return cmd if found == code else msgspec.structs.replace(cmd, language=found)
