"""The parts of the dealer's screen read straight off the plan and the clock: the seats
round the table, the level and blinds, results of busts. Pure functions of the context."""

from __future__ import annotations

import re
from typing import Any

from kiosk.core.calc import pace
from kiosk.core.calc.clock import ClockReading, format_clock
from kiosk.lang.active import _, fmt, ngettext
from kiosk.rules.structure import Period, Structure
from kiosk.table.context import TableContext
from kiosk.table.dealer_view import warned_seats
from kiosk.table.view import SeatView


def clock_fields(ctx: TableContext, t: float, moving_out: bool) -> dict[str, Any]:
    """Level, blinds, clock and what comes next: the hand's level while one runs (and
    before the first hand after a push that a new level overtook: TDA 2024 r.23)."""
    reading = ctx.reading(t)
    s, loc = ctx.structure, ctx.local
    if reading is None or s is None:
        return {}
    if s.counts_hands:
        return hand_level_fields(ctx, s)
    shown = loc.period if loc.in_hand and loc.period is not None else ctx.hand_period(t)
    shown = reading.period if shown is None else shown
    period, current = s.periods[shown], s.periods[reading.period]
    kw: dict[str, Any] = {
        "level": level_name(s, shown),
        "blinds": "" if period.is_break else fmt().blinds(period.sb, period.bb),
        "ante": _ante(period, ctx.profile.ante.big_blind_first),
        "clock": format_clock(reading.remaining),
        "paused": reading.paused, "next_level": _next_text(s, reading.period),
        "is_break": current.is_break and not loc.in_hand and not moving_out,
        "color_up": colour_up_text(current.color_up) if current.is_break else "",
        "to_break": _to_break(s, reading), "prepare_decks": decks_call(ctx, reading)}
    if loc.in_hand and reading.period != shown:
        kw["next_hand_note"] = _next_hand(s, reading.period)
    elif reading.period != shown:
        kw["next_hand_note"] = _("One hand at {this}, then {next}").format(
            this=level_name(s, shown).lower(), next=level_name(s, reading.period).lower())
    return kw


def _next_hand(s: Structure, period: int) -> str:
    n = s.level_number(period)
    return _("Next hand: break") if n is None else _("Next hand: level {n}").format(n=n)


_RACE_OFF = re.compile(r"^Race off the ([\d,]+) chips$")


def colour_up_text(text: str) -> str:
    """A break's colour-up instruction: the shipped structures' own sentence in the
    reader's language; a room's own words as the room wrote them."""
    found = _RACE_OFF.match(text.strip())
    if found is None:
        return text
    return _("Race off the {chips} chips").format(
        chips=fmt().chips(int(found.group(1).replace(",", ""))))


def decks_call(ctx: TableContext, reading: ClockReading) -> bool:
    """TDA 2024 RP-20: play starts or resumes within the schedule's `prepare_decks`
    seconds: a break ends into a level, or the first level waits for its start."""
    lead = int((ctx.schedule or {}).get("prepare_decks") or 0)
    s = ctx.structure
    if not lead or s is None or reading.paused or reading.finished:
        return False
    periods, i = s.periods, reading.period
    if periods[i].is_break:
        return i + 1 < len(periods) and not periods[i + 1].is_break \
            and reading.remaining <= lead
    before = reading.remaining - periods[i].seconds   # still to wait before the level
    return 0 < before <= lead


def hand_level_fields(ctx: TableContext, s: Structure) -> dict[str, Any]:
    """Levels counted in hands: this table's own level and the hands left in it (the
    hand running included), in place of a clock."""
    dealt = ctx.hands_dealt()
    if dealt is None:
        return {"level": level_name(s, 0), "clock": "", "hands_left": None}
    loc = ctx.local
    if loc.in_hand and loc.period is not None:
        period, played = loc.period, dealt[1] - 1 if dealt[0] == loc.period else 0
    else:
        period, played = pace.hand_level(s, *dealt)
    left = max(0, s.periods[period].hands - played)
    p = s.periods[period]
    kw: dict[str, Any] = {
        "level": level_name(s, period), "blinds": fmt().blinds(p.sb, p.bb),
        "ante": _ante(p, ctx.profile.ante.big_blind_first),
        "clock": ngettext("{n} hand", "{n} hands", left).format(n=left), "hands_left": left,
        "next_level": _next_text(s, period)}
    nxt = pace.hand_level(s, *dealt)[0]
    if loc.in_hand and nxt != period:
        kw["next_hand_note"] = _next_hand(s, nxt)
    return kw


def orbit_state(ctx: TableContext) -> str:
    """Orbit for orbit at this table: "" (off), "playing" its orbit, or "waiting"."""
    orbit = ctx.plan.get("orbit") or {}
    if not orbit.get("on"):
        return ""
    return "waiting" if ctx.orbit_played() and not ctx.local.in_hand else "playing"


