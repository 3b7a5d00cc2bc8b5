"""The tournament clock: levels and breaks roll over on time, pauses hold, and
hand-for-hand takes two minutes off per hand (TDA RP-8B)."""

from __future__ import annotations

import pytest
from core_kit import Room, digest, flat_structure

from kiosk.core.calc.clock import Clock, format_clock, raises_so_far

S = flat_structure(levels=4, minutes=20, breaks_after=(2,))   # L1 L2 break L3 L4


def test_levels_roll_into_the_break_and_on() -> None:
    c = Clock.start(1000.0)
    assert c.read(S, 1000.0 + 19 * 60).remaining == 60
    r = c.read(S, 1000.0 + 41 * 60)          # one minute into the break
    assert (r.period, r.remaining) == (2, 9 * 60) and S.periods[r.period].is_break
    r = c.read(S, 1000.0 + 50 * 60)          # play resumes: level 3
    assert (r.period, r.remaining, S.level_number(r.period)) == (3, 20 * 60, 3)


def test_clock_finishes_after_the_last_period() -> None:
    r = Clock.start(0.0).read(S, 10 * 3600)
    assert r.finished and r.remaining == 0 and r.period == len(S.periods) - 1


def test_pause_holds_and_resume_continues() -> None:
    c = Clock.start(0.0).pause(S, 300.0)
    assert c.read(S, 5000.0).remaining == 15 * 60 and c.read(S, 5000.0).paused
    c = c.resume(S, 5000.0)
    assert c.read(S, 5060.0).remaining == 14 * 60


def test_set_below_zero_rolls_into_the_next_period() -> None:
    c = Clock.start(0.0).set_remaining(S, 0.0, -60)
    r = c.read(S, 0.0)
    assert (r.period, r.remaining) == (1, 19 * 60)


def test_add_time_and_jump() -> None:
    c = Clock.start(0.0).add_time(S, 60.0, 120)
    assert c.read(S, 60.0).remaining == 21 * 60
    assert Clock.start(0.0).jump(S, 100.0, 3).read(S, 160.0).remaining == 19 * 60


def test_anchor_survives_a_round_trip_through_json() -> None:
    c = Clock.start(12.5).pause(S, 100.0)
    assert Clock.from_dict(c.to_dict()) == c


def test_raises_so_far_ignores_breaks() -> None:
    assert [raises_so_far(S, i) for i in range(len(S.periods))] == [0, 1, 1, 2, 3]


def test_format_clock() -> None:
    assert (format_clock(930), format_clock(0.2), format_clock(3725)) == ("15:30", "00:01",
                                                                          "1:02:05")


# ---------------------------------------------------------------- RP-8B run-off


def _read(room: Room) -> float:
    return room.tour.clock.read(room.tour.structure, room.t).remaining


def _h4h_room(profile: str = "tda-2017") -> Room:
    room = Room(30, profile=profile, structure=flat_structure())
    room.do({"kind": "clock", "action": "set", "seconds": 17 * 60 + 30}, dt=60)
    for tid in room.playing():
        room.deal(tid)
    return room


def test_h4h_runoff_17_30_then_15_30_then_13_30() -> None:
    room = _h4h_room()
    room.do({"kind": "h4h", "on": True})
    assert _read(room) == 17 * 60 + 30
    room.t += 600                      # the clock is stopped: real time does not count
    assert _read(room) == 17 * 60 + 30
    readings = []
    for _round in range(3):
        for tid in room.playing():
            assert room.tour.tables[tid].in_hand
            room.end(tid, dt=40)       # the hand at the announcement, then each H4H hand
        assert room.tour.h4h_waiting == set(room.playing())
        readings.append(format_clock(_read(room)))
        for tid in room.playing():
            room.deal(tid)
    assert readings == ["15:30", "13:30", "11:30"]
    assert room.tour.h4h_round == 3


def test_h4h_tables_wait_for_the_slowest_table() -> None:
    room = _h4h_room()
    room.do({"kind": "h4h", "on": True})
    first, *others = room.playing()
    room.end(first)
    tab = room.tour.tables[first]
    assert room.tour.holding(tab)            # may not deal until every table is done
    for tid in others:
        room.end(tid)
    assert not room.tour.holding(tab)
    assert format_clock(_read(room)) == "15:30"


def test_h4h_announced_between_hands_runs_off_from_the_next_hand() -> None:
    room = Room(30, structure=flat_structure())
    room.do({"kind": "clock", "action": "set", "seconds": 17 * 60 + 30})
    room.do({"kind": "h4h", "on": True})       # no hand in play: go at once, no run-off
    assert room.tour.h4h_round == 1 and format_clock(_read(room)) == "17:30"
    for tid in room.playing():
        room.hand(tid)
    assert format_clock(_read(room)) == "15:30"


def test_h4h_runoff_crosses_into_the_next_level() -> None:
    room = Room(30, structure=flat_structure())
    room.do({"kind": "clock", "action": "set", "seconds": 60})
    room.do({"kind": "h4h", "on": True})
    for tid in room.playing():
        room.hand(tid)
    r = room.tour.clock.read(room.tour.structure, room.t)
    assert (r.period, r.remaining) == (1, 19 * 60)   # RP-8D: blinds go up as time runs off


