"""Eliminators and bounties: fixed bounties, progressive knockouts, split pots, undo."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure

from kiosk.base.errors import RuleError
from kiosk.core.event.results import results, totals
from kiosk.core.money.bounties import knockout


def _room(mode: str, players: int = 9) -> Room:
    return Room(players, structure=flat_structure(12),
                money={"buy_in": 100, "bounty": 100, "bounty_mode": mode, "pko_percent": 50})


def _bust(room: Room, table: int, seat: int, by: int | list[int]) -> None:
    tab = room.tour.tables[table]
    if not tab.in_hand:
        room.deal(table)
    room.report(table, "bust", seat=seat, player=tab.seat_of[seat], eliminator=by)


def test_fixed_bounty_goes_whole_to_the_eliminator() -> None:
    room = _room("fixed")
    tour = room.tour
    seats = sorted(tour.tables[1].seat_of)
    a, b = tour.tables[1].seat_of[seats[0]], tour.tables[1].seat_of[seats[1]]
    _bust(room, 1, seats[0], seats[1])
    assert tour.bounty_cash == {b: 100}
    assert tour.head(b) == 100                  # fixed: his own bounty does not grow
    assert tour.eliminated_by[a] == [b]


def test_pko_half_in_cash_half_onto_the_eliminators_head() -> None:
    room = _room("pko")
    tour = room.tour
    s = sorted(tour.tables[1].seat_of)
    who = tour.tables[1].seat_of
    b, c = who[s[1]], who[s[2]]
    _bust(room, 1, s[0], s[1])                  # b takes 50 cash, head 100 -> 150
    assert (tour.bounty_cash[b], tour.head(b)) == (50, 150)
    _bust(room, 1, s[1], s[2])                  # c knocks b out: 75 cash, head 175
    assert (tour.bounty_cash[c], tour.head(c)) == (75, 175)
    assert tour.head(b) == 0


def test_split_pot_splits_the_bounty_odd_unit_to_the_first_seat() -> None:
    awards = knockout(175, ["x", "y"], "pko", 50)
    assert [(a.cash, a.head) for a in awards] == [(44, 44), (43, 44)]
    assert sum(a.cash + a.head for a in awards) == 175
    room = _room("fixed")
    tour = room.tour
    s = sorted(tour.tables[1].seat_of)
    who = tour.tables[1].seat_of
    _bust(room, 1, s[0], [s[1], s[2]])
    assert tour.bounty_cash == {who[s[1]]: 50, who[s[2]]: 50}


def test_a_bounty_is_never_paid_twice() -> None:
    room = _room("fixed")
    tour = room.tour
    s = sorted(tour.tables[1].seat_of)
    pid = tour.tables[1].seat_of[s[0]]
    _bust(room, 1, s[0], s[1])
    with pytest.raises(RuleError, match="already paid"):
        room.do({"kind": "set_eliminator", "player": pid,
                 "eliminators": [tour.tables[1].seat_of[s[2]]], "by": "floor"})
    assert sum(tour.bounty_cash.values()) == 100


def test_skipped_eliminator_is_named_by_the_floor_later_and_audited() -> None:
    room = _room("fixed")
    tour = room.tour
    s = sorted(tour.tables[1].seat_of)
    pid, b = tour.tables[1].seat_of[s[0]], tour.tables[1].seat_of[s[1]]
    room.deal(1)
    room.report(1, "bust", seat=s[0], player=pid)           # the dealer skipped the tap
    assert totals(tour)["bounty_unclaimed"] == 100
    room.do({"kind": "set_eliminator", "player": pid, "eliminators": [b], "by": "floor"})
    assert tour.bounty_cash == {b: 100} and totals(tour)["bounty_unclaimed"] == 0
    assert tour.audit[-1]["kind"] == "audited" and tour.audit[-1]["after"] == [b]


def _first_knockout(room: Room) -> tuple[list[int], dict[int, str], str]:
    """Seat 1's lowest player busts to the next seat: the seats, who sat there, the
    bust's report id."""
    s = sorted(room.tour.tables[1].seat_of)
    who = dict(room.tour.tables[1].seat_of)
    room.deal(1)
    evs = room.report(1, "bust", seat=s[0], player=who[s[0]], eliminator=s[1])
    return s, who, next(e["report"] for e in evs if e["kind"] == "busted")


def test_undoing_a_bust_takes_the_bounty_back() -> None:
    room = _room("pko")
    tour = room.tour
    s, who, rid = _first_knockout(room)
    room.report(1, "undo", report=rid)
    assert tour.bounty_cash[who[s[1]]] == 0 and tour.head(who[s[1]]) == 100
    assert tour.head(who[s[0]]) == 100          # his bounty is back on his head


def test_pko_undo_refused_once_the_bounty_has_moved_on() -> None:
    room = _room("pko")
    s, who, rid = _first_knockout(room)
    room.report(1, "bust", seat=s[1], player=who[s[1]], eliminator=s[2])
    with pytest.raises(RuleError, match="knocked out since"):
        room.report(1, "undo", report=rid)


def test_eliminator_must_be_another_player_in_play() -> None:
    room = _room("fixed")
    tour = room.tour
    s = sorted(tour.tables[1].seat_of)
    empty = next(x for x in range(1, 10) if x not in tour.tables[1].seat_of) \
        if len(s) < 9 else None
    room.deal(1)
    pid = tour.tables[1].seat_of[s[0]]
    if empty is not None:
        with pytest.raises(RuleError, match="empty"):
            room.report(1, "bust", seat=s[0], player=pid, eliminator=empty)
    # a table's report naming its own seat is refused by the report's schema already
    with pytest.raises(RuleError, match="other seats"):
        room.report(1, "bust", seat=s[0], player=pid, eliminator=s[0])
    with pytest.raises(RuleError, match="himself"):
        room.do({"kind": "bust", "player": pid, "eliminator": s[0]})
    assert tour.players[pid].status == "seated"


def test_results_bounties_add_up_to_the_pool_less_the_winners_own_head() -> None:
    room = _room("pko", players=6)
    tour = room.tour
    while tour.finished_at is None:
        table = room.playing()[0]
        s = sorted(tour.tables[table].seat_of)
        _bust(room, table, s[0], s[1])
        room.end(table)
    rows = results(tour)
    t = totals(tour)
    assert sum(r["bounty"] for r in rows) + t["winner_keeps"] == t["bounty_pool"] == 600
    assert sum(r["prize"] for r in rows) == t["prize_pool"] == 600
    assert rows[0]["place"] == 1 and rows[0]["eliminated_by"] is None
    assert all(r["eliminated_by"] for r in rows[1:])
