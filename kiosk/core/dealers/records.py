"""The dealers' records: every down (dealer, table, event, start, end, hands), each
dealer's hours, downs and hands per hour, and each event's staff share divided by the
downs dealt in it, to the cent: the cents left over go one each to the earliest downs, so
the shares add up to the event's staff share exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.core.dealers.state import Down


@dataclass
class DealerDay:
    dealer: str
    downs: int = 0
    seconds: float = 0.0
    hands: int = 0
    share: int = 0            # cents of the events' staff shares

    def row(self) -> dict[str, Any]:
        hours = self.seconds / 3600
        return {"dealer": self.dealer, "downs": self.downs, "hours": round(hours, 2),
                "hands": self.hands,
                "hands_per_hour": round(self.hands / hours, 1) if hours else 0.0,
                "share": self.share}


def closed(downs: Iterable[Down], since: float | None = None,
           until: float | None = None) -> list[Down]:
    """The downs that ended, started within [since, until) when given."""
    return [d for d in downs if d.end is not None
            and (since is None or d.start >= since) and (until is None or d.start < until)]


def split_staff(downs: Iterable[Down], staff: Mapping[str, int]) -> dict[str, int]:
    """Each dealer's cents of the staff shares: an event's share over its downs."""
    by_event: dict[str, list[Down]] = {}
    for d in downs:
        by_event.setdefault(d.event, []).append(d)
    out: dict[str, int] = {}
    for event, cents in staff.items():
        dealt = sorted(by_event.get(event, []), key=lambda d: (d.start, d.table, d.dealer))
        if not dealt or cents <= 0:
            continue
        base, extra = divmod(cents, len(dealt))
        for i, d in enumerate(dealt):
            out[d.dealer] = out.get(d.dealer, 0) + base + (1 if i < extra else 0)
    return out


def summary(downs: Iterable[Down], staff: Mapping[str, int] | None = None
            ) -> list[dict[str, Any]]:
    """One row a dealer, by name: downs, hours, hands, hands an hour, share (cents)."""
    done = [d for d in downs if d.end is not None]
    rows: dict[str, DealerDay] = {}
    for d in done:
        r = rows.setdefault(d.dealer, DealerDay(d.dealer))
        r.downs += 1
        r.seconds += (d.end or d.start) - d.start
        r.hands += d.hands
    for name, cents in split_staff(done, staff or {}).items():
        rows.setdefault(name, DealerDay(name)).share = cents
    return [rows[n].row() for n in sorted(rows)]


def down_rows(downs: Iterable[Down]) -> list[dict[str, Any]]:
    return [{"dealer": d.dealer, "table": d.table, "event": d.event, "start": d.start,
             "end": d.end, "hands": d.hands} for d in downs]