def test_h4h_off_restarts_the_clock() -> None:
    room = _h4h_room()
    room.do({"kind": "h4h", "on": True})
    for tid in room.playing():
        room.end(tid)
    room.do({"kind": "h4h", "on": False})
    room.t += 30
    assert format_clock(_read(room)) == "15:00"
    for tid in room.playing():
        assert not room.tour.holding(room.tour.tables[tid])


def test_tda_2015_h4h_keeps_the_clock_running() -> None:
    room = _h4h_room("tda-2015")
    room.do({"kind": "h4h", "on": True})
    for tid in room.playing():
        room.end(tid, dt=30)
    assert _read(room) == 17 * 60 + 30 - 4 * 30


@pytest.mark.parametrize("profile", ["sheridans", "home-roberts"])
def test_profiles_without_h4h_refuse_it(profile: str) -> None:
    from kiosk.base.errors import RuleError

    room = Room(20, profile=profile, structure=flat_structure())
    with pytest.raises(RuleError, match="no hand-for-hand"):
        room.do({"kind": "h4h", "on": True})


# ------------------------------------------- RP-8 and the Irish Open's r.74: breaks

BREAK = 10 * 60
B = flat_structure(levels=4, minutes=20, breaks_after=(1,))   # L1 break L2 L3 L4


def _break_room(remaining: float) -> Room:
    room = Room(30, structure=B)
    room.do({"kind": "clock", "action": "set", "seconds": remaining}, dt=60)
    return room


def _clock(room: Room) -> tuple[int, float, bool]:
    r = room.tour.clock.read(room.tour.structure, room.t)
    return r.period, r.remaining, r.paused


def _round(room: Room, dt: float = 0.0) -> None:
    for tid in room.playing():
        room.hand(tid, dt=dt)


def test_a_runoff_into_a_break_lets_the_break_run_then_the_level_waits() -> None:
    room = _break_room(60)
    room.do({"kind": "h4h", "on": True})
    _round(room, dt=30)                        # its run-off reaches the break
    assert _clock(room) == (1, BREAK, False)   # the whole break, on the real clock
    h4h_round = room.tour.h4h_round
    room.t += 400
    room.do({"kind": "tick"})
    assert _clock(room) == (1, BREAK - 400, False)
    room.t += BREAK - 400 + 5                  # the break is over
    room.do({"kind": "tick"})
    assert _clock(room) == (2, 20 * 60, True)  # level 2 waits for its first hand
    room.t += 600
    assert _clock(room) == (2, 20 * 60, True)
    _round(room, dt=30)
    assert _clock(room) == (2, 18 * 60, True)
    assert room.tour.h4h_round == h4h_round + 1
    assert digest(room.replay()) == digest(room.tour)


def test_a_break_over_before_the_tick_still_starts_the_level_in_full() -> None:
    room = _break_room(60)
    room.do({"kind": "h4h", "on": True})
    _round(room)
    room.t += BREAK + 90          # no tick came: the first hand after the break ends
    _round(room)
    assert _clock(room) == (2, 18 * 60, True)


def test_hand_for_hand_announced_in_a_break_leaves_it_running() -> None:
    room = _break_room(30)
    room.t += 90                  # 60 s into the break
    room.do({"kind": "h4h", "on": True})
    assert _clock(room) == (1, BREAK - 60, False)
    _round(room)                  # a hand dealt in the break runs nothing off
    assert _clock(room) == (1, BREAK - 60, False)
    room.t += BREAK
    room.do({"kind": "tick"})
    assert _clock(room) == (2, 20 * 60, True)


def test_a_break_the_floor_stopped_stays_stopped() -> None:
    room = _break_room(60)
    room.do({"kind": "h4h", "on": True})
    _round(room)
    room.do({"kind": "clock", "action": "pause"}, dt=100)
    room.t += 3600
    room.do({"kind": "tick"})
    assert _clock(room) == (1, BREAK - 100, True)
    room.do({"kind": "clock", "action": "resume"})
    room.t += BREAK
    room.do({"kind": "tick"})
    assert _clock(room) == (2, 20 * 60, True)


def test_hand_for_hand_off_in_a_break_keeps_the_clock_running() -> None:
    room = _break_room(60)
    room.do({"kind": "h4h", "on": True})
    _round(room)
    room.do({"kind": "h4h", "on": False}, dt=60)
    room.t += BREAK
    room.do({"kind": "tick"})
    assert _clock(room) == (2, 20 * 60 - 60, False)


def test_a_runoff_never_passes_over_a_break() -> None:
    c = Clock.start(0.0).pause(B, 20 * 60 - 10).run_off(B, 5000.0, 120)
    assert c == Clock.start(5000.0, 1)
    c = Clock.start(0.0).pause(B, 60).run_off(B, 5000.0, 120)
    assert (c.period, c.paused_remaining) == (0, 20 * 60 - 180)
