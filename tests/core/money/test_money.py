"""Prize pool, payouts, places paid and the bubble; rebuys and add-ons into the pool.

Rules cited: TDA 2017 r.7 (late registration), r.27 (rebuys play behind), RP-8A (busts
on a hand-for-hand hand share the places they span); the home rebuy rules (seed 004):
a rebuy is the same chips for the same price, only with no chips left, and the add-on
at the end of the rebuy period is twice the starting chips for the buy-in price.
"""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure

from kiosk.base.errors import RuleError
from kiosk.core.calc.payouts import (
    PrizeRules,
    distribute,
    parse_shares_csv,
    payout_table,
    pool,
    split_ties,
)

STD = {"buy_in": 100, "fee": 10, "staff": 5}


def test_buy_in_splits_into_prize_fee_staff_and_bounty() -> None:
    rules = PrizeRules(buy_in=100, fee=10, staff=5, bounty=50, bounty_mode="pko")
    p = pool(rules, entries=40)
    assert (p.collected, p.prize_pool, p.bounty_pool, p.fees, p.staff) == \
        (6600, 4000, 2000, 400, 200)


def test_guarantee_is_topped_up_by_an_overlay() -> None:
    p = pool(PrizeRules(buy_in=100, guarantee=5000), entries=30)
    assert (p.prize_pool, p.overlay) == (5000, 2000)
    assert pool(PrizeRules(buy_in=100, guarantee=5000), entries=80).overlay == 0


@pytest.mark.parametrize(("field", "paid"), [(5, 1), (9, 2), (18, 3), (27, 4), (45, 5),
                                             (90, 8), (200, 30)])
def test_standard_table_pays_more_places_as_the_field_grows(field: int, paid: int) -> None:
    rules = PrizeRules(buy_in=100)
    table = payout_table(rules, field * 100, field)
    assert len(table) == paid
    assert sum(table) == field * 100
    assert table == sorted(table, reverse=True)


def test_winner_take_all_and_percent_paid() -> None:
    assert payout_table(PrizeRules(table="wta"), 9000, 90) == [9000]
    table = payout_table(PrizeRules(table="percent", percent_paid=20), 10000, 50)
    assert len(table) == 10 and sum(table) == 10000


def test_rounding_to_25_keeps_the_sum_exact_with_the_rest_to_the_winner() -> None:
    table = payout_table(PrizeRules(rounding=25), 9_990, 45)
    assert sum(table) == 9_990
    assert all(x % 25 == 0 for x in table[1:])
    assert table[0] % 25 == 9_990 % 25


def test_imported_csv_table() -> None:
    shares = parse_shares_csv("place,percent\n1,50\n2,30.5\n3,19.5\n")
    assert shares == (5000, 3050, 1950)
    assert payout_table(PrizeRules(table="shares", shares=shares), 1001, 20) == [501, 305, 195]
    for bad, why in [("1,50\n2,40\n", "not 100"), ("1,50\n3,50\n", "without gaps"),
                     ("1,40\n2,60\n", "cannot pay more"), ("1,abc\n", "not place,percent"),
                     ("1,33.333\n2,66.667\n", "two decimals")]:
        with pytest.raises(RuleError, match=why):
            parse_shares_csv(bad)


def test_tied_places_share_what_they_span_rule_rp8a() -> None:
    # RP-8A: 52 left, 50 paid, 3 bust on one hand-for-hand hand: they share 50th place
    payouts = [100] * 49 + [50]              # 50 places
    prizes = split_ties(payouts, {"a": 50, "b": 50, "c": 50})
    assert sum(prizes.values()) == payouts[49]
    assert sorted(prizes.values()) == [16, 17, 17]
    two = split_ties([300, 200, 100], {"x": 2, "y": 2})   # 2nd and 3rd shared
    assert two == {"x": 150, "y": 150}


def test_distribute_never_pays_a_place_nothing() -> None:
    assert distribute(3, [50, 30, 20]) == [3]


def _room(players: int, profile: str = "tda-2017", **money: object) -> Room:
    return Room(players, profile=profile, structure=flat_structure(12, breaks_after=(4,)),
                money={**STD, **money})


def test_places_paid_bubble_and_in_the_money_at_every_bust() -> None:
    room = _room(18)   # 18 entries: standard table pays 3
    tour = room.tour
    assert tour.money_view().places_paid == 3
    assert tour.money_view().prize_pool == 1800
    def bust_one() -> None:
        table = next(t for t in room.playing() if len(tour.tables[t].seat_of) > 1)
        room.hand(table, busts=(min(tour.tables[table].seat_of),))
        room.arrive_all()

    while tour.alive > 5:
        bust_one()
    assert not tour.money_view().bubble
    bust_one()
    view = tour.money_view()
    assert tour.alive == 3 + 1 and view.bubble and not view.in_the_money
    bust_one()
    view = tour.money_view()
    assert not view.bubble and view.in_the_money


def test_bust_in_the_money_shows_place_and_prize_on_the_table_plan() -> None:
    from kiosk.core.event.plans import plan

    room = _room(4)
    tour = room.tour
    table = room.playing()[0]
    room.deal(table)
    seat = min(tour.tables[table].seat_of)
    other = max(tour.tables[table].seat_of)
    room.report(table, "bust", seat=seat, player=tour.tables[table].seat_of[seat],
                eliminator=other)
    body = plan(tour, table)
    out = body["busts"][0]
    assert (out["seat"], out["place"], out["prize"], out["bounty_won"], out["eliminators"]) \
        == (seat, 4, 0, 0, [other])
    assert body["money"]["places_paid"] == 1 and body["money"]["bubble"] is False
    assert tour.eliminated_by[body["busts"][0]["player"]] == [tour.tables[table].seat_of[other]]


