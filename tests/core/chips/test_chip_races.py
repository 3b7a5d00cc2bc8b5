"""Colour-up races by each profile's text, and the dealer's race with real cards.

Rules cited: TDA 2017 r.24 / TDA 2015 r.23 / Irish 23 (one card per odd chip from seat
1, at most one chip each, a player left with nothing gets one chip of the smallest
denomination left); Sheridan's r.13 (no race: odd chips round up); the home rules after
Roberts (each card in order wins a chip, a player with nothing after the race gets his
chip before anyone else is awarded one, half a chip or more left over wins one more).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from core_kit import Room
from hypothesis import given, settings
from hypothesis import strategies as st
from race_table import odd_turbo

from kiosk.base.errors import ConfigError, RuleError
from kiosk.config.files import load_event_config
from kiosk.core.chips.chips import check_winners, colour_up, draw, race, settle
from kiosk.core.event.plans import plan
from kiosk.core.event.tournament import Tournament
from kiosk.protocol.messages import ColourUpPlan, ProtocolError, encode, parse
from kiosk.rules.loader import load_profile
from kiosk.rules.structure_files import load_structure
from kiosk.sim.engine import Simulator

CHIP = 100
STACKS = st.dictionaries(st.integers(1, 10), st.integers(0, 400).map(lambda x: 25 * x),
                         min_size=2, max_size=10)
RACE = settings(max_examples=150, deadline=None)


def _drawn(profile: str, stacks: dict[int, int], seed: int):
    rules = load_profile(profile).chip_race
    r = race(stacks, [25], CHIP, rules)
    cards, winners = draw(r, random.Random(seed))
    assert check_winners(r, winners) == []       # the draw is an entry the director takes
    return r, settle(r, winners, cards)


def _odd(stacks: dict[int, int]) -> dict[int, int]:
    return {s: v % CHIP for s, v in stacks.items() if v % CHIP}


@pytest.mark.parametrize("profile", ["tda-2017", "tda-2015", "irish-open"])
@RACE
@given(stacks=STACKS, seed=st.integers(0, 10 ** 6))
def test_tda_and_irish_race_one_chip_each_and_nobody_raced_out(
        profile: str, stacks: dict[int, int], seed: int) -> None:
    r, res = _drawn(profile, stacks, seed)
    odd = _odd(stacks)
    assert set(res.cards) == set(odd) == set(r.deal_cards)
    assert all(len(res.cards[s]) == odd[s] // 25 for s in odd)   # a card per odd chip
    assert all(n == 1 for n in res.won.values())                 # at most one chip each
    assert sum(res.won.values()) == r.to_give                    # every chip raced off
    total = sum(odd.values())
    assert r.to_give == total // CHIP + (2 * (total % CHIP) >= CHIP)   # half: one more
    for s, v in stacks.items():
        assert res.after[s] % CHIP == 0 and res.after[s] >= v - v % CHIP
        assert (res.after[s] > 0) == (v > 0)                     # never raced out
        assert res.after[s] - (v - v % CHIP) <= CHIP             # one chip at most
    # the odd chips go, the race's chips and the rescue chips come in
    assert sum(res.after.values()) == sum(stacks.values()) - total + \
        CHIP * (r.to_give + len(res.rescued))
    assert all(stacks[s] < CHIP and s not in res.won for s in res.rescued)


@RACE
@given(stacks=STACKS, seed=st.integers(0, 10 ** 6))
def test_sheridans_rounds_every_odd_stack_up_and_deals_no_card(
        stacks: dict[int, int], seed: int) -> None:
    r, res = _drawn("sheridans", stacks, seed)
    assert (r.deal_cards, r.to_give, res.cards) == ({}, 0, {})
    assert res.after == {s: -(-v // CHIP) * CHIP for s, v in stacks.items()}


@RACE
@given(stacks=STACKS, seed=st.integers(0, 10 ** 6))
def test_home_race_by_card_as_written_and_never_rescue_plus_card(
        stacks: dict[int, int], seed: int) -> None:
    r, res = _drawn("home-roberts", stacks, seed)
    odd = _odd(stacks)
    assert r.to_give == sum(odd.values()) // CHIP + \
        (1 if 2 * (sum(odd.values()) % CHIP) >= CHIP else 0)    # half or more: one more
    for s in res.rescued:              # only a player with nothing after the race,
        assert stacks[s] < CHIP and res.won.get(s, 0) == 0      # never also by a card
        assert res.after[s] == CHIP
    assert all(res.after[s] > 0 for s, v in stacks.items() if v > 0)   # nobody out
    assert all(n <= r.deal_cards[s] for s, n in res.won.items())     # a chip per card
    # the rescue chips come out of the race's chips first; more only when it has too few
    given_out = sum(res.won.values()) + len(res.rescued)
    assert given_out == max(r.to_give, len(res.rescued))
    assert sum(res.after.values()) == sum(stacks.values()) - sum(odd.values()) + \
        CHIP * given_out
    kept = [s for s in res.winners if s not in res.rescued][:sum(res.won.values())]
    assert {s: kept.count(s) for s in kept} == res.won       # the best cards, in order


def test_home_rescued_player_no_longer_also_wins_with_his_card() -> None:
    """The bug: a player whose only chip was raced off got the rescue chip first and
    then won another with his card, ending with two."""
    rules = load_profile("home-roberts").chip_race
    stacks = {1: 25, 2: 1075, 3: 1050}      # 150 in odd chips: the race gives two
    seen = 0
    for seed in range(200):
        res = colour_up(stacks, [25], CHIP, rules, random.Random(seed))
        best = max(c for cards in res.cards.values() for c in cards)
        assert res.after[1] == CHIP, (seed, res)
        seen += best in res.cards[1]
    assert seen                            # seat 1's lone card was the best card
    r = race(stacks, [25], CHIP, rules)
    res = settle(r, [1, 2])                # his card wins: that is his one chip
    assert (res.after, res.rescued) == ({1: 100, 2: 1100, 3: 1000}, [])


# ----------------------------------------------------------------- the dealer's race
def _room(profile: str = "tda-2017", mode: str = "dealer") -> Room:
    return Room(20, profile=profile, structure=load_structure("standard"),
                money={"buy_in": 100}, chip_set=[25, 100, 500, 1000, 5000], chip_race=mode)


def _colour_up_count(room: Room, odd: dict[int, int]) -> dict[str, int]:
    """Jump to the break that takes the 25s off; every table counts, table 1 holding
    the `odd` extra chips by seat. Returns table 1's count."""
    tour = room.tour
    brk = [i for i, p in enumerate(tour.structure.periods) if p.is_break][1]
    room.do({"kind": "clock", "action": "jump", "period": brk})
    room.do({"kind": "tick"})
    r = tour.count_round
    assert (r["purpose"], r["removed"]) == ("colour_up", [25])
    tour.chips += sum(odd.values())      # (as if they had been bought in)
    missing = tour.chips - sum(tour.players[p].chips_bought for p in tour.players
                               if tour.players[p].table is not None)
    first = None
    for tid in r["tables"]:
        tab = tour.tables[tid]
        stacks = {str(s): tour.players[pid].chips_bought for s, pid in tab.seat_of.items()}
        if tid == 1:
            for s, n in odd.items():
                stacks[str(s)] += n
            first = dict(stacks)
        else:
            stacks[str(min(tab.seat_of))] += missing - sum(odd.values())
            missing = sum(odd.values())
        room.report(tid, "chip_count", round=r["round"], stacks=stacks)
    assert first is not None
    return first


