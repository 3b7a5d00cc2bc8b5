"""The tournament's part of a table's `dealer` plan: what the outgoing dealer tells the
incoming one (TDA 2024 RP-15A) and the hand a level starting during a push leaves at the
prior level (TDA 2024 r.23).

Derived from the tournament and the table's last push (kiosk.core.dealers keeps the
pushes, the event keeps the players and the clock; the director joins them), as numbers,
seats and the floor's own note: the kiosk words them. Each part is there only when the
event's profile asks for it.
"""

from __future__ import annotations

from typing import Any

from kiosk.core.event.tournament import Tournament
from kiosk.core.model.dealer_events import PushDone


def dealer_part(tour: Tournament, table: int, last: PushDone | None) -> dict[str, Any]:
    """`handover` and `first_hand` for the table's plan (either may be absent)."""
    out: dict[str, Any] = {}
    rules = tour.profile.dealing
    tab = tour.tables.get(table)
    if tab is None or tab.broken:
        return out
    if rules.handover:
        out["handover"] = handover(tour, table)
    if rules.prior_level_after_push and last is not None:
        first = first_hand(tour, table, last)
        if first is not None:
            out["first_hand"] = first
    return out


def handover(tour: Tournament, table: int) -> dict[str, Any]:
    """RP-15A: the seats of players warned and of players on a penalty at the table, and
    the floor's note for it (the blinds are the table's own clock's, or `first_hand`)."""
    tab = tour.tables[table]
    warned, penalised = [], []
    for seat, pid in sorted(tab.seat_of.items()):
        p = tour.players[pid]
        if p.warnings:
            warned.append(seat)
        if p.penalty_hands or p.penalty_until is not None:
            penalised.append(seat)
    return {"warnings": warned, "penalties": penalised,
            "note": tour.table_notes.get(table, "")}


def first_hand(tour: Tournament, table: int, last: PushDone) -> dict[str, Any] | None:
    """r.23: a level starting during a dealer push leaves the incoming dealer's first
    hand at the prior level. The push begins when it falls due (`PushDone.period` is the
    clock's period then, the director's): the blinds of that level while the table has
    dealt no hand since the push (the kiosk deals it there once its clock has moved on and
    its last hand was not dealt at the new level); None otherwise."""
    tab = tour.tables[table]
    if last.period is None or tab.hand != last.hand or tab.in_hand:
        return None
    s = tour.structure
    if last.period >= len(s.periods) or s.periods[last.period].is_break:
        return None
    p = s.periods[last.period]
    return {"hand": last.hand, "period": last.period, "sb": p.sb, "bb": p.bb,
            "ante": p.ante, "bb_ante": p.bb_ante}
