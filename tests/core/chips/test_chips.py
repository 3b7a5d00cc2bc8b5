"""Colour-ups per profile, chip counts with reconciliation, bag-and-tag and the redraw.

Rules cited: TDA 2017 r.24 / TDA 2015 r.23 / Irish 23 (race from seat 1, at most one
chip each, nobody raced out: a player losing his last chips gets one chip of the
smallest denomination left); Sheridan's r.13 (no race, odd chips round up); the home
rules after Roberts (a card per odd chip, highest cards win a chip each, a player left
with nothing gets his chip first, half a chip or more left over wins one more).
"""

from __future__ import annotations

import random

import pytest
from core_kit import Room, digest

from kiosk.base.errors import RuleError
from kiosk.core.chips.chips import colour_up, leaving_at, odd_chips, race, reconcile, settle
from kiosk.core.event.plans import plan
from kiosk.rules.loader import load_profile
from kiosk.rules.structure_files import load_structure

TDA = load_profile("tda-2017").chip_race
TDA15 = load_profile("tda-2015").chip_race
SHERIDAN = load_profile("sheridans").chip_race
HOME = load_profile("home-roberts").chip_race


def test_the_profiles_chip_race_keys_are_what_the_seeds_say() -> None:
    assert (TDA.mode, TDA.max_one_chip, TDA.nobody_raced_out, TDA.rule) == ("race", True, True,
                                                                          "24")
    assert (TDA15.mode, TDA15.rule) == ("race", "23")
    assert (SHERIDAN.mode, SHERIDAN.rule) == ("round_up", "13")
    assert (HOME.mode, HOME.max_one_chip) == ("race_by_card", False)


def test_a_chip_leaves_at_the_first_break_after_which_no_blind_needs_it() -> None:
    s = load_structure("standard")
    chips = (25, 100, 500, 1000, 5000, 25000)
    breaks = [i for i, p in enumerate(s.periods) if p.is_break]
    # 150/300 after the first break still needs the 25s; 500/1000 after the second not
    assert leaving_at(chips, s, breaks[0]) == ([], 25)
    assert leaving_at(chips, s, breaks[1]) == ([25], 100)
    assert leaving_at(chips, s, breaks[2]) == ([100], 500)
    assert leaving_at(chips, s, 0) == ([], 25)          # no colour-up during a level


def test_tda_24_race_one_chip_each_from_seat_1_nobody_raced_out() -> None:
    stacks = {1: 1075, 2: 2050, 3: 975, 4: 25, 5: 3000}   # odd 25s: 3, 2, 3, 1, 0
    res = colour_up(stacks, [25], 100, TDA, random.Random(4))
    assert all(n == 1 for n in res.won.values())          # at most one chip a player
    assert odd_chips(75, [25]) == 3 and len(res.cards[1]) == 3 and 5 not in res.cards
    # 9 odd chips = 225: two chips of 100, and 25 left is less than half a chip
    assert sum(res.won.values()) == 2
    assert (4 in res.rescued) == (4 not in res.won)
    assert res.after[4] == 100                             # never raced out (r.24A)
    assert res.after[5] == 3000 and all(v % 100 == 0 for v in res.after.values())
    assert sum(res.after.values()) == sum(stacks.values()) - res.removed


def test_sheridans_13_rounds_odd_chips_up_without_a_race() -> None:
    res = colour_up({1: 1075, 2: 2050, 3: 1000}, [25], 100, SHERIDAN, random.Random(1))
    assert res.after == {1: 1100, 2: 2100, 3: 1000} and res.cards == {}
    assert res.removed == -75                              # the round-up adds chips


def test_home_race_by_card_several_chips_and_the_empty_stack_first() -> None:
    stacks = {1: 75, 2: 75, 3: 75, 4: 75, 5: 1000}         # 300 in odd chips: 3 chips
    res = colour_up(stacks, [25], 100, HOME, random.Random(2))
    # whoever's cards win, the empty stacks get their chip first: four players, three
    # chips, and nobody may be eliminated, so all four leave with one chip
    assert res.after == {1: 100, 2: 100, 3: 100, 4: 100, 5: 1000}
    assert sum(res.won.values()) + len(res.rescued) == 4
    r2 = race({1: 75, 2: 1050, 3: 1050}, [25], 100, HOME)
    # 175 in odd chips: one chip, and 75 left is half a chip or more: one more
    assert (r2.to_give, r2.deal_cards) == (2, {1: 3, 2: 2, 3: 2})
    res2 = settle(r2, [2, 3])                              # seat 1's cards lose:
    assert res2.after == {1: 100, 2: 1100, 3: 1000}        # he gets his chip first,
    assert (res2.rescued, res2.won) == ([1], {2: 1})       # out of the two: 3 loses his
    res3 = settle(r2, [1, 1])                              # seat 1 holds the two best
    assert res3.after == {1: 200, 2: 1000, 3: 1000} and res3.rescued == []
    many = colour_up({1: 1075, 2: 2000, 3: 1025}, [25], 100, HOME, random.Random(5))
    assert sum(many.won.values()) == 1                     # 100 in odd chips: one chip


