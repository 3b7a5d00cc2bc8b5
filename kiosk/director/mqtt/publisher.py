"""What the director sends to the broker, and when: plans of the tables that changed, the
schedule (at once when the clock or a state every table must obey changes, the field at
most once a second, slower in a big event), the seating directory, the room's events
directory and free tables' plans, and everything again after a reconnect.

An adapter of the room's service: `Publishing` is the outbox the service tells what it
wrote and what that changed (kiosk.director.centre.changed), and keeps one `Publisher` (the
pacing of one event) per desk the service holds. It reads the change value and clears
nothing: the pages hear the same commit from their own outbox
(kiosk.director.views.page_notes). Every message leaves through the wire
(kiosk.director.mqtt.wire).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from kiosk.core.dealers import board as dealer_board
from kiosk.core.event import handover, plans
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.changed import Changed, EventChanged
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.repository import Repository
from kiosk.director.mqtt.speech import Speech
from kiosk.director.mqtt.wire import Wire
from kiosk.director.views.room_views import directory

log = logging.getLogger("kiosk.director")


def room_clock(zone: str) -> Callable[[float], str]:
    """A time of day in the room's zone ("21:35"), as the kiosk says "Break until"; UTC
    for a room with none."""
    if not zone:
        return dealer_board.clock
    tz = ZoneInfo(zone)
    return lambda t: datetime.fromtimestamp(t, tz).strftime("%H:%M")
SEATING_EVERY = 1.0   # seconds between seating-directory publications at most
FANOUT = 100          # tables a paced message may reach each second (see `pace`)


def pace(tables: int) -> float:
    """Seconds between two publications of a paced message (the schedule's field, the
    seating directory) that reaches `tables` tables: once a second up to 100 tables,
    slower in a bigger room. A 558-table flight's schedule each second was 3.5 MB a
    second through the broker and the tables' Wi-Fi, and the reports' acknowledgements
    queued behind it (the tail of bench/festival_bench.py)."""
    return max(SEATING_EVERY, tables / FANOUT)


SEATING_BUDGET = 2_000_000   # bytes a second the seating directory may cost the broker


def seating_pace(tables: int, size: int) -> float:
    """Seconds between two seating directories of `size` bytes to `tables` tables: as
    `pace`, and within SEATING_BUDGET. 5,000 players' cards are 200 KB, to every table of
    a 558-table room: each second that was 11 MB a second and the level changes came 1.2 s
    late. A table checks its own players in from its plan (fresh with every move); the
    directory only sends a player at the wrong table to the right one, and may lag."""
    return max(pace(tables), size * tables / SEATING_BUDGET)


def free_plan_msg(wire: Wire, table: int, room_title: str) -> dict[str, Any]:
    """The retained plan of a table no event holds: its idle screen."""
    return {**wire.stamp(), **plans.free_plan(table, room_title)}


class Publisher:
    """One event's outgoing side: it owns the pacing state of the schedule and the seating
    directory, and reads the desk's tournament."""

    def __init__(self, desk: EventAggregate, wire: Wire,
                 table_event: Callable[[int], str | None], room_title: str,
                 slips_at_table: bool = False, room_tables: int = 0) -> None:
        self.desk = desk
        self.room_tables = room_tables   # every table hears the seating directory
        self.slips_at_table = slips_at_table
        self.wire = wire
        self.table_event = table_event
        self.room_title = room_title
        self._seating_at = 0.0
        self._seating_due = True
        self._seating_bytes = 0   # the last directory's size
        self._schedule_key: tuple | None = None
        self._schedule_urgent: tuple | None = None
        self._schedule_due = False
        self._schedule_at = 0.0
        self._event_key = plans.event_key(desk.tour)
        self._prizes = tuple(desk.tour.current_payouts())
        self.dealer_of: Callable[[int], dict[str, Any] | None] | None = None
        self.section_of: Callable[[int], str | None] = lambda table: None
        self.speech = Speech(None)     # the room's languages (set by Publishing)

    def plan_msg(self, table: int) -> dict[str, Any]:
        msg = {**self.wire.stamp(),
               **plans.plan(self.desk.tour, table, event=self.desk.name,
                            title=self.desk.title, room=self.room_title)}
        if section := self.section_of(table):    # the room's, for the table's header
            msg["section"] = section
        dealer = self.dealer_of(table) if self.dealer_of is not None else None
        if dealer is not None:     # the rotation's part of the plan (kiosk.core.dealers)
            msg["dealer"] = dealer
        # the table prints its busts' payout slips; once a deal is agreed the desk prints
        # the deal's slips at once and the plan's prizes no longer say what is paid
        if self.slips_at_table and not self.desk.tour.deal:
            msg["slips"] = True
        return self.speech.plan(table, msg)

    def owns(self, table: int) -> bool:
        """Whether this event publishes the plan of `table` (a broken table given back to
        the room is the room's to publish)."""
        return self.table_event(table) == self.desk.name

    def plan_for(self, table: int) -> dict[str, Any]:
        """The table's plan; a table lent to the event and not yet opened waits, empty,
        under the event's name."""
        if table in self.desk.tour.tables:
            return self.plan_msg(table)
        msg = {**free_plan_msg(self.wire, table, self.room_title), "event": self.desk.name,
               "title": self.desk.title}
        if section := self.section_of(table):
            msg["section"] = section
        dealer = self.dealer_of(table) if self.dealer_of is not None else None
        if dealer is not None:     # a dealer waits at the table too
            msg["dealer"] = dealer
        return self.speech.plan(table, msg)

    def send_plan(self, table: int) -> None:
        if self.owns(table):
            self.wire.send(self.wire.topics.plan(table), self.plan_for(table))

    def follow_event(self) -> set[int]:
        """The plans that fields of the event as a whole made stale (no table was
        touched): every table's, broken ones included, when `plans.event_key` changed;
        those announcing busts when only the prizes did (an entry, a rebuy)."""
        tour = self.desk.tour
        key, prizes = plans.event_key(tour), tuple(tour.current_payouts())
        stale: set[int] = set()
        if key != self._event_key:
            stale.update(tour.tables)
        elif prizes != self._prizes:
            stale.update(n for n, tab in tour.tables.items() if plans.hand_busts(tour, tab))
        self._event_key, self._prizes = key, prizes
        return stale

    def changes(self, changed: EventChanged) -> None:
        """After a commit: the plans it changed, the schedule at once or when due, the
        seating directory when due (`seating` sends what is due, paced)."""
        tour = self.desk.tour
        for n in sorted(changed.tables | self.follow_event()):
            self.send_plan(n)
        key = plans.schedule_key(tour)
        urgent = plans.schedule_urgent_key(tour)
        if urgent != self._schedule_urgent:   # the clock or a state every table must obey
            self._schedule_urgent = urgent
            self.schedule()
        elif changed.schedule or key != self._schedule_key:
            # the field and the breaking order: at most once per SEATING_EVERY, because the
            # schedule goes to every table and a busy room changes these on every bust
            self._schedule_due = True
        if changed.seating:
            self._seating_due = True

    def schedule(self) -> None:
        self._schedule_key = plans.schedule_key(self.desk.tour)
        self._schedule_due, self._schedule_at = False, self.wire.clock()
        self.wire.send(self.wire.topics.schedule(self.desk.name), self.schedule_msg())

    def schedule_msg(self) -> dict[str, Any]:
        return {**self.wire.stamp(), **plans.schedule(self.desk.tour)}

    def seating(self, force: bool = False) -> None:
        now, tables = self.wire.clock(), len(self.desk.tour.tables)
        if self._schedule_due and now - self._schedule_at >= pace(tables):
            self.schedule()
        hearing = max(tables, self.room_tables)    # every table hears every directory
        if force or (self._seating_due and now - self._seating_at
                     >= seating_pace(hearing, self._seating_bytes)):
            self._seating_due = False
            self._seating_at = now
            self._seating_bytes = self.wire.send(
                self.wire.topics.seating(self.desk.name),
                {"rev": self.wire.log.last_seq, "epoch": self.wire.epoch,
                 "cards": plans.seating(self.desk.tour)}) or 0

    def republish_all(self) -> None:
        """Everything retained, again: after a (re)connect the broker may have lost it."""
        self.wire.send(self.wire.topics.schedule(self.desk.name), self.schedule_msg())
        self.seating(force=True)
        for n in sorted(set(self.desk.tour.tables) | self.desk.tour.seating.granted):
            self.send_plan(n)


