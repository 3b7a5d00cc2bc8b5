"""The topic tree, in one place, so the broker ACL, director and tables agree.

Version 2: one tree per room. A table's own topics do not name an event, so the one
broker login a table is provisioned with stays valid whatever event it serves; the
events directory and each event's schedule and seating sit under the room.

    pk/v2/<room>/director/status          retained, LWT "offline"
    pk/v2/<room>/director/ack/<n>         QoS1: acknowledgements of table n's reports
    pk/v2/<room>/events                   retained: the events directory
    pk/v2/<room>/event/<event>/schedule   retained: structure, profile, clock anchor
    pk/v2/<room>/event/<event>/seating    retained: card -> (table, seat, name)
    pk/v2/<room>/table/<n>/plan           retained: desired state of table n (names its event)
    pk/v2/<room>/table/<n>/report         QoS1: table -> director events
    pk/v2/<room>/table/<n>/live           retained: the table's live snapshot
    pk/v2/<room>/table/<n>/status         retained, LWT "offline"

Version 1 (`pk/v1/<event>/...`) is kept only so the director can hear an old table's
status and answer it, on its old plan topic, that the kiosk must be updated (`V1Topics`).
"""

from __future__ import annotations

import re

ROOT = "pk/v2"
V1_ROOT = "pk/v1"
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
RESERVED_EVENT_NAMES = frozenset({"room"})   # the room's own stream in the director's log


def check_event_name(event: str) -> str:
    """Event names become topic levels, so they must not hold '/', '+' or '#'."""
    if not _NAME_RE.match(event):
        raise ValueError(
            f"event name {event!r} must be 1-48 chars of a-z, 0-9, '-' or '_'"
        )
    return event


def check_room_name(room: str) -> str:
    """Room names are topic levels too, with the same characters as event names."""
    if not _NAME_RE.match(room):
        raise ValueError(
            f"room name {room!r} must be 1-48 chars of a-z, 0-9, '-' or '_'"
        )
    return room


class Topics:
    """Topic names for one room."""

    def __init__(self, room: str) -> None:
        self.room = check_room_name(room)
        self.base = f"{ROOT}/{room}"
        # director -> everyone
        self.director_status = f"{self.base}/director/status"
        self.events = f"{self.base}/events"
        # wildcards: the director's subscriptions, a table's read grants in the broker ACL
        self.all_schedules = self.schedule("+")
        self.all_seating = self.seating("+")
        self.all_reports = self._table("+", "report")
        self.all_live = self._table("+", "live")
        self.all_status = self._table("+", "status")

    def _table(self, table: int | str, leaf: str) -> str:
        return f"{self.base}/table/{table}/{leaf}"

    # per event
    def schedule(self, event: str) -> str:
        return f"{self.base}/event/{event}/schedule"

    def seating(self, event: str) -> str:
        return f"{self.base}/event/{event}/seating"

    def parse_event_topic(self, topic: str) -> tuple[str, str] | None:
        """Return (event, leaf) for `.../event/<event>/<leaf>`, or None if not one of ours."""
        prefix = f"{self.base}/event/"
        if not topic.startswith(prefix):
            return None
        rest = topic[len(prefix):].split("/")
        if len(rest) != 2 or not _NAME_RE.match(rest[0]):
            return None
        return rest[0], rest[1]

    # per table
    def ack(self, table: int) -> str:
        return f"{self.base}/director/ack/{table}"

    def plan(self, table: int) -> str:
        return self._table(table, "plan")

    def report(self, table: int) -> str:
        return self._table(table, "report")

    def live(self, table: int) -> str:
        return self._table(table, "live")

    def table_status(self, table: int) -> str:
        return self._table(table, "status")

    def kind(self, topic: str) -> str | None:
        """The schema (kiosk.protocol.messages.SCHEMAS) of the messages on `topic`, or
        None for a topic outside this room's tree."""
        if topic == self.events:
            return "events"
        if topic == self.director_status:
            return "status"
        if topic.startswith(f"{self.base}/director/ack/"):
            return "ack"
        found = self.parse_table_topic(topic) or self.parse_event_topic(topic)
        return found[1] if found else None

    def parse_table_topic(self, topic: str) -> tuple[int, str] | None:
        """Return (table, leaf) for `.../table/<n>/<leaf>`, or None if not one of ours."""
        prefix = f"{self.base}/table/"
        if not topic.startswith(prefix):
            return None
        rest = topic[len(prefix):].split("/")
        if len(rest) != 2 or not rest[0].isdigit():
            return None
        return int(rest[0]), rest[1]


class SingleEventTopics:
    """A room of one event, named after it, with that event's schedule and seating as
    plain names: what a director serving a single event publishes to (v2 topics)."""

    def __init__(self, event: str) -> None:
        self.room_topics = Topics(event)
        t = self.room_topics
        self.event, self.base = check_event_name(event), t.base
        self.director_status, self.events = t.director_status, t.events
        self.schedule, self.seating = t.schedule(event), t.seating(event)
        self.all_reports, self.all_live, self.all_status = \
            t.all_reports, t.all_live, t.all_status
        self.ack, self.plan, self.report = t.ack, t.plan, t.report
        self.live, self.table_status = t.live, t.table_status
        self.parse_table_topic = t.parse_table_topic


class V1Topics:
    """The version 1 tree, `pk/v1/<event>/...`: only what the director needs to hear an
    old table and answer it (`V1Topics.all_status` spans every event)."""

    root = V1_ROOT
    all_status = f"{V1_ROOT}/+/table/+/status"

    def __init__(self, event: str) -> None:
        self.event = check_event_name(event)
        self.base = f"{V1_ROOT}/{event}"

    def plan(self, table: int) -> str:
        return f"{self.base}/table/{table}/plan"

    def table_status(self, table: int) -> str:
        return f"{self.base}/table/{table}/status"

    @staticmethod
    def parse_status_topic(topic: str) -> tuple[str, int] | None:
        """Return (event, table) for `pk/v1/<event>/table/<n>/status`, else None."""
        parts = topic.split("/")
        if (len(parts) != 6 or f"{parts[0]}/{parts[1]}" != V1_ROOT or parts[3] != "table"
                or parts[5] != "status" or not parts[4].isdigit()
                or not _NAME_RE.match(parts[2])):
            return None
        return parts[2], int(parts[4])
