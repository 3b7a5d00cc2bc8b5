"""What the tables send the director, one message at a time, never trusted.

A report is routed to the event it names (the event its table served when it was
written), or to the event the table serves now; it is applied and logged whole, or
acknowledged as rejected with the reason. Live snapshots and statuses are decoded against
their schema and kept for the dashboard. An old-version kiosk is told, on its own screen,
that it must be updated.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kiosk.core import commands
from kiosk.director.transactions import Batch
from kiosk.errors import RuleError
from kiosk.protocol.messages import ProtocolError, decode, parse, report_id, v1_refusal
from kiosk.protocol.topics import V1Topics

if TYPE_CHECKING:
    from kiosk.director.service import Director

log = logging.getLogger("kiosk.director")


def take(d: Director, topic: str, payload: bytes, batch: Batch, acks: dict[int, list[str]],
         rejected: dict[int, dict[str, str]], changed: set[int]) -> None:
    """One message off the broker, by its topic."""
    parsed = d.topics.parse_table_topic(topic)
    if parsed is None:
        old_table(d, topic, payload)
        return
    table, leaf = parsed
    if leaf == "report":
        report(d, table, payload, batch, acks, rejected)
    elif leaf == "live":
        live(d, table, payload, changed)
    elif leaf == "status":
        status(d, table, payload, changed)
    elif leaf == "update":
        d.releases.on_status(table, payload)


def report(d: Director, table: int, payload: bytes, batch: Batch,
           acks: dict[int, list[str]], rejected: dict[int, dict[str, str]]) -> None:
    """One report: applied and logged whole, or acknowledged as rejected with why."""

    def refuse(rid: str | None, reason: str) -> None:
        d.rejected += 1
        log.warning("table %d: report %s rejected: %s", table, rid or "(no id)", reason)
        if rid:  # a refused report never gets better: tell the table to stop sending it
            acks.setdefault(table, []).append(rid)
            rejected.setdefault(table, {})[rid] = reason[:500]

    try:
        msg = parse("report", payload)
    except ProtocolError as exc:
        refuse(report_id(payload), str(exc))
        return
    try:
        duplicate = d.tx.atomic(batch, lambda: _apply(d, table, msg, payload, batch),
                                f"table {table}'s report {msg.id}")
    except RuleError as exc:   # a bug too, as InternalError: the director carries on
        refuse(msg.id, str(exc))
        return
    if duplicate:
        log.info("table %d: report %s was already applied; acknowledged again", table, msg.id)
    acks.setdefault(table, []).append(msg.id)


def _apply(d: Director, table: int, msg: Any, payload: bytes, batch: Batch) -> bool:
    """Route a parsed report to its event and decide it into `batch`; whether it was a
    re-send of one already applied. RuleError with why it is refused."""
    if msg.table != table:
        raise RuleError(f"names table {msg.table} but came from table {table}")
    event = getattr(msg, "event", None) or d.table_event(table)
    if event is None and not d.config.pool and len(d.desks) == 1:
        event = next(iter(d.desks))   # a room of one: its event says why (as it always did)
    if event is None:
        raise RuleError(f"table {table} is free: it serves no event")
    desk = d.desks.get(event)
    if desk is None:
        raise RuleError(f"no event {event!r} in this room")
    duplicate = (table, msg.id) in desk.tour.seen_reports
    d.tx.event(desk, commands.report_command(table, payload), batch)
    return duplicate


def decode_from(table: int, kind: str, payload: bytes) -> dict[str, Any] | None:
    """A table's retained message, or None (logged) when it is empty or invalid."""
    if not payload:   # a cleared retained message
        return None
    try:
        msg = decode(kind, payload)
    except ProtocolError as exc:
        log.warning("table %d: dropped a %s message: %s", table, kind, exc)
        return None
    if msg.get("table", table) != table:
        log.warning("table %d: %s message names table %s; dropped", table, kind, msg["table"])
        return None
    return msg


def live(d: Director, table: int, payload: bytes, changed: set[int]) -> None:
    msg = decode_from(table, "live", payload)
    if msg is not None:
        d.live[table] = msg
        changed.add(table)


def status(d: Director, table: int, payload: bytes, changed: set[int]) -> None:
    msg = decode_from(table, "status", payload)
    if msg is None:
        return
    online = msg["state"] == "online"
    if d.online.get(table) != online:
        log.info("table %d is %s", table, msg["state"])
    d.online[table] = online
    changed.add(table)


def old_table(d: Director, topic: str, payload: bytes) -> None:
    """A v1 kiosk came online: hold it with a plan its own schema reads, saying why."""
    found = V1Topics.parse_status_topic(topic)
    if found is None:
        log.warning("ignored message on unexpected topic %s", topic)
        return
    event, table = found
    if b"online" not in payload:
        return
    if (event, table) not in d.old_tables:
        d.old_tables.add((event, table))
        log.error("table %d (event %s) runs protocol v1 and was refused: update its "
                  "kiosk software", table, event)
        d.health[f"table {table}"] = "old kiosk software (protocol v1): update it"
    d.send(V1Topics(event).plan(table), v1_refusal(table, d.now()))