def test_dealer_race_end_to_end_count_pending_entry_outcome() -> None:
    room = _room()
    tour = room.tour
    seats = sorted(tour.tables[1].seat_of)
    a, b, c = seats[:3]
    counted = _colour_up_count(room, {a: 75, b: 50, c: 25})   # 150: two chips of 100
    rnd = tour.count_round["round"]
    cu = plan(tour, 1)["colour_up"]
    assert cu["pending"] and cu["race"] == "dealer" and cu["after"] == {}
    assert cu["deal_cards"] == {str(a): 3, str(b): 2, str(c): 1}
    assert (cu["to_give"], cu["max_each"], cu["before"]) == (2, 1, counted)
    assert msgspec.convert(cu, ColourUpPlan, strict=False).pending   # the agreed shape
    assert 1 not in tour.colour_ups and tour.chips_removed == 0
    evs = room.report(1, "chip_race", round=rnd, winners=[c, a])   # c's card is best
    ev = next(e for e in evs if e["kind"] == "coloured_up")
    assert (ev["race"], ev["winners"], ev["cards"]) == ("dealer", [c, a], {})
    cu = plan(tour, 1)["colour_up"]
    assert not cu["pending"] and cu["winners"] == [c, a]
    assert cu["won"] == {str(c): 1, str(a): 1}
    assert cu["after"][str(c)] == counted[str(c)] - 25 + 100
    assert cu["after"][str(a)] == counted[str(a)] - 75 + 100
    assert cu["after"][str(b)] == counted[str(b)] - 50          # his card lost
    assert tour.chips_removed == 150 - 200
    assert tour.counts[1] == {int(s): v for s, v in cu["after"].items()}