def level_name(s: Structure, period: int) -> str:
    n = s.level_number(period)
    return _("Break") if n is None else _("Level {n}").format(n=n)


def _next_text(s: Structure, period: int) -> str:
    periods = s.periods
    if period + 1 >= len(periods):
        return _("Last level")
    nxt = periods[period + 1]
    if nxt.is_break:
        return _("Next: break {minutes} min").format(minutes=f"{nxt.minutes:g}")
    return _("Next: {blinds}").format(blinds=fmt().blinds(nxt.sb, nxt.bb))


def _to_break(s: Structure, reading: ClockReading) -> str:
    periods = s.periods
    if periods[reading.period].is_break:
        return ""
    left = reading.remaining
    for p in periods[reading.period + 1:]:
        if p.is_break:
            return _("Break in {clock}").format(clock=format_clock(left))
        left += p.seconds
    return ""


def _ante(p: Period, blind_first: bool = False) -> str:
    """The ante line; a big blind ante said to be taken after the blind when the
    profile wants a short big blind to cover the blind first (TDA 2024 RP-11)."""
    if p.bb_ante:
        return _("BB ante {ante}").format(ante=fmt().chips(p.bb_ante)) + (
            _(" (blind first)") if blind_first else "")
    return _("ante {ante}").format(ante=fmt().chips(p.ante)) if p.ante else ""


def field_text(ctx: TableContext) -> str:
    sched = ctx.schedule or {}
    left = sched.get("players_left")
    if not left:
        return ""
    avg = sched.get("average_stack")
    text = _("{n} left").format(n=fmt().num(left))
    return text + " · " + _("avg {stack}").format(stack=fmt().chips(int(avg))) if avg else text


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
    warned = warned_seats(ctx.plan)
    return tuple(
        _seated(ctx, n, seats[n], coming.get(n), occupied, n in warned) if n in seats
        else _empty(ctx, n, gone.get(n))
        for n in range(1, seat_count(ctx) + 1))


def _empty(ctx: TableContext, n: int, b: dict[str, Any] | None) -> SeatView:
    """A seat without a player: open, or just busted here (with the place it took)."""
    pos, loc = ctx.local.positions, ctx.local
    return SeatView(n, button=bool(pos and pos.button == n and loc.hand),
                    name=str(b.get("name", "")) if b else "", busted=b is not None,
                    out=_("OUT {place}").format(place=fmt().ordinal(int(b["place"])))
                    if b and b.get("place") else "")


def _seated(ctx: TableContext, n: int, who: dict[str, Any], m: dict[str, Any] | None,
            occupied: set[int], warned: bool = False) -> SeatView:
    loc = ctx.local
    pos = loc.positions
    in_hand = bool(pos and loc.in_hand)
    return SeatView(
        n, name=str(who.get("name", "")), player=str(who.get("player", "")),
        occupied=n in occupied, absent=ctx.is_absent(n), penalty=_penalty(who),
        warned=warned,
        button=bool(pos and pos.button == n), sb=bool(pos and pos.sb == n),
        bb=bool(pos and pos.bb == n), all_in=n in loc.all_in,
        busted=loc.busted.get(n) == who.get("player"),
        arriving=who.get("status") == "arriving" and n not in occupied,
        arriving_from=_("T{table}").format(table=m.get("from_table")) if m else "",
        waiting=bool(in_hand and pos and n in pos.waiting),
        dealt=bool(in_hand and pos and n in pos.dealt), bank=ctx.bank(n))


def _penalty(who: dict[str, Any]) -> str:
    ph = who.get("penalty_hands") or 0
    until = who.get("penalty_until")
    return (_("PEN 1 hand") if ph == 1 else _("PEN x{n}").format(n=ph) if ph else
            _("PEN to {time}").format(time=_hhmm(until)) if until else "")


def bust_results(plan: dict[str, Any]) -> tuple[str, ...]:
    """The director's places and prizes for this table's last busts."""
    out = []
    for b in plan.get("busts") or []:
        place, prize = b.get("place"), int(b.get("prize") or 0)
        text = _("Seat {seat}: {place}").format(
            seat=b.get("seat"), place=fmt().ordinal(int(place)) if place else _("out"))
        if b.get("tied", 1) > 1:
            text += " " + _("({n} tie)").format(n=b["tied"])
        out.append(text + (", " + _("wins {prize}").format(prize=fmt().money(prize))
                           if prize else ""))
        if b.get("bounty_won"):      # own line: the centre of the table is narrow
            out.append(_("Seat {seat}: bounties {amount}").format(
                seat=b.get("seat"), amount=fmt().money(int(b["bounty_won"]))))
    return tuple(out)


def _hhmm(ts: Any) -> str:
    try:
        return fmt().time(float(ts))
    except (TypeError, ValueError, OverflowError, OSError):
        return str(ts)
