"""What the director publishes, computed from the tournament state alone.

A plan is a table's desired state (docs/protocol.md). It is derived, never stored:
the same state always gives the same plan, so a restarted director republishes
exactly what the tables had.
"""

from __future__ import annotations

from typing import Any

from kiosk.base.texts import M_, Mn_, Msg
from kiosk.core.calc.places import group_key, group_places
from kiosk.core.chips import races
from kiosk.core.chips.chip_counts import count_label
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import MOVING, Table


def free_plan(table: int, room_title: str = "") -> dict[str, Any]:
    """The plan body of a table no event holds: no seats, nothing to deal, the room's
    title for its idle screen."""
    return {"table": table, "event": None, "title": "", "room": room_title, "seats": {},
            "moves_out": [], "moves_in": []}


def plan(tour: Tournament, table: int, *, event: str | None = None, title: str | None = None,
         room: str = "") -> dict[str, Any]:
    """The retained plan body for `table` (without version and revision), naming the event
    it serves (`tour.event` unless given), the event's title and the room's title."""
    tab = tour.tables[table]
    seats: dict[int, dict[str, Any]] = {}   # by seat number, as the Plan schema has them
    moves_in: list[dict[str, Any]] = []
    for seat, pid in sorted(tab.seat_of.items()):
        p = tour.players[pid]
        seats[seat] = _seat(tour, p, seat in tab.new_seats)
        if p.status == MOVING:
            moves_in.append({"player": pid, "name": p.name, "seat": seat,
                             "from_table": p.from_table, "from_seat": p.from_seat,
                             **_language(p)})
    moves_out = [
        {"player": p.id, "name": p.name, "seat": p.from_seat, "to_table": p.table,
         "to_seat": p.seat}
        for p in _movers_from(tour, tab)
    ]
    h4h = {"on": tour.h4h_on, "round": tour.h4h_round,
           "go": tour.h4h_on and tab.id in tour.h4h_waiting}
    floor = {c.id: {"state": c.state, "seat": c.seat, "since": c.raised_at, "note": c.note,
                    "report": c.report, "by": c.acked_by}
             for c in tour.floor_calls.values() if c.table == table and c.state != "cancelled"
             and (c.state != "resolved" or (c.resolved_at or 0) >= (tab.last_hand_at or 0))}
    clocks = {c.id: {"state": c.state, "seat": c.seat, "approved_at": c.approved_at,
                     "seconds": c.seconds, "countdown": c.countdown, "outcome": c.outcome,
                     "report": c.report}
              for c in tour.clock_calls.values()
              if c.table == table and (c.state != "done" or c.hand == tab.hand)}
    return {
        "table": table, **_heading(tour, event, title, room), "seats": seats,
        "moves_out": moves_out, "moves_in": moves_in,
        "halt": tour.halted(tab), "hold": tour.holding(tab) and not tab.broken,
        "breaking": tab.breaking, "broken": tab.broken, "redraw_button": tab.redraw_button,
        "final_table": tour.final_table == table and not tour.final_pending,
        "final_pending": tour.final_pending, **hold(tour, tab),
        "busts": hand_busts(tour, tab),
        "max_seats": tab.seats, "hand": tab.hand, "hand_for_hand": h4h,
        "floor_calls": floor, "clock_calls": clocks, **money_plan(tour, tab),
        **stalling_plan(tour, tab, seats),
    }