def test_payouts_lock_when_late_registration_closes_rule_7() -> None:
    room = _room(20)
    tour = room.tour
    room.do({"kind": "tick"}, dt=60)
    assert tour.locked is None       # late registration (r.7) still open
    room.do({"kind": "register", "name": "Late"})
    s = tour.structure
    room.do({"kind": "clock", "action": "jump", "period": s.index_of_level(7)}, dt=1)
    room.do({"kind": "tick"}, dt=1)
    assert tour.locked == payout_table(tour.prize, 2100, 21)
    with pytest.raises(RuleError, match="late registration is closed"):
        room.do({"kind": "register", "name": "Too late"})
    with pytest.raises(RuleError, match="locked"):
        room.do({"kind": "payout_rules", "table": "wta"})


def test_floor_chooses_the_table_before_the_lock_and_it_is_audited() -> None:
    room = _room(20)
    room.do({"kind": "payout_rules", "table": "wta", "by": "floor"})
    assert room.tour.current_payouts() == [2000]
    room.do({"kind": "payout_rules", "csv": "1,70\n2,30\n", "by": "floor"})
    assert room.tour.current_payouts() == [1400, 600]
    audit = [e for e in room.tour.audit if e["kind"] == "prize_rules_set"]
    assert audit[-1]["by"] == "floor"
    assert (audit[-1]["before"]["table"], audit[-1]["rules"]["table"]) == ("wta", "shares")
    with pytest.raises(RuleError, match="not 100"):
        room.do({"kind": "payout_rules", "csv": "1,70\n"})


def test_rebuy_at_the_bust_keeps_the_seat_and_adds_to_the_pool_home_rules() -> None:
    room = _room(9, profile="home-roberts")
    tour = room.tour
    table = room.playing()[0]
    room.deal(table)
    seat = min(tour.tables[table].seat_of)
    pid = tour.tables[table].seat_of[seat]
    room.report(table, "bust", seat=seat, player=pid, rebuy=True)
    assert tour.tables[table].seat_of[seat] == pid      # playing behind in the same seat
    assert tour.players[pid].rebuys == 1
    assert tour.money_view().prize_pool == 1000 and tour.chips == 10 * 10000
    assert tour.places().get(pid) is None               # a rebuy is not a finish


def test_rebuy_refused_after_the_rebuy_period() -> None:
    room = _room(9, profile="home-roberts")
    tour = room.tour
    room.do({"kind": "clock", "action": "jump", "period": tour.structure.index_of_level(5)})
    table = room.playing()[0]
    room.deal(table)
    seat = min(tour.tables[table].seat_of)
    with pytest.raises(RuleError, match="rebuy period ended"):
        room.report(table, "bust", seat=seat, player=tour.tables[table].seat_of[seat],
                    rebuy=True)


def test_addon_twice_the_stack_once_at_the_end_of_the_rebuy_period() -> None:
    room = _room(9, profile="home-roberts")
    tour = room.tour
    table = room.playing()[0]
    seat, pid = min(tour.tables[table].seat_of.items())
    with pytest.raises(RuleError, match="end of the rebuy period"):
        room.report(table, "addon", seat=seat, player=pid)
    room.do({"kind": "clock", "action": "jump", "period": tour.structure.index_of_level(4) + 1})
    room.report(table, "addon", seat=seat, player=pid)
    assert tour.players[pid].chips_bought == 30000
    assert tour.money_view().prize_pool == 1000 and tour.chips == 9 * 10000 + 20000
    with pytest.raises(RuleError, match="already taken"):
        room.report(table, "addon", seat=seat, player=pid)
    with pytest.raises(RuleError, match="no add-on"):
        _room(9).do({"kind": "addon", "player": "p1"})


def test_hand_for_hand_starts_at_the_bubble_and_stops_in_the_money() -> None:
    room = Room(12, structure=flat_structure(12), money={**STD}, h4h_at_bubble=True)
    tour = room.tour   # 12 entries pay 3: the bubble is at 4 left
    while tour.alive > 4:
        table = next(t for t in room.playing() if len(tour.tables[t].seat_of) > 1
                     and not tour.holding(tour.tables[t]))
        room.hand(table, busts=(min(tour.tables[table].seat_of),))
        room.arrive_all()
    assert tour.h4h_on
    table = next(t for t in room.playing() if tour.tables[t].id in tour.h4h_waiting)
    room.hand(table, busts=(min(tour.tables[table].seat_of),))
    assert not tour.h4h_on and tour.money_view().in_the_money


def test_satellite_pays_seats_and_ends_when_the_last_seat_is_won() -> None:
    room = Room(10, structure=flat_structure(12), money={"buy_in": 100, "seat_value": 300})
    tour = room.tour
    assert tour.current_payouts() == [300, 300, 300, 100]
    room.do({"kind": "lock_payouts"})   # the seats are fixed: no more entries count
    while tour.finished_at is None:
        table = next(t for t in room.playing() if len(tour.tables[t].seat_of) > 1)
        room.hand(table, busts=(min(tour.tables[table].seat_of),))
        room.arrive_all()
    assert tour.alive == 3
    prizes = tour.prizes()
    assert sorted(prizes.values()) == [100, 300, 300, 300]
    assert sum(prizes.values()) == 1000
