"""What the public player pages show: the parts of an event a player may see, as JSON.

Pure functions of an event's tournament. They pick from the state field by field, so a
new floor-only field never leaks here by accident: no card numbers, no player ids, no
floor calls, no audit. The clock is given as the moment the level ends (or, paused, the
time left), so a part only changes when the event does and a phone counts down itself.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_skeleton, format_time

from kiosk.base.texts import M_, Mn_
from kiosk.core.event.results import results
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import IN_PLAY, MOVING, WAITING
from kiosk.director.views.stall_views import hands_left
from kiosk.director.views.views import next_break_in
from kiosk.lang.formats import locale_of

MAX_MATCHES = 20        # a seat lookup lists at most this many players
MAX_QUERY = 120         # characters of a name to look up (a name's own limit)
# a page of the field: what every phone is sent of the counts, the results, the bounties
# and the payouts (its own seat it looks up): a 5,000-player field stays a few KB a phone
PAGE = 50


def fold(text: str) -> str:
    """A name as compared: compatibility forms, case and accents folded ("Zoë" ~ "zoe")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def clock_part(tour: Tournament, t: float) -> dict[str, Any]:
    """Level, blinds, when the level ends and the next break starts, the field and money."""
    s = tour.structure
    r = tour.clock.read(s, t)
    period = s.periods[r.period]
    nxt = next((p for p in s.periods[r.period + 1:] if not p.is_break), None)
    money = tour.money_view()
    return {
        "started": tour.started, "finished": tour.finished_at is not None,
        "winner": _winner(tour),
        "level": s.level_number(r.period), "is_break": period.is_break,
        "blinds": f"{period.sb:,}/{period.bb:,}" if not period.is_break else "",
        "ante": _ante_text(period), "color_up": period.color_up or "",
        "next_blinds": f"{nxt.sb:,}/{nxt.bb:,}" if nxt else None,
        # the same amounts as numbers: each phone writes them as its language does
        "sb": period.sb, "bb": period.bb, "ante_chips": period.bb_ante or period.ante,
        "bb_ante": bool(period.bb_ante), "next": [nxt.sb, nxt.bb] if nxt else None,
        **_timing(tour, t),
        "players_left": tour.alive, "entries": tour.entries,
        "average_stack": round(tour.chips / tour.alive) if tour.alive else 0,
        "prize_pool": money.prize_pool, "places_paid": money.places_paid,
        "bubble": money.bubble, "in_the_money": money.in_the_money,
        "prize_now": _prize_at(tour, tour.alive) if money.in_the_money else None,
        "bounty_mode": tour.prize.bounty_mode, "bounty_pool": money.bounty_pool,
        "hand_for_hand": tour.h4h_on,
        "final_table": bool(tour.final_table) and not tour.final_pending,
        "hands_left": hands_left(tour),   # levels counted in hands: shown in place of time
    }


def _prize_at(tour: Tournament, place: int) -> int | None:
    """The prize of `place` (the least anyone left wins, in the money)."""
    paid = tour.current_payouts()
    return paid[place - 1] if 0 < place <= len(paid) else None


def _winner(tour: Tournament) -> str | None:
    if tour.finished_at is None:
        return None
    pid = next((pid for pid, pl in tour.places().items() if pl == 1), None)
    return tour.players[pid].name if pid else None


def _timing(tour: Tournament, t: float) -> dict[str, Any]:
    """Running: when the level ends and the break starts (stable until the clock changes,
    so the part does not change every second); stopped: the time left."""
    s = tour.structure
    r = tour.clock.read(s, t)
    to_break = next_break_in(s, r)
    running = tour.started and not r.paused and tour.finished_at is None
    return {"paused": not running,
            "ends_at": round(t + r.remaining, 1) if running else None,
            "remaining": None if running else round(r.remaining, 1),
            "break_at": round(t + to_break, 1) if running and to_break is not None else None,
            "break_in": round(to_break, 1) if not running and to_break is not None else None}


