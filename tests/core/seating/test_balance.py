"""Balancing and breaking tables (TDA 9, 10, 11; Irish r.72; Sheridan's r.31), played
through table reports the way the kiosks send them."""

from __future__ import annotations

import dataclasses
import random

import pytest
from core_kit import Room, flat_structure, seating_problems

from kiosk.core.calc import button as btn
from kiosk.core.calc.balance import (
    Balancer,
    break_now,
    break_order,
    break_rank,
    choose_source,
    choose_target,
)
from kiosk.core.event import plans
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import Profile


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


def _published() -> Profile:
    """TDA 2017 with the published order alone (highest number first) as its TDA 10C
    procedure: the order the core used before the fewest-players procedure."""
    prof = load_profile("tda-2017")
    return dataclasses.replace(prof, balance=dataclasses.replace(prof.balance,
                                                                 break_order="published"))


def test_source_is_the_next_table_to_break_when_long_enough() -> None:
    """TDA 10C under the published order: table 3 breaks first (highest number), so
    its players move at no extra cost."""
    room = Room(27, profile=_published(), structure=flat_structure())  # type: ignore[arg-type]
    for tid in room.playing():
        room.deal(tid)
    room.end(2)
    room.end(3)
    room.bust(1, 1)
    [move] = _moves(room.bust(1, 2))
    assert move["table"] == 3 and move["to_table"] == 1


def test_fewest_players_procedure_takes_from_the_long_table_that_breaks_soonest() -> None:
    """TDA 10C, the default procedure: table 1 (7 players) is next to break, so the
    mover comes from a long table; of the two, table 3 comes first in the published
    order that settles ties. Then tables 1 and 3 both hold 8, and table 3 is next to
    break: table 1 now seats a player who has moved already."""
    room = Room(27, structure=flat_structure())       # three full tables
    for tid in room.playing():
        room.deal(tid)
    room.end(2)
    room.end(3)
    room.bust(1, 1)
    assert room.tour.next_to_break() == 1
    [move] = _moves(room.bust(1, 2))
    assert move["table"] == 3 and move["to_table"] == 1
    assert room.tour.next_to_break() == 3


def _six_tables_nine_busts(profile: str | Profile = "tda-2017") -> tuple[Room, list[dict]]:
    """54 players at six full tables; tables 1-3 lose two, tables 4-6 one: 45 left, so
    five tables suffice and one must break (TDA 10C decides which)."""
    room = Room(54, profile=profile, structure=flat_structure())  # type: ignore[arg-type]
    evs: list[dict] = []
    for tid, n in ((1, 2), (2, 2), (3, 2), (4, 1), (5, 1), (6, 1)):
        room.deal(tid)
        for seat in sorted(room.tour.tables[tid].seat_of)[:n]:
            evs += room.bust(tid, seat)
        evs += room.end(tid)
    return room, evs


def test_the_table_with_the_fewest_players_breaks() -> None:
    """TDA 10C: "the table with the fewest players breaks, ties by the published
    order" is a predetermined procedure. Everyone at a breaking table moves, so breaking
    table 3 (of the three with 7 players, the highest number) moves seven where the
    published order alone (table 6, with 8) moves eight."""
    room, evs = _six_tables_nine_busts()
    assert [e["table"] for e in evs if e["kind"] == "table_broken"] == [3]
    moves = _moves(evs)
    assert len(moves) == 7 and {m["table"] for m in moves} == {3}
    assert sorted(t.count for t in room.tour.active_tables()) == [9, 9, 9, 9, 9]
    assert not seating_problems(room.tour)
    # the same busts under the published order break table 6 and move eight
    room, evs = _six_tables_nine_busts(_published())
    assert [e["table"] for e in evs if e["kind"] == "table_broken"] == [6]
    assert len(_moves(evs)) == 8


def _twelve_tables_nine_busts() -> tuple[Room, list[dict]]:
    """108 players at twelve full tables; tables 1-9 lose one each: 99 left, so eleven
    tables would do, and every table that could break holds 8."""
    room = Room(108, structure=flat_structure())
    evs: list[dict] = []
    for tid in range(1, 10):
        evs += room.hand(tid, busts=(min(room.tour.tables[tid].seat_of),))
    return room, evs


def test_a_break_waits_for_a_table_two_short() -> None:
    """TDA 10C, fewest players: the field fits eleven tables, but breaking now moves
    eight and leaves eleven full tables. Play goes on (the tables differ by one: none
    halts, none is balanced); the next bust leaves a table at 7, and that table
    breaks, moving seven."""
    room, evs = _twelve_tables_nine_busts()
    kinds = {e["kind"] for e in evs}
    assert not kinds & {"table_breaking", "table_broken", "moved", "move_ordered"}
    assert not any(room.tour.holding(t) for t in room.tour.active_tables())
    evs = room.hand(5, busts=(min(room.tour.tables[5].seat_of),))
    assert [e["table"] for e in evs if e["kind"] == "table_broken"] == [5]
    moves = _moves(evs)
    assert len(moves) == 7 and {m["table"] for m in moves} == {5}
    # the seven fill the tables at 8 (they play on longest); one seat stays open
    assert sorted(t.count for t in room.tour.active_tables()) == [8] + [9] * 10
    assert not seating_problems(room.tour)


def test_a_break_waits_only_while_few_seats_are_open() -> None:
    """The wait is bounded: once the open seats beyond one table's worth reach one per
    ten tables, a table of 8 breaks (tables 10-12, untouched, stay full)."""
    room, _ = _twelve_tables_nine_busts()
    evs = room.hand(10, busts=(min(room.tour.tables[10].seat_of),))   # 98 left, no table at 7
    assert not [e for e in evs if e["kind"] == "table_breaking"]
    evs = room.hand(11, busts=(min(room.tour.tables[11].seat_of),))   # 97 left: 2 spare seats
    [broken] = [e["table"] for e in evs if e["kind"] == "table_broken"]
    assert room.tour.tables[broken].broken and len(_moves(evs)) == 8
    assert len(room.tour.active_tables()) == 11
    assert sum(t.count for t in room.tour.active_tables()) == 97
    assert not seating_problems(room.tour)


