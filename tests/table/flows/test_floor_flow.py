"""The floor-call flow: raised, followed through the director's plan, cancelled by a
held press."""

from __future__ import annotations

from flow_helpers import make
from table_helpers import T0, plan


def test_floor_call_follows_the_plan_and_hold_cancels() -> None:
    c = make()
    call = c.press_floor(T0).report["id"]
    c.apply_plan(plan(rev=2, floor_calls={call: {"state": "acked", "since": T0}}), T0 + 3)
    assert c.view(T0 + 3).floor_call == "Floor on the way"
    c.apply_plan(plan(rev=3, floor_calls={call: {"state": "resolved", "since": T0}}), T0 + 9)
    assert c.view(T0 + 10).floor_state == "resolved"
    assert c.view(T0 + 30).floor_call == ""
    c.press_floor(T0 + 40)
    cancel = c.hold_floor(T0 + 42)
    assert cancel.report["kind"] == "floor_cancel" and c.floor.call is None
