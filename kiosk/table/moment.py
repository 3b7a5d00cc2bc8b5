"""Which moment the table is in (final table, halted, hand-for-hand...) and whether a
hand may be dealt: one answer, so the banner and NEW HAND never disagree."""

from __future__ import annotations

from kiosk.table.context import TableContext


def moment(ctx: TableContext) -> tuple[str, str]:
    """(banner, reason not to deal) for the moment the table is in, most binding first."""
    plan, sched = ctx.plan, ctx.schedule or {}
    if plan.get("broken"):
        return "TABLE CLOSED", "Table closed: do not deal"
    if sched.get("finished"):
        return "TOURNAMENT OVER", "Tournament over"
    if plan.get("final_pending"):
        return "FINAL TABLE DRAW", "Final draw: do not deal"
    if plan.get("breaking"):
        return ("LAST HAND - TABLE BREAKS" if ctx.local.in_hand else "TABLE BREAKING",
                "Table breaking: do not deal")
    if plan.get("halt"):
        return "HALTED - DO NOT DEAL", "Halted: do not deal"
    if ctx.h4h().get("on"):
        return _hand_for_hand(ctx)
    block = "On hold: do not deal" if plan.get("hold") else seat_block(ctx)
    order = sched.get("break_order") or []
    state = ("FINAL TABLE" if plan.get("final_table") else "BUBBLE" if sched.get("bubble")
             else "THIS TABLE BREAKS NEXT" if order and order[0] == ctx.table else "")
    return state, block


def _hand_for_hand(ctx: TableContext) -> tuple[str, str]:
    text = f"HAND-FOR-HAND {ctx.h4h().get('round', '')}".strip()
    if not ctx.h4h_waiting():
        return text, seat_block(ctx)
    playing = h4h_playing(ctx)
    return text + ": WAIT", ("Playing: table" + ("s " if len(playing) > 1 else " ")
                             + ", ".join(map(str, playing[:5])) if playing
                             else "Hand-for-hand: wait")


def deal_block(ctx: TableContext) -> str:
    """Why NEW HAND is not allowed now ("" when it is): shown before the tap."""
    return moment(ctx)[1]


def seat_block(ctx: TableContext) -> str:
    return "Need two players to deal" if len(ctx.occupied()) < 2 else ""


def h4h_playing(ctx: TableContext) -> list[int]:
    """Tables still playing this hand-for-hand round (from the schedule)."""
    hh = (ctx.schedule or {}).get("hand_for_hand") or {}
    return [int(n) for n in hh.get("playing") or [] if n != ctx.table]