def test_reconciliation_flags_the_tables_that_disagree() -> None:
    seated = {1: {1, 2, 3}, 2: {1, 2}, 3: {4}}
    counts = {1: {1: 1000, 2: 2000, 3: 0}, 2: {1: 1500, 2: 1525, 5: 100}}
    rec = reconcile(6200, counts, seated, smallest_chip=100)
    assert rec.flags == {1: ["seat 3: no chips for a seated player"],
                         2: ["seat 5 counted but empty",
                             "seat 2: 1,525 is not a multiple of the 100 chip"],
                         3: ["no count yet"]}
    assert (rec.counted, rec.difference, rec.ok) == (6125, -75, False)


def _room(players: int = 20, profile: str = "tda-2017") -> Room:
    return Room(players, profile=profile, structure=load_structure("standard"),
                money={"buy_in": 100}, chip_set=[25, 100, 500, 1000, 5000])


def _count_all(room: Room, adjust: dict | None = None) -> None:
    """Every table enters its stacks: each player his buy-in, the busted players' chips
    in the first seat counted."""
    tour = room.tour
    r = tour.count_round
    missing = tour.chips - sum(tour.players[pid].chips_bought for t in r["tables"]
                               for pid in tour.tables[t].seat_of.values())
    for tid in r["tables"]:
        tab = tour.tables[tid]
        stacks = {str(s): tour.players[pid].chips_bought for s, pid in tab.seat_of.items()}
        first = str(min(tab.seat_of))
        stacks[first] += missing
        missing = 0
        stacks.update((adjust or {}).get(tid, {}))
        room.report(tid, "chip_count", round=r["round"], stacks=stacks)


def test_a_break_that_removes_a_chip_asks_every_table_and_races_it_off() -> None:
    room = _room()
    tour = room.tour
    brk = [i for i, p in enumerate(tour.structure.periods) if p.is_break][1]
    room.do({"kind": "clock", "action": "jump", "period": brk})
    room.do({"kind": "tick"})
    r = tour.count_round
    assert (r["purpose"], r["removed"], r["new_chip"]) == ("colour_up", [25], 100)
    assert plan(tour, 1)["chip_count"]["purpose"] == "colour_up"
    before = tour.chips
    odd = {t: {str(s): 20075 for s in list(tour.tables[t].seat_of)[:2]}
           for t in r["tables"]}     # two players a table hold three 25s more
    tour.chips += 150 * len(odd)     # (as if they had been bought in)
    _count_all(room, odd)
    cu = plan(tour, 1)["colour_up"]
    assert set(cu) >= {"before", "after", "cards", "won", "rescued"}
    assert all(int(v) % 100 == 0 for v in cu["after"].values())
    removed = sum(e["removed"] for e in tour.colour_ups.values())
    assert tour.chips == before + 150 * len(odd) - removed
    assert tour.chips_removed == removed
    rec = tour.reconciliation()
    assert rec.flags == {} and rec.counted == tour.chips and rec.ok


def test_a_count_that_cannot_be_right_is_refused_and_nothing_is_kept() -> None:
    room = _room()
    tour = room.tour
    room.do({"kind": "count_chips", "label": "end of level 3", "by": "floor"})
    tab = tour.tables[1]
    seat = min(tab.seat_of)
    good = {str(s): 20000 for s in tab.seat_of}
    with pytest.raises(RuleError, match="more than the"):
        room.report(1, "chip_count", stacks={**good, str(seat): 10 ** 9})
    with pytest.raises(RuleError, match="has no count"):
        room.report(1, "chip_count", stacks={str(seat): 20000})
    assert 1 not in tour.counts
    room.report(1, "chip_count", stacks={**good, str(seat): 20500})
    rec = tour.reconciliation()
    assert rec.counted == 20000 * len(good) + 500
    assert rec.flags == {2: ["no count yet"], 3: ["no count yet"]}


def test_a_table_opened_after_a_count_never_holds_the_next_count_open() -> None:
    """Every table counted; then a late entry opens a fourth table, which the count never
    asked for. The count is over all the same: the floor opens the next one, and the new
    table counts in it like the others."""
    room = _room(27)
    tour = room.tour
    room.do({"kind": "count_chips", "label": "level 2", "by": "floor"})
    _count_all(room)
    room.do({"kind": "register", "name": "Late Larry"})
    assert room.playing() == [1, 2, 3, 4] and 4 not in tour.count_round["tables"]
    assert "chip_count" not in plan(tour, 4)          # nobody asks table 4 for that one
    room.do({"kind": "count_chips", "label": "level 3", "by": "floor"})
    assert tour.count_round["tables"] == [1, 2, 3, 4]
    assert plan(tour, 4)["chip_count"]["round"] == 2


