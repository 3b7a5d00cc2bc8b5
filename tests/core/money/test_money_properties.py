"""Properties of the money and chips, over random events: payouts always sum to the
pool; chips in play are conserved through rebuys, add-ons, races and colour-ups; a
bounty is never paid twice and the bounty pool is always fully accounted for."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.base.errors import RuleError
from kiosk.core.calc.payouts import PrizeRules, payout_table, pool, split_ties
from kiosk.core.chips.chips import colour_up
from kiosk.core.event.results import totals
from kiosk.rules.loader import load_profile
from kiosk.sim.engine import Simulator

EXAMPLES = int(os.environ.get("CORE_EXAMPLES", "150"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=max(5, EXAMPLES // 10), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

rules_st = st.builds(
    PrizeRules, buy_in=st.integers(0, 10_000), fee=st.integers(0, 500),
    guarantee=st.integers(0, 1_000_000), table=st.sampled_from(["standard", "percent", "wta"]),
    percent_paid=st.floats(1, 100), rounding=st.sampled_from([1, 5, 25, 100]))


@SETTINGS
@given(rules_st, st.integers(1, 5000), st.integers(0, 500))
def test_payouts_sum_to_the_pool_and_never_rise(rules: PrizeRules, entries: int,
                                                addons: int) -> None:
    prize = pool(rules, entries, addons).prize_pool
    table = payout_table(rules, prize, entries)
    assert sum(table) == prize
    assert all(isinstance(x, int) and x > 0 for x in table)
    assert table == sorted(table, reverse=True)
    assert len(table) <= max(1, entries)


@SETTINGS
@given(st.lists(st.integers(1, 10_000), min_size=1, max_size=40).map(
    lambda xs: sorted(xs, reverse=True)), st.data())
def test_tied_places_share_exactly_what_their_places_pay(payouts: list[int], data) -> None:
    n = data.draw(st.integers(1, len(payouts) + 3))
    place = data.draw(st.integers(1, len(payouts) + 3))
    prizes = split_ties(payouts, {f"p{i}": place for i in range(n)})
    assert sum(prizes.values()) == sum(payouts[place - 1: place - 1 + n])
    assert max(prizes.values()) - min(prizes.values()) <= 1


@SETTINGS
@given(st.dictionaries(st.integers(1, 10), st.integers(0, 2_000).map(lambda x: 25 * x),
                       min_size=2, max_size=10),
       st.sampled_from(["tda-2017", "tda-2015", "irish-open", "sheridans", "home-roberts"]),
       st.integers(0, 10 ** 6))
def test_colour_up_accounts_for_every_chip_and_races_nobody_out(
        stacks: dict[int, int], profile: str, seed: int) -> None:
    rules = load_profile(profile).chip_race
    res = colour_up(stacks, [25], 100, rules, random.Random(seed))
    assert sum(res.after.values()) == sum(stacks.values()) - res.removed
    assert all(v % 100 == 0 for v in res.after.values())
    assert all(res.after[s] > 0 for s, v in stacks.items() if v > 0)     # never raced out
    if rules.max_one_chip:
        assert all(n <= 1 for n in res.won.values())
    assert abs(res.removed) < 100 * len(stacks) + 100


@SLOW
@given(st.integers(1, 10_000), st.sampled_from(["fixed", "pko"]),
       st.sampled_from(["tda-2017", "home-roberts"]), st.integers(12, 60))
def test_whole_events_conserve_chips_and_account_for_every_bounty(
        seed: int, mode: str, profile: str, players: int) -> None:
    sim = Simulator(players, profile=profile, seed=seed, structure="turbo",
                    money={"buy_in": 100, "bounty": 40, "bounty_mode": mode},
                    chip_set=[25, 100, 500, 1000, 5000, 25000])
    res = sim.run()
    assert res.invariant_violations == 0, res.violations   # the sim checks chips each step
    tour = sim.tour
    assert tour is not None
    assert tour.chips == sim.bought - res.chips_removed == sim.bought - tour.chips_removed
    t = totals(tour)
    assert t["bounties_won"] + t["winner_keeps"] + t["bounty_unclaimed"] == t["bounty_pool"]
    assert t["bounty_unclaimed"] == 0                       # every bust named its eliminator
    assert sum(r["prize"] for r in res.results) == t["prize_pool"]
    # a bounty is never paid twice: one knockout per entry, and asking again is refused
    keys = [(e["player"], e["entry"]) for e in tour.knocked.values()]
    assert len(keys) == len(set(keys)) == sum(1 for _ in res.knockouts)
    loser = res.results[-1]["player"]
    winner = res.results[0]["player"]
    try:
        tour.execute({"kind": "set_eliminator", "player": loser, "eliminators": [winner]}, 1e9)
    except RuleError:
        pass
    else:
        raise AssertionError("a second payment of the same bounty was accepted")
    assert totals(tour)["bounties_won"] == t["bounties_won"]
