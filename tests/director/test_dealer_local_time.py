"""The kiosk tells a dealer pushed onto a break when to be back in the room's own time:
"Break until 14:17" in Kolkata is 08:47 UTC, and a room with no zone keeps UTC."""

from __future__ import annotations

from kiosk.core.dealers import board
from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.dealers.state import Rotation
from kiosk.director.mqtt.publisher import room_clock

T0 = 1_800_000_000.0     # 08:00 UTC


def pushed_to_a_break() -> tuple[Roadmap, int, str]:
    road = Roadmap(Rotation(down=1800, brk=900, string_size=2))
    for name in ("Ann", "Bob", "Cy"):
        road.clock_in(name, T0)
    road.open_table(1, "daily", T0)
    road.open_table(2, "daily", T0)
    t = T0 + 1800
    road.push(1, road.incoming(1) or "", t)
    road.push(2, road.incoming(2) or "", t + 120)
    off = next(n for n, _ in road.breaks())
    table = next(n for n in (1, 2) if road.last_push[n].outgoing == off)
    return road, table, off


def test_the_plan_and_the_phone_say_the_break_in_the_rooms_time() -> None:
    road, table, off = pushed_to_a_break()
    kolkata = room_clock("Asia/Kolkata")
    assert board.plan_view(road, table, kolkata)["outgoing_to"] == "Break until 14:17"
    assert board.where(road, off, kolkata)["text"] == "Break until 14:17"
    assert board.plan_view(road, table, room_clock(""))["outgoing_to"] == "Break until 08:47"
