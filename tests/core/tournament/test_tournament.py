"""The tournament as a fold of events: replays match the live object, the same seed
gives the same events, and a command the rules refuse raises RuleError and changes
nothing. Also clock calls per profile and table undo."""

from __future__ import annotations

from typing import Any

import pytest
from core_kit import PROFILES, Room, digest, flat_structure, seating_problems
from fuzzing import WRONG_HANDS

from kiosk.base.errors import RuleError
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import BUSTED


def _play(profile: str = "tda-2017", seed: int = 3, players: int = 30) -> Room:
    """A short tournament with busts, balancing, a break and some floor activity."""
    room = Room(players, profile=profile, seed=seed, structure=flat_structure())
    tour = room.tour
    step = 0
    while tour.alive > 8:
        step += 1
        for tid in room.playing():
            if tour.holding(tour.tables[tid]) or tour.tables[tid].count < 2:
                continue
            seats = sorted(tour.tables[tid].seat_of)
            bust = (seats[step % len(seats)],) if (step + tid) % 3 == 0 else ()
            room.hand(tid, busts=bust, dt=30)
            if tour.alive <= 8:
                break
        room.arrive_all()
        room.do({"kind": "tick"}, dt=10)
    return room


@pytest.mark.parametrize("profile", PROFILES)
def test_replay_gives_the_live_state(profile: str) -> None:
    room = _play(profile)
    live = room.tour
    again = room.replay()
    assert digest(again) == digest(live)
    assert again.balancer.count == live.balancer.count
    assert again.places() == live.places() and len(live.places()) == 22
    assert not seating_problems(again)


def test_replay_then_carry_on_gives_the_same_decisions() -> None:
    room = _play()
    again = room.replay()
    live_tab = min(room.playing())
    cmd_busts = sorted(room.tour.tables[live_tab].seat_of)[:2]
    out = []
    for tour in (room.tour, again):
        tab = tour.tables[live_tab]
        pos = tab.positions
        for i, seat in enumerate(cmd_busts):
            rep = {"id": f"x{i}", "table": live_tab, "kind": "bust",
                   "data": {"seat": seat, "player": tab.seat_of[seat]}}
            if i == 0 and not tab.in_hand:
                tour.execute({"kind": "report", "table": live_tab, "report": {
                    "id": "xh", "table": live_tab, "kind": "hand_started",
                    "data": {"hand": tab.hand + 1, "button": pos.button, "sb": pos.sb,
                             "bb": pos.bb, "dealt": sorted(tab.seat_of)}}}, room.t)
            out.append(tour.execute({"kind": "report", "table": live_tab, "report": rep},
                                    room.t))
    half = len(out) // 2
    assert out[:half] == out[half:]
    assert digest(room.tour) == digest(again)


def test_same_seed_same_events_other_seed_other_draw() -> None:
    a, b, c = _play(seed=5).events, _play(seed=5).events, _play(seed=6).events
    assert a == b
    assert a != c


def test_seat_draw_is_random_but_balanced() -> None:
    room = Room(50, seed=9)
    counts = sorted(t.count for t in room.tour.active_tables())
    assert counts == [8, 8, 8, 8, 9, 9]
    assert not seating_problems(room.tour)
    assert Room(50, seed=9).events == room.events


# ---------------------------------------------------------------- refused commands


def _refused(room: Room, cmd: dict[str, Any]) -> RuleError:
    before = digest(room.tour)
    n = room.tour.n_events
    with pytest.raises(RuleError) as info:
        room.tour.execute(cmd, room.t)
    assert digest(room.tour) == before and room.tour.n_events == n
    return info.value


def _rep(table: int, kind: str, rid: str = "bad", **data: Any) -> dict[str, Any]:
    return {"kind": "report", "table": table,
            "report": {"id": rid, "table": table, "kind": kind, "data": data}}


@pytest.fixture
def midhand() -> Room:
    room = Room(18, structure=flat_structure())
    room.deal(1)
    return room


def test_unknown_player_is_refused(midhand: Room) -> None:
    assert "unknown player" in str(_refused(midhand, {"kind": "bust", "player": "ghost"}))
    _refused(midhand, {"kind": "move", "player": 17, "table": 2})


def test_seat_taken_is_refused(midhand: Room) -> None:
    tab2 = midhand.tour.tables[2]
    pid = midhand.tour.tables[1].seat_of[min(midhand.tour.tables[1].seat_of)]
    err = _refused(midhand, {"kind": "move", "player": pid, "table": 2,
                             "seat": min(tab2.seat_of)})
    assert "not free" in str(err)
    _refused(midhand, {"kind": "move", "player": pid, "table": 2, "seat": 10})


