"""The roadmap as the floor and the dealers read it: each table's dealer and next push,
the strings with their reliefs, the break queue, the EO list, and the alerts (a table with
no dealer, a push more than one hand late, a dealer late back from break, a string with no
relief). `public` keeps to names and tables, for the break room's big screen and phones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.base.texts import M_, Msg
from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.model.dealer_events import PushDone

LATE_BACK = 120.0      # seconds past the break's end before the floor hears of it


def board(road: Roadmap, t: float, hand_s: float = 150.0) -> dict[str, Any]:
    """What /api/dealers returns (floor login): `hand_s` is a hand's usual length."""
    return {"t": t, "tables": _tables(road, t), "strings": _strings(road),
            "breaks": [{"dealer": n, "until": u} for n, u in road.breaks()],
            "eo": list(road.eo), "offer": road.offer(), "waiting": road.pool(),
            "locked": sorted(n for n in road.dealers if road.locked(n)),
            "alerts": alerts(road, t, hand_s)}


def _tables(road: Roadmap, t: float) -> list[dict[str, Any]]:
    out = []
    for n in sorted(road.tables):
        tb = road.tables[n]
        out.append({"table": n, "event": tb.event, "dealer": tb.dealer,
                    "since": tb.since if tb.dealer else None,
                    "minutes": int((t - tb.since) // 60) if tb.dealer else None,
                    "push_at": tb.push_at, "held": tb.push_at is None and bool(tb.dealer),
                    "late": int(overdue(road, n, t)), "incoming": road.incoming(n, t),
                    "final": tb.final})
    return out


def _strings(road: Roadmap) -> list[dict[str, Any]]:
    return [{"string": i + 1, "tables": s, "relief": road.reliefs.get(i),
             "next": road.nexts.get(i)} for i, s in enumerate(road.strings)]


def alerts(road: Roadmap, t: float, hand_s: float = 150.0) -> list[dict[str, Any]]:
    """What the floor must see to: each with its kind and numbers (a page says it in its
    reader's language) and `text`, in English (the logs')."""
    out: list[dict[str, Any]] = []
    for n in sorted(road.tables):
        tb = road.tables[n]
        if tb.dealer is None:
            out.append({"kind": "no_dealer", "table": n, "text": f"Table {n} has no dealer"})
        elif (late := overdue(road, n, t)) > hand_s:
            held = " on a held clock" if tb.push_at is None else ""
            out.append({"kind": "push_late", "table": n, "dealer": tb.dealer,
                        "minutes": int(late // 60), "held": tb.push_at is None,
                        "text": f"Table {n}: push {int(late // 60)} min late{held} "
                                f"({tb.dealer} still deals)"})
    for i, _s in enumerate(road.strings):
        if i not in road.reliefs:
            out.append({"kind": "no_relief", "string": i + 1,
                        "text": f"String {i + 1} has no relief"})
    for name, until in road.breaks():
        if t > until + LATE_BACK:
            out.append({"kind": "late_back", "dealer": name, "minutes": int((t - until) // 60),
                        "text": f"{name} is {int((t - until) // 60)} min late back from break"})
    return out


def overdue(road: Roadmap, table: int, t: float) -> float:
    """Seconds of play the table's push is past due (0: not due). A push overdue when
    the event's clock stopped stays overdue through the pause or the break."""
    tb = road.tables[table]
    if tb.dealer is None:
        return 0.0
    late = t - tb.push_at if tb.push_at is not None else -tb.remaining
    return max(late, 0.0)


def where(road: Roadmap, dealer: str, hhmm: Callable[[float], str] | None = None,
          t: float | None = None) -> dict[str, Any]:
    """Where a dealer goes next, as the kiosk and the dealer's phone say it; `hhmm`
    writes a time of day in the room's zone (default: UTC). `text` is the kiosk's short
    line; the phone also reads `relieves` (the dealer a relief takes over from, at
    `push_at`) and `then` (where a dealer dealing goes at the push: board.gone_to's
    `next`, `to`, `until`)."""
    hhmm = hhmm or clock
    d = road.dealers.get(dealer)
    if d is None or d.status == "out":
        return {"dealer": dealer, "status": "out", "text": "Not clocked in"}
    if d.status == "dealing":
        tb = road.tables[d.table]
        incoming = road.incoming(d.table, t)
        nxt, to, until = road.after_push(d.table, incoming, tb.push_at
                                         if tb.push_at is not None else t or 0.0)
        return {"dealer": dealer, "status": "dealing", "table": d.table,
                "push_at": tb.push_at, "incoming": incoming,
                "then": {"next": nxt, "to": to, "until": until if nxt == "break" else None},
                "text": f"Table {d.table}"}
    if d.status == "break":
        return {"dealer": dealer, "status": "break", "until": d.until,
                "text": f"Break until {hhmm(d.until)}"}
    table = road.due_at(dealer)
    if table is None and t is not None:     # a dealer waiting who covers a push due
        table = next((n for n, name in road.covers(t).items() if name == dealer), None)
    if table is not None:
        tb = road.tables[table]
        return {"dealer": dealer, "status": d.status, "table": table,
                "push_at": tb.push_at, "relieves": tb.dealer, "text": f"Table {table}"}
    return {"dealer": dealer, "status": d.status, "text": "Wait for the floor"}


def plan_view(road: Roadmap, table: int, hhmm: Callable[[float], str] | None = None
              ) -> dict[str, Any] | None:
    """The `dealer` of the table's plan: who deals, the next push, who comes, and where
    the dealer last pushed off goes, its times in the room's zone by `hhmm` (None: the
    table is not in the rotation). The hold before a level change (RP-7) is the table's
    own to read off its clock (the schedule's `push_hold`)."""
    tb = road.tables.get(table)
    if tb is None:
        return None
    out: dict[str, Any] = {"dealer": tb.dealer, "push_at": tb.push_at,
                           "incoming": road.incoming(table)}
    last = road.last_push.get(table)
    if last is not None:
        out["outgoing"], out["outgoing_to"] = last.outgoing, gone_to(last, hhmm or clock)
        out["outgoing_to_msg"] = gone_to_msg(last)
        out["pushed_at"] = last.t
    return out


def gone_to(ev: PushDone, hhmm: Callable[[float], str] | None = None) -> str:
    """Where a dealer pushed off goes, as the kiosk says it."""
    if ev.next in ("relief", "table") and ev.to:
        return f"Table {ev.to}"
    if ev.next == "break":
        return f"Break until {(hhmm or clock)(ev.until)}"
    if ev.next == "home":
        return "Home: released early"
    return "See the floor"


def gone_to_msg(ev: PushDone) -> Msg:
    """`gone_to` as a message key: each kiosk says it in its language, the time in its
    locale's clock."""
    if ev.next in ("relief", "table") and ev.to:
        return M_("dealer.to_table", "Table {table}", table=ev.to)
    if ev.next == "break":
        return M_("dealer.break_until", "Break until {until:time}", until=ev.until)
    if ev.next == "home":
        return M_("dealer.home", "Home: released early")
    return M_("dealer.see_floor", "See the floor")


def public(road: Roadmap, t: float) -> dict[str, Any]:
    """Names and tables only: the break room's roadmap and a dealer's phone."""
    return {"t": t,
            "tables": [{"table": n, "dealer": road.tables[n].dealer,
                        "push_at": road.tables[n].push_at,
                        "incoming": road.incoming(n, t)} for n in sorted(road.tables)],
            "strings": [{"string": s["string"], "tables": s["tables"], "relief": s["relief"]}
                        for s in _strings(road)],
            "breaks": [{"dealer": n, "until": u} for n, u in road.breaks()],
            "waiting": road.pool(), "eo": list(road.eo)}


def clock(t: float) -> str:
    """A time of day as the floor reads it (UTC hours and minutes)."""
    s = int(t) % 86400
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}"