@pytest.mark.parametrize(("profile", "next_count", "alive", "tables", "now"), [
    ("tda-2017", 8, 100, 12, False),      # 8 open seats: does not fit
    ("tda-2017", 8, 99, 12, False),       # fits, but a table of 8 may wait
    ("tda-2017", 7, 99, 12, True),        # two short: breaks at once
    ("tda-2017", 8, 98, 12, False),       # 1 seat beyond a table's worth: < 1.2
    ("tda-2017", 8, 97, 12, True),        # 2 seats beyond: >= 1.2, the wait is over
    ("tda-2017", 8, 27, 4, True),         # four tables: spread 1, no waiting
    ("sheridans", 8, 99, 12, True),       # play-down: breaks once the field fits
    ("published", 8, 99, 12, True),      # the published order: no waiting
    ("added", 8, 99, 12, True),           # an Irish added table that breaks first
])
def test_break_now_unit(profile: str, next_count: int, alive: int, tables: int,
                        now: bool) -> None:
    """When the table next to break breaks, for the counts balancing sees."""
    prof = _published() if profile == "published" else load_profile(
        "irish-open" if profile == "added" else profile)
    b = Balancer()
    for tid in range(1, tables + 1):
        b.set_rank(tid, break_rank(tid, profile == "added" and tid == 1, True))
        b.set(tid, next_count if tid == 1 else 9)
    assert break_now(b, 1, prof.balance, 9, alive) is now


def test_breaking_order_is_published_with_the_schedule() -> None:
    """TDA 10C: the procedure's current outcome, next to break first, is in the
    retained schedule every table and the dashboard read, and changes with the counts."""
    room = Room(54, structure=flat_structure())
    assert plans.schedule(room.tour)["break_order"] == [6, 5, 4, 3, 2, 1]
    room.tour.schedule_dirty = False
    room.hand(2, busts=(min(room.tour.tables[2].seat_of),))
    assert room.tour.schedule_dirty          # the director republishes it
    order = plans.schedule(room.tour)["break_order"]
    assert order == [2, 6, 5, 4, 3, 1] and order[0] == room.tour.next_to_break()


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
    """Irish r.72: added tables break before the original ones, under either TDA 10C
    procedure; inside each group the fewest players break first, ties to the table
    whose players moved least, then the published order."""
    tables = [(1, False, 8, 0), (2, True, 9, 0), (3, False, 7, 0), (4, True, 8, 0),
              (5, False, 8, 3)]
    assert break_order(tables, added_first=False, fewest=False) == [5, 4, 3, 2, 1]
    assert break_order(tables, added_first=True, fewest=False) == [4, 2, 5, 3, 1]
    assert break_order(tables, added_first=False, fewest=True) == [3, 4, 1, 5, 2]
    assert break_order(tables, added_first=True, fewest=True) == [4, 2, 3, 1, 5]


def test_fewest_first_matches_the_published_order_and_spares_movers() -> None:
    """The balancer's heap lookup gives the head of break_order: the fewest players,
    then the table whose players moved least (moves squared), then the published
    order; an added table ranked first (Irish r.72) comes first at any count."""
    b = Balancer()
    for tid in (1, 2, 3, 4):
        b.set_rank(tid, break_rank(tid, False, True))
    for tid, count, weight in ((1, 8, 0), (2, 8, 4), (3, 9, 0), (4, 8, 1)):
        b.set(tid, count, weight)
    assert b.fewest_first() == 1      # 8 players, nobody moved before
    b.set(1, 8, 5)
    assert b.fewest_first() == 4
    b.set(3, 7, 0)
    assert b.fewest_first() == 3
    b.set_rank(5, break_rank(5, True, True))
    b.set(5, 9, 0)
    assert b.fewest_first() == 5


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
    """TDA 10C (fewest players first): table 1 loses players in one hand until two
    tables suffice; it is the shortest, so it is the one to break, and it is broken only
    once its hand is over."""
    room = Room(27, structure=flat_structure())
    for tid in room.playing():
        room.deal(tid)
    for seat in sorted(room.tour.tables[1].seat_of)[:9]:
        room.bust(1, seat)
        if room.tour.n_breaking:
            break
    tab1 = room.tour.tables[1]
    assert tab1.breaking and not tab1.broken and tab1.in_hand
    assert room.tour.holding(tab1) and not room.tour.tables[3].breaking
    room.end(1)
    assert tab1.broken and not tab1.seat_of
    for tid in (2, 3):
        room.end(tid)
    assert sorted(t.count for t in room.tour.active_tables()) == [9, 9]


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


def test_the_balancers_longest_and_shortest_follow_every_change() -> None:
    """max() and min() are kept as tables come, go and change counts (asked twice a hand),
    so they must agree with the counts themselves after any sequence of changes."""
    rng = random.Random(5)
    for _ in range(200):
        b = Balancer()
        for _ in range(200):
            table, op = rng.randrange(1, 15), rng.random()
            if op < 0.6:
                b.set(table, rng.randrange(0, 12), rng.randrange(0, 5))
            elif op < 0.8 and table in b:
                b.add(table, 1 if not b.count[table] or rng.random() < 0.5 else -1)
            else:
                b.remove(table)
            counts = list(b.count.values())
            assert (b.min(), b.max()) == ((min(counts), max(counts)) if counts else (0, 0))
