"""An event of a room opens only the tables the room granted it: the opening draw and a
new table both ask for exactly as many more as they need, a broken table is idle again,
and an idle table goes back to the pool while one with players at it cannot."""

from __future__ import annotations

import pickle

import pytest
from core_kit import Room, digest, seating_problems

from kiosk.base.errors import NeedsTable, RuleError
from kiosk.core.event.plans import plan
from kiosk.core.model.events import TableOpened, TablesGranted


def pool_room(players: int, granted: list[int] | None = None, **extra: object) -> Room:
    room = Room(players, start=False, pool=True, **extra)
    if granted:
        room.do({"kind": "grant_tables", "tables": granted})
    return room


def test_the_opening_draw_asks_for_every_table_it_needs_at_once() -> None:
    room = pool_room(20)                      # 20 players, 9 a table: 3 tables
    with pytest.raises(NeedsTable) as exc:
        room.do({"kind": "start"})
    assert exc.value.count == 3
    assert str(exc.value) == "test needs 3 more tables: grant them from the room's pool"
    assert not room.tour.started and not room.tour.tables
    room.do({"kind": "grant_tables", "tables": [12, 4]})
    with pytest.raises(NeedsTable, match="test needs 1 more table: grant one") as exc:
        room.do({"kind": "start"})
    assert exc.value.count == 1
    room.do({"kind": "grant_tables", "tables": [7]})
    room.do({"kind": "start"})
    assert room.playing() == [4, 7, 12]
    assert sorted(t.count for t in room.tour.active_tables()) == [6, 7, 7]
    assert room.tour.idle_tables() == []
    assert [room.tour.players_at(n) for n in (4, 7, 12, 5)] == [7, 7, 6, 0]


def test_opened_tables_are_the_lowest_granted_ones() -> None:
    room = pool_room(12, granted=[9, 3, 5, 30])
    room.do({"kind": "start"})
    assert room.playing() == [3, 5]
    assert room.tour.idle_tables() == [9, 30]


def test_a_new_table_mid_event_needs_one_more_grant() -> None:
    room = pool_room(18, granted=[1, 2])
    room.do({"kind": "start"})                # two full tables
    with pytest.raises(NeedsTable) as exc:
        room.do({"kind": "register", "name": "Late", "player": "late"})
    assert exc.value.count == 1
    fresh = pool_room(18, granted=[1, 2])     # a director decides again on a fresh state
    fresh.do({"kind": "start"})
    fresh.do({"kind": "grant_tables", "tables": [6]})
    evs = fresh.do({"kind": "register", "name": "Late", "player": "late"})
    assert [e.table for e in evs if isinstance(e, TableOpened)] == [6]
    assert fresh.seat_of("late")[0] == 6


def _bust_until_a_table_breaks(room: Room) -> int:
    tour = room.tour
    for step in range(200):
        broken = [t.id for t in tour.tables.values() if t.broken]
        if broken:
            room.arrive_all()
            return broken[0]
        tid = room.playing()[step % len(room.playing())]
        if tour.holding(tour.tables[tid]) or tour.tables[tid].count < 2:
            room.hand(tid)
            continue
        room.hand(tid, busts=(min(tour.tables[tid].seat_of),))
    raise AssertionError("no table broke")


def test_a_broken_table_is_idle_and_opens_again_for_this_event() -> None:
    room = pool_room(20, granted=[2, 5, 8])
    room.do({"kind": "start"})
    broken = _bust_until_a_table_breaks(room)
    tour = room.tour
    assert tour.idle_tables() == [broken]
    assert tour.players_at(broken) == 0
    while sum(t.count for t in tour.active_tables()) < 18:   # fill the two tables left
        room.do({"kind": "register", "name": f"L{tour.entries}", "player": f"l{tour.entries}"})
    evs = room.do({"kind": "register", "name": "Last", "player": "last"})
    assert [e.table for e in evs if isinstance(e, TableOpened)] == [broken]
    assert room.seat_of("last")[0] == broken
    assert not tour.tables[broken].broken and tour.idle_tables() == []
    assert tour.break_order().count(broken) == 1
    assert not seating_problems(tour)
    again = room.replay()
    assert digest(again) == digest(tour)
    assert again.idle_tables() == tour.idle_tables()


