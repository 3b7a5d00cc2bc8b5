"""Balancing and breaking tables (TDA 9, 10, 11; Irish r.72; Sheridan's r.31), played
through table reports the way the kiosks send them."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure, seating_problems

from kiosk.core import button as btn
from kiosk.core.balance import Balancer, break_order, choose_source, choose_target
from kiosk.rules.loader import load_profile


def _moves(evs: list[dict]) -> list[dict]:
    return [e for e in evs if e["kind"] == "moved"]


def _two_tables() -> tuple[Room, btn.Positions, btn.Positions]:
    """18 players at two 9-seat tables, one hand dealt at each."""
    room = Room(18, structure=flat_structure())
    return room, room.deal(1), room.deal(2)


# ---------------------------------------------------------------- TDA 10A


def test_player_due_big_blind_moves_to_the_worst_seat_at_the_short_table() -> None:
    room, p1, p2 = _two_tables()
    room.end(1)
    due_seat = btn.next_big_blind(p1, room.tour.tables[1].seat_of, 9)
    due_player = room.tour.tables[1].seat_of[due_seat]
    # table 2 loses its big blind and the player after it: 9 v 7 must balance
    room.bust(2, p2.bb)
    evs = room.bust(2, p2.bb % 9 + 1)
    [move] = _moves(evs)
    assert (move["player"], move["table"], move["seat"]) == (due_player, 1, due_seat)
    assert move["reason"] == "balance" and move["due_bb"]
    # the big-blind seat would be the small blind next; the seat after it is the big blind
    assert (move["to_table"], move["to_seat"]) == (2, p2.bb % 9 + 1)
    room.end(2)
    nxt = room.deal(2)
    assert nxt.bb == move["to_seat"] and move["to_seat"] in nxt.dealt
    assert nxt.dead_sb   # the busted big blind's seat: a dead small blind


def test_worst_seat_is_never_the_small_blind() -> None:
    room, _p1, p2 = _two_tables()
    room.end(1)
    far = (p2.bb + 3) % 9 + 1   # four seats after the big blind
    room.bust(2, p2.bb)
    [move] = _moves(room.bust(2, far))
    # the open big-blind seat would post the small blind: the far seat is taken instead
    assert move["to_seat"] == far
    room.end(2)
    nxt = room.deal(2)
    assert nxt.sb == p2.bb and nxt.dead_sb and far in nxt.dealt


def test_move_waits_for_the_source_table_to_finish_its_hand() -> None:
    room, p1, _p2 = _two_tables()
    room.bust(2, 1)
    evs = room.bust(2, 2)
    assert [e["kind"] for e in evs][-1] == "move_ordered" and not _moves(evs)
    assert room.tour.tables[1].pending_out == [2]
    [move] = _moves(room.end(1))
    due = btn.next_big_blind(p1, room.tour.tables[1].seat_of | {move["seat"]: "x"}, 9)
    assert move["seat"] == due
    assert not seating_problems(room.tour)


# ---------------------------------------------------------------- TDA 10D halting


def test_full_table_play_halts_three_short() -> None:
    room = Room(54, structure=flat_structure())       # six full 9-seat tables
    for tid in room.playing():
        room.deal(tid)
    for seat in (1, 2, 3):
        room.bust(6, seat)
    room.end(6)
    tour = room.tour
    assert tour.halted(tour.tables[6]) and tour.holding(tour.tables[6])
    assert not any(tour.halted(tour.tables[t]) for t in range(1, 6))
    # the long tables finish their hands and send players: table 6 plays again
    for tid in range(1, 6):
        room.end(tid)
    assert not tour.halted(tour.tables[6])
    assert sorted(t.count for t in tour.active_tables()) == [7, 8, 9, 9, 9, 9]


def test_halt_counts_players_still_seated_at_the_long_table() -> None:
    """9 v 6: one player is ordered across, but until that hand ends the short table is
    three behind the table with the most players and must wait."""
    room, _p1, _p2 = _two_tables()
    for seat in (1, 2, 3):
        room.bust(2, seat)
    room.end(2)
    assert room.tour.tables[1].pending_out == [2]
    assert room.tour.halted(room.tour.tables[2])
    room.end(1)
    assert not room.tour.halted(room.tour.tables[2])
    assert sorted(t.count for t in room.tour.active_tables()) == [7, 8]


def test_two_short_is_not_halted() -> None:
    room = Room(54, structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    room.bust(6, 1)
    room.bust(6, 2)
    room.end(6)
    assert not room.tour.halted(room.tour.tables[6])


@pytest.mark.parametrize("profile", ["sheridans"])
def test_profiles_without_halting_never_halt(profile: str) -> None:
    room = Room(54, profile=profile, structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    for seat in (1, 2, 3, 4):
        room.bust(6, seat)
    room.end(6)
    assert not room.tour.halted(room.tour.tables[6])


# ---------------------------------------------------------------- TDA 10C source table


def test_source_is_the_next_table_to_break_when_long_enough() -> None:
    room = Room(27, structure=flat_structure())       # three full tables
    for tid in room.playing():
        room.deal(tid)
    room.end(2)
    room.end(3)
    room.bust(1, 1)
    [move] = _moves(room.bust(1, 2))
    # table 3 breaks first (highest number), so its players move at no extra cost
    assert move["table"] == 3 and move["to_table"] == 1


def test_source_is_the_longest_table_when_the_next_to_break_is_short() -> None:
    room = Room(27, structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    for tid in room.playing():
        room.end(tid)
    room.deal(3)
    room.bust(3, next(iter(room.tour.tables[3].seat_of)))   # 9, 9, 8
    room.end(3)
    room.deal(1)
    room.bust(1, 1)
    evs = room.bust(1, 2)                                   # 7, 9, 8
    [move] = _moves(evs)
    assert move["table"] == 2 and move["to_table"] == 1


def test_just_moved_player_is_spared_when_another_long_table_is_as_good() -> None:
    room = Room(48, seats=10, structure=flat_structure())     # 10, 10, 10, 9, 9
    tour = room.tour
    for tid in room.playing():
        room.hand(tid)
    # the floor sends X from table 1 to table 4: 9, 10, 10, 10, 9
    x = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    to_seat = tour.tables[4].open_seats()[0]
    room.do({"kind": "move", "player": x, "table": 4, "seat": to_seat})
    room.arrive_all()
    assert [t.count for t in tour.active_tables()] == [9, 10, 10, 10, 9]
    for _ in range(10):                      # table 4 plays on until X is due the BB
        if tour.due_big_blind(tour.tables[4]) == to_seat:
            break
        room.hand(4)
    assert tour.due_big_blind(tour.tables[4]) == to_seat
    room.hand(5, busts=(min(tour.tables[5].seat_of),))          # 9, 10, 10, 10, 8
    room.deal(1)
    room.bust(1, min(tour.tables[1].seat_of))
    [move] = _moves(room.bust(1, min(tour.tables[1].seat_of)))  # 7, 10, 10, 10, 8
    # table 5 is too short to give; of the long tables 4 breaks soonest, but its player
    # due the big blind has just been moved, so table 3 gives instead
    assert move["table"] == 3 and move["to_table"] == 1
    assert tour.players[x].table == 4


def test_balancer_choice_unit() -> None:
    b = Balancer()
    for rank, (tid, count) in enumerate([(4, 9), (3, 9), (2, 9), (1, 6)]):
        b.set_rank(tid, rank)
        b.set(tid, count)
    moved = {4: 1, 3: 0, 2: 0}
    assert choose_source(b, 4, b.min(), moved.__getitem__) == 4   # next to break, long
    b.set(4, 7)
    assert choose_source(b, 4, b.min(), moved.__getitem__) == 3   # longest, breaks soonest
    b.set(4, 9)
    assert choose_source(b, None, b.min(), moved.__getitem__) == 3  # 4's mover just moved
    assert choose_target(b) == 1


def test_break_order_added_tables_first() -> None:
    tables = [(1, False), (2, True), (3, False), (4, True)]
    assert break_order(tables, added_first=False) == [4, 3, 2, 1]
    assert break_order(tables, added_first=True) == [4, 2, 3, 1]


def test_late_entry_with_every_seat_taken_opens_an_added_table_that_breaks_first() -> None:
    room = Room(18, profile="irish-open", structure=flat_structure(), seats=9)
    room.do({"kind": "register", "name": "Late", "player": "late"})
    tour = room.tour
    assert tour.players["late"].table == 3 and tour.tables[3].added
    # the new table is balanced straight away (three tables: within one player)
    assert sorted(t.count for t in tour.active_tables()) == [6, 6, 7]
    assert not seating_problems(tour)
    for tid in room.playing():
        room.deal(tid)
    evs = room.bust(1, min(tour.tables[1].seat_of))     # 18 left: two tables suffice
    assert [e["table"] for e in evs if e["kind"] == "table_breaking"] == [3]


# ---------------------------------------------------------------- breaking (TDA 9)


def test_breaking_table_sends_everyone_to_the_short_tables() -> None:
    room = Room(27, structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    for tid in (1, 2):
        room.end(tid)
    while room.tour.alive > 18:                       # 18 left: two tables are enough
        room.bust(3, min(room.tour.tables[3].seat_of))
    evs = room.end(3)
    moves = _moves(evs)
    assert room.tour.tables[3].broken and moves and all(m["reason"] == "break" for m in moves)
    assert sorted(t.count for t in room.tour.active_tables()) == [9, 9]
    assert not seating_problems(room.tour)


def test_breaking_waits_for_the_hand_in_play() -> None:
    room = Room(27, structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    for seat in sorted(room.tour.tables[1].seat_of)[:9]:
        room.bust(1, seat)
        if room.tour.tables[3].breaking:
            break
    tab3 = room.tour.tables[3]
    assert tab3.breaking and not tab3.broken and tab3.count == 9
    assert room.tour.holding(tab3)
    room.end(3)
    assert tab3.broken and not tab3.seat_of


def test_sheridans_tables_play_down_to_four() -> None:
    """r.31: no balancing while every table has four or more."""
    room = Room(18, profile="sheridans", structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    room.end(1)
    evs = []
    for seat in sorted(room.tour.tables[2].seat_of)[:5]:
        evs += room.bust(2, seat)                       # 9 v 4: plays on
    assert not _moves(evs) and room.tour.tables[2].count == 4
    [move] = _moves(room.bust(2, min(room.tour.tables[2].seat_of)))   # 9 v 3: topped up
    assert move["table"] == 1 and move["to_table"] == 2
    assert [t.count for t in room.tour.active_tables()] == [8, 4]


# ---------------------------------------------------------------- final table (TDA 11)


@pytest.mark.parametrize(("seats", "final"), [(9, 10), (8, 9), (6, 7), (10, 10), (2, 2),
                                              (5, 6)])
def test_final_table_size(seats: int, final: int) -> None:
    assert load_profile("tda-2017").balance.final_table_size(seats) == final


@pytest.mark.parametrize(("seats", "players", "final"), [(9, 18, 10), (6, 14, 7),
                                                         (8, 20, 9), (10, 25, 10)])
def test_tournament_reaches_its_final_table(seats: int, players: int, final: int) -> None:
    room = Room(players, seats=seats, structure=flat_structure())
    tour = room.tour
    while tour.final_table is None or tour.final_pending:
        tid = max(room.playing(), key=lambda t: (tour.tables[t].count, t))
        room.hand(tid, busts=(min(tour.tables[tid].seat_of),))
    [table] = room.playing()
    tab = tour.tables[table]
    assert tab.seats == final and tab.count == final == tour.alive
    assert sorted(tab.seat_of) == list(range(1, final + 1))
    assert tab.redraw_button and tab.positions is None   # a fresh button draw
    assert not seating_problems(tour)
    # the final table plays on to a winner
    while tour.finished_at is None:
        room.hand(table, busts=(min(tab.seat_of),))
    assert sorted(tour.places().values()) == list(range(1, players + 1))