def test_duplicate_report_id_returns_no_events(midhand: Room) -> None:
    tab = midhand.tour.tables[1]
    seat = min(tab.seat_of)
    first = midhand.report(1, "all_in", rid="dup", seat=seat, hand=1)
    assert first and first[0]["kind"] == "all_in"
    before = digest(midhand.tour)
    assert midhand.report(1, "all_in", rid="dup", seat=seat, hand=1) == []
    assert digest(midhand.tour) == before


def test_a_report_resent_after_its_table_broke_is_a_duplicate() -> None:
    room = Room(20, structure=flat_structure())
    tour = room.tour
    for tid in room.playing():
        room.deal(tid)
    first, second, *_ = sorted(tour.tables[1].seat_of)
    room.bust(1, first)
    room.report(1, "bust", rid="late", seat=second, player=tour.tables[1].seat_of[second])
    room.end(1)
    assert tour.tables[1].broken
    before = digest(tour)
    assert room.report(1, "bust", rid="late", seat=second, player="p0") == []
    assert digest(tour) == before
    with pytest.raises(RuleError, match="not in play"):   # a new report is still refused
        room.report(1, "floor_call", rid="new", seat=second)


def test_report_naming_another_table_is_refused(midhand: Room) -> None:
    cmd = _rep(1, "all_in", seat=1, hand=1)
    cmd["report"]["table"] = 2
    assert "came from table 1" in str(_refused(midhand, cmd))


def test_hand_ended_for_a_hand_not_started_is_refused(midhand: Room) -> None:
    _refused(midhand, _rep(2, "hand_ended", hand=1))
    _refused(midhand, _rep(1, "hand_ended", hand=5))


def test_hand_started_twice_is_refused(midhand: Room) -> None:
    _refused(midhand, _rep(1, "hand_started", hand=2, button=1, sb=2, bb=3, dealt=[1, 2, 3]))


@pytest.mark.parametrize(("dealt", "why"), [
    ([], "deals no one"),
    ([3], "deals one player: a hand needs two"),
    (["empty", 2, 3], "seat {empty} is empty"),
    ([1, 2], "the big blind (seat 3) is not dealt in"),
])
def test_a_hand_that_deals_no_one_an_empty_seat_or_no_big_blind_is_refused(
        dealt: list[Any], why: str) -> None:
    """A table's hand_started names who is dealt in: nobody, a seat nobody sits in, or a
    hand whose big blind sits out cannot be a hand of this table. Refused with the reason,
    nothing changed; the table can deal the hand right afterwards."""
    room = Room(16, structure=flat_structure())          # eight a table: one seat empty
    tab = room.tour.tables[1]
    empty = next(s for s in range(1, tab.seats + 1) if s not in tab.seat_of)
    seats = sorted(tab.seat_of)
    dealt = [empty if s == "empty" else seats[s - 1] for s in dealt]
    pos = room.positions(1)
    data = {"hand": 1, "button": seats[0], "sb": seats[1], "bb": seats[2], "dealt": dealt}
    err = _refused(room, _rep(1, "hand_started", **data))
    assert str(err) == "table 1 hand 1 refused: " + why.format(empty=empty)
    room.deal(1, pos)
    assert tab.in_hand and tab.hand == 1


def test_the_fuzzers_impossible_hands_are_each_refused_with_the_reason() -> None:
    """tests/fuzzing.py's hands that fit the schema, far ahead in number, at a full table
    of nine and at a full ten-seat table (a final table) between hands: what each deals
    is the only thing wrong, and it is refused."""
    for players, seats in ((18, 9), (20, 10)):
        room = Room(players, seats=seats, structure=flat_structure())
        assert len(room.tour.tables[1].seat_of) == seats
        for n, wrong in enumerate(WRONG_HANDS):
            err = _refused(room, _rep(1, "hand_started", rid=f"w{n}", hand=10**6, **wrong))
            assert str(err).startswith("table 1 hand 1000000 refused: ")


def test_all_in_twice_for_one_seat_is_refused(midhand: Room) -> None:
    seat = min(midhand.tour.tables[1].seat_of)
    midhand.report(1, "all_in", seat=seat, hand=1)
    assert "already all-in" in str(_refused(midhand, _rep(1, "all_in", seat=seat, hand=1)))


def test_bust_naming_the_wrong_player_or_an_empty_seat_is_refused(midhand: Room) -> None:
    tab = midhand.tour.tables[1]
    s1, s2 = sorted(tab.seat_of)[:2]
    _refused(midhand, _rep(1, "bust", seat=s1, player=tab.seat_of[s2]))
    _refused(midhand, _rep(1, "bust", seat=10, player="p1"))       # no such seat
    _refused(midhand, _rep(1, "bust", seat="1", player="p1"))


