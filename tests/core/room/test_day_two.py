"""Day 2 from its flights: a flight's survivors are its bags; a Day 2 carries them in with
their stacks and the flights' pools, keeps one stack for a player who survived two
flights (the other audited out of play), and draws seats at random or spread by stack."""

from __future__ import annotations

from typing import Any

import pytest
from core_kit import Room, digest, seating_problems

from kiosk.base.errors import NeedsTable, RuleError
from kiosk.core.model.events import Audited, PoolCarried, Registered, Seated, TableOpened
from kiosk.core.series.flights import Survivor


def flight(ids: list[str], seed: int) -> Room:
    """A flight of `ids` (the room's player ids) played to its bags: two players out, the
    survivors bagging different stacks."""
    room = Room(0, seed=seed, start=False, money={"buy_in": 100})
    for pid in ids:
        room.do({"kind": "register", "name": f"Name {pid}", "player": pid,
                 "card": f"c-{pid}", "country": "IE", "language": language(pid)})
    room.do({"kind": "start"})
    tour = room.tour
    for t in room.playing()[:2]:
        room.hand(t, busts=(min(tour.tables[t].seat_of),))
    room.arrive_all()
    room.do({"kind": "end_day", "by": "td"})
    r = tour.count_round
    for tid in r["tables"]:
        stacks = {str(s): 1000 * (int(pid[1:]) % 37 + 1)
                  for s, pid in tour.tables[tid].seat_of.items()}
        room.report(tid, "chip_count", round=r["round"], stacks=stacks)
    room.do({"kind": "bag", "accept_difference": True, "by": "td"})
    return room


def language(pid: str) -> str:
    """Each player's own language at the flight's desk (his slips are printed in it)."""
    return ("", "de", "cs")[int(pid[1:]) % 3]


def carry(*flights: tuple[str, Room], **opts: Any) -> dict[str, Any]:
    entrants = [{**s._asdict(), "flight": name} for name, room in flights
                for s in room.tour.survivors()]
    pools = [{"flight": name, "amount": room.tour.money_pool().prize_pool,
              "entries": room.tour.entries} for name, room in flights]
    return {"kind": "carry_in", "entrants": entrants, "pools": pools, **opts}


A_IDS = [f"r{i}" for i in range(1, 31)]          # r1..r30
B_IDS = [f"r{i}" for i in range(25, 61)]         # r25..r60: r25..r30 played both


@pytest.fixture(scope="module")
def flights() -> tuple[Room, Room]:
    return flight(A_IDS, 3), flight(B_IDS, 4)


def test_survivors_are_the_bags_and_refused_before_them(flights: tuple[Room, Room]) -> None:
    a, _ = flights
    surv = a.tour.survivors()
    assert len(surv) == 28 and {s.player for s in surv} < set(A_IDS)
    assert surv[0] == Survivor(surv[0].player, f"Name {surv[0].player}",
                               f"c-{surv[0].player}", "IE", max(s.stack for s in surv),
                               language(surv[0].player))
    assert [s.stack for s in surv] == sorted((s.stack for s in surv), reverse=True)
    with pytest.raises(RuleError, match="flight test has not bagged its survivors"):
        Room(20).tour.survivors()


def test_day_two_carries_stacks_pools_and_one_stack_per_player(
        flights: tuple[Room, Room]) -> None:
    a, b = flights
    day2 = Room(0, start=False, money={"buy_in": 0, "table": "percent", "percent_paid": 10})
    evs = day2.do(carry(("1a", a), ("1b", b)))
    tour = day2.tour
    bags = {**b.tour.bags[1]}
    for pid, stack in a.tour.bags[1].items():
        bags[pid] = max(stack, bags.get(pid, 0))
    twice = sorted(set(a.tour.bags[1]) & set(b.tour.bags[1]))
    assert twice                                    # some survived both flights
    registered = {e.player: e.stack for e in evs if isinstance(e, Registered)}
    assert registered == bags and tour.chips == sum(bags.values())
    assert all(tour.players[pid].language == language(pid) for pid in bags)   # his slips' language
    audited = [e for e in evs if isinstance(e, Audited)]
    assert sorted(e.player for e in audited) == twice
    for e in audited:
        assert e.action == "stack_left_play" and e.after == 0
        assert e.before == min(a.tour.bags[1][e.player], b.tour.bags[1][e.player])
    (pool,) = [e for e in evs if isinstance(e, PoolCarried)]
    assert pool.flights == ["1a", "1b"] and pool.chips_left == sum(e.before for e in audited)
    assert tour.money_pool().prize_pool == 100 * (30 + 36) == pool.amount
    assert len(tour.current_payouts()) == 7         # 10 % of the 66 flights' entries
    assert sum(tour.current_payouts()) == 6600
    # the usual random draw, before the clock starts
    assert not tour.started and tour.alive == len(bags)
    sizes = sorted(t.count for t in tour.active_tables())
    assert len(sizes) == 7 and sizes[-1] - sizes[0] <= 1
    day2.do({"kind": "start"})
    assert tour.started and not seating_problems(tour)
    assert digest(day2.replay()) == digest(tour)


