"""Deals at the final table: ICM and chip chop, and recording an agreed deal (the home
rules: a deal must be unanimous; results then show the agreed amounts)."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure

from kiosk.base.errors import RuleError
from kiosk.core.event.results import results
from kiosk.core.money.icm import chip_chop, icm_deal, icm_equity


def test_icm_equal_stacks_share_equally_and_the_sum_is_exact() -> None:
    assert icm_deal([1000, 1000, 1000], [500, 300, 200]) == [334, 333, 333]
    # 383.93, 327.50, 288.57: the two largest remainders take the two units left
    assert icm_deal([5000, 3000, 2000], [500, 300, 200]) == [384, 327, 289]


def test_icm_matches_the_malmuth_harville_formula_for_two_players() -> None:
    # heads-up: equity = 2nd prize + chip share of the difference
    eq = icm_equity([3000, 1000], [700, 300])
    assert eq == pytest.approx([300 + 0.75 * 400, 300 + 0.25 * 400])


def test_icm_three_players_by_hand() -> None:
    stacks, prizes = [50, 30, 20], [50, 30, 20]
    eq = icm_equity(stacks, prizes)
    # P(A 1st)=.5; P(A 2nd)= .3*50/70 + .2*50/80
    p_a2 = 0.3 * 50 / 70 + 0.2 * 50 / 80
    assert eq[0] == pytest.approx(0.5 * 50 + p_a2 * 30 + (1 - 0.5 - p_a2) * 20)


def test_chip_chop_guarantees_the_last_prize_and_splits_the_rest_by_chips() -> None:
    assert chip_chop([6000, 3000, 1000], [500, 300, 200]) == [440, 320, 240]
    assert sum(chip_chop([7, 5, 3, 1], [400, 300, 200, 100])) == 1000


def test_a_deal_needs_every_player_left_and_the_exact_sum() -> None:
    room = Room(4, structure=flat_structure(12), money={"buy_in": 250})   # pays 1000 to 1st
    room.do({"kind": "payout_rules", "table": "shares", "shares": [5000, 3000, 2000]})
    tour = room.tour
    table = room.playing()[0]
    room.hand(table, busts=(min(tour.tables[table].seat_of),))
    alive = sorted(p.id for p in tour.players.values() if p.status == "seated")
    with pytest.raises(RuleError, match="every player left"):
        room.do({"kind": "deal", "amounts": {alive[0]: 1000}})
    with pytest.raises(RuleError, match="places left pay 1,000"):
        room.do({"kind": "deal", "amounts": dict.fromkeys(alive, 300)})
    amounts = dict(zip(alive, icm_deal([5000, 3000, 2000], [500, 300, 200]), strict=True))
    room.do({"kind": "deal", "amounts": amounts, "method": "icm", "by": "floor"})
    assert tour.audit[-1]["kind"] == "deal_agreed" and tour.audit[-1]["before"]
    while tour.finished_at is None:
        room.hand(table, busts=(min(tour.tables[table].seat_of),))
    rows = {r["player"]: r["prize"] for r in results(tour)}
    assert {pid: rows[pid] for pid in alive} == amounts
    assert sum(rows.values()) == 1000