def test_a_bust_at_a_reopened_table_never_joins_a_hand_of_its_earlier_life() -> None:
    """Table 1 busts a player in its hand 1, breaks, and opens again for late entries:
    its hands count from 1 again. A bust in its new hand 1 is a hand of its own: alone
    in the plan's list, with its own place, not tied with the player out hours before
    (a plan that gathered every life's busts could pass the ten its schema allows)."""
    room = pool_room(20, granted=[1, 2, 3])
    room.do({"kind": "start"})
    tour = room.tour
    first = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    room.hand(1, busts=(min(tour.tables[1].seat_of),))
    room.hand(1, busts=(min(tour.tables[1].seat_of),))   # eighteen fit two: table 1 breaks
    room.arrive_all()
    assert tour.tables[1].broken
    for i in range(4):
        room.do({"kind": "register", "name": f"Late {i}", "player": f"late{i}"})
    room.arrive_all()
    assert room.playing() == [1, 2, 3] and tour.tables[1].hand == 0
    room.deal(1)
    later = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    room.bust(1, min(tour.tables[1].seat_of))
    assert [b["player"] for b in plan(tour, 1)["busts"]] == [later]
    places = tour.places()
    assert places[first] == tour.entries and places[later] == tour.entries - 2
    assert digest(room.replay()) == digest(tour)


def test_release_gives_back_idle_tables_and_refuses_busy_ones() -> None:
    room = pool_room(20, granted=[1, 2, 3, 4])
    room.do({"kind": "start"})
    with pytest.raises(RuleError, match="table 1 cannot go back to the pool: 7 players sit"):
        room.do({"kind": "release_table", "table": 1})
    with pytest.raises(RuleError, match="table 9 is not granted to test"):
        room.do({"kind": "release_table", "table": 9})
    room.do({"kind": "release_table", "table": 4})   # granted, never opened
    assert room.tour.idle_tables() == []
    with pytest.raises(RuleError, match="table 4 is not granted"):
        room.do({"kind": "release_table", "table": 4})
    broken = _bust_until_a_table_breaks(room)
    room.do({"kind": "release_table", "table": broken})
    assert room.tour.idle_tables() == []
    assert not seating_problems(room.tour)
    assert digest(room.replay()) == digest(room.tour)


def test_a_finished_event_gives_back_the_table_its_winner_sits_at() -> None:
    room = pool_room(2, granted=[3])
    room.do({"kind": "start"})
    room.deal(3)
    room.bust(3, min(room.tour.tables[3].seat_of))
    assert room.tour.finished_at is not None
    room.do({"kind": "release_table", "table": 3})
    assert room.tour.idle_tables() == []
    assert sorted(room.tour.places().values()) == [1, 2]


def test_granting_is_for_pool_events_and_never_twice() -> None:
    plain = Room(4, start=False)
    with pytest.raises(RuleError, match="numbers its own tables"):
        plain.do({"kind": "grant_tables", "tables": [1]})
    room = pool_room(4, granted=[1, 2])
    with pytest.raises(RuleError, match="table 2 is already granted to test"):
        room.do({"kind": "grant_tables", "tables": [2, 3]})
    assert room.tour.idle_tables() == [1, 2]
    evs = room.do({"kind": "grant_tables", "tables": [3, 3]})
    assert evs == [TablesGranted(t=room.t, tables=[3])]


def test_without_a_pool_tables_are_numbered_as_before() -> None:
    room = Room(20)
    assert room.playing() == [1, 2, 3]
    assert room.tour.config.pool is False
    assert "pool" not in room.tour.config.to_dict()


def test_needs_table_survives_a_pickle_and_is_a_rule_error() -> None:
    exc = pickle.loads(pickle.dumps(NeedsTable("daily", 1)))
    assert isinstance(exc, RuleError) and exc.count == 1 and exc.event == "daily"
    assert str(exc) == "daily needs 1 more table: grant one from the room's pool"
