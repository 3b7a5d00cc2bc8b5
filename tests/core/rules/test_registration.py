"""Late registration per profile: TDA until a level, Irish r.71 to the end of level 4
and through the following break, Sheridan's r.3 until the blinds have gone up twice with
five big blinds docked; home-game rebuys when busted in the rebuy period."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure, seating_problems

from kiosk.base.errors import RuleError
from kiosk.core.model.registration import late_reg_open, late_stack
from kiosk.rules.loader import load_profile

# L1 L2 L3 L4 break L5 L6 L7 ... each level 20 minutes, break 10
S = flat_structure(levels=10, minutes=20, breaks_after=(4,))
MIN = 60.0


def _open(profile: str, minute: float) -> bool:
    room = Room(0, profile=profile, structure=S)
    period = room.tour.clock.start(0.0).read(S, minute * MIN).period
    return late_reg_open(load_profile(profile).late_reg, S, period, started=True)


def test_tda_open_through_level_6() -> None:
    # level 6 runs from minute 110 (four levels, the break, level 5) to 130
    assert _open("tda-2017", 129.9) and not _open("tda-2017", 130.1)


def test_irish_open_to_end_of_level_4_and_through_the_break() -> None:
    assert _open("irish-open", 79.9)
    assert _open("irish-open", 85)              # the break after level 4
    assert not _open("irish-open", 90.1)        # play resumed: closed


def test_irish_without_a_break_after_level_4_closes_at_its_end() -> None:
    s = flat_structure(levels=8, minutes=20, breaks_after=(5,))
    rules = load_profile("irish-open").late_reg
    assert late_reg_open(rules, s, 3, True) and not late_reg_open(rules, s, 4, True)


def test_sheridans_open_until_blinds_raised_twice() -> None:
    assert _open("sheridans", 39.9)             # level 2: raised once
    assert not _open("sheridans", 40.1)         # level 3: raised twice


def test_sheridans_stack_is_docked_five_big_blinds() -> None:
    rules = load_profile("sheridans").late_reg
    assert late_stack(rules, 10000, 200) == 9000
    assert late_stack(rules, 1000, 400) == 400      # never below one big blind
    assert late_stack(load_profile("tda-2017").late_reg, 10000, 200) == 10000


def test_everyone_registers_before_the_start() -> None:
    assert late_reg_open(load_profile("sheridans").late_reg, S, 9, started=False)


def test_late_player_gets_a_seat_at_a_short_table_and_a_docked_stack() -> None:
    room = Room(17, profile="sheridans", structure=S)       # 9 and 8
    room.t = 25 * MIN                                          # level 2: 100/200
    [reg, seated] = room.do({"kind": "register", "name": "Late", "player": "late"})
    assert reg["stack"] == 10000 - 5 * 200
    assert seated["kind"] == "seated" and seated["table"] == 2
    assert not seating_problems(room.tour)
    room.t = 41 * MIN
    with pytest.raises(RuleError, match="closed"):
        room.do({"kind": "register", "name": "Later"})


def test_sheridans_no_more_entries_than_stacks_carried() -> None:
    room = Room(0, profile="sheridans", structure=S)
    room.tour.max_entries = 3
    for i in range(3):
        room.do({"kind": "register", "name": f"P{i}"})
    with pytest.raises(RuleError, match="no stacks left"):
        room.do({"kind": "register", "name": "P4"})


@pytest.mark.parametrize(("profile", "waits"), [("tda-2017", False), ("tda-2015", False),
                                               ("irish-open", False), ("sheridans", True)])
def test_new_player_on_the_dead_button(profile: str, waits: bool) -> None:
    """TDA 2017/2015 and Irish r.9: a player arriving in the seat the (dead) button
    moves to is dealt in at once. Sheridan's r.10: they wait for the button to pass."""
    room = Room(16, profile=profile, structure=S)              # 8 and 8
    tour = room.tour
    pos = room.deal(1)
    room.bust(1, pos.sb)                                      # the button moves onto it
    room.end(1)
    newcomer = tour.tables[2].seat_of[min(tour.tables[2].seat_of)]
    room.do({"kind": "move", "player": newcomer, "table": 1, "seat": pos.sb})
    room.arrive_all()
    nxt = room.deal(1)
    assert nxt.button == pos.sb
    assert (pos.sb in nxt.waiting) == waits and (pos.sb in nxt.dealt) != waits
    assert tour.tables[1].positions.waiting == ((pos.sb,) if waits else ())
    room.end(1)
    assert pos.sb in room.deal(1).dealt


