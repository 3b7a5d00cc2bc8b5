"""Satellites end at their seats: once the seats are fixed and the hand that decided the
last ones is over, everyone left wins a seat (sharing place 1), and the cash left over
goes to the next finisher or is shared by the seat winners, per the event."""

from __future__ import annotations

from typing import Any

from core_kit import Room, digest, flat_structure

from kiosk.core.model.events import Finished, SeatsWon

SATELLITE = {"buy_in": 100, "seat_value": 300, "target_event": "main"}   # 10 players: 3 seats


def satellite(lock: bool = True, **extra: Any) -> Room:
    room = Room(10, structure=flat_structure(12), money=dict(SATELLITE), **extra)
    if lock:
        room.do({"kind": "lock_payouts"})
    return room


def bust_down_to(room: Room, alive: int) -> None:
    tour = room.tour
    while tour.alive > alive and tour.finished_at is None:
        table = next(t for t in room.playing() if len(tour.tables[t].seat_of) > 1)
        room.hand(table, busts=(min(tour.tables[table].seat_of),))
        room.arrive_all()


def test_the_players_left_all_win_a_seat_and_share_first_place() -> None:
    room = satellite()
    tour = room.tour
    assert tour.current_payouts() == [300, 300, 300, 100]
    bust_down_to(room, 3)
    assert tour.finished_at is not None
    left = sorted(p.id for p in tour.players.values() if p.status == "seated")
    won = [e for e in room.events if isinstance(e, SeatsWon)]
    assert len(won) == 1 and sorted(won[0].players) == left and won[0].value == 300
    assert sorted(tour.seat_winners()) == left
    places = tour.places()
    assert [places[pid] for pid in left] == [1, 1, 1]
    prizes = tour.prizes()
    assert [prizes[pid] for pid in left] == [300, 300, 300]
    fourth = next(pid for pid, place in places.items() if place == 4)
    assert prizes[fourth] == 100                     # "next": the rest to the next finisher
    assert sum(prizes.values()) == 1000
    assert isinstance(room.events[-1], Finished)
    assert room.replay().seat_winners() == tour.seat_winners()


def test_split_shares_the_cash_left_among_the_seat_winners() -> None:
    room = satellite(satellite_leftover="split")
    tour = room.tour
    bust_down_to(room, 3)
    places, prizes = tour.places(), tour.prizes()
    winners = sorted(tour.seat_winners(), key=lambda pid: int(pid[1:]))
    assert [prizes[pid] for pid in winners] == [334, 333, 333]   # 100 / 3, the odd unit first
    fourth = next(pid for pid, place in places.items() if place == 4)
    assert fourth not in prizes
    assert sum(prizes.values()) == 1000
    assert digest(room.replay()) == digest(tour)


def test_no_finish_while_entries_can_still_add_seats() -> None:
    room = satellite(lock=False)
    tour = room.tour
    bust_down_to(room, 3)
    assert tour.finished_at is None and tour.seat_winners() == []
    evs = room.do({"kind": "tick"}, dt=6 * 20 * 60 + 1)   # late registration closes
    kinds = [e.kind for e in evs]
    assert kinds[-3:] == ["payouts_locked", "seats_won", "finished"]
    assert len(tour.seat_winners()) == 3


def test_a_hand_that_busts_several_finishes_when_it_ends_ranked_by_stack() -> None:
    room = satellite()
    tour = room.tour
    bust_down_to(room, 5)
    assert tour.finished_at is None
    (table,) = room.playing()
    room.deal(table)
    seats = sorted(tour.tables[table].seat_of)[:3]
    out = {seat: tour.tables[table].seat_of[seat] for seat in seats}
    for seat, stack in zip(seats, (100, 500, 300), strict=True):   # reported in any order
        room.bust(table, seat, stack=stack)
    assert tour.finished_at is None                  # two left: still the hand's last busts
    room.end(table)
    assert tour.finished_at is not None
    left = sorted(p.id for p in tour.players.values() if p.status == "seated")
    big, mid, small = out[seats[1]], out[seats[2]], out[seats[0]]
    assert sorted(tour.seat_winners()) == sorted([*left, big])
    places, prizes = tour.places(), tour.prizes()
    assert (places[big], places[mid], places[small]) == (3, 4, 5)
    assert (prizes[big], prizes[mid], prizes.get(small, 0)) == (300, 100, 0)
    assert [prizes[pid] for pid in left] == [300, 300]


def test_an_event_without_seats_finishes_as_before() -> None:
    room = Room(10, structure=flat_structure(12), money={"buy_in": 100})
    room.do({"kind": "lock_payouts"})
    bust_down_to(room, 1)
    assert room.tour.finished_at is not None and room.tour.seat_winners() == []
    assert not [e for e in room.events if isinstance(e, SeatsWon)]
