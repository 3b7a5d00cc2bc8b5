"""The room's director in process: events sharing one pool of tables, tickets from a
satellite into its target, a Day 2 from two flights, refusals that change nothing, and a
restart that folds the same room back from the one log."""

from __future__ import annotations

from pathlib import Path

import pytest
from room_kit import ROOM, Dealer, bag, register, room

from kiosk.base.errors import RuleError
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.director.log.store import open_store
from kiosk.director.service import Director


def test_events_share_the_pool_and_a_free_table_serves_another(tmp_path: Path) -> None:
    d = room(tmp_path)
    assert set(d.events) == {"daily", "sat", "sunday"}
    assert d.room.tables_of("daily") == [1, 2] and d.room.free_tables() == [3, 4, 5, 6, 7, 8]
    register(d, "daily", 20)
    d.act(commands.Start(), event="daily")
    # 20 players at 6-max need 4 tables: the event took two more from the pool itself
    assert d.room.tables_of("daily") == [1, 2, 3, 4]
    assert d.room.events["daily"].state == "running"
    register(d, "sat", 9, "S")
    d.act(commands.Start(), event="sat")
    assert d.room.tables_of("sat") == [5, 6]
    # a table with players cannot go to another event, nor be freed; nothing changes
    before = (d.store.last_seq, d.room.tables_of("daily"))
    with pytest.raises(RuleError, match="daily"):
        d.room_act(rc.AssignTable(table=1, event="sat"))
    with pytest.raises(RuleError, match="player"):
        d.room_act(rc.FreeTable(table=1))
    assert (d.store.last_seq, d.room.tables_of("daily")) == before
    # a free table goes to an event and back
    d.room_act(rc.AssignTable(table=8, event="sat"), user="floor")
    assert d.table_event(8) == "sat" and 8 in d.events["sat"].tour.idle_tables()
    d.room_act(rc.FreeTable(table=8), user="floor")
    assert d.table_event(8) is None and 8 in d.room.free_tables()


def test_a_table_broken_in_play_goes_back_to_the_pool(tmp_path: Path) -> None:
    d = room(tmp_path)
    register(d, "daily", 20)
    d.act(commands.Start(), event="daily")
    Dealer(d, "daily").play_down(11)
    tour = d.events["daily"].tour
    broken = sorted(n for n, t in tour.tables.items() if t.broken)
    assert broken, "11 players at 6-max fit on two tables"
    assert all(d.table_event(n) is None for n in broken)
    assert set(broken) <= set(d.room.free_tables())


def test_players_are_known_to_the_room_across_events(tmp_path: Path) -> None:
    d = room(tmp_path)
    d.act(commands.Register(name="Ann", card="c1", country="IE"), event="daily")
    d.act(commands.Register(name="Ann", card="c1"), event="sat")
    rid = d.room.find_player(card="c1").id  # type: ignore[union-attr]
    assert rid in d.events["daily"].tour.players and rid in d.events["sat"].tour.players
    assert len(d.room.players) == 1 and d.room.players[rid].country == "IE"


def test_satellite_seats_become_tickets_held_then_used_when_the_target_opens(
        tmp_path: Path) -> None:
    d = room(tmp_path)
    register(d, "sat", 12, "S")
    d.act(commands.Start(), event="sat")
    d.act(commands.LockPayouts(), user="floor", event="sat")
    Dealer(d, "sat").play_down(1)
    sat = d.events["sat"].tour
    assert sat.finished_at is not None
    winners = set(sat.seat_winners())
    assert len(winners) == 4                      # 1,200 in the pool, seats of 300
    tickets = d.room.tickets_for("sunday")
    assert {t.player for t in tickets} == winners and all(t.state == "issued" for t in tickets)
    assert d.room.tables_of("sat") == [], "a finished event gives its tables back"
    with pytest.raises(RuleError, match="scheduled"):
        d.act(commands.Register(name="Early"), event="sunday")
    # the target opens: every held ticket is used, its player registered there
    d.room_act(rc.SetEventState(event="sunday", state="open"), user="td")
    sunday = d.events["sunday"].tour
    assert set(sunday.players) == winners
    assert all(t.state == "used" for t in d.room.tickets_for("sunday"))


def test_a_satellite_naming_an_unknown_target_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    d = room(tmp_path)
    before = (d.store.last_seq, set(d.events))
    with pytest.raises(RuleError, match="nowhere"):
        d.open_event({"name": "sat2", "kind": "satellite", "target": "nowhere"})
    assert (d.store.last_seq, set(d.events)) == before


def flights_room(tmp_path: Path) -> Director:
    text = ROOM.split("[[events]]")[0] + "".join(f"""
[[events]]
name = "{f}"
kind = "flight"
structure = "turbo"
seed = {i}
seats = 6
""" for i, f in enumerate(("d1a", "d1b"), start=3))
    return room(tmp_path, text)


def test_day_two_from_two_flights_carries_every_stack_and_the_pools(tmp_path: Path) -> None:
    d = flights_room(tmp_path)
    for f, prefix in (("d1a", "A"), ("d1b", "B")):
        register(d, f, 12, prefix)
        d.act(commands.Start(), event=f)
    d.act(commands.Register(name="Twice", card="tw"), event="d1a")
    d.act(commands.Register(name="Twice", card="tw"), event="d1b")
    Dealer(d, "d1a").play_down(8)
    with pytest.raises(RuleError, match="bag"):
        d.open_event({"name": "day2", "kind": "day2", "flights": ["d1a", "d1b"]})
    assert "day2" not in d.events and "day2" not in d.room.events
    Dealer(d, "d1b").play_down(7)
    bag(d, "d1a")
    bag(d, "d1b")
    survivors = {s.player: s.stack for f in ("d1a", "d1b")
                 for s in d.events[f].tour.survivors()}
    d.open_event({"name": "day2", "kind": "day2", "flights": ["d1a", "d1b"],
                  "structure": "turbo", "seats": 6})
    day2 = d.events["day2"].tour
    assert set(day2.players) == set(survivors)
    twice = d.room.find_player(card="tw").id  # type: ignore[union-attr]
    both = [s.stack for f in ("d1a", "d1b") for s in d.events[f].tour.survivors()
            if s.player == twice]
    assert len(both) == 2, "the seeds have Twice survive both flights"
    assert day2.players[twice].chips_bought == max(both)
    assert day2.money.money_pool().prize_pool == sum(
        d.events[f].tour.money.money_pool().prize_pool for f in ("d1a", "d1b"))
    # seated at tables of the pool, every one a table no other event holds
    for pid in day2.players:
        assert d.table_event(day2.players[pid].table) == "day2"


def test_a_restart_folds_the_same_room_from_the_log(tmp_path: Path, log_db: str) -> None:
    d = room(tmp_path, db=log_db)
    register(d, "daily", 20)
    d.act(commands.Start(), event="daily")
    Dealer(d, "daily").play_down(15)
    seen = ({n: d.table_event(n) for n in range(1, 9)},
            sorted((p.id, p.status, p.table, p.seat)
                   for p in d.events["daily"].tour.players.values()))
    if d.ha is not None:
        d.ha.close()      # a clean stop: the lease is released
    d.store.close()
    again = room(tmp_path, db=log_db)
    assert ({n: again.table_event(n) for n in range(1, 9)},
            sorted((p.id, p.status, p.table, p.seat)
                   for p in again.events["daily"].tour.players.values())) == seen
    assert set(open_store(log_db).streams()) == {"room", "daily", "sat", "sunday"}
