"""What the floor dashboard and the TV clock show, as plain JSON-ready dicts.

Pure functions of the director's state: the web layer only serialises them, and tests
read them without a browser.
"""

from __future__ import annotations

from typing import Any, Protocol

from kiosk.core.calc.clock import format_clock
from kiosk.core.chips import races
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import IN_PLAY, MOVING
from kiosk.core.tables.seating import start_refusal
from kiosk.director.views.stall_views import stalling_summary, table_pace


class DirectorLike(Protocol):
    tour: Tournament
    live: dict[int, dict[str, Any]]
    online: dict[int, bool]


def summary(d: DirectorLike, t: float) -> dict[str, Any]:
    """The clock, the field and the money: the dashboard header and the TV clock."""
    tour = d.tour
    s = tour.structure
    r = tour.clock.read(s, t)
    period = s.periods[r.period]
    nxt = next((p for p in s.periods[r.period + 1:] if not p.is_break), None)
    to_break = next_break_in(s, r)
    winner = next((pid for pid, pl in tour.places().items() if pl == 1), None) \
        if tour.finished_at is not None else None
    money = tour.money_view()
    return {
        "event": tour.event, "profile": tour.profile.name, "started": tour.started,
        # Start on the dashboard only when `start` would be taken, as on the room page
        "can_start": not tour.started and start_refusal(tour.seating) is None,
        "level": s.level_number(r.period), "is_break": period.is_break,
        "blinds": period.blinds_text(), "sb": period.sb, "bb": period.bb,
        "ante": period.bb_ante or period.ante, "color_up": period.color_up,
        "remaining": round(r.remaining, 1), "clock": format_clock(r.remaining),
        "paused": r.paused, "period": r.period, "periods": len(s.periods),
        "clock_anchor": tour.clock.to_dict(), "server_time": t,
        "period_seconds": period.seconds,
        "next_level": nxt.blinds_text() if nxt else None,
        "next_break_in": round(to_break, 1) if to_break is not None else None,
        "players_left": tour.alive, "entries": tour.entries,
        "buy_in": tour.prize.buy_in, "seat_value": tour.prize.seat_value,
        "average_stack": round(tour.chips / tour.alive) if tour.alive else 0,
        "prize_pool": money.prize_pool,
        "payouts": money.payouts[:12], "places_paid": money.places_paid,
        "bubble": money.bubble,
        "ante_text": _ante_text(period), "next_ante": _ante_text(nxt) if nxt else "",
        "next_blinds": f"{nxt.sb:,}/{nxt.bb:,}" if nxt else None,
        # the amounts themselves, for a page that writes them in its reader's language
        "antes": _antes(period), "next_amounts": {"sb": nxt.sb, "bb": nxt.bb, **_antes(nxt)}
        if nxt else None,
        "final_table": None if tour.final_pending else tour.final_table,
        "money": {"prize_pool": money.prize_pool, "payouts": money.payouts,
                  "places_paid": money.places_paid, "bubble": money.bubble,
                  "bounty_pool": money.bounty_pool, "in_the_money": money.in_the_money,
                  "locked": money.locked, "bounty_mode": tour.prize.bounty_mode,
                  "day": tour.day, "day_over": tour.day_over,
                  "chip_count": _count_summary(tour)},
        "hand_for_hand": {"on": tour.h4h_on, "round": tour.h4h_round,
                          "waiting": sorted(tour.h4h_waiting)},
        "final_pending": tour.final_pending, "extra_hands": tour.extra_hands,
        "finished": tour.finished_at is not None,
        "winner": tour.players[winner].name if winner else None,
        "tables": sum(1 for x in tour.tables.values() if not x.broken),
        "break_order": tour.break_order(),
        **stalling_summary(tour),
    }


def _count_summary(tour: Tournament) -> dict[str, Any] | None:
    """The open chip count: how far it is and what the reconciliation flags."""
    r = tour.count_round
    if r is None:
        return None
    rec = tour.reconciliation()
    return {"round": r["round"], "label": r["label"], "purpose": r["purpose"],
            **rec.to_dict()}


def _antes(p: Any) -> dict[str, int]:
    """A level's ante from every player and big-blind ante (0: none)."""
    return {"ante": p.ante or 0, "bb_ante": p.bb_ante or 0}


def _ante_text(p: Any) -> str:
    """ "BB ante 400" for a big-blind ante, "Ante 25" for one from every player."""
    if p.bb_ante:
        return f"BB ante {p.bb_ante:,}"
    return f"Ante {p.ante:,}" if p.ante else ""


