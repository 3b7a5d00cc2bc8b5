"""What the pages show of the tools against stalling (TDA RP-19): the shot clock and the
final table's time banks, orbit for orbit, and hands left where levels count hands.

Numbers, flags and names only: the pages word them.
"""

from __future__ import annotations

from typing import Any

from kiosk.core.calc import pace
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import IN_PLAY, Table


def hands_left(tour: Tournament) -> int | None:
    """Where levels count hands: the most hands a table still deals at the event's level
    (the lowest a table plays) before the next; None in a timed structure."""
    s = tour.structure
    if not s.counts_hands:
        return None
    level = tour.clock.period
    left = [pace.hands_left(s, *at) for at in
            (tour.pace.next_level(x.id) for x in tour.active_tables() if x.count)
            if at[0] == level]
    return max(left, default=s.periods[level].hands)


def stalling_summary(tour: Tournament) -> dict[str, Any]:
    """The summary's part: hands left in place of time, orbit for orbit, the shot clock
    and, when it runs at the final table, the banks there (seat, name, cards left)."""
    out: dict[str, Any] = {
        "orbit": {"on": tour.orbit_on, "round": tour.orbit_round,
                  "playing": sorted(tour.orbit_waiting) if tour.orbit_on else []},
        "hands": tour.structure.counts_hands, "hands_left": hands_left(tour),
        "shot_clock": shot_clock_summary(tour)}
    if tour.structure.counts_hands:
        out["paused"] = False        # no time runs: nothing is paused either
    return out


def shot_clock_summary(tour: Tournament) -> dict[str, Any] | None:
    """The event's shot clock and where it runs (None: it has none); the final table's
    banks, in seat order, while it runs there."""
    spec = tour.config.shot_clock
    if spec is None:
        return None
    shot = tour.shot_clock
    final = tour.final_table if not tour.final_pending else None
    tab = tour.tables.get(final) if final is not None else None
    here = tab is not None and shot.applies_at(tab, tour.clock.period, final)
    banks = [] if tab is None or not here or not spec.bank_cards else [
        {"seat": seat, "name": tour.players[pid].name,
         "cards": shot.cards_left(tour.players[pid])}
        for seat, pid in sorted(tab.seat_of.items())
        if tour.players[pid].status in IN_PLAY]
    return {"seconds": spec.seconds, "applies": shot.applies, "from_level": shot.from_level,
            "bank_seconds": spec.bank_seconds, "bank_cards": shot.granted(),
            "final_table": here, "banks": banks}


def table_pace(tour: Tournament, tab: Table) -> dict[str, Any]:
    """A table's tile: its part in orbit for orbit, and its own level where levels count
    hands (period, level number, hands left)."""
    out: dict[str, Any] = {"orbit": None}
    if tour.orbit_on and not tab.broken:
        out["orbit"] = "playing" if tab.id in tour.orbit_waiting else "done"
    if tour.structure.counts_hands and not tab.broken:
        period, played = tour.pace.next_level(tab.id)
        out["hand_level"] = {"period": period,
                             "level": tour.structure.level_number(period),
                             "hands_left": tour.structure.periods[period].hands - played}
    return out
