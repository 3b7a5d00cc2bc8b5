"""The topic tree, in one place, so the broker ACL, director and tables agree.

    pk/v1/<event>/director/status      retained, LWT "offline"
    pk/v1/<event>/director/schedule    retained: structure, profile, clock anchor
    pk/v1/<event>/director/seating     retained: card -> (table, seat, name) for check-in
    pk/v1/<event>/director/ack/<n>     QoS1: acknowledgements of table n's reports
    pk/v1/<event>/table/<n>/plan       retained: desired state of table n, revision
    pk/v1/<event>/table/<n>/report     QoS1: table -> director events
    pk/v1/<event>/table/<n>/live       retained: the table's live snapshot
    pk/v1/<event>/table/<n>/status     retained, LWT "offline"
"""

from __future__ import annotations

import re

ROOT = "pk/v1"
_EVENT_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")


def check_event_name(event: str) -> str:
    """Event names become topic levels, so they must not hold '/', '+' or '#'."""
    if not _EVENT_RE.match(event):
        raise ValueError(
            f"event name {event!r} must be 1-48 chars of a-z, 0-9, '-' or '_'"
        )
    return event


class Topics:
    """Topic names for one event."""

    def __init__(self, event: str) -> None:
        self.event = check_event_name(event)
        self.base = f"{ROOT}/{event}"
        # director -> everyone
        self.director_status = self._director("status")
        self.schedule = self._director("schedule")
        self.seating = self._director("seating")
        # wildcards the director subscribes to
        self.all_reports = self._table("+", "report")
        self.all_live = self._table("+", "live")
        self.all_status = self._table("+", "status")

    def _director(self, leaf: str) -> str:
        return f"{self.base}/director/{leaf}"

    def _table(self, table: int | str, leaf: str) -> str:
        return f"{self.base}/table/{table}/{leaf}"

    def ack(self, table: int) -> str:
        return self._director(f"ack/{table}")

    # per table
    def plan(self, table: int) -> str:
        return self._table(table, "plan")

    def report(self, table: int) -> str:
        return self._table(table, "report")

    def live(self, table: int) -> str:
        return self._table(table, "live")

    def table_status(self, table: int) -> str:
        return self._table(table, "status")

    def parse_table_topic(self, topic: str) -> tuple[int, str] | None:
        """Return (table, leaf) for `.../table/<n>/<leaf>`, or None if not one of ours."""
        prefix = f"{self.base}/table/"
        if not topic.startswith(prefix):
            return None
        rest = topic[len(prefix):].split("/")
        if len(rest) != 2 or not rest[0].isdigit():
            return None
        return int(rest[0]), rest[1]