def table_view(d: DirectorLike, n: int, t: float) -> dict[str, Any]:
    """One table's tile: who sits where, its calls, moves and flags."""
    tour = d.tour
    tab = tour.tables[n]
    live = d.live.get(n, {})
    floor = [_floor(c, t) for c in tour.floor_calls.values()
             if c.table == n and c.state in ("open", "acked")]
    clocks = [_clock_call(c, t) for c in tour.clock_calls.values()
              if c.table == n and c.state != "done"]
    return {
        "table": n, "online": d.online.get(n, False), "broken": tab.broken,
        "breaking": tab.breaking, "halted": tour.halted(tab) if not tab.broken else False,
        "hand": max(tab.hand, int(live.get("hand", 0) or 0)),
        "in_hand": tab.in_hand, "players": tab.count, "max_seats": tab.seats,
        "seats": _seats(tour, tab, live), "floor_calls": floor, "clock_calls": clocks,
        "moves_out": [{"player": tour.players[pid].name, "to_table": tour.players[pid].table,
                       "to_seat": tour.players[pid].seat}
                      for pid in sorted(tour.movers_from.get(n, ()))],
        "final": tour.final_table == n and not tour.final_pending,
        "h4h": _h4h_state(tour, tab),
        "can_break": not tab.broken and not tab.breaking and len(tour.active_tables()) > 1
        and tour.final_table != n,
        "race_pending": races.pending(tour.chipcount, n) is not None,
        **table_pace(tour, tab),
    }


def _seats(tour: Any, tab: Any, live: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat of a table: empty, or who sits there and what the floor should see."""
    seats: list[dict[str, Any]] = []
    all_in = set(tab.all_in) | set(live.get("all_in", []))
    for seat in range(1, tab.seats + 1):
        pid = tab.seat_of.get(seat)
        if pid is None:
            seats.append({"seat": seat})
            continue
        p = tour.players[pid]
        seats.append({"seat": seat, "player": pid, "name": p.name, "absent": p.absent,
                      "moving": p.status == MOVING, "from_table": p.from_table,
                      "penalty": p.penalty_text, "all_in": seat in all_in})
    return seats


def _h4h_state(tour: Any, tab: Any) -> str | None:
    """A table's part in hand-for-hand: still playing the round's hand, or done."""
    if not tour.h4h_on or tab.broken:
        return None
    return "playing" if tab.id in tour.h4h_waiting or tab.in_hand else "done"


def _floor(c: Any, t: float) -> dict[str, Any]:
    return {"call": c.id, "table": c.table, "seat": c.seat, "state": c.state,
            "since": c.raised_at, "waiting": round(t - c.raised_at), "note": c.note,
            "by": c.acked_by}


def _clock_call(c: Any, t: float) -> dict[str, Any]:
    return {"call": c.id, "table": c.table, "seat": c.seat, "state": c.state,
            "since": c.raised_at, "waiting": round(t - c.raised_at),
            "seconds": c.seconds, "countdown": c.countdown, "approved_at": c.approved_at,
            "by": c.approved_by}


def calls(d: DirectorLike, t: float) -> dict[str, Any]:
    """The floor's queue: open floor calls, oldest first, and clocks awaiting approval."""
    tour = d.tour
    floor = sorted((_floor(c, t) for c in tour.floor_calls.values()
                    if c.state in ("open", "acked")), key=lambda c: c["since"])
    clocks = sorted((_clock_call(c, t) for c in tour.clock_calls.values()
                     if c.state in ("requested", "approved")), key=lambda c: c["since"])
    return {"floor": floor, "clock": clocks}


def moves_in_transit(d: DirectorLike) -> list[dict[str, Any]]:
    tour = d.tour
    return [{"player": p.id, "name": p.name, "from_table": p.from_table,
             "from_seat": p.from_seat, "to_table": p.table, "to_seat": p.seat}
            for p in (tour.players[pid] for pid in sorted(tour.moving))]


def find_player(d: DirectorLike, query: str, limit: int = 20) -> list[dict[str, Any]]:
    """Players whose name, id or card contains `query` (case-insensitive)."""
    q = query.strip().lower()
    if not q:
        return []
    places = d.tour.places()
    out = []
    for p in d.tour.players.values():
        if q in p.name.lower() or q == p.id.lower() or (p.card and q in p.card.lower()):
            out.append({"player": p.id, "name": p.name, "status": p.status,
                        "table": p.table if p.status in IN_PLAY else None,
                        "seat": p.seat if p.status in IN_PLAY else None,
                        "place": places.get(p.id), "moves": p.moves,
                        "penalty": p.penalty_text, "entries": p.entries + p.rebuys})
            if len(out) >= limit:
                break
    return out


def snapshot(d: DirectorLike, t: float) -> dict[str, Any]:
    """Everything the dashboard needs on connect."""
    tour = d.tour
    return {"type": "snapshot", "summary": summary(d, t),
            "tables": [table_view(d, n, t) for n in sorted(tour.tables)
                       if not tour.tables[n].broken],
            "calls": calls(d, t), "moves": moves_in_transit(d),
            "waiting": [{"player": p.id, "name": p.name} for p in tour.players.values()
                        if p.status == "waiting"]}


def next_break_in(s: Any, r: Any) -> float | None:
    """Seconds from now to the next break of structure `s` at clock reading `r` (None when
    no break is left): the dashboard, the TV clock and the players' pages all show it."""
    acc = r.remaining
    for p in s.periods[r.period + 1:]:
        if p.is_break:
            return acc
        acc += p.seconds
    return None
