"""Who a call goes to: its table's section first, then the whole room.

A call (FLOOR, CLOCK) from a table of a section reaches that section's floor staff; left
unanswered for the room's `calls_to_room_s`, it goes to the whole room, marked late. A
call from a table of no section goes to the whole room at once. Once someone answers
("on my way"), the call says who.
"""

from __future__ import annotations

from typing import Any, Protocol

UNANSWERED = ("open", "requested")   # a floor call not acked, a clock call not approved


class SectionOf(Protocol):
    def section_of(self, table: int) -> str | None: ...


def routed(calls: list[dict[str, Any]], sections: SectionOf, t: float,
           to_room_s: float) -> list[dict[str, Any]]:
    """Each call with its `section`, where it goes now (`to`: section or room) and
    whether it went to the room for want of an answer (`late`)."""
    out = []
    for c in calls:
        sec = sections.section_of(int(c["table"]))
        late = sec is not None and c["state"] in UNANSWERED and t - c["since"] >= to_room_s
        out.append({**c, "section": sec, "late": late,
                    "to": "room" if sec is None or late else "section",
                    "room_at": None if sec is None else c["since"] + to_room_s})
    return out
