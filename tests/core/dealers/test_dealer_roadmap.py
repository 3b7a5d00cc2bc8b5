"""The dealers' roadmap: strings over the tables in play, pushes at a hand's end, breaks,
tables breaking and opening, the EO list, and a replay that gives the same roadmap."""

from __future__ import annotations

import random

import pytest

from kiosk.base.errors import RuleError
from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.dealers.state import Rotation
from kiosk.core.model import events as ev_

T0 = 1_800_000_000.0
ROT = Rotation(down=1800, brk=900, downs_between_breaks=4, string_size=4)


def room(tables: int, dealers: int, rot: Rotation = ROT) -> tuple[Roadmap, list]:
    road, log = Roadmap(rot), []
    for i in range(dealers):
        log += road.clock_in(f"D{i:02d}", T0)
    for n in range(1, tables + 1):
        log += road.open_table(n, "daily", T0)
    return road, log


def snapshot(road: Roadmap) -> tuple:
    return ({n: (tb.dealer, tb.push_at, tb.string) for n, tb in road.tables.items()},
            road.strings, dict(road.reliefs), road.breaks(), list(road.eo),
            [(d.dealer, d.table, d.start, d.end, d.hands) for d in road.downs])


def test_strings_form_over_the_tables_each_with_a_relief_and_staggered_pushes() -> None:
    road, _ = room(8, 10)
    assert road.strings == [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert all(tb.dealer for tb in road.tables.values())
    assert sorted(road.reliefs) == [0, 1]
    pushes = [road.tables[n].push_at for n in (1, 2, 3, 4)]
    assert pushes == sorted(pushes) and pushes[-1] == T0 + 1800   # never past a down
    assert road.incoming(1) == road.reliefs[0] and road.incoming(2) is None


def test_a_push_moves_the_dealer_along_the_string_and_the_last_goes_on_break() -> None:
    road, _ = room(4, 5)
    relief = road.reliefs[0]
    firsts = [road.tables[n].dealer for n in (1, 2, 3, 4)]
    for n in (1, 2, 3, 4):
        t = (road.tables[n].push_at or 0) + 60
        evs = road.push(n, road.incoming(n) or "", t, hands=20)
        done = evs[0]
        assert isinstance(done, ev_.dealer_events.PushDone)
    assert road.tables[1].dealer == relief
    assert road.tables[2].dealer == firsts[0]     # pushed off 1, pushed 2
    assert road.breaks() == [(firsts[3], T0 + 1800 + 60 + 900)]
    assert [d.hands for d in road.downs if d.end] == [20, 20, 20, 20]


def test_a_push_never_cuts_a_hand_and_a_badge_at_the_wrong_table_says_where_to_go() -> None:
    road, _ = room(4, 5)
    relief = road.reliefs[0]
    with pytest.raises(RuleError, match="hand is still on"):
        road.push(1, relief, T0 + 1800, in_hand=True)
    with pytest.raises(RuleError, match="due at table 1"):
        road.push(3, relief, T0 + 1800)
    dealer2 = road.tables[2].dealer
    assert dealer2 is not None
    with pytest.raises(RuleError, match="due at table 2"):
        road.push(1, dealer2, T0 + 1800)
    road.push(1, relief, T0 + 1800)
    with pytest.raises(RuleError, match="already deals table 1"):
        road.push(1, relief, T0 + 1801)


def test_the_push_clock_waits_through_the_event_break() -> None:
    road, _ = room(4, 5)
    before = road.tables[4].push_at
    assert before is not None
    road.hold("daily", True, T0 + 600)
    assert road.due(T0 + 3600) == []
    road.hold("daily", False, T0 + 600 + 1200)
    assert road.tables[4].push_at == before + 1200


def test_a_broken_table_frees_its_dealer_and_the_strings_re_form() -> None:
    road, _ = room(8, 10)
    gone = road.tables[8].dealer
    road.close_table(8, T0 + 100)
    road.close_table(7, T0 + 100)
    assert road.strings == [[1, 2, 3, 4], [5, 6]]
    road.close_table(6, T0 + 100)
    assert road.strings == [[1, 2, 3, 4, 5]]          # a lone table joins the string before
    assert gone in road.pool() or road.dealers[gone].status == "relief"
    road.open_table(9, "day2", T0 + 200)
    assert road.tables[9].dealer is not None
    assert all(tb.dealer for tb in road.tables.values())


def test_the_early_out_offered_is_the_first_to_sign_and_only_when_dealers_wait() -> None:
    road, _ = room(4, 5)
    road.sign_early_out("D03", T0)
    road.sign_early_out("D01", T0)
    assert road.offer() is None                      # nobody waits: the room needs all
    road.clock_in("D90", T0 + 10)
    assert road.offer() == "D03"
    with pytest.raises(RuleError, match="D03 is, first"):
        road.release("D01", T0 + 20)
    road.release("D03", T0 + 20)
    assert road.eo == ["D01"] or road.dealers["D03"].leaving


def test_five_wrong_pins_lock_the_dealer_out_until_the_floor_clears() -> None:
    road, _ = room(4, 5)
    for _ in range(5):
        road.pin_failed("D00", 1, T0)
    assert road.locked("D00")
    road.pin_clear("D00", T0 + 1, by="floor")
    assert not road.locked("D00")


def test_replay_of_a_random_day_gives_the_same_roadmap() -> None:
    rng = random.Random(7)
    road, log = room(12, 16)
    t = T0
    for _ in range(400):
        t += rng.uniform(10, 120)
        for n in road.due(t):
            who = road.incoming(n)
            if who:
                log += road.push(n, who, t, hands=rng.randint(10, 30))
        for name, until in road.breaks():
            if until <= t:
                log += road.back(name, t)
        if rng.random() < 0.02 and len(road.tables) > 2:
            log += road.close_table(max(road.tables), t)
    blobs = [ev_.check(e) for e in log]
    again = Roadmap.replay(ev_.decode_many(blobs), ROT)
    assert snapshot(again) == snapshot(road)
    assert len({tb.dealer for tb in road.tables.values()}) == len(road.tables)


def test_the_room_decides_the_dealers_commands_and_its_replay_keeps_the_roadmap() -> None:
    from kiosk.core.room.room import Room
    r = Room.create("casino", tables=range(1, 5), t=T0)
    log = [r.config]
    for name in ("Ann", "Bob", "Cy"):
        log += r.execute({"kind": "dealer_clock_in", "dealer": name, "by": "floor"}, T0)
    for n in (1, 2):
        log += r.execute({"kind": "dealer_table_open", "table": n, "event": "daily"}, T0)
    relief = r.roadmap.reliefs[0]
    with pytest.raises(RuleError, match="hand is still on"):
        r.execute({"kind": "dealer_push", "table": 1, "dealer": relief, "in_hand": True},
                  T0 + 1800)
    log += r.execute({"kind": "dealer_push", "table": 1, "dealer": relief, "hands": 31},
                     T0 + 1800)
    with pytest.raises(RuleError, match="bad dealer_push"):
        r.execute({"kind": "dealer_push", "table": "one", "dealer": relief}, T0 + 1801)
    again = Room.replay(ev_.decode_many([ev_.check(e) for e in log]))
    assert snapshot(again.roadmap) == snapshot(r.roadmap)
    assert r.roadmap.tables[1].dealer == relief and r.roadmap.downs[0].hands == 31


def test_the_final_table_keeps_its_dealers_longer_as_the_room_sets() -> None:
    road, _ = room(2, 3, Rotation(down=1800, brk=900, string_size=4, final_table_down=3600))
    road.mark_final(1, True, T0 + 100)
    due = road.tables[1].push_at
    assert due is not None
    road.push(1, road.incoming(1) or "", due + 30)
    assert road.tables[1].push_at == due + 3600           # a final table's down: an hour
    assert road.mark_final(1, True, due + 40) == []        # already final: nothing logged


def test_tables_opening_one_by_one_fall_due_along_their_string_not_all_at_once() -> None:
    """A new event's tables open one at a time: each string's first pushes are a walk
    apart, as if the tables had opened together, so one relief can push them in turn."""
    road, _ = room(8, 10)
    for string in road.strings:
        pushes = [road.tables[n].push_at for n in string]
        assert len(set(pushes)) == len(pushes), pushes
        assert pushes == sorted(pushes) and pushes[-1] == T0 + 1800
    later = T0 + 7200
    for n in range(9, 17):
        road.clock_in(f"E{n}", later)
        road.open_table(n, "day2", later)
    assert road.strings[2:] == [[9, 10, 11, 12], [13, 14, 15, 16]]
    for string in road.strings[2:]:
        assert [road.tables[n].push_at for n in string] == \
            [later + 1800 - 240 * k for k in (3, 2, 1, 0)], string


def test_a_push_nobody_answers_keeps_the_dealer_alerts_the_floor_and_the_string_goes_on(
        ) -> None:
    """The relief never comes: the dealer deals on, the board says the push is late,
    and after NO_SHOW a dealer waiting takes the table; the relief is due at the next."""
    from kiosk.core.dealers import board
    from kiosk.core.dealers.queries import NO_SHOW

    road, _ = room(4, 6)
    relief, spare = road.reliefs[0], road.pool()[0]
    first = road.tables[1].dealer
    due = road.tables[1].push_at or 0.0
    t = due + NO_SHOW - 60
    assert road.incoming(1, t) == relief and road.tables[1].dealer == first
    alert = [a for a in board.alerts(road, t) if a["kind"] == "push_late"]
    assert alert[0]["table"] == 1 and f"({first} still deals)" in alert[0]["text"]
    with pytest.raises(RuleError, match="not due at table 1"):
        road.push(1, spare, t)
    t = due + NO_SHOW
    assert road.incoming(1, t) == spare            # the spare covers the table
    road.push(1, spare, t)
    assert road.tables[1].dealer == spare
    assert road.dealers[first or ""].status == "waiting"
    assert road.reliefs[0] == relief and road.due_at(relief) == 2    # the string goes on
    assert road.tables[1].push_at == due + 1800
    road.push(2, relief, t + 60)                   # a relief late still takes its table
    assert road.tables[2].dealer == relief



def test_no_push_in_the_hold_before_a_level_change_and_the_push_goes_after_it() -> None:
    """RP-7: the director logs the last 90 s of each level as a hold of its event; a push
    due then is not due, is refused at a hand's end with the time it waits for, and is
    taken once the level has changed, as due as it was."""
    road, log = room(4, 5)
    relief, due = road.reliefs[0], road.tables[1].push_at
    assert due is not None
    start, until = due - 30, due + 60             # the push falls due inside the hold
    log += road.hold_pushes("daily", start, until, T0)
    assert road.hold_pushes("daily", start, until, T0 + 1) == []   # the same: nothing new
    assert road.due(due + 5) == [] and road.covers(due + 5) == {}
    with pytest.raises(RuleError, match="no push before the level change"):
        road.push(1, relief, due + 5)
    assert road.held_until(1, due + 5) == until and road.held_until(1, until) is None
    assert road.due(until) == [1]
    log += road.push(1, relief, until + 40)
    assert road.tables[1].dealer == relief
    # the cadence holds: the next push a down after this one fell due
    assert road.tables[1].push_at == due + ROT.down
    # another event's tables push on through this event's hold
    log += road.open_table(9, "sat", T0)
    assert road.held_until(9, due + 5) is None
    assert snapshot(Roadmap.replay(log, ROT)) == snapshot(road)
    assert Roadmap.replay(log, ROT).push_holds == road.push_holds


def test_a_hold_that_ends_before_it_starts_is_refused() -> None:
    road, _ = room(4, 5)
    with pytest.raises(RuleError, match="ends before it starts"):
        road.hold_pushes("daily", T0 + 100, T0 + 50, T0)