def test_home_rebuy_before_the_next_deal_keeps_the_seat() -> None:
    """Home rebuy rules: a player who re-buys before the next deal is playing behind
    in their own seat (a player due a blind who does not re-buy is treated as not
    there); they are not re-seated at random and post the blind they were due."""
    room = Room(12, profile="home-roberts", structure=S)
    tour = room.tour
    room.hand(1)
    tab = tour.tables[1]
    due = tour.due_big_blind(tab)
    assert due is not None
    pid = tab.seat_of[due]
    room.hand(2)
    room.deal(1)
    room.bust(1, due)
    room.end(1)
    evs = room.do({"kind": "rebuy", "player": pid})
    [seated] = [e for e in evs if e["kind"] == "seated"]
    assert (seated["table"], seated["seat"], seated["same_seat"]) == (1, due, True)
    assert due not in tab.new_seats       # not a newcomer: dealt in at once
    nxt = room.deal(1)
    assert due in nxt.dealt
    # after the next deal has begun the seat is no longer theirs: a random seat
    room.bust(1, due)
    room.end(1)
    room.deal(1)
    evs = room.do({"kind": "rebuy", "player": pid})
    [seated] = [e for e in evs if e["kind"] == "seated"]
    assert not seated.get("same_seat")


def test_home_game_rebuy_when_busted_in_the_rebuy_period() -> None:
    room = Room(12, profile="home-roberts", structure=S)
    tour = room.tour
    pid = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    room.hand(1, busts=(min(tour.tables[1].seat_of),))
    assert tour.players[pid].status == "busted" and tour.alive == 11
    evs = room.do({"kind": "rebuy", "player": pid})
    assert [e["kind"] for e in evs][:2] == ["rebuy", "seated"]
    assert tour.players[pid].status == "seated" and tour.alive == 12
    assert pid not in tour.places() and tour.entries == 13 and tour.chips == 13 * 10000
    # a player with chips cannot rebuy, and the period ends after level 4
    with pytest.raises(RuleError, match="empty stack"):
        room.do({"kind": "rebuy", "player": pid})
    other = tour.tables[2].seat_of[min(tour.tables[2].seat_of)]
    room.hand(2, busts=(min(tour.tables[2].seat_of),))
    room.t = 80.5 * MIN
    with pytest.raises(RuleError, match="rebuy period"):
        room.do({"kind": "rebuy", "player": other})


def test_tda_has_no_rebuy_but_reentry_while_late_reg_is_open() -> None:
    room = Room(12, structure=S)
    tour = room.tour
    pid = tour.tables[1].seat_of[min(tour.tables[1].seat_of)]
    room.hand(1, busts=(min(tour.tables[1].seat_of),))
    with pytest.raises(RuleError, match="no rebuys"):
        room.do({"kind": "rebuy", "player": pid})
    evs = room.do({"kind": "reenter", "player": pid})
    assert evs[0]["kind"] == "reentered" and tour.players[pid].entries == 2
    assert tour.players[pid].status == "seated"


def test_sheridans_has_no_reentry() -> None:
    room = Room(12, profile="sheridans", structure=S)
    pid = room.tour.tables[1].seat_of[min(room.tour.tables[1].seat_of)]
    room.hand(1, busts=(min(room.tour.tables[1].seat_of),))
    with pytest.raises(RuleError, match="no re-entry"):
        room.do({"kind": "reenter", "player": pid})


@pytest.mark.parametrize("seed", range(1, 8))
def test_home_rebuy_after_busting_in_the_big_blind_does_not_pay_it_twice(seed: int) -> None:
    """Home rebuy rules (playing behind; no dead button): the big blind busts and
    re-buys before the next deal. Keeping the seat, the button moves on past them and
    they are dealt in without the big blind again; a random re-seat could land them on
    the next big blind."""
    room = Room(12, profile="home-roberts", structure=S, seed=seed)
    tour = room.tour
    pos = room.deal(1)
    pid = tour.tables[1].seat_of[pos.bb]
    room.bust(1, pos.bb)
    room.end(1)
    room.do({"kind": "rebuy", "player": pid})
    assert room.seat_of(pid) == (1, pos.bb)
    nxt = room.deal(1)
    assert nxt.bb != pos.bb and pos.bb in nxt.dealt