def test_end_of_day_bags_and_a_random_redraw_for_day_two() -> None:
    room = _room(40)
    tour = room.tour
    for t in room.playing()[:2]:
        room.hand(t, busts=(min(tour.tables[t].seat_of),))
    room.arrive_all()
    room.do({"kind": "end_day", "by": "td"})
    assert all(tour.holding(tour.tables[t]) for t in room.playing())
    with pytest.raises(RuleError, match="have not counted"):
        room.do({"kind": "bag"})
    _count_all(room)
    room.do({"kind": "bag", "by": "td"})
    bags = tour.bags[1]
    assert len(bags) == 38 and sum(bags.values()) == tour.chips
    before = {pid: (tour.players[pid].table, tour.players[pid].seat) for pid in bags}
    room.do({"kind": "redraw", "by": "td"})
    after = {pid: (tour.players[pid].table, tour.players[pid].seat) for pid in bags}
    assert tour.day == 2 and not tour.day_over
    assert len(set(after.values())) == 38 and after != before
    assert len(room.playing()) == 5 and all(tour.tables[t].redraw_button for t in room.playing())
    sizes = [len(tour.tables[t].seat_of) for t in room.playing()]
    assert max(sizes) - min(sizes) <= 1
    # the draw is seeded by the decision: a replay seats everyone alike
    again = room.replay()
    assert {pid: (again.players[pid].table, again.players[pid].seat) for pid in bags} == after
    assert [e["kind"] for e in tour.audit][-4:] == ["day_ended", "count_opened", "bagged",
                                                    "redrawn"]
    assert all(e["by"] == "td" for e in tour.audit[-4:])


def _count_tables(room: Room, tables: list[int], extra: int = 0) -> None:
    """These tables enter their stacks (each player his buy-in), `extra` chips in the
    first seat of the first one."""
    tour = room.tour
    for tid in tables:
        tab = tour.tables[tid]
        stacks = {str(s): tour.players[pid].chips_bought for s, pid in tab.seat_of.items()}
        stacks[str(min(tab.seat_of))] += extra
        extra = 0
        room.report(tid, "chip_count", round=tour.count_round["round"], stacks=stacks)


def test_nobody_moves_once_the_day_is_over() -> None:
    """Irish Open r.73: a day's play ends with its last hands, and from then every table
    counts for the bags where it sits. A table breaking at the end of the day breaks no
    more, nobody is balanced and the floor cannot break a table: the counts stay right."""
    room = _room(20)
    tour = room.tour
    for tid in room.playing():
        room.deal(tid)
    first, second, *_ = sorted(tour.tables[1].seat_of)
    room.bust(1, first)
    room.bust(1, second)
    assert tour.tables[1].breaking and tour.tables[1].in_hand   # due to break at its end
    room.do({"kind": "end_day", "by": "td"})
    room.bust(2, min(tour.tables[2].seat_of))                   # the last hands go on
    room.end(2)
    room.end(3)
    seated = {t: dict(tour.tables[t].seat_of) for t in room.playing()}
    _count_tables(room, [2, 3], extra=3 * 20000)
    room.end(1)
    assert {t: dict(tour.tables[t].seat_of) for t in room.playing()} == seated
    assert tour.n_pending == 0 and not tour.moving
    with pytest.raises(RuleError, match="is over"):
        room.do({"kind": "break_table", "table": 3})
    _count_tables(room, [1])
    room.do({"kind": "bag", "by": "td"})
    assert len(tour.bags[1]) == 17 and sum(tour.bags[1].values()) == tour.chips
    room.do({"kind": "redraw", "by": "td"})       # day 2: everyone drawn afresh
    assert len(room.playing()) == 2 and tour.n_breaking == 0
    for tid in room.playing():
        room.hand(tid)
    assert digest(room.replay()) == digest(tour)


def test_a_count_the_seating_no_longer_matches_is_refused_by_table_and_seat() -> None:
    room = _room(20)
    tour = room.tour
    room.do({"kind": "end_day", "by": "td"})
    _count_all(room)
    seat = min(tour.tables[1].seat_of)
    pid = tour.tables[1].seat_of[seat]
    free = min(set(range(1, 10)) - set(tour.tables[3].seat_of))
    room.do({"kind": "move", "player": pid, "table": 3, "seat": free})   # after the count
    with pytest.raises(RuleError, match=rf"recount table 1 \(seats {seat}\); table 3 "
                                        rf"\(seats {free}\)"):
        room.do({"kind": "bag", "accept_difference": True, "by": "td"})
    assert 1 not in tour.bags
    _count_tables(room, [1, 3])
    room.do({"kind": "bag", "accept_difference": True, "by": "td"})
    assert tour.bags[1][pid] == 20000


def test_a_break_after_the_end_of_the_day_keeps_the_bag_count_open() -> None:
    """Found by the soak: the day ended, then the clock reached a break where a chip
    leaves play; the colour-up's count replaced the bag's, so the bag was refused for
    ever. Once the day is over its tables count for the bags only."""
    room = _room()
    tour = room.tour
    room.do({"kind": "end_day", "by": "td"})
    brk = [i for i, p in enumerate(tour.structure.periods) if p.is_break][1]
    room.do({"kind": "clock", "action": "jump", "period": brk})
    room.do({"kind": "tick"})
    assert tour.count_round["purpose"] == "bag"
    _count_all(room)
    room.do({"kind": "bag", "by": "td"})
    assert sum(tour.bags[1].values()) == tour.chips
