"""What the director sends to the broker, and when: plans of the tables that changed, the
schedule (at once when the clock or a state every table must obey changes, the field at
most once a second), the seating directory, and everything again after a reconnect.

Kept apart from the service so the service holds the decisions and this the pacing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kiosk.core import plans
from kiosk.director.room_views import directory
from kiosk.protocol.messages import MAX_MESSAGE, encode

if TYPE_CHECKING:
    from kiosk.director.desk import Desk
    from kiosk.director.service import Director

log = logging.getLogger("kiosk.director")
SEATING_EVERY = 1.0   # seconds between seating-directory publications at most


class Publisher:
    """One event's outgoing side: it owns the pacing state of the schedule and the seating
    directory, and reads the desk's tournament and the director's log and client."""

    def __init__(self, director: Director, desk: Desk) -> None:
        self.d = director
        self.desk = desk
        self._seating_at = 0.0
        self._seating_due = True
        self._schedule_key: tuple | None = None
        self._schedule_urgent: tuple | None = None
        self._schedule_due = False
        self._schedule_at = 0.0
        self._event_key = plans.event_key(desk.tour)
        self._prizes = tuple(desk.tour.current_payouts())

    def send(self, topic: str, body: dict[str, Any], retain: bool = True) -> None:
        self.d.send(topic, body, retain)

    def plan_msg(self, table: int) -> dict[str, Any]:
        return {"rev": self.d.store.last_seq, "epoch": self.d.epoch, "ts": self.d.now(),
                **plans.plan(self.desk.tour, table, event=self.desk.name,
                             title=self.desk.title, room=self.d.config.title)}

    def owns(self, table: int) -> bool:
        """Whether this event publishes the plan of `table` (a broken table given back to
        the room is the room's to publish)."""
        return self.d.table_event(table) == self.desk.name

    def plan_for(self, table: int) -> dict[str, Any]:
        """The table's plan; a table lent to the event and not yet opened waits, empty,
        under the event's name."""
        if table in self.desk.tour.tables:
            return self.plan_msg(table)
        return {**free_plan_msg(self.d, table), "event": self.desk.name,
                "title": self.desk.title}

    def send_plan(self, table: int) -> None:
        if self.owns(table):
            self.send(self.d.topics.plan(table), self.plan_for(table))

    def follow_event(self) -> None:
        """Mark the plans that fields of the event as a whole made stale (no table was
        touched): every table's, broken ones included, when `plans.event_key` changed;
        those announcing busts when only the prizes did (an entry, a rebuy)."""
        tour = self.desk.tour
        key, prizes = plans.event_key(tour), tuple(tour.current_payouts())
        if key != self._event_key:
            tour.dirty.update(tour.tables)
        elif prizes != self._prizes:
            tour.dirty.update(n for n, tab in tour.tables.items()
                              if plans.hand_busts(tour, tab))
        self._event_key, self._prizes = key, prizes

    def changes(self) -> None:
        """After a decision: the plans it changed, the schedule when due, dashboard notes."""
        tour = self.desk.tour
        self.follow_event()
        changed = sorted(tour.dirty)
        tour.dirty.clear()
        for n in changed:
            self.send_plan(n)
        key = plans.schedule_key(tour)
        urgent = plans.schedule_urgent_key(tour)
        if urgent != self._schedule_urgent:   # the clock or a state every table must obey
            self._schedule_urgent = urgent
            self.schedule()
        elif tour.schedule_dirty or key != self._schedule_key:
            # the field and the breaking order: at most once per SEATING_EVERY, because the
            # schedule goes to every table and a busy room changes these on every bust
            self._schedule_due = True
            self.d.hub.publish({"type": "summary"})
        if tour.seating_dirty:
            self._seating_due = True
        if changed:
            self.d.hub.publish({"type": "tables", "tables": changed})
            self.d.hub.publish({"type": "summary"})

    def schedule(self) -> None:
        tour = self.desk.tour
        tour.schedule_dirty, self._schedule_key = False, plans.schedule_key(tour)
        self._schedule_due, self._schedule_at = False, self.d.now()
        self.send(self.d.topics.schedule(self.desk.name), self.schedule_msg())
        self.d.hub.publish({"type": "summary"})

    def schedule_msg(self) -> dict[str, Any]:
        return {"rev": self.d.store.last_seq, "epoch": self.d.epoch, "ts": self.d.now(),
                **plans.schedule(self.desk.tour)}

    def seating(self, force: bool = False) -> None:
        now = self.d.now()
        if self._schedule_due and now - self._schedule_at >= SEATING_EVERY:
            self.schedule()
        if force or (self._seating_due and now - self._seating_at >= SEATING_EVERY):
            self.desk.tour.seating_dirty = False
            self._seating_due = False
            self._seating_at = now
            self.send(self.d.topics.seating(self.desk.name),
                      {"rev": self.d.store.last_seq, "epoch": self.d.epoch,
                       "cards": plans.seating(self.desk.tour)})

    def republish_all(self) -> None:
        """Everything retained, again: after a (re)connect the broker may have lost it."""
        self.send(self.d.topics.schedule(self.desk.name), self.schedule_msg())
        self.seating(force=True)
        for n in sorted(set(self.desk.tour.tables) | self.desk.tour.seating.granted):
            self.send_plan(n)


def send(d: Director, topic: str, body: dict[str, Any], retain: bool = True) -> None:
    """Publish `body` at QoS 1; one above the broker's size limit is logged, not sent."""
    if d.client is not None:
        payload = encode(body)
        if len(payload) > MAX_MESSAGE:   # the broker would drop us, again and again
            log.error("not published: %s is %d bytes, above the %d-byte limit", topic,
                      len(payload), MAX_MESSAGE)
            return
        d.client.publish(topic, payload, qos=1, retain=retain)


def free_plan_msg(d: Director, table: int) -> dict[str, Any]:
    """The retained plan of a table no event holds: its idle screen."""
    return {"rev": d.store.last_seq, "epoch": d.epoch, "ts": d.now(),
            **plans.free_plan(table, d.config.title)}


def publish_directory(d: Director) -> None:
    """The room's events directory, retained for every table."""
    d.send(d.topics.events, {"rev": d.store.last_seq, "epoch": d.epoch, **directory(d)})
