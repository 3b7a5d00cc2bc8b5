"""What the plan and schedule tell a table at the moments that matter: the final-table
hold (and the director refusing a hand dealt through it), busts with place and prize,
the field and hand-for-hand progress."""

from __future__ import annotations

import pytest
from core_kit import Room

from kiosk.base.errors import RuleError
from kiosk.core.calc.payouts import payouts
from kiosk.core.event import plans
from kiosk.core.model.state import IN_PLAY


def _final_pending_room() -> tuple[Room, int, int]:
    """Two tables; busts at table A bring the field to final-table size while table B is
    still in a hand: the final draw waits, and table A must not deal."""
    room = Room(14)
    a, b = room.playing()
    room.deal(a)
    room.deal(b)
    size = room.tour.profile.balance.final_table_size(room.tour.seats)
    seats = sorted(room.tour.tables[a].seat_of)
    for seat in seats[: room.tour.alive - size]:
        room.bust(a, seat)
    room.end(a)
    assert room.tour.final_pending and room.tour.tables[b].in_hand
    return room, a, b


def test_final_table_hold_is_in_the_plan_and_a_hand_through_it_is_refused() -> None:
    room, a, b = _final_pending_room()
    body = plans.plan(room.tour, a)
    assert body["hold"] and body["final_pending"] and not body["final_table"]
    assert "final table draw" in body["hold_reason"]
    pos = room.positions(a)
    with pytest.raises(RuleError, match="must not deal now: the final table draw"):
        room.deal(a, pos)
    assert not room.tour.tables[a].in_hand
    room.end(b)                                   # the last hand ends: the draw happens
    final = room.tour.final_table
    assert final is not None and not room.tour.final_pending
    assert plans.plan(room.tour, final)["final_table"]


def test_busts_carry_place_and_prize_split_on_equal_stacks() -> None:
    room = Room(20, seats=10, buy_in=100, payout_percent=100.0)   # everyone is paid
    t = room.playing()[0]
    room.deal(t)
    seats = sorted(room.tour.tables[t].seat_of)
    room.bust(t, seats[0], stack=5000)
    room.bust(t, seats[1], stack=9000)
    room.bust(t, seats[2], stack=5000)
    busts = {b["seat"]: b for b in plans.plan(room.tour, t)["busts"]}
    prizes = payouts(room.tour.entries, room.tour.buy_in, room.tour.payout_percent)
    # 20 players, 3 out on one hand: the bigger starting stack finishes higher (18th),
    # the two equal stacks share 19th and 20th
    assert busts[seats[1]]["place"] == 18
    assert busts[seats[0]]["place"] == busts[seats[2]]["place"] == 19
    assert busts[seats[0]]["tied"] == 2
    assert busts[seats[0]]["prize"] == (prizes[18] + prizes[19]) // 2 > 0
    assert busts[seats[1]]["prize"] == prizes[17] > busts[seats[0]]["prize"]
    room.end(t)
    room.deal(t)                                  # the next hand starts: the list clears
    assert plans.plan(room.tour, t)["busts"] == []


def test_a_bust_groups_only_with_players_dealt_in_the_same_hand() -> None:
    """The floor busts fourteen of eighteen before any hand is dealt (a room whose
    kiosks are down), the final draw seating the rest at table 1 meanwhile: nobody went
    out in a hand, so each takes a place of his own, and no plan ever lists more busts
    than a table has seats. The floor's busts of players dealt in a hand still share it."""
    room = Room(18, buy_in=100)
    tour = room.tour
    out = []
    for _ in range(14):
        pid = min(p.id for p in tour.players.values() if p.status in IN_PLAY)
        room.do({"kind": "bust", "player": pid})
        out.append(pid)
        assert all(len(plans.plan(tour, t)["busts"]) <= tour.tables[t].seats
                   for t in room.playing())
    room.arrive_all()
    places = tour.places()
    assert [places[pid] for pid in out] == list(range(18, 4, -1))
    assert room.playing() == [1] and plans.plan(tour, 1)["busts"] == []
    room.deal(1)
    a, b = sorted(tour.tables[1].seat_of)[:2]
    pa, pb = tour.tables[1].seat_of[a], tour.tables[1].seat_of[b]
    room.do({"kind": "bust", "player": pa, "stack": 4000})
    room.do({"kind": "bust", "player": pb, "stack": 4000})
    assert [(x["player"], x["place"], x["tied"]) for x in plans.plan(tour, 1)["busts"]] \
        == [(pa, 3, 2), (pb, 3, 2)]


def test_shared_prize_splits_the_places_the_tied_players_occupy() -> None:
    assert plans.shared_prize([500, 300, 200], 2, 2) == 250
    assert plans.shared_prize([500, 300, 200], 3, 2) == 100      # 4th pays nothing
    assert plans.shared_prize([500, 300, 200], 5) == 0


def test_schedule_carries_the_field_and_the_tables_still_playing_a_round() -> None:
    room = Room(30)
    body = plans.schedule(room.tour)
    assert (body["players_left"], body["entries"]) == (30, 30)
    assert body["average_stack"] == room.tour.chips // 30
    assert body["places_paid"] == len(payouts(30, room.tour.buy_in, room.tour.payout_percent))
    key = plans.schedule_key(room.tour)
    room.do({"kind": "h4h", "on": True})
    tables = room.playing()
    assert plans.schedule(room.tour)["hand_for_hand"]["playing"] == tables
    room.hand(tables[0], busts=(sorted(room.tour.tables[tables[0]].seat_of)[0],))
    body = plans.schedule(room.tour)
    assert body["hand_for_hand"]["playing"] == tables[1:]
    assert body["players_left"] == 29 and plans.schedule_key(room.tour) != key