def _pending(room: Room) -> dict:
    cu = plan(room.tour, 1)["colour_up"]
    assert cu["pending"]
    return cu


@pytest.mark.parametrize(("winners", "why"), [
    (lambda a, b, c, d: [d, d], "seat D wins at most 1 chip"),
    (lambda a, b, c, d: [a], "enter 2 winning cards, not 1"),
    (lambda a, b, c, d: [a, b, d], "not 3"),
    (lambda a, b, c, d: [a, c], "seat C holds no card"),
    # refused by the report's schema before the core sees it
    (lambda a, b, c, d: f"{a},{b}", "Expected `array`, got `str`"),
    (lambda a, b, c, d: [a, True], "Expected `int`, got `bool`"),
])
def test_a_wrong_race_entry_is_refused_with_a_reason_and_changes_nothing(
        winners: Callable[..., object], why: str) -> None:
    room = _room()
    tour = room.tour
    a, b, c, d = seats = sorted(tour.tables[1].seat_of)[:4]
    _colour_up_count(room, {a: 75, d: 50, b: 25})       # 150: two chips of 100
    before, n = _pending(room), len(room.events)
    why = why.replace("seat C", f"seat {c}").replace("seat D", f"seat {d}")
    with pytest.raises(RuleError, match=why):
        room.report(1, "chip_race", round=tour.count_round["round"], winners=winners(*seats))
    assert _pending(room) == before and len(room.events) == n and 1 not in tour.colour_ups


def test_race_entries_for_no_race_the_wrong_round_or_twice_are_refused() -> None:
    room = _room()
    tour = room.tour
    a, b = sorted(tour.tables[1].seat_of)[:2]
    with pytest.raises(RuleError, match="no colour-up race"):
        room.report(1, "chip_race", round=1, winners=[a])
    _colour_up_count(room, {a: 75, b: 75})
    rnd = tour.count_round["round"]
    with pytest.raises(RuleError, match=f"no colour-up race {rnd + 1}"):
        room.report(1, "chip_race", round=rnd + 1, winners=[a, b])
    room.report(1, "chip_race", round=rnd, winners=[b, a])
    with pytest.raises(RuleError, match="already settled"):
        room.report(1, "chip_race", round=rnd, winners=[a, b])
    assert tour.colour_ups[1]["winners"] == [b, a]


def test_home_dealer_race_lets_a_seat_win_once_per_card_and_rescues_first() -> None:
    room = _room("home-roberts")
    tour = room.tour
    a, b = sorted(tour.tables[1].seat_of)[:2]
    _colour_up_count(room, {a: 75, b: 75})    # 150: two chips; nobody at risk
    rnd = tour.count_round["round"]
    assert _pending(room)["max_each"] is None
    with pytest.raises(RuleError, match=f"seat {a} holds 3 cards, not 4"):
        room.report(1, "chip_race", round=rnd, winners=[a, a, a, a])
    room.report(1, "chip_race", round=rnd, winners=[a, a])   # his two cards are best
    assert tour.colour_ups[1]["won"] == {str(a): 2}


def test_a_race_with_nothing_for_the_cards_to_decide_does_not_wait() -> None:
    room = _room()
    tour = room.tour
    _colour_up_count(room, {})                  # every stack a multiple of 100
    assert 1 in tour.colour_ups and not plan(tour, 1)["colour_up"]["pending"]
    room2 = _room("sheridans")
    a = min(room2.tour.tables[1].seat_of)
    _colour_up_count(room2, {a: 25})            # Sheridan's: no race, rounded up
    cu = plan(room2.tour, 1)["colour_up"]
    assert not cu["pending"] and cu["won"] == {str(a): 1} and cu["deal_cards"] == {}


