"""One event of the room, as the director holds it: its tournament, its stream of the log
and its snapshots.

The room's service keeps one desk per event (kiosk.director.centre.repository). A desk decides a
command against its own tournament and hands back the rows to write; it never writes them
itself, so a command that touches several events (a satellite's seats, a Day 2) is written
in one transaction by the service, or not at all. It knows no broker, page or printer: what
goes out is the adapters' business, told by the service's outboxes.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Any

import msgspec

from kiosk.base.errors import ConfigError
from kiosk.config.files import EventConfig
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events as ev_
from kiosk.core.model.commands import Command
from kiosk.core.model.events import Event
from kiosk.core.model.stall_events import ShotClockSpec
from kiosk.director.centre.batch import Rows
from kiosk.director.centre.changed import NOTHING, EventChanged
from kiosk.director.log.logstore import StreamLog
from kiosk.director.log.snapshots import Snapshots
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
from kiosk.rules.structure_files import load_structure

log = logging.getLogger("kiosk.director")


def created_event(c: EventConfig, t: float, pool: bool, **extra: Any) -> ev_.Created:
    """The first event of an event's stream, from its settings (a setting at its default
    is left out, so a room of one writes exactly what the single-event director did)."""
    if pool:
        extra["pool"] = True
    if c.satellite_leftover != "next":
        extra["satellite_leftover"] = c.satellite_leftover
    for key in ("max_entries", "max_tables", "shot_clock"):
        if getattr(c, key, None) is not None:
            extra[key] = getattr(c, key)
    return Tournament.create(
        event=c.name, profile=load_profile(c.profile or DEFAULT_PROFILE),
        structure=load_structure(c.structure),
        seats=c.seats, start_stack=c.start_stack, buy_in=c.buy_in,
        seed=c.seed if c.seed is not None else int.from_bytes(os.urandom(4), "big"), t=t,
        payout_percent=c.payout_percent, money=c.money or None,
        chip_set=list(c.chip_set) or None, h4h_at_bubble=c.h4h_at_bubble,
        chip_race=c.chip_race, **extra).config


class EventAggregate:
    """One event: `decide` is the only way its state changes."""

    def __init__(self, name: str, log_: StreamLog, tour: Tournament,
                 clock: Callable[[], float], title: str = "") -> None:
        self.name = name
        self.title = title or name
        self.log = log_
        self.snapshots = Snapshots(log_)
        self.tour = tour
        self.clock = clock

    @classmethod
    def load(cls, name: str, log_: StreamLog, config: EventConfig | None,
             clock: Callable[[], float], title: str = "") -> EventAggregate:
        """The event as its stream has it (snapshot plus tail); settings checked against
        `config` when the room's file still lists it."""
        started = time.perf_counter()
        tour = Snapshots(log_).load()
        log.info("%s: replayed %d events in %.2f s", name, tour.n_events,
                 time.perf_counter() - started)
        if config is not None:
            check_unchanged(config, tour.config, log_)
        return cls(name, log_, tour, clock, title)

    def decide(self, cmd: Command, pending: list[Event]) -> tuple[list[Event], Rows]:
        """One command as a transaction: its events, each proven storable, or nothing.

        Whatever raises (a rule, a bug, an event that would not encode) leaves the state
        as if the command never came: when the command had already changed the state, it
        is rebuilt from the log plus `pending` (this batch's earlier, unwritten events).
        Raises RuleError with the reason, or the bug itself (`Transactions.atomic` logs
        and counts it).
        """
        return decide_whole(self.tour, cmd, self.clock(), pending, self.rebuild)

    def rebuild(self, pending: list[Event]) -> None:
        """The state as logged, plus this batch's decided-but-unwritten events."""
        tour = self.snapshots.load() if self.log.last_seq else Tournament(pending[0])
        for ev in pending[0 if self.log.last_seq else 1:]:
            tour.apply(ev)
        tour.dirty.update(tour.tables)
        tour.schedule_dirty = tour.seating_dirty = True
        self.tour = tour

    def after_commit(self) -> None:
        if self.snapshots.due():
            self.snapshots.save(self.tour)

    def take_changes(self, written: bool) -> EventChanged:
        """What the tournament marked changed since the last commit (`written`: its stream
        got rows in this one), handed out once; its change set starts empty again."""
        marks = self.tour.changes
        if not (marks.tables or marks.schedule or marks.seating or written):
            return NOTHING      # a tick that changed nothing: the common case
        out = EventChanged(frozenset(marks.tables), marks.schedule, marks.seating, written)
        marks.tables.clear()
        marks.schedule = marks.seating = False
        return out


def decide_whole(state: Any, cmd: Any, t: float, pending: list[Event],
                 rebuild: Callable[[list[Event]], None]) -> tuple[list[Event], Rows]:
    """`state.execute(cmd, t)` as a transaction, for an event or the room: its events each
    proven storable, or nothing; a state the command had already changed is rebuilt from
    the log plus `pending`. Raises what the decision raised: a RuleError with the reason,
    or a bug, which is never dressed up as a rule (`Transactions.atomic` reports it)."""
    before = state.n_events
    try:
        events = state.execute(cmd, t)
        rows = [(e.kind, ev_.check(e)) for e in events]
    except Exception:
        if state.n_events != before:
            rebuild(pending)
        raise
    return events, rows


def check_unchanged(c: EventConfig, created: ev_.Created, log_: StreamLog) -> None:
    """[event] settings are fixed once the event exists: a change is refused, not lost."""
    structure = load_structure(c.structure)
    # a file that names no profile lets the event keep the one it was created with
    now = {"profile": load_profile(c.profile).id if c.profile else None,
           "structure": structure.to_dict(),
           "seats": c.seats, "start_stack": c.start_stack or structure.start_stack,
           "buy_in": c.buy_in, "payout_percent": c.payout_percent, "seed": c.seed}
    _shot_clock_unchanged(c, created)
    for key, value in now.items():
        was = created.get(key)
        if key in ("seed", "profile") and value is None:
            continue
        if value != was:
            shown = (c.structure, "the structure it was created with") \
                if key == "structure" else (value, repr(was))
            raise ConfigError(
                c.source or "event config", f"event.{key}",
                f"{shown[0]!r} differs from {shown[1]} in {c.db}; an existing event "
                "keeps its settings. Put it back, or start a new event with "
                f"`pokerkiosk new-event --config {c.source or 'event.toml'}` "
                "(the old log is kept)")


def _shot_clock_unchanged(c: EventConfig, created: ev_.Created) -> None:
    """[shot_clock] is fixed once the event exists, like [event]: a change (a shot clock
    added, removed or retimed) is refused whole at load, and the event runs on as it was
    created; where the shot clock runs, the floor sets while it plays."""
    wanted = None if c.shot_clock is None else msgspec.convert(c.shot_clock, ShotClockSpec)
    if wanted == created.shot_clock:
        return
    raise ConfigError(
        c.source or "event config", "shot_clock",
        f"{_spec_text(wanted)} differs from the shot clock the event was created with "
        f"({_spec_text(created.shot_clock)}); an existing event keeps its shot clock (the floor "
        "sets where it runs, from the dashboard). Put it back, or start a new event with "
        f"`pokerkiosk new-event --config {c.source or 'event.toml'}`")


def _spec_text(spec: ShotClockSpec | None) -> str:
    """A shot clock as its settings read ("seconds 30, bank_cards 2"), or "none"."""
    if spec is None:
        return "none"
    return ", ".join(f"{k} {v}" for k, v in msgspec.to_builtins(spec).items())