def test_first_keeps_the_earlier_flights_stack(flights: tuple[Room, Room]) -> None:
    a, b = flights
    day2 = Room(0, start=False)
    evs = day2.do(carry(("1a", a), ("1b", b), keep="first"))
    for pid in set(a.tour.bags[1]) & set(b.tour.bags[1]):
        assert day2.tour.players[pid].chips_bought == a.tour.bags[1][pid]
    assert all(e.before == b.tour.bags[1][e.player] for e in evs if isinstance(e, Audited))


def test_stack_draw_spreads_the_big_stacks(flights: tuple[Room, Room]) -> None:
    a, b = flights
    day2 = Room(0, start=False)
    day2.do(carry(("1a", a), ("1b", b), draw="stack"))
    tour = day2.tour
    n = len(tour.active_tables())
    by_stack = sorted(tour.players.values(), key=lambda p: (-p.chips_bought, p.id))
    assert len({p.table for p in by_stack[:n]}) == n       # one big stack a table
    assert len({p.table for p in by_stack[n:2 * n]}) == n
    totals = sorted(sum(tour.players[pid].chips_bought for pid in t.seat_of.values())
                    for t in tour.active_tables())
    assert totals[-1] - totals[0] < by_stack[0].chips_bought   # chips spread, not clumped
    assert not seating_problems(tour)
    assert digest(day2.replay()) == digest(tour)


def test_refusals_change_nothing(flights: tuple[Room, Room]) -> None:
    a, b = flights
    day2 = Room(0, start=False)
    day2.do({"kind": "register", "name": "Direct", "player": "r3"})
    cmd = carry(("1a", a), ("1b", b))
    before = day2.tour.n_events
    with pytest.raises(RuleError, match="player id r3 is already registered here"):
        day2.do(cmd)
    assert day2.tour.n_events == before
    fresh = Room(0, start=False)
    with pytest.raises(RuleError, match="comes from flight 1b, which has no pool"):
        fresh.do({**carry(("1a", a)), "entrants": cmd["entrants"]})
    assert fresh.tour.n_events == 1 and not fresh.tour.players
    started = Room(4)
    with pytest.raises(RuleError, match="has started: a Day 2 carries its players in before"):
        started.do(carry(("1b", b)))
    done = Room(0, start=False)
    done.do(carry(("1b", b)))
    with pytest.raises(RuleError, match="already drawn its seats"):
        done.do(carry(("1a", a)))


def test_a_pool_day_two_asks_for_all_its_tables_first(flights: tuple[Room, Room]) -> None:
    _, b = flights
    day2 = Room(0, start=False, pool=True)
    day2.do({"kind": "grant_tables", "tables": [11, 12]})
    with pytest.raises(NeedsTable) as exc:
        day2.do(carry(("1b", b)))                  # 34 survivors: 4 tables
    assert exc.value.count == 2 and day2.tour.n_events == 2
    day2.do({"kind": "grant_tables", "tables": [14, 13]})
    evs = day2.do(carry(("1b", b)))
    assert sorted(e.table for e in evs if isinstance(e, TableOpened)) == [11, 12, 13, 14]
    assert len([e for e in evs if isinstance(e, Seated)]) == 34


def test_late_entries_to_a_drawn_day_two_take_seats_at_the_start(
        flights: tuple[Room, Room]) -> None:
    _, b = flights
    day2 = Room(0, start=False)
    day2.do(carry(("1b", b)))
    day2.do({"kind": "register", "name": "Direct", "player": "room-77", "card": "c-77"})
    assert day2.tour.players["room-77"].status == "waiting"
    day2.do({"kind": "start"})
    assert day2.tour.players["room-77"].status == "seated"
    assert day2.tour.by_card["c-77"] == "room-77"
    assert not seating_problems(day2.tour)
