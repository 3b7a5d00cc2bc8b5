"""The dealers' board and records: alerts the floor acts on, where a dealer goes next,
hours and hands per dealer, and staff shares that add up to the cent."""

from __future__ import annotations

import random

from kiosk.core.dealers import board, records
from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.dealers.state import Down, Rotation

T0 = 1_800_000_000.0     # 08:00 UTC


def test_the_board_alerts_a_table_without_dealer_a_late_push_and_a_late_break() -> None:
    road = Roadmap(Rotation(down=1800, brk=900, string_size=4))
    for name in ("Ann", "Bob", "Cy"):
        road.clock_in(name, T0)
    for n in (1, 2, 3, 4):
        road.open_table(n, "daily", T0)
    kinds = {a["kind"] for a in board.alerts(road, T0)}
    assert kinds == {"no_dealer", "no_relief"}           # 3 dealers for 4 tables + a relief
    road.clock_in("Dee", T0 + 60)
    assert road.tables[4].dealer == "Dee"                # a table first, then a relief
    road.clock_in("Eve", T0 + 60)
    late = road.tables[1].push_at + 400
    texts = [a["text"] for a in board.alerts(road, late, hand_s=150)]
    assert any(t.startswith("Table 1: push 6 min late") for t in texts)
    road.push(1, road.incoming(1) or "", late)
    out = board.board(road, late + 1)
    assert out["tables"][0]["table"] == 1 and out["tables"][0]["dealer"] == "Eve"
    assert {"table", "dealer", "push_at"} <= set(out["tables"][0])
    gone = "Ann"
    assert board.where(road, gone)["text"] == "Table 2"    # walks on along the string


def test_a_push_late_before_a_pause_stays_late_after_it_and_on_the_alerts() -> None:
    """The floor pauses the event while a push is two minutes overdue: the pause holds
    the push clock, and after it the push is still two minutes late (the pause's own
    time not counted), so a minute later the board names the table."""
    road = Roadmap(Rotation(down=1800, brk=900, string_size=4))
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        road.clock_in(name, T0)
    for n in (1, 2, 3, 4):
        road.open_table(n, "daily", T0)
    due = road.tables[1].push_at
    assert due is not None
    road.hold("daily", True, due + 120)
    assert board.overdue(road, 1, due + 900) == 120     # held: late as when it stopped
    assert any(a["kind"] == "push_late" and a["table"] == 1 and "held" in a["text"]
               for a in board.alerts(road, due + 900, hand_s=60))
    road.hold("daily", False, due + 1200)
    assert road.tables[1].push_at == due + 1200 - 120
    late = [a for a in board.alerts(road, due + 1200 + 60, hand_s=150)
            if a["kind"] == "push_late"]
    assert [a["table"] for a in late] == [1]
    assert late[0]["text"] == "Table 1: push 3 min late (Ann still deals)"


def test_the_phone_says_whom_a_relief_relieves_and_where_the_dealer_goes_next() -> None:
    road = Roadmap(Rotation(down=1800, brk=900, string_size=2))
    for name in ("Ann", "Bob", "Cy"):
        road.clock_in(name, T0)
    road.open_table(1, "daily", T0)
    road.open_table(2, "daily", T0)
    relief = road.reliefs[0]
    first = road.tables[1].push_at
    assert relief == "Cy" and road.tables[1].dealer == "Ann"
    cy = board.where(road, "Cy", t=T0)
    assert (cy["table"], cy["relieves"], cy["push_at"]) == (1, "Ann", first)
    ann = board.where(road, "Ann", t=T0)
    assert ann["incoming"] == "Cy" and ann["then"]["next"] == "relief"
    assert ann["then"]["to"] == 2                   # on to the string's next table
    done = road.push(1, "Cy", (first or 0) + 30)[0]
    assert (done.next, done.to) == ("relief", 2)    # as the phone said
    bob = board.where(road, "Bob", t=(first or 0) + 60)
    assert bob["then"]["next"] == "break"           # the string's last of the round


def pushed_to_a_break() -> tuple[Roadmap, float, str]:
    """Two tables of a string of two pushed 30 min in: one dealer goes on a break."""
    road = Roadmap(Rotation(down=1800, brk=900, string_size=2))
    for name in ("Ann", "Bob", "Cy"):
        road.clock_in(name, T0)
    road.open_table(1, "daily", T0)
    road.open_table(2, "daily", T0)
    t = T0 + 1800
    road.push(1, road.incoming(1) or "", t)
    road.push(2, road.incoming(2) or "", t + 120)
    return road, t, next(n for n, _ in road.breaks())


def test_where_says_break_until_and_the_public_board_has_no_alerts_nor_pins() -> None:
    road, t, off = pushed_to_a_break()
    assert board.where(road, off)["text"] == f"Break until {board.clock(t + 120 + 900)}"
    assert board.where(road, off)["text"] == "Break until 08:47"
    pub = board.public(road, t)
    assert "alerts" not in pub and "locked" not in pub
    late = t + 120 + 900 + 200
    assert any(a["kind"] == "late_back" for a in board.alerts(road, late))


def test_each_event_staff_share_goes_to_its_downs_to_the_cent() -> None:
    rng = random.Random(3)
    downs = [Down(f"D{rng.randint(0, 9)}", rng.randint(1, 9), rng.choice(["a", "b"]),
                  T0 + i * 60, T0 + i * 60 + 1800, rng.randint(10, 40)) for i in range(97)]
    staff = {"a": 123_457, "b": 99_999, "c": 5000}        # c: no down dealt, nothing paid
    shares = records.split_staff(downs, staff)
    assert sum(shares.values()) == staff["a"] + staff["b"]
    rows = records.summary(downs, staff)
    assert sum(r["share"] for r in rows) == staff["a"] + staff["b"]
    assert sum(r["downs"] for r in rows) == 97
    one = rows[0]
    assert one["hours"] == round(one["downs"] * 0.5, 2)
    assert one["hands_per_hour"] == round(one["hands"] / (one["downs"] * 0.5), 1)


def test_the_plan_and_the_phone_say_the_break_in_the_rooms_time() -> None:
    """The kiosk tells a dealer pushed onto a break when to be back in the room's own
    time: "Break until 14:17" in Kolkata is 08:47 UTC; a room with no zone keeps UTC."""
    from kiosk.director.mqtt.publisher import room_clock

    road, _, off = pushed_to_a_break()
    table = next(n for n in (1, 2) if road.last_push[n].outgoing == off)
    kolkata = room_clock("Asia/Kolkata")
    assert board.plan_view(road, table, kolkata)["outgoing_to"] == "Break until 14:17"
    assert board.where(road, off, kolkata)["text"] == "Break until 14:17"
    assert board.plan_view(road, table, room_clock(""))["outgoing_to"] == "Break until 08:47"