def test_draw_mode_races_at_once_as_before() -> None:
    room = _room(mode="draw")
    a, b = sorted(room.tour.tables[1].seat_of)[:2]
    _colour_up_count(room, {a: 75, b: 50})
    cu = plan(room.tour, 1)["colour_up"]
    assert cu["race"] == "draw" and not cu["pending"] and len(cu["winners"]) == 1
    assert sum(len(c) for c in cu["cards"].values()) == 5


def test_the_chip_race_report_crosses_the_wire_as_agreed() -> None:
    raw = encode({"v": 2, "table": 1, "id": "r9", "seq": 3, "ts": 0, "kind": "chip_race",
                  "data": {"round": 2, "winners": [3, 1]}})
    assert parse("report", raw).data.winners == [3, 1]
    for bad in ({"round": 2, "winners": [11]}, {"round": 2}, {"winners": [1]}):
        with pytest.raises(ProtocolError, match=r"winners|round"):
            parse("report", encode({"v": 2, "table": 1, "id": "r9", "seq": 3, "ts": 0,
                                  "kind": "chip_race", "data": bad}))


def test_config_chip_race_defaults_to_the_dealer(tmp_path: Path) -> None:
    path = tmp_path / "event.toml"
    path.write_text('[event]\nname = "e1"\n')
    assert load_event_config(path).chip_race == "dealer"
    path.write_text('[event]\nname = "e1"\n[money]\nchip_race = "draw"\n')
    assert load_event_config(path).chip_race == "draw"
    path.write_text('[event]\nname = "e1"\n[money]\nchip_race = "cards"\n')
    with pytest.raises(ConfigError, match="chip_race"):
        load_event_config(path)


def test_a_pending_race_and_its_outcome_survive_a_replay() -> None:
    room = _room("home-roberts")
    a, b = sorted(room.tour.tables[1].seat_of)[:2]
    _colour_up_count(room, {a: 75, b: 25})
    pending_plan = plan(room.tour, 1)["colour_up"]
    assert plan(Tournament.replay(room.events), 1)["colour_up"] == pending_plan
    room.report(1, "chip_race", round=room.tour.count_round["round"], winners=[b])
    settled = plan(room.tour, 1)["colour_up"]
    assert settled["after"][str(b)] % CHIP == 0 and not settled["pending"]
    assert plan(Tournament.replay(room.events), 1)["colour_up"] == settled


def test_a_table_owing_its_race_is_named_not_flagged_for_its_odd_chips() -> None:
    """Before the dealer's race a table's stacks still hold the chips that leave: the
    reconciliation says the race is pending there, and flags nothing else."""
    room = _room()
    tour = room.tour
    a, b = sorted(tour.tables[1].seat_of)[:2]
    _colour_up_count(room, {a: 75, b: 50})
    rec = tour.reconciliation()
    assert rec.races_pending == [1] and rec.flags == {} and not rec.ok
    assert rec.difference == 0 and rec.to_dict()["races_pending"] == [1]
    room.report(1, "chip_race", round=tour.count_round["round"], winners=[a])
    rec = tour.reconciliation()
    assert (rec.races_pending, rec.flags, rec.ok) == ([], {}, True)


@pytest.mark.parametrize("profile", ["tda-2017", "home-roberts"])
def test_the_simulated_dealers_run_the_race_their_plan_asks_for(profile: str) -> None:
    sim = Simulator(40, profile=profile, seed=3, structure=odd_turbo(),
                    chip_set=[25, 100, 500, 1000, 5000, 25000], chip_race="dealer")
    log: list = []
    decide = sim.execute

    def logged(cmd: Any, t: float) -> list:
        log.extend(events := decide(cmd, t))
        return events

    sim.field.execute = logged      # type: ignore[attr-defined]   (the LocalField's)
    res = sim.run()
    tour = sim.tour
    assert tour is not None and res.invariant_violations == 0, res.violations
    races = [e for e in log if e["kind"] == "coloured_up"]
    entered = [e for e in races if e["winners"] and not e["cards"]]   # the dealer's entry
    assert entered and all(e["race"] == "dealer" for e in races)
    counted = {(e["table"], e["round"]) for e in log if e["kind"] == "chips_counted"}
    assert counted == {(e["table"], e["round"]) for e in races}        # none left owed
    assert res.chips_removed == tour.chips_removed
    assert tour.chips == sim.bought - tour.chips_removed
