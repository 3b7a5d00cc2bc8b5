"""TDA 2024, the default profile of a new event: what its rules change in the core, each
beside TDA 2017 (the profile the events created before it keep), and what stays as 2017
had it, proven under the new profile (docs/rules.md lists them rule by rule)."""

from __future__ import annotations

import pytest
from core_kit import Room, flat_structure, seating_problems

from kiosk.base.errors import RuleError
from kiosk.core.calc import button as btn
from kiosk.core.event import handover, plans
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import dealer_events as de
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
from kiosk.rules.structure import Period, Structure, structure_refusal
from kiosk.rules.structure_files import load_structure

NEW, OLD = "tda-2024", "tda-2017"


def test_tda_2024_is_the_default_for_a_new_event() -> None:
    assert DEFAULT_PROFILE == NEW
    prof = load_profile(NEW)
    assert (prof.id, prof.name) == (NEW, "TDA 2024")


def test_what_2024_keeps_from_2017_is_the_same_data() -> None:
    """r.29 (25 s + 5 s), the dead button (r.32), newcomers dealt in except between the
    small blind and the button (r.8A, 10A), missed hands and rounds (r.71A), the chip race
    (r.24), busts on a hand-for-hand hand sharing the place (RP-8A)."""
    new, old = load_profile(NEW), load_profile(OLD)
    for part in ("clock_call", "chip_race", "busts"):
        assert getattr(new, part) == getattr(old, part), part
    assert (new.clock_call.seconds, new.clock_call.countdown) == (25, 5)
    assert new.button.newcomer_waits == "between" and new.button.dead_button
    assert new.penalties.kinds == old.penalties.kinds
    assert new.late_reg.stack == "full" and new.late_reg.rule == "8A"
    assert new.hand_for_hand is not None and new.hand_for_hand.runoff_seconds == 120


# ---------------------------------------------------------------- RP-9 final table


@pytest.mark.parametrize(("seats", "new", "old"), [(9, 9, 10), (8, 9, 9), (7, 7, 8),
                                                   (6, 7, 7), (10, 10, 10), (5, 6, 6)])
def test_rp9_final_table_sizes(seats: int, new: int, old: int) -> None:
    assert load_profile(NEW).balance.final_table_size(seats) == new
    assert load_profile(OLD).balance.final_table_size(seats) == old


@pytest.mark.parametrize(("seats", "players", "two_of", "final"), [(9, 27, 5, 9),
                                                                    (6, 16, 4, 7)])
def test_rp9_two_tables_come_together_into_the_final(seats: int, players: int, two_of: int,
                                                     final: int) -> None:
    """9-handed: two tables of five make a 9-handed final; 6-handed: two of four make a
    7-handed final."""
    room = Room(players, seats=seats, profile=NEW, structure=flat_structure())
    tour = room.tour
    seen_two: list[int] = []
    while tour.final_table is None or tour.final_pending:
        if tour.alive == final + 1:
            seen_two = sorted(t.count for t in tour.active_tables())
        tid = max(room.playing(), key=lambda t: (tour.tables[t].count, t))
        room.hand(tid, busts=(min(tour.tables[tid].seat_of),))
        room.arrive_all()
    assert seen_two == [two_of, two_of]
    [table] = room.playing()
    tab = tour.tables[table]
    assert tab.seats == final and tab.count == final == tour.alive
    assert not seating_problems(tour)


# ---------------------------------------------------------------- r.11D halting


def _short_table(profile: str) -> tuple[Room, btn.Positions]:
    """Six full tables dealing; table 6 loses three players away from its blinds."""
    room = Room(54, profile=profile, structure=flat_structure())
    pos = {tid: room.deal(tid) for tid in room.playing()}
    p6 = pos[6]
    for k in (4, 5, 6):           # seats 4-6 after the big blind
        room.bust(6, (p6.bb + k - 1) % 9 + 1)
    room.end(6)
    return room, p6


def test_r11d_a_short_table_halts_once_its_blinds_are_affected() -> None:
    room, _ = _short_table(OLD)
    assert room.tour.halted(room.tour.tables[6])       # 2017: three short halts at once
    room, _ = _short_table(NEW)
    tour, tab = room.tour, room.tour.tables[6]
    halts = []
    for _ in range(4):                                  # the big blind walks to the gap
        halts.append(tour.halted(tab))
        if halts[-1]:
            break
        room.hand(6)
    assert halts == [False, False, False, True]
    assert tour.holding(tab) and plans.plan(tour, 6)["halt"]
    assert btn.blinds_reach_empty_seat(tab.positions, tab.seat_of, tab.seats)
    # the longest tables finish their hands: the players they send fill the gap
    for tid in range(1, 6):
        room.end(tid)
    room.arrive_all()
    assert not tour.halted(tab)


