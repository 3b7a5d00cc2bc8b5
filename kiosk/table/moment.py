"""Which moment the table is in (final table, halted, hand-for-hand...) and whether a
hand may be dealt: one answer, so the banner and NEW HAND never disagree."""

from __future__ import annotations

from kiosk.lang.active import _, ngettext
from kiosk.table.context import TableContext


def moment(ctx: TableContext) -> tuple[str, str]:
    """(banner, reason not to deal) for the moment the table is in, most binding first."""
    plan, sched = ctx.plan, ctx.schedule or {}
    if plan.get("broken"):
        return _("TABLE CLOSED"), _("Table closed: do not deal")
    if sched.get("finished"):
        return _("TOURNAMENT OVER"), _("Tournament over")
    if plan.get("final_pending"):
        return _("FINAL TABLE DRAW"), _("Final draw: do not deal")
    if plan.get("breaking"):
        return (_("LAST HAND - TABLE BREAKS") if ctx.local.in_hand else _("TABLE BREAKING"),
                _("Table breaking: do not deal"))
    if plan.get("halt"):
        return _("HALTED - DO NOT DEAL"), _("Halted: do not deal")
    if ctx.h4h().get("on"):
        return _hand_for_hand(ctx)
    if not ctx.local.in_hand and ctx.orbit_played():
        return _orbit_wait(ctx)
    block = _("On hold: do not deal") if plan.get("hold") else seat_block(ctx)
    order = sched.get("break_order") or []
    state = (_("FINAL TABLE") if plan.get("final_table") else _("BUBBLE")
             if sched.get("bubble") else _("THIS TABLE BREAKS NEXT")
             if order and order[0] == ctx.table else "")
    return state, block


def _hand_for_hand(ctx: TableContext) -> tuple[str, str]:
    text = _("HAND-FOR-HAND {round}").format(round=ctx.h4h().get("round", "")).strip()
    if not ctx.h4h_waiting():
        return text, seat_block(ctx)
    return _("{banner}: WAIT").format(banner=text), _playing(h4h_playing(ctx),
                                                             _("Hand-for-hand: wait"))


def _orbit_wait(ctx: TableContext) -> tuple[str, str]:
    """Orbit for orbit: this table played its orbit; the others still play theirs."""
    orbit = (ctx.schedule or {}).get("orbit") or {}
    playing = [int(n) for n in orbit.get("playing") or [] if n != ctx.table]
    text = _("ORBIT FOR ORBIT {round}").format(
        round=(ctx.plan.get("orbit") or {}).get("round", "")).strip()
    return _("{banner}: WAIT").format(banner=text), _playing(
        playing, _("Orbit played: wait for the other tables"))


def _playing(tables: list[int], nobody: str) -> str:
    """What the round still waits for: "Playing: tables 2, 5" (the first five)."""
    if not tables:
        return nobody
    return ngettext("Playing: table {tables}", "Playing: tables {tables}", len(tables)).format(
        tables=", ".join(map(str, tables[:5])))


def deal_block(ctx: TableContext) -> str:
    """Why NEW HAND is not allowed now ("" when it is): shown before the tap."""
    return moment(ctx)[1]


def seat_block(ctx: TableContext) -> str:
    return _("Need two players to deal") if len(ctx.occupied()) < 2 else ""


def h4h_playing(ctx: TableContext) -> list[int]:
    """Tables still playing this hand-for-hand round (from the schedule)."""
    hh = (ctx.schedule or {}).get("hand_for_hand") or {}
    return [int(n) for n in hh.get("playing") or [] if n != ctx.table]