def _ante_text(p: Any) -> str:
    if p.bb_ante:
        return f"BB ante {p.bb_ante:,}"
    return f"Ante {p.ante:,}" if p.ante else ""


def payouts_part(tour: Tournament) -> dict[str, Any]:
    """The first PAGE paid places and their prizes (all of them: `places_paid`); the
    bubble is the first place not paid."""
    paid = tour.current_payouts()
    return {"payouts": list(paid)[:PAGE], "places_paid": len(paid),
            "locked": tour.locked is not None}


def _keys(tour: Tournament) -> dict[str, str]:
    """A short opaque key per player (the registration order): phones replace single rows
    by it, and it says nothing a player may not know."""
    return {pid: format(i, "x") for i, pid in enumerate(tour.players)}


def counts_part(tour: Tournament, public: bool) -> dict[str, Any]:
    """The PAGE biggest stacks as last counted at the tables, [name, chips, table] by
    player key (when the event shows them); phones sort them, biggest first."""
    if not public:
        return {"shown": False, "label": "", "rows": {}}
    keys = _keys(tour)
    counted = [p for p in tour.players.values()
               if p.status in IN_PLAY and p.id in tour.last_count]
    top = sorted(counted, key=lambda p: (-tour.last_count[p.id], fold(p.name)))[:PAGE]
    rows = {keys[p.id]: [p.name, tour.last_count[p.id], p.table] for p in top}
    r = tour.count_round
    return {"shown": True, "label": str(r["label"]) if r is not None else "", "rows": rows}


def results_part(tour: Tournament) -> dict[str, Any]:
    """The PAGE best places decided so far (the latest busts, and the money places),
    [place, name, prize, bounty cash] by player key."""
    keys = _keys(tour)
    placed = sorted((r for r in results(tour) if r["place"] is not None),
                    key=lambda r: r["place"])[:PAGE]
    return {"rows": {keys[r["player"]]: [r["place"], r["name"], r["prize"], r["bounty"]]
                     for r in placed}}


def bounties_part(tour: Tournament) -> dict[str, Any]:
    """Bounty events: [name, on the head, won] of the PAGE biggest heads in play."""
    if not tour.prize.bounty_mode:
        return {"mode": "", "rows": {}}
    keys = _keys(tour)
    playing = [p for p in tour.players.values() if p.status in IN_PLAY]
    top = sorted(playing, key=lambda p: (-tour.head(p.id), -tour.bounty_cash.get(p.id, 0),
                                         fold(p.name)))[:PAGE]
    rows = {keys[p.id]: [p.name, tour.head(p.id), tour.bounty_cash.get(p.id, 0)]
            for p in top}
    return {"mode": tour.prize.bounty_mode, "rows": rows}


def event_parts(tour: Tournament, title: str, public_counts: bool,
                t: float, starts: str = "", timezone: str = "",
                currency: str = "") -> dict[str, dict[str, Any]]:
    """Everything a player page shows, in parts a phone replaces one at a time (the
    `rows` of a part row by row). Before the start: when it starts (`starts`, ISO 8601,
    as `starts_at` in epoch seconds) and the buy-in; the room's time zone and currency,
    so each phone writes times and money in its own language (one feed for all)."""
    return {"event": {"name": tour.event, "title": title, "starts": starts,
                      "starts_at": starts_at(starts), "buy_in": tour.prize.buy_in,
                      "timezone": timezone, "currency": currency},
            "clock": clock_part(tour, t), "payouts": payouts_part(tour),
            "counts": counts_part(tour, public_counts), "results": results_part(tour),
            "bounties": bounties_part(tour)}