class Publishing:
    """The MQTT outbox of the room's service: each event's `Publisher`, the room's events
    directory and the plans of free tables."""

    def __init__(self, repo: Repository, wire: Wire) -> None:
        self.repo = repo
        self.wire = wire
        self.publishers: dict[str, Publisher] = {}
        self._dealer_views: dict[int, dict[str, Any] | None] = {}
        self._sections: dict[int, str] = {}   # each table's section, as its plan said
        self.speech = Speech(repo.config)

    def opened(self, desk: EventAggregate) -> None:
        """A desk the service now holds: its pacing starts from its state as it is now."""
        self.publishers[desk.name] = Publisher(desk, self.wire, self.repo.table_event,
                                               self.repo.config.title,
                                               self.repo.config.slips_at_table,
                                               self.repo.config.tables)
        self.publishers[desk.name].dealer_of = self.dealer_of
        self.publishers[desk.name].section_of = self.section_of
        self.publishers[desk.name].speech = self.speech

    def of(self, desk: EventAggregate) -> Publisher:
        """The publisher of `desk`."""
        return self.publishers[desk.name]

    def committed(self, batch: Batch, changed: Changed) -> None:
        """What the batch changed: each event's plans and schedule, freed tables' plans,
        the events directory."""
        for desk in list(self.repo.events.values()):
            self.of(desk).changes(changed.of(desk.name))
        for table in batch.assigned:
            event = self.repo.table_event(table)
            if event in self.repo.events:
                self.publishers[event].send_plan(table)
        for table in batch.freed:
            if self.repo.table_event(table) is None:
                self.free_plan(table)
        if changed.room:
            self.directory()
            self.dealer_plans()
            self.section_plans()

    def dealer_of(self, table: int) -> dict[str, Any] | None:
        """The rotation's part of the table's plan, with what its event adds (the
        handover, the first hand after a push: kiosk.core.event.handover)."""
        road = self.repo.room.roadmap
        view = dealer_board.plan_view(road, table,
                                      room_clock(str(self.repo.config.timezone or "")))
        event = self.repo.table_event(table)
        desk = self.repo.events.get(event) if view is not None and event else None
        if view is not None and desk is not None:
            view.update(handover.dealer_part(desk.tour, table, road.last_push.get(table)))
        return view

    def dealer_plans(self) -> None:
        """The plans whose dealer part the roadmap changed (a push, a relief, a break)."""
        road = self.repo.room.roadmap
        for table in sorted(road.tables):
            view = dealer_board.plan_view(road, table)
            if self._dealer_views.get(table) != view:
                self._dealer_views[table] = view
                event = self.repo.table_event(table)
                if event in self.publishers:
                    self.publishers[event].send_plan(table)

    def section_of(self, table: int) -> str | None:
        return self.repo.room.floor_sections.section_of(table)

    def section_plans(self) -> None:
        """The plans of the tables whose section the floor changed (their header)."""
        now = dict(self.repo.room.floor_sections.of)
        was, self._sections = self._sections, now
        for table in sorted(t for t in was.keys() | now.keys() if was.get(t) != now.get(t)):
            event = self.repo.table_event(table)
            if event in self.publishers:
                self.publishers[event].send_plan(table)

    def free_plan(self, table: int) -> None:
        self.wire.send(self.wire.topics.plan(table), self.speech.plan(
            table, free_plan_msg(self.wire, table, self.repo.config.title)))

    def directory(self) -> None:
        """The room's events directory, retained for every table."""
        self.wire.send(self.wire.topics.events,
                       {"rev": self.wire.log.last_seq, "epoch": self.wire.epoch,
                        **directory(self.repo)})

    def republish_all(self) -> None:
        """Everything retained, again: after a (re)connect the broker may have lost it."""
        self.wire.send(self.wire.topics.director_status,
                       {"state": "online", "ts": self.wire.clock()})
        self.directory()
        for desk in self.repo.events.values():
            self.of(desk).republish_all()
        for table in self.repo.room.free_tables() if self.repo.config.pool else ():
            self.free_plan(table)
