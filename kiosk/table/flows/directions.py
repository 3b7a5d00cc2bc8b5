"""What the room tells the table besides its plan: the event's schedule (its structure,
clock and house rules), every event's seating directory (card check-ins look across them),
the room's events directory (titles), and whether the director is online.

Each retained message is checked against its schema here, not only on the wire, because
it also comes back from the table's own store at start: a bad one is refused and logged,
and the last good one stays (`valid`). The plan itself is the controller's: taking it
reconciles the flows.
"""

from __future__ import annotations

import logging
from typing import Any

from kiosk.base.errors import KioskError
from kiosk.core.calc.clock import Clock
from kiosk.protocol import messages
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
from kiosk.rules.structure import Structure
from kiosk.table.context import TableContext

log = logging.getLogger(__name__)


class DirectionsFlow:
    """The schedule, the seating and events directories and the director's presence,
    held in the shared context for the flows and the screen to read."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx

    def apply_schedule(self, msg: dict[str, Any]) -> bool:
        """Take a schedule; older revisions are ignored."""
        ctx = self.ctx
        if not valid(ctx.table, "schedule", msg, ctx.schedule):
            return False
        try:
            structure = Structure.from_dict(msg["structure"])
            clock = Clock.from_dict(msg["clock"])
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("table %s: schedule rev %s unusable: %s", ctx.table, msg.get("rev"),
                        exc)
            return False
        if not structure.periods:
            return False
        try:
            ctx.profile = load_profile(str(msg.get("profile") or DEFAULT_PROFILE))
        except KioskError as exc:
            log.warning("table %s: %s; keeping profile %s", ctx.table, exc, ctx.profile.id)
        ctx.schedule, ctx.structure, ctx.clock = msg, structure, clock
        return True

    def apply_seating(self, msg: dict[str, Any]) -> bool:
        """Take one event's seating directory (card check-ins look across all of them)."""
        ctx = self.ctx
        event = msg.get("event") or ctx.event or ""
        if not valid(ctx.table, "seating", msg, ctx.seatings.get(event)):
            return False
        ctx.seatings[event] = msg
        return True

    def apply_directory(self, msg: dict[str, Any]) -> bool:
        """Take the room's events directory (event titles for check-ins, the room's title)."""
        if not valid(self.ctx.table, "events", msg, self.ctx.directory):
            return False
        self.ctx.directory = msg
        return True

    def set_director(self, online: bool) -> None:
        """The director's retained status: the screen says when it is offline."""
        self.ctx.director_online = online


def valid(table: int, kind: str, msg: dict[str, Any], held: dict[str, Any] | None) -> bool:
    """`msg` fits its schema and is not older than what is held.

    Order is (director epoch, revision), so a director restored from an older backup (a
    new epoch, lower revisions) is followed, and nothing from a previous run outranks the
    running director for ever."""
    try:
        checked = messages.check(kind, msg)
    except messages.ProtocolError as exc:
        log.warning("table %s: refused a %s: %s; keeping the last good one",
                    table, kind, exc)
        return False
    msg.clear()
    msg.update(checked)
    if held is None:
        return True
    return (msg["epoch"], msg["rev"]) >= (held.get("epoch", 0.0), held.get("rev", -1))
