"""The parts of the dealer's screen read straight off the plan and the clock: the seats
round the table, the level and blinds, results of busts. Pure functions of the context."""

from __future__ import annotations

import time
from typing import Any

from kiosk.core.calc.clock import ClockReading, format_clock
from kiosk.rules.structure import Period, Structure
from kiosk.table.context import TableContext
from kiosk.table.money_entry import ordinal
from kiosk.table.view import SeatView


def clock_fields(ctx: TableContext, t: float, moving_out: bool) -> dict[str, Any]:
    """Level, blinds, clock and what comes next: the hand's level while one runs."""
    reading = ctx.reading(t)
    s, loc = ctx.structure, ctx.local
    if reading is None or s is None:
        return {}
    shown = loc.period if loc.in_hand and loc.period is not None else reading.period
    period, current = s.periods[shown], s.periods[reading.period]
    kw: dict[str, Any] = {
        "level": level_name(s, shown),
        "blinds": "" if period.is_break else f"{period.sb:,}/{period.bb:,}",
        "ante": _ante(period), "clock": format_clock(reading.remaining),
        "paused": reading.paused, "next_level": _next_text(s, reading.period),
        "is_break": current.is_break and not loc.in_hand and not moving_out,
        "color_up": current.color_up if current.is_break else "",
        "to_break": _to_break(s, reading)}
    if loc.in_hand and reading.period != shown:
        kw["next_hand_note"] = f"Next hand: {level_name(s, reading.period).lower()}"
    return kw


def level_name(s: Structure, period: int) -> str:
    n = s.level_number(period)
    return "Break" if n is None else f"Level {n}"


def _next_text(s: Structure, period: int) -> str:
    periods = s.periods
    if period + 1 >= len(periods):
        return "Last level"
    nxt = periods[period + 1]
    if nxt.is_break:
        return f"Next: break {nxt.minutes:g} min"
    return f"Next: {nxt.sb:,}/{nxt.bb:,}"


def _to_break(s: Structure, reading: ClockReading) -> str:
    periods = s.periods
    if periods[reading.period].is_break:
        return ""
    left = reading.remaining
    for p in periods[reading.period + 1:]:
        if p.is_break:
            return f"Break in {format_clock(left)}"
        left += p.seconds
    return ""


def _ante(p: Period) -> str:
    if p.bb_ante:
        return f"BB ante {p.bb_ante:,}"
    return f"ante {p.ante:,}" if p.ante else ""


def field_text(ctx: TableContext) -> str:
    sched = ctx.schedule or {}
    left = sched.get("players_left")
    if not left:
        return ""
    avg = sched.get("average_stack")
    return f"{left} left" + (f" · avg {int(avg):,}" if avg else "")


def seat_count(ctx: TableContext) -> int:
    seats = ctx.plan_seats()
    n = int(ctx.plan.get("max_seats") or 9)
    return max(n, *seats) if seats else n


def seat_views(ctx: TableContext) -> tuple[SeatView, ...]:
    """Every seat round the table: its player and the marks the dealer needs."""
    seats = ctx.plan_seats()
    gone = {int(b.get("seat") or 0): b for b in ctx.plan.get("busts") or []}
    coming = {int(m.get("seat") or 0): m for m in ctx.plan.get("moves_in") or []}
    occupied = ctx.occupied()
    return tuple(
        _seated(ctx, n, seats[n], coming.get(n), occupied) if n in seats
        else _empty(ctx, n, gone.get(n))
        for n in range(1, seat_count(ctx) + 1))


def _empty(ctx: TableContext, n: int, b: dict[str, Any] | None) -> SeatView:
    """A seat without a player: open, or just busted here (with the place it took)."""
    pos, loc = ctx.local.positions, ctx.local
    return SeatView(n, button=bool(pos and pos.button == n and loc.hand),
                    name=str(b.get("name", "")) if b else "", busted=b is not None,
                    out=f"OUT {ordinal(int(b['place']))}" if b and b.get("place") else "")


def _seated(ctx: TableContext, n: int, who: dict[str, Any], m: dict[str, Any] | None,
            occupied: set[int]) -> SeatView:
    loc = ctx.local
    pos = loc.positions
    in_hand = bool(pos and loc.in_hand)
    return SeatView(
        n, name=str(who.get("name", "")), player=str(who.get("player", "")),
        occupied=n in occupied, absent=ctx.is_absent(n), penalty=_penalty(who),
        button=bool(pos and pos.button == n), sb=bool(pos and pos.sb == n),
        bb=bool(pos and pos.bb == n), all_in=n in loc.all_in,
        busted=loc.busted.get(n) == who.get("player"),
        arriving=who.get("status") == "arriving" and n not in occupied,
        arriving_from=f"T{m.get('from_table')}" if m else "",
        waiting=bool(in_hand and pos and n in pos.waiting),
        dealt=bool(in_hand and pos and n in pos.dealt))


def _penalty(who: dict[str, Any]) -> str:
    ph = who.get("penalty_hands") or 0
    until = who.get("penalty_until")
    return (f"PEN {ph} hand" if ph == 1 else f"PEN x{ph}" if ph else
            f"PEN to {_hhmm(until)}" if until else "")


def bust_results(plan: dict[str, Any]) -> tuple[str, ...]:
    """The director's places and prizes for this table's last busts."""
    out = []
    for b in plan.get("busts") or []:
        place, prize = b.get("place"), int(b.get("prize") or 0)
        text = f"Seat {b.get('seat')}: {ordinal(int(place)) if place else 'out'}"
        if b.get("tied", 1) > 1:
            text += f" ({b['tied']} tie)"
        out.append(text + (f", wins {prize:,}" if prize else ""))
        if b.get("bounty_won"):      # own line: the centre of the table is narrow
            out.append(f"Seat {b.get('seat')}: bounties {int(b['bounty_won']):,}")
    return tuple(out)


def _hhmm(ts: Any) -> str:
    try:
        return time.strftime("%H:%M", time.localtime(float(ts)))
    except (TypeError, ValueError):
        return str(ts)