def _seat_row(tour: Tournament, p: Any, places: dict[str, int]) -> dict[str, Any]:
    seated = p.status in IN_PLAY
    row: dict[str, Any] = {"name": p.name, "table": p.table if seated else None,
                           "seat": p.seat if seated else None, "status": p.status,
                           "place": places.get(p.id)}
    if p.status == MOVING:
        row["message"] = M_("seat.row_moving", "moving to table {table}, seat {seat}",
                            table=p.table, seat=p.seat)
    elif seated:
        row["message"] = M_("seat.row_seated", "table {table}, seat {seat}", table=p.table,
                            seat=p.seat)
    elif p.status == WAITING:
        row["message"] = M_("seat.row_waiting", "registered, waiting for a seat")
    elif row["place"]:
        row["message"] = M_("seat.row_finished", "finished in place {place}",
                            place=row["place"])
    else:
        row["message"] = M_("seat.row_out", "out")
    return row


def seat_lookup(tour: Tournament, query: str) -> tuple[int, dict[str, Any]]:
    """(HTTP status, answer) for a name typed on a phone.

    One player: that player's table and seat. Several: the list (at most MAX_MATCHES),
    saying so, unless exactly one name is the whole query. None: 404 saying so."""
    q = fold(query)
    if len(q) < 2:
        return 400, {"error": M_("seat.two_letters", "type at least two letters of your name"),
                     "matches": []}
    if len(query) > MAX_QUERY:
        return 400, {"error": M_("seat.query_long", "a name is at most {most} characters",
                                 most=MAX_QUERY), "matches": []}
    places = tour.places()
    found = [p for p in tour.players.values() if q in fold(p.name)]
    exact = [p for p in found if fold(p.name) == q]
    if len(exact) == 1:
        found = exact
    if not found:
        return 404, {"error": M_("seat.no_player", "no player named \u201c{name}\u201d in this "
                                 "event: check the spelling, or ask the desk",
                                 name=query.strip()), "matches": []}
    found.sort(key=lambda p: (p.status not in IN_PLAY, fold(p.name)))
    if len(found) == 1:
        return 200, {**_seat_row(tour, found[0], places), "count": 1}
    rows = [_seat_row(tour, p, places) for p in found[:MAX_MATCHES]]
    more = len(found) - len(rows)
    message = Mn_("seat.matches_more", "{n} player matches \u201c{name}\u201d: find your full "
                  "name (first {shown} shown; type more of your name)", "{n} players match "
                  "\u201c{name}\u201d: find your full name (first {shown} shown; type more of "
                  "your name)", len(found), name=query.strip(), shown=len(rows)) if more else \
        Mn_("seat.matches", "{n} player matches \u201c{name}\u201d: find your full name",
            "{n} players match \u201c{name}\u201d: find your full name", len(found),
            name=query.strip())
    return 200, {"matches": rows, "count": len(found), "message": message}


def starts_at(starts: str) -> float | None:
    """An ISO 8601 start (the room's file, checked at load) in epoch seconds; None: none."""
    return datetime.fromisoformat(starts).timestamp() if starts else None


def start_of(config: Any, event: str) -> str:
    """When the room's file says `event` starts, ISO 8601 ("": it does not say)."""
    return next((e.starts for e in getattr(config, "events", ()) if e.name == event), "")


def starts_said(starts: str, code: str, timezone: str = "") -> str:
    """An ISO 8601 start as `code` writes a day and a time in the room's zone ("Sun 6 Dec,
    19:00", "So., 6. Dez., 19:00"); "" for none."""
    if not starts:
        return ""
    locale = locale_of(code)
    when = datetime.fromisoformat(starts).astimezone(ZoneInfo(timezone) if timezone else UTC)
    return (f"{format_skeleton('MMMEd', when, locale=locale)}, "
            f"{format_time(when, 'short', locale=locale)}")


def starts_of(config: Any, event: str) -> str:
    """When `event` starts, in the room's default language and zone (the TV's line; a
    phone writes `starts_at` in its own); "": the room's file does not say."""
    return starts_said(start_of(config, event), str(getattr(config, "language", "en")),
                       str(getattr(config, "timezone", "") or ""))