def test_r11d_blinds_are_affected_by_a_dead_small_blind_or_button() -> None:
    prev = btn.Positions(button=1, sb=2, bb=3, dealt=tuple(range(1, 10)))
    full = set(range(1, 10))
    assert not btn.blinds_reach_empty_seat(prev, full - {7, 8}, 9)
    assert btn.blinds_reach_empty_seat(prev, full - {4}, 9)     # the BB moves onto a gap
    assert btn.blinds_reach_empty_seat(prev, full - {3}, 9)     # a dead small blind
    assert btn.blinds_reach_empty_seat(prev, full - {2}, 9)     # a dead button
    assert btn.blinds_reach_empty_seat(None, full, 9)          # before the first hand


# ---------------------------------------------------------------- RP-8 hand-for-hand


def test_rp8_two_minutes_a_hand_never_batched_and_the_blinds_rise() -> None:
    room = Room(30, profile=NEW, structure=flat_structure())
    room.do({"kind": "clock", "action": "set", "seconds": 5 * 60}, dt=120)
    for tid in room.playing():
        room.deal(tid)
    room.do({"kind": "h4h", "on": True})
    s = room.tour.structure
    readings = []
    for _ in range(3):
        first, *rest = room.playing()
        room.end(first, dt=400)    # a slow hand at one table: still two minutes, once
        readings.append(room.tour.clock.read(s, room.t)[:2])
        for tid in rest:
            room.end(tid, dt=30)
        readings.append(room.tour.clock.read(s, room.t)[:2])
        for tid in room.playing():
            room.deal(tid)
    # each round runs two minutes off when its last table ends, however long it took
    assert readings == [(0, 300), (0, 180), (0, 180), (0, 60), (0, 60), (1, 20 * 60 - 60)]
    prof = load_profile(NEW).hand_for_hand
    assert prof is not None and prof.runoff_max_seconds == 180


def test_rp8_a_profile_running_off_more_than_its_limit_is_refused(tmp_path) -> None:
    from kiosk.base.errors import ConfigError
    from kiosk.rules.loader import PROFILE_DIR, load_profile_file

    text = (PROFILE_DIR / "tda-2024.toml").read_text().replace(
        'id = "tda-2024"', 'id = "slow"').replace("runoff_seconds = 120", "runoff_seconds = 240")
    path = tmp_path / "slow.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_profile_file(path)
    assert info.value.key == "hand_for_hand.runoff_seconds" and "180" in info.value.problem


# ---------------------------------------------------------------- RP-11 antes


def _reduced() -> Structure:
    return Structure("reduced", 10000, (Period(20, 100, 200, bb_ante=200),
                                        Period(20, 150, 300, bb_ante=300),
                                        Period(20, 200, 400, bb_ante=200)))


def test_rp11_a_structure_that_reduces_antes_is_refused_with_the_reason() -> None:
    refused = structure_refusal(load_profile(NEW), _reduced())
    assert refused is not None
    refused = str(refused)                   # a message key; its English, as the log reads
    assert "level 3" in refused and "300 to 200" in refused and "RP-11" in refused
    with pytest.raises(RuleError, match="never reduces antes"):
        Tournament.create(event="e", profile=NEW, structure=_reduced())
    # TDA 2017 takes it; the shipped structures suit both
    assert structure_refusal(load_profile(OLD), _reduced()) is None
    Tournament.create(event="e", profile=OLD, structure=_reduced())
    for name in ("turbo", "standard", "deep"):
        assert structure_refusal(load_profile(NEW), load_structure(name)) is None


def test_rp11_antes_that_stop_are_a_reduction_but_a_first_ante_is_not() -> None:
    stops = Structure("s", 10000, (Period(20, 100, 200, bb_ante=200),
                                   Period(20, 150, 300, ante=25)))
    grows = Structure("g", 10000, (Period(20, 100, 200), Period(20, 150, 300, ante=25),
                                   Period(20, 200, 400, bb_ante=400)))
    assert "BB ante goes down from 200 to 0" in str(structure_refusal(load_profile(NEW),
                                                                      stops))
    assert structure_refusal(load_profile(NEW), grows) is None
    assert load_profile(NEW).ante.big_blind_first


# ---------------------------------------------------------------- RP-20 the start


def test_rp20_play_starts_a_minute_after_the_start_for_the_decks() -> None:
    for profile, lead in ((NEW, 60), (OLD, 0)):
        room = Room(18, profile=profile, structure=flat_structure())
        s = room.tour.structure
        reading = room.tour.clock.read(s, room.t)
        assert (reading.period, reading.remaining) == (0, 20 * 60 + lead)
        assert room.tour.clock.read(s, room.t + lead).remaining == 20 * 60
        assert plans.schedule(room.tour)["prepare_decks"] == lead