def test_other_refusals(midhand: Room) -> None:
    _refused(midhand, {"kind": "dance"})
    _refused(midhand, {"kind": "start"})
    _refused(midhand, {"kind": "register", "name": "  "})
    _refused(midhand, {"kind": "register", "name": "Dup", "player": "p1"})
    _refused(midhand, {"kind": "clock", "action": "jump", "period": 99})
    _refused(midhand, {"kind": "unbust", "player": "p1"})
    _refused(midhand, _rep(7, "all_in", seat=1, hand=1))


# ---------------------------------------------------------------- undo and unbust


def test_undo_a_bust_puts_the_player_back_in_the_same_seat(midhand: Room) -> None:
    tab = midhand.tour.tables[1]
    seat = min(tab.seat_of)
    pid = tab.seat_of[seat]
    midhand.bust(1, seat)
    bust_rid = f"r{midhand.rid}"
    assert midhand.tour.players[pid].status == BUSTED and pid in midhand.tour.places()
    midhand.report(1, "undo", report=bust_rid)
    assert midhand.seat_of(pid) == (1, seat) and pid not in midhand.tour.places()
    assert midhand.tour.alive == 18
    _refused(midhand, _rep(1, "undo", report=bust_rid))


# ---------------------------------------------------------------- clock calls


@pytest.mark.parametrize(("profile", "seconds", "countdown", "approved"), [
    ("tda-2017", 25, 5, False), ("tda-2015", 50, 10, False), ("irish-open", 50, 10, False),
    ("sheridans", 30, 0, True), ("home-roberts", 60, 10, False)])
def test_clock_call_per_profile(profile: str, seconds: int, countdown: int,
                                approved: bool) -> None:
    room = Room(9, profile=profile, structure=flat_structure())
    seat = min(room.tour.tables[1].seat_of)
    [ev] = room.report(1, "clock_call", seat=seat)
    assert (ev["seconds"], ev["countdown"], ev["approved"]) == (seconds, countdown, approved)


def test_irish_clock_approved_only_after_two_minutes() -> None:
    room = Room(9, profile="irish-open", structure=flat_structure())
    [ev] = room.report(1, "clock_call", seat=min(room.tour.tables[1].seat_of))
    room.t += 119
    err = _refused(room, {"kind": "clock_approve", "call": ev["call"]})
    assert "1 s to go" in str(err)
    room.t += 1
    [ok] = room.do({"kind": "clock_approve", "call": ev["call"], "by": "floor"})
    assert ok["kind"] == "clock_approved"
    assert room.tour.clock_calls[ev["call"]].state == "approved"


def test_tda_clock_may_be_approved_at_once() -> None:
    room = Room(9, structure=flat_structure())
    [ev] = room.report(1, "clock_call", seat=min(room.tour.tables[1].seat_of))
    assert room.do({"kind": "clock_approve", "call": ev["call"]})[0]["kind"] == \
        "clock_approved"


def test_call_commands_name_a_call_at_the_right_step_or_are_refused() -> None:
    room = Room(9, structure=flat_structure())
    seat = min(room.tour.tables[1].seat_of)
    [floor] = room.report(1, "floor_call", seat=seat)
    [clock] = room.report(1, "clock_call", seat=seat)
    assert "floor call 'nope' is not waiting for the floor" in str(
        _refused(room, {"kind": "floor_ack", "call": "nope"}))
    room.do({"kind": "floor_ack", "call": floor["call"], "by": "floor"})
    assert room.tour.floor_calls[floor["call"]].state == "acked"
    assert "is not waiting for the floor" in str(
        _refused(room, {"kind": "floor_ack", "call": floor["call"]}))
    room.do({"kind": "floor_resolve", "call": floor["call"], "note": "ruled"})
    assert room.tour.floor_calls[floor["call"]].note == "ruled"
    assert f"floor call {floor['call']!r} is not open" in str(
        _refused(room, {"kind": "floor_resolve", "call": floor["call"]}))
    room.do({"kind": "clock_cancel", "call": clock["call"]})
    assert room.tour.clock_calls[clock["call"]].state == "done"
    assert f"clock call {clock['call']!r} is not running" in str(
        _refused(room, {"kind": "clock_cancel", "call": clock["call"]}))
    assert "is not waiting for approval" in str(
        _refused(room, {"kind": "clock_approve", "call": clock["call"]}))


# ---------------------------------------------------------------- heads-up (TDA 34)


def test_heads_up_to_a_winner() -> None:
    room = Room(3, structure=flat_structure())
    tour = room.tour
    pos = room.deal(1)
    room.bust(1, pos.button)                 # three-handed -> heads-up
    room.end(1)
    hu = room.deal(1)
    assert hu.button == hu.sb and hu.bb != pos.bb
    room.end(1)
    hu2 = room.deal(1)
    assert (hu2.button, hu2.bb) == (hu.bb, hu.button)
    [_, fin] = room.bust(1, hu2.bb)
    assert fin["kind"] == "finished" and fin["winner"] == tour.tables[1].seat_of[hu2.sb]
    assert sorted(tour.places().values()) == [1, 2, 3]
    _refused(room, _rep(1, "hand_ended", hand=99))