def stalling_plan(tour: Tournament, tab: Table,
                  seats: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """What a table needs of the tools against stalling (TDA RP-19): each player's time
    bank (put in `seats`), the shot clock and where it runs (the table checks its own
    level against `from_level`), its round of orbit for orbit (the hands its orbit still
    takes after hand `hand`, so a table that loses the network stops by itself), and its
    own level when the structure counts hands (`hand` is the last hand the director has:
    the table counts on from it offline)."""
    out: dict[str, Any] = {"orbit": {"on": tour.orbit_on, "round": tour.orbit_round,
                                     "go": tour.orbit_on and tab.id in tour.orbit_waiting,
                                     "hands_left": tour.pace.orbit_left(tab),
                                     "hand": tab.hand}}
    spec = tour.config.shot_clock
    if spec is not None and spec.bank_cards:
        for seat, pid in tab.seat_of.items():
            p = tour.players[pid]
            seats[seat].update(bank=tour.shot_clock.cards_left(p),
                               bank_used=tour.shot_clock.cards_used(p))
    if spec is not None:
        shot = tour.shot_clock
        out["shot_clock"] = {"seconds": spec.seconds, "applies": shot.applies,
                             "from_level": shot.from_level, "bank_seconds": spec.bank_seconds,
                             "bank_cards": shot.granted()}
    level = tour.pace.table_level(tab.id)
    if level is not None:
        out["hand_level"] = {"period": level[0], "played": level[1], "hand": tab.hand}
    return out


def _seat(tour: Tournament, p: Any, new: bool) -> dict[str, Any]:
    """One seat of the plan: its player, and a penalty only when there is one (the
    schema's default says none, and a plan stays as small as before keys)."""
    out = {"player": p.id, "name": p.name, "card": p.card,
           "status": "arriving" if p.status == MOVING else "seated",
           "absent": p.absent, "penalty_hands": p.penalty_hands,
           "penalty_until": p.penalty_until, "new": new}
    if p.penalty_text:
        out["penalty"] = p.penalty_text
        if p.penalty_msg is not None:
            out["penalty_msg"] = p.penalty_msg
    if tour.prize.bounty:
        out["bounty"] = tour.head(p.id)
    return out


def hold(tour: Tournament, tab: Table) -> dict[str, Any]:
    """Why the table holds: the English words (a director renders them in the room's
    default language for kiosks that read no key) and the message key."""
    why = tour.hold_reason(tab)
    return {"hold_reason": str(why), "hold_msg": why} if why is not None \
        else {"hold_reason": ""}


def _language(p: Any) -> dict[str, Any]:
    """A player's own language for the paper printed for them, when registration kept one."""
    return {"language": p.language} if getattr(p, "language", "") else {}


def _heading(tour: Tournament, event: str | None, title: str | None,
             room: str) -> dict[str, Any]:
    """Which event the table serves and the titles its screen shows."""
    return {"event": event or tour.event, "title": tour.event if title is None else title,
            "room": room}


def money_line(tour: Tournament) -> dict[str, Any]:
    """The money as every table of the event shows it: places paid, the bubble."""
    view = tour.money_view()
    return {"places_paid": view.places_paid, "bubble": view.bubble,
            "in_the_money": view.in_the_money, "bounties": bool(tour.prize.bounty)}


def event_key(tour: Tournament) -> tuple[Any, ...]:
    """What every plan shows of the event as a whole: the money line, hand-for-hand (and
    with it which busts a table announces), the final draw, the end of the day or of the
    event. These change without any table being touched, so the director republishes
    every plan of the event when this key changes, a broken table's too: its retained
    plan would otherwise keep the old ones for good."""
    return (tuple(money_line(tour).values()), tour.day_over, tour.h4h_on, tour.h4h_round,
            tour.final_pending, tour.finished_at, tour.orbit_on, tour.orbit_round,
            tour.shot_clock.applies, tour.shot_clock.from_level, tour.shot_clock.granted())


def money_plan(tour: Tournament, tab: Table) -> dict[str, Any]:
    """What a table shows of the money (besides the busts' places and prizes): the
    bubble, an open chip count and its colour-up."""
    out: dict[str, Any] = {"money": money_line(tour), "day_over": tour.day_over}
    r = tour.count_round
    if r is not None and tab.id in r["tables"]:
        recount = recount_why(tour, tab)
        out["chip_count"] = {"round": r["round"], "label": r["label"], "purpose": r["purpose"],
                             "done": tab.id in tour.counts and recount is None,
                             "removed": r["removed"], "new_chip": r["new_chip"],
                             "counted": tour.chipcount.n_counted.get(tab.id, 0),
                             "recount": str(recount or "")}
        if recount is not None:
            out["chip_count"]["recount_msg"] = recount
        if (label := count_label(str(r["label"]))) is not None:
            out["chip_count"]["label_msg"] = label
        cu = races.plan_view(tour.chipcount, tab.id)
        if cu is not None:
            out["colour_up"] = cu
    return out


def recount_why(tour: Tournament, tab: Table) -> Msg | None:
    """Why a table that counted for the bags must count again (None when it need not):
    the bag is refused for it (a floor move or an undone bust since its count, or a count
    the reconciliation flags), so its dealer is asked again, however many times it sent."""
    r = tour.count_round
    if r is None or r["purpose"] != "bag" or tab.id not in tour.counts:
        return None
    seats = tour.chipcount.changed_seats(tab)
    if seats:
        return Mn_("count.changed", "seat {seats} changed since the count",
                   "seats {seats} changed since the count", len(seats),
                   seats=", ".join(map(str, seats)))
    notes = tour.reconciliation().notes.get(tab.id, [])
    if len(notes) < 2:
        return notes[0] if notes else None
    # a kiosk lists the reasons one a line (split at "; "); the first three say enough
    if len(notes) == 2:
        return M_("count.reasons_2", "{r1}; {r2}", r1=notes[0], r2=notes[1])
    return M_("count.reasons_3", "{r1}; {r2}; {r3}", r1=notes[0], r2=notes[1], r3=notes[2])


def _movers_from(tour: Tournament, tab: Table) -> list[Any]:
    """Players still walking away from `tab` (shown on its screen until they arrive)."""
    movers = tour.movers_from.get(tab.id, ())
    return [tour.players[pid] for pid in sorted(movers)]


def hand_busts(tour: Tournament, tab: Table) -> list[dict[str, Any]]:
    """Players out at `tab` on its current hand (or hand-for-hand round), with the place
    and prize the tie rules give them now: the dealer announces them."""
    key = group_key(tab.id, tab.hand, tab.life, tour.h4h_round if tour.h4h_on else None)
    group = tour.groups.get(key)
    if not group or not any(b.table == tab.id for b in group):
        return []
    later = 0                      # players out in groups after this one
    for k, g in reversed(tour.groups.items()):
        if k == key:
            break
        later += len(g)
    places = group_places(group, tour.alive + later + len(group), tour.profile.busts,
                          key[0] == "h4h")
    prizes = tour.current_payouts()
    out = []
    for b in group:
        if b.table != tab.id:
            continue
        p = tour.players[b.player]
        place = places[b.player]
        tied = sum(1 for q in places.values() if q == place)
        out.append({"seat": p.seat, "player": p.id, "name": p.name, "place": place,
                    "tied": tied, "prize": shared_prize(prizes, place, tied),
                    "stack": b.stack, "bounty_won": tour.bounty_cash.get(p.id, 0),
                    "eliminators": [tour.players[e].seat for e in
                                    tour.eliminated_by.get(p.id, ())], **_language(p)})
    return out


def shared_prize(prizes: list[int], place: int, tied: int = 1) -> int:
    """Prize for `place` when `tied` players share it: the prizes of the places they
    occupy, split evenly (TDA RP-8), rounded down to whole units."""
    share = prizes[place - 1:place - 1 + tied]
    return sum(share) // tied if share else 0


def schedule(tour: Tournament) -> dict[str, Any]:
    """The retained schedule body: structure, profile, the clock anchor, the field and
    the current breaking order (open tables, next to break first; TDA 10C)."""
    places = tour.places() if tour.finished_at is not None else {}
    money = tour.money_view()
    paid = money.places_paid
    return {
        "event": tour.event, "profile": tour.profile.id, "profile_name": tour.profile.name,
        "structure": tour.structure.to_dict(), "clock": tour.clock.to_dict(),
        "started": tour.started, "seats": tour.seats,
        "hand_for_hand": {"on": tour.h4h_on, "round": tour.h4h_round,
                          "playing": sorted(tour.h4h_waiting) if tour.h4h_on else []},
        "extra_hands": tour.extra_hands, "finished": tour.finished_at is not None,
        "winner": next((pid for pid, pl in places.items() if pl == 1), None),
        "players_left": tour.alive, "entries": tour.entries,
        "average_stack": round(tour.chips / tour.alive) if tour.alive else 0,
        "places_paid": paid, "bubble": money.bubble,
        "final_table": tour.final_table,
        "break_order": tour.break_order(),
        # TDA 2024 RP-20: the tables call "prepare your decks" this long before play
        "prepare_decks": tour.profile.dealing.prepare_decks_seconds,
        # RP-7: no push this long before a level change (the director refuses one)
        "push_hold": tour.profile.dealing.push_hold_seconds,
        "orbit": {"on": tour.orbit_on, "round": tour.orbit_round,
                  "playing": sorted(tour.orbit_waiting) if tour.orbit_on else []},
    }


def schedule_key(tour: Tournament) -> tuple[Any, ...]:
    """What the schedule shows of the field: the director republishes it when this changes,
    so busts and hand-for-hand progress reach every table without a clock change."""
    return (tour.alive, tour.entries, tour.chips, tour.h4h_on,
            tuple(sorted(tour.h4h_waiting)), tour.final_table, tour.finished_at,
            tour.orbit_on, tour.orbit_round, tuple(sorted(tour.orbit_waiting)))


def schedule_urgent_key(tour: Tournament) -> tuple[Any, ...]:
    """The parts of the schedule a table must have at once (clock, hand-for-hand, final
    table, the end); the rest (field counts, breaking order) may wait a second."""
    return (tour.clock, tour.h4h_on, tour.h4h_round, tuple(sorted(tour.h4h_waiting)),
            tour.final_table, tour.final_pending, tour.finished_at, tour.extra_hands,
            tour.started, tour.orbit_on, tour.orbit_round, tuple(sorted(tour.orbit_waiting)))


def seating(tour: Tournament) -> dict[str, list[Any]]:
    """Card -> [table, seat, name] for every player in play: check-in works offline."""
    out: dict[str, list[Any]] = {}
    for p in tour.players.values():
        if p.card and p.table is not None and p.status in ("seated", "moving"):
            out[p.card] = [p.table, p.seat, p.name]
    return out