def test_rp20_a_start_with_the_decks_ready_runs_the_first_level_at_once() -> None:
    """The demo's room opens dealing: its start says the decks are prepared already."""
    room = Room(18, profile=NEW, structure=flat_structure(), start=False)
    room.do({"kind": "start", "ready": True})
    reading = room.tour.clock.read(room.tour.structure, room.t)
    assert (reading.period, reading.remaining) == (0, 20 * 60)
    fresh = Room(18, profile=NEW, structure=flat_structure(), start=False)
    with pytest.raises(Exception, match=r"Expected `bool`.*\$\.ready"):
        fresh.do({"kind": "start", "ready": "yes"})
    assert not fresh.tour.started


# ---------------------------------------------------------------- r.29, r.71A, r.8A


def test_r29_a_clock_call_is_25_seconds_and_a_5_second_count() -> None:
    room = Room(18, profile=NEW, structure=flat_structure())
    seat = min(room.tour.tables[1].seat_of)
    [ev] = room.report(1, "clock_call", seat=seat)
    assert (ev["seconds"], ev["countdown"]) == (25, 5)


def test_r71a_a_missed_round_is_a_hand_for_each_player_at_the_table_times_the_rounds() -> None:
    room = Room(16, profile=NEW, structure=flat_structure())
    tab = room.tour.tables[1]
    pid = tab.seat_of[min(tab.seat_of)]
    evs = room.do({"kind": "penalty", "player": pid, "type": "rounds", "amount": 2})
    assert evs[0]["hands"] == 2 * tab.count == room.tour.players[pid].penalty_hands


def test_r8a_a_late_entry_draws_from_the_same_seat_pool_and_waits_only_between() -> None:
    room = Room(16, profile=NEW, structure=flat_structure())   # two tables of eight
    tour = room.tour
    for tid in room.playing():
        room.hand(tid, busts=(min(tour.tables[tid].seat_of),) if tid == 2 else ())
    room.do({"kind": "register", "name": "Late", "player": "late"})
    p = tour.players["late"]
    assert p.table == 2        # the seat pool in place: the shortest table's open seats
    tab = tour.tables[2]
    pos = btn.next_hand(tab.positions, set(tab.seat_of), tab.seats, dead_button=True,
                        newcomers={p.seat}, waits=tour.profile.button.newcomer_waits)
    between = btn.arc(pos.button, pos.sb, tab.seats)[1:-1]
    assert (p.seat in pos.waiting) == (p.seat in between)
    assert (p.seat in pos.dealt) == (p.seat not in between)


# ---------------------------------------------------------------- RP-15A, r.23


def test_rp15a_the_handover_names_warned_and_penalised_seats_and_the_floors_note() -> None:
    room = Room(18, profile=NEW, structure=flat_structure())
    tour = room.tour
    seats = sorted(tour.tables[1].seat_of)
    room.do({"kind": "penalty", "player": tour.tables[1].seat_of[seats[0]],
             "type": "warning", "by": "fl"})
    room.do({"kind": "penalty", "player": tour.tables[1].seat_of[seats[1]],
             "type": "hands", "amount": 2, "by": "fl"})
    [noted] = room.do({"kind": "table_note", "table": 1, "note": "  seat 4  slow  ",
                       "by": "fl"})
    assert (noted["note"], noted["by"]) == ("seat 4 slow", "fl")
    part = handover.dealer_part(tour, 1, None)
    assert part["handover"] == {"warnings": [seats[0]], "penalties": [seats[1]],
                                "note": "seat 4 slow"}
    with pytest.raises(RuleError, match="already has that note"):
        room.do({"kind": "table_note", "table": 1, "note": "seat 4 slow"})
    with pytest.raises(RuleError, match="not in play"):
        room.do({"kind": "table_note", "table": 9, "note": "x"})
    room.do({"kind": "table_note", "table": 1, "note": ""})
    assert room.replay().table_notes == {} == tour.table_notes
    # the 2017 profile shows no handover: an event created under it stays as it was
    assert handover.dealer_part(Room(18, profile=OLD).tour, 1, None) == {}


def test_r23_the_first_hand_after_a_push_carries_the_blinds_of_the_level_at_the_push() -> None:
    room = Room(18, profile=NEW, structure=flat_structure())
    tab = room.tour.tables[1]
    room.hand(1)
    push = de.PushDone(t=room.t, table=1, incoming="Cy", outgoing="Ann", push_at=room.t,
                       next="relief", hand=tab.hand, period=0)
    first = handover.dealer_part(room.tour, 1, push)["first_hand"]
    assert first == {"hand": tab.hand, "period": 0, "sb": 50, "bb": 100, "ante": 0,
                     "bb_ante": 0}
    room.deal(1)                   # the incoming dealer dealt it: nothing more to carry
    assert "first_hand" not in handover.dealer_part(room.tour, 1, push)


def test_a_log_written_under_tda_2017_replays_under_tda_2017() -> None:
    room = Room(18, profile=OLD, structure=flat_structure())
    room.hand(1)
    again = Tournament.replay(room.events)
    assert again.profile.id == OLD and again.config["profile"] == OLD
    assert again.profile.balance.final_table_size(9) == 10