def test_tournament_needs_two_players_and_sane_seats() -> None:
    room = Room(1, start=False)
    _refused(room, {"kind": "start"})
    with pytest.raises(RuleError):
        Tournament.create(event="x", structure=flat_structure(), seats=11)


def test_undoing_the_bust_that_made_the_final_table_calls_the_final_off() -> None:
    """The bust that brings the field to the final-table size orders the final draw; if
    the table undoes that bust (a wrong report), eleven players are alive again: the
    final table is called off and everyone stays seated where they were."""
    room = Room(11, structure=flat_structure())          # 6 and 5 at two tables
    tour = room.tour
    room.deal(1)
    room.deal(2)
    room.bust(1, min(tour.tables[1].seat_of))
    bust_rid = f"r{room.rid}"
    assert tour.final_pending                              # ten left: final draw ordered
    room.report(1, "undo", report=bust_rid)
    assert tour.alive == 11
    room.end(1)
    room.end(2)
    assert not tour.final_pending
    assert not seating_problems(tour) and tour.alive == 11
    assert sorted(t.count for t in tour.active_tables()) == [5, 6]


def _h4h_down_to_the_final_table() -> tuple[Room, str]:
    """A room's event (tables 1 to 3 granted) whose table 1 broke early, then played
    hand-for-hand to its final table, drawn at table 2; the last player out."""
    room = Room(20, pool=True, start=False, structure=flat_structure())
    tour = room.tour
    room.do({"kind": "grant_tables", "tables": [1, 2, 3]})
    room.do({"kind": "start"})
    for _ in range(2):                        # table 1 loses two: eighteen fit two tables
        room.hand(1, busts=(min(tour.tables[1].seat_of),))
    room.arrive_all()
    assert room.playing() == [2, 3]
    room.do({"kind": "h4h", "on": True})
    last = ""
    while tour.alive > 10:
        for tid in sorted(tour.h4h_waiting):
            room.deal(tid)
        for tid in sorted(tour.h4h_waiting):
            if tour.alive > 10:
                last = tour.tables[tid].seat_of[min(tour.tables[tid].seat_of)]
                room.bust(tid, min(tour.tables[tid].seat_of))
            room.end(tid)
        room.arrive_all()
    assert room.playing() == [2] and tour.final_table == 2 and tour.h4h_waiting == {2}
    return room, last


def test_hand_for_hand_plays_on_at_a_final_table_drawn_anew_at_another_table() -> None:
    """Soak seed 5046: hand-for-hand at the final table; the floor takes the last bust
    back during a hand (eleven alive: the idle table 1 opens for him) and gives it again
    (the final draw is ordered anew, at table 1). When the hand ends everyone is drawn to
    table 1 and table 2 breaks: the next round deals at table 1, never waiting for the
    broken one."""
    room, last = _h4h_down_to_the_final_table()
    tour = room.tour
    room.deal(2)
    room.do({"kind": "unbust", "player": last})
    assert room.playing() == [1, 2]
    room.do({"kind": "bust", "player": last})
    assert tour.final_pending and tour.final_table == 1
    room.end(2)
    room.arrive_all()
    assert room.playing() == [1] and tour.alive == 10
    assert tour.h4h_on and tour.h4h_waiting == {1}
    assert not tour.holding(tour.tables[1]), tour.hold_reason(tour.tables[1])
    room.hand(1, busts=(min(tour.tables[1].seat_of),))   # and the rounds go on
    assert tour.h4h_waiting == {1} and tour.alive == 9
    assert digest(room.replay()) == digest(tour)


def test_a_round_of_hand_for_hand_never_waits_for_a_table_that_broke() -> None:
    """Eleven left, hand-for-hand: table 1 has played the round's hand, table 2 not yet
    when the floor busts a player there (a bust the table never reported). Ten fit the
    final table: they are drawn to table 1 at once and table 2 breaks. The next round
    starts there and then, at table 1."""
    room = Room(11, structure=flat_structure())          # 6 and 5 at two tables
    tour = room.tour
    room.do({"kind": "h4h", "on": True})
    assert tour.h4h_waiting == {1, 2}
    room.hand(1)
    assert tour.h4h_waiting == {2}
    room.do({"kind": "bust", "player": tour.tables[2].seat_of[min(tour.tables[2].seat_of)]})
    room.arrive_all()
    assert room.playing() == [1] and tour.alive == 10
    assert tour.h4h_waiting == {1}, f"round {tour.h4h_round} waits for {tour.h4h_waiting}"
    assert not tour.holding(tour.tables[1]), tour.hold_reason(tour.tables[1])
    assert digest(room.replay()) == digest(tour)
