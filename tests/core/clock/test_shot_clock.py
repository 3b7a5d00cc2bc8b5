"""The shot clock (TDA RP-19) in the core: where the floor applies it, and each player's
time bank: cards handed in at the tables, given at levels and days, kept by the player
wherever balancing or a break moves them, counted once whatever is re-sent, and the same
after a replay."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from core_kit import Room, digest, flat_structure
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.base.errors import RuleError
from kiosk.core.event import plans
from kiosk.core.event.tournament import Tournament
from kiosk.rules.loader import load_profile
from kiosk.rules.profile import StallingRules

SHOT = {"seconds": 30, "bank_cards": 2, "bank_seconds": 30, "bank_levels": [3],
        "bank_days": [2]}


def room(players: int = 18, **shot: Any) -> Room:
    return Room(players, structure=flat_structure(minutes=20),
                shot_clock={**SHOT, **shot})


def use(r: Room, pid: str, rid: str | None = None) -> list[Any]:
    p = r.tour.players[pid]
    return r.report(p.table or 0, "time_bank", rid, seat=p.seat, player=pid,
                    hand=r.tour.tables[p.table or 0].hand)


def cards(r: Room, pid: str) -> int:
    """What the player's table reads of the player's bank in its plan."""
    p = r.tour.players[pid]
    seat = plans.plan(r.tour, p.table or 0)["seats"][p.seat]
    return int(seat["bank"])


def test_a_card_handed_in_is_logged_once_and_the_plan_shows_what_is_left() -> None:
    r = room()
    r.deal(1)
    pid = r.tour.tables[1].seat_of[min(r.tour.tables[1].seat_of)]
    assert cards(r, pid) == 2
    evs = use(r, pid, "tb1")
    assert [e.kind for e in evs] == ["time_bank_used"] and evs[0].seconds == 30
    assert cards(r, pid) == 1
    assert use(r, pid, "tb1") == []          # the same report again: applied already
    assert cards(r, pid) == 1
    use(r, pid)
    assert cards(r, pid) == 0
    with pytest.raises(RuleError, match="no time-bank card left"):
        use(r, pid)
    # a table cannot spend another table's player's cards
    other = next(iter(r.tour.tables[2].seat_of.values()))
    with pytest.raises(RuleError, match="is not at table 1"):
        r.report(1, "time_bank", seat=1, player=other)
    assert digest(r.replay()) == digest(r.tour)
    assert r.replay().shot_clock.used == r.tour.shot_clock.used


def test_cards_are_given_at_the_levels_and_days_the_settings_name() -> None:
    r = room(players=9)
    pid = "p1"
    use(r, pid)
    assert cards(r, pid) == 1
    r.do({"kind": "tick"}, dt=2 * 20 * 60 + 1)       # level 3: two more for everyone
    assert r.tour.shot_clock.granted() == 4
    assert cards(r, pid) == 3 and cards(r, "p2") == 4
    assert r.replay().shot_clock.granted() == 4


def test_a_bank_moves_with_its_player_when_the_table_breaks() -> None:
    r = room(players=19)        # 7, 6, 6: a six loses a player and breaks into 5 seats
    breaking = max(n for n in r.playing() if r.tour.tables[n].count == 6)
    r.deal(breaking)
    pid = r.tour.tables[breaking].seat_of[min(r.tour.tables[breaking].seat_of)]
    use(r, pid)
    r.bust(breaking, max(r.tour.tables[breaking].seat_of))
    r.do({"kind": "break_table", "table": breaking})
    r.end(breaking)
    p = r.tour.players[pid]
    assert p.table != breaking and r.tour.tables[breaking].broken
    assert cards(r, pid) == 1                   # the new table's plan has the bank
    r.arrive_all()
    use(r, pid)                                 # spent at the new table
    assert cards(r, pid) == 0
    with pytest.raises(RuleError, match="not in play"):   # the broken table says no more
        r.report(breaking, "time_bank", seat=1, player=pid)
    assert r.replay().shot_clock.used == r.tour.shot_clock.used


def test_a_re_entry_holds_a_fresh_bank_and_a_rebuy_keeps_its_own() -> None:
    r = room(players=10)
    pid = "p1"
    use(r, pid)
    use(r, pid)
    assert cards(r, pid) == 0
    r.do({"kind": "bust", "player": pid})
    r.do({"kind": "reenter", "player": pid})
    r.do({"kind": "seat_waiting"})
    assert cards(r, pid) == 2


def test_where_it_runs_is_the_floors_word_logged_and_checked() -> None:
    r = room()
    shot = r.tour.shot_clock
    tab = r.tour.tables[1]
    assert shot.applies_at(tab, 0, None)
    r.do({"kind": "shot_clock", "applies": "level", "from_level": 4, "by": "td"})
    assert not shot.applies_at(tab, 2, None) and shot.applies_at(tab, 3, None)
    assert plans.plan(r.tour, 1)["shot_clock"] == {
        "seconds": 30, "applies": "level", "from_level": 4, "bank_seconds": 30,
        "bank_cards": 2}
    r.do({"kind": "shot_clock", "applies": "final"})
    assert not shot.applies_at(tab, 5, None) and shot.applies_at(tab, 5, 1)
    with pytest.raises(RuleError, match="already runs at the final table only"):
        r.do({"kind": "shot_clock", "applies": "final"})
    with pytest.raises(RuleError, match="level 13 is not in flat"):
        r.do({"kind": "shot_clock", "applies": "level", "from_level": 13})
    r.do({"kind": "shot_clock", "applies": "off"})
    assert not shot.applies_at(tab, 0, 1)
    again = r.replay().shot_clock
    assert (again.applies, again.from_level) == ("off", 4)
    assert next((a.kind, a.by) for a in r.tour.audit if a.kind == "shot_clock_set") == (
        "shot_clock_set", "td")


def test_an_event_without_a_shot_clock_refuses_the_floor_and_the_tables() -> None:
    r = Room(9, structure=flat_structure())
    with pytest.raises(RuleError, match="has no shot clock"):
        r.do({"kind": "shot_clock", "applies": "event"})
    with pytest.raises(RuleError, match="has no time bank"):
        r.report(1, "time_bank", seat=1, player=r.tour.tables[1].seat_of.get(1, "p1"))
    assert "shot_clock" not in plans.plan(r.tour, 1)
    assert "bank" not in next(iter(plans.plan(r.tour, 1)["seats"].values()))


def test_a_shot_clock_that_ran_out_is_logged_with_the_dealers_ruling() -> None:
    r = room()
    r.deal(1)
    seat = min(r.tour.tables[1].seat_of)
    pid = r.tour.tables[1].seat_of[seat]
    evs = r.report(1, "shot_clock_out", seat=seat, player=pid, hand=1, outcome="dead")
    assert [(e.kind, e.outcome, e.player) for e in evs] == [("shot_clock_out", "dead", pid)]


@pytest.mark.parametrize(("shot", "problem"), [
    ({"seconds": 30, "bank_levels": [40], "bank_cards": 1}, "bank_levels: level 40 is not"),
    ({"seconds": 30, "applies": "level", "from_level": 13}, "from_level: level 13 is not"),
])
def test_a_shot_clock_the_structure_cannot_take_is_refused_at_creation(
        shot: dict[str, Any], problem: str) -> None:
    with pytest.raises(RuleError, match=problem):
        Tournament.create(event="x", structure=flat_structure(), shot_clock=shot)


def test_a_profile_without_a_shot_clock_refuses_one() -> None:
    prof = dataclasses.replace(load_profile("tda-2017"),
                               stalling=StallingRules(shot_clock=False, rule="H1"))
    with pytest.raises(RuleError, match=r"TDA 2017 has no shot clock \(rule H1\)"):
        Tournament.create(event="x", profile=prof, structure=flat_structure(),
                          shot_clock={"seconds": 30})
    Tournament.create(event="x", profile=prof, structure=flat_structure())   # none: fine


# ---------------------------------------------------------------- replays
Step = tuple[str, int]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["use", "resend", "tick", "hand", "bust"]),
                          st.integers(0, 30)), min_size=1, max_size=40))
def test_any_play_replays_to_the_same_banks(steps: list[Step]) -> None:
    """Cards handed in (some re-sent), levels passing, hands and busts moving players:
    the replayed banks are the live ones, and nobody holds more than was given."""
    r = room(players=20)
    sent: list[tuple[str, str]] = []
    for kind, n in steps:
        _step(r, kind, n, sent)
    again = r.replay()
    assert again.shot_clock.used == r.tour.shot_clock.used
    for p in r.tour.players.values():
        assert again.shot_clock.cards_left(p) == r.tour.shot_clock.cards_left(p)
        assert r.tour.shot_clock.cards_used(p) <= r.tour.shot_clock.granted()


def _step(r: Room, kind: str, n: int, sent: list[tuple[str, str]]) -> None:
    tour = r.tour
    seated = sorted(p.id for p in tour.players.values() if p.status == "seated")
    if not seated or tour.finished_at is not None:
        return
    pid = seated[n % len(seated)]
    try:
        if kind == "use":
            rid = f"u{len(sent)}"
            use(r, pid, rid)
            sent.append((pid, rid))
        elif kind == "resend" and sent:
            old_pid, rid = sent[n % len(sent)]
            p = tour.players[old_pid]
            if p.table is not None and not tour.tables[p.table].broken:
                r.report(p.table, "time_bank", rid, seat=p.seat or 1, player=old_pid)
        elif kind == "tick":
            r.do({"kind": "tick"}, dt=60 * n)
        elif kind == "hand":
            table = tour.players[pid].table or 0
            if not tour.holding(tour.tables[table]) and tour.tables[table].count >= 2:
                r.hand(table)
                r.arrive_all()
        elif kind == "bust" and tour.alive > 2:
            r.do({"kind": "bust", "player": pid})
            r.arrive_all()
    except RuleError:
        pass
