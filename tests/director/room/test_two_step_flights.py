"""Flights in two steps, as a festival runs them: Day 2ABC from flights 1A-1C, Day 2D from
1D, and a Day 3 from both Day 2s; each step carries the bagged stacks, sums the pools and
draws the seats afresh, and a restart folds the same three days back."""

from __future__ import annotations

from pathlib import Path

from room_kit import ROOM, Dealer, bag, register, room

from kiosk.core.model import commands
from kiosk.director.service import Director

FLIGHTS = ("d1a", "d1b", "d1c", "d1d")


def festival(tmp_path: Path) -> Director:
    text = ROOM.split("[[events]]")[0].replace("tables = 8", "tables = 40") + "".join(f"""
[[events]]
name = "{f}"
kind = "flight"
structure = "turbo"
seed = {i}
seats = 6
buy_in = 100
""" for i, f in enumerate(FLIGHTS, start=3))
    return room(tmp_path, text)


def day(d: Director, name: str, flights: list[str]) -> None:
    d.open_event({"name": name, "kind": "day2", "flights": flights, "structure": "turbo",
                  "seats": 6})


def carried(d: Director, days: list[str]) -> dict[str, int]:
    return {s.player: s.stack for f in days for s in d.events[f].tour.survivors()}


def pool(d: Director, name: str) -> int:
    return d.events[name].tour.money.money_pool().prize_pool


def test_day_2abc_and_2d_then_day_3_carry_stacks_and_pools(tmp_path: Path) -> None:
    d = festival(tmp_path)
    for f in FLIGHTS:
        register(d, f, 14, f.upper())
        d.act(commands.Start(), event=f)
        Dealer(d, f).play_down(9)
        bag(d, f)
    abc = carried(d, ["d1a", "d1b", "d1c"])
    day(d, "day2abc", ["d1a", "d1b", "d1c"])
    day(d, "day2d", ["d1d"])
    day2abc, day2d = d.events["day2abc"].tour, d.events["day2d"].tour
    assert set(day2abc.players) == set(abc) and len(day2d.players) == 9
    assert {p: day2abc.players[p].chips_bought for p in abc} == abc
    assert pool(d, "day2abc") == sum(pool(d, f) for f in ("d1a", "d1b", "d1c")) > 0
    assert pool(d, "day2d") == pool(d, "d1d")
    entries = 4 * 14 * 100
    for name in ("day2abc", "day2d"):
        d.act(commands.Start(), event=name)
        Dealer(d, name).play_down(4)
        bag(d, name)
    survivors = carried(d, ["day2abc", "day2d"])
    assert len(survivors) == 8
    day(d, "day3", ["day2abc", "day2d"])
    day3 = d.events["day3"].tour
    assert set(day3.players) == set(survivors)
    assert {p: day3.players[p].chips_bought for p in survivors} == survivors
    assert pool(d, "day3") == pool(d, "day2abc") + pool(d, "day2d") == \
        sum(pool(d, f) for f in FLIGHTS)
    assert pool(d, "day3") <= entries
    # seats drawn afresh, at tables no other event holds
    seats = {(day3.players[p].table, day3.players[p].seat) for p in day3.players}
    assert len(seats) == len(day3.players)
    assert all(d.table_event(t) == "day3" for t, _ in seats)
    if d.ha is not None:
        d.ha.close()
    d.store.close()
    again = room(tmp_path, ROOM.split("[[events]]")[0].replace("tables = 8", "tables = 40"))
    assert set(again.events["day3"].tour.players) == set(survivors)
    assert again.room.events["day3"].flights == ["day2abc", "day2d"]
