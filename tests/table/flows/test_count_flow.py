"""The chip-count flow: typed between hands, checked before it is sent, asked again when
the bag refuses a count it took, through a real tournament."""

from __future__ import annotations

import pytest
from flow_helpers import stacks, table_for
from table_helpers import T0, Event18, schedule

from kiosk.base.errors import RuleError
from kiosk.table.controller import TableController


def test_the_chip_count_is_typed_between_hands_and_checked_before_it_is_sent() -> None:
    event = Event18()
    event.tour.execute({"kind": "count_chips", "label": "end of level 2", "by": "td"}, T0)
    c = table_for(event, 2)
    c.directions.apply_schedule(schedule(rev=2, players_left=18, average_stack=20000))
    c.local.in_hand = True
    assert c.view(T0).bust_panel is None                    # the hand is finished first
    c.local.in_hand = False
    panel = c.view(T0).bust_panel
    seats = [n for n, _ in panel.seats]
    assert panel.mode == "count" and panel.ok_text == "SEND" and panel.focus == seats[0]
    assert panel.prompt == "CHIP COUNT (end of level 2): tap a seat, type its stack, then SEND"
    for k in ("2", "1", "000"):
        c.count_key(T0, k)
    refused = c.count_send(T0 + 1)
    assert refused.refused and not refused.reports
    more = len(seats) - 2
    assert c.view(T0 + 1).bust_panel.prompt == f"Seat {seats[1]}: no count (+{more} more)"
    for s in seats[1:]:
        c.choose_seat(T0 + 2, s)
        for k in ("2", "0", "000"):
            c.count_key(T0 + 2, k)
    c.choose_seat(T0 + 3, seats[1])
    for k in ("9", "000", "000"):                           # 200,009,000,000: a typo
        c.count_key(T0 + 3, k)
    refused = c.count_send(T0 + 4)
    assert refused.refused and refused.message.startswith(
        f"Seat {seats[1]}: 200,009,000,000 is more than all chips in play (360,000)")
    for _ in range(7):
        c.count_key(T0 + 5, "<")
    sent = c.count_send(T0 + 6)
    assert sent.report["kind"] == "chip_count"
    assert sent.report["data"]["stacks"] == {str(s): 21000 if s == seats[0] else 20000
                                             for s in seats}
    assert sent.report["data"]["round"] == 1
    assert c.view(T0 + 6).bust_panel is None                # back to play at once
    state = c.export_state()
    again = table_for(event, 2)
    again.import_state(state)                               # a restart does not ask again
    assert again.view(T0 + 7).bust_panel is None
    event.send(sent.report)
    assert event.tour.counts[2][seats[0]] == 21000
    assert c.apply_plan(event.plan(2, rev=2), T0 + 8) and c.plan["chip_count"]["done"]


def typed(c: TableController, t: float, stacks: dict[int, int]) -> dict:
    """Every stack typed on the keypad and SEND: the report it sends."""
    for seat, stack in stacks.items():
        c.choose_seat(t, seat)
        for key in str(stack):
            c.count_key(t, key)
    sent = c.count_send(t)
    assert not sent.refused, sent.message
    return sent.report


def test_the_bag_asks_a_table_that_already_counted_to_count_again() -> None:
    """Both tables counted for the bags; the floor moves a player after: the bag names
    both tables to recount, and each kiosk offers its keypad again for the round it
    already sent, says why, and sends the new count once."""
    event = Event18()
    event.bag_count()
    kiosks = {n: table_for(event, n) for n in (1, 2)}
    for n, c in kiosks.items():
        panel = c.view(T0).bust_panel
        assert panel.mode == "count" and panel.prompt.startswith("CHIP COUNT (bags day 1)")
        event.send(typed(c, T0, stacks(event, n)))
        assert c.apply_plan(event.plan(n, 2), T0) and c.view(T0).bust_panel is None
    src, dst = event.move_after_the_count()
    with pytest.raises(RuleError, match=rf"recount table 1 \(seats {dst}\); table 2 "
                                        rf"\(seats {src}\)"):
        event.tour.execute({"kind": "bag", "by": "td"}, T0)
    for n, seat in ((1, dst), (2, src)):
        c = kiosks[n]
        assert c.apply_plan(event.plan(n, 3), T0)
        panel = c.view(T0).bust_panel
        assert panel is not None and panel.mode == "count", f"table {n} is not asked again"
        assert panel.prompt == f"RECOUNT: seat {seat} changed since the count"
        assert [s for s, _ in panel.seats] == sorted(event.tour.tables[n].seat_of)
        report = typed(c, T0 + 1, stacks(event, n))
        assert report["data"]["round"] == 1
        assert c.view(T0 + 1).bust_panel is None           # sent: back to the table
        assert c.apply_plan(event.plan(n, 4), T0 + 1)      # a plan from before it arrived
        assert c.view(T0 + 1).bust_panel is None           # does not ask a third time
        again = table_for(event, n, 4)
        again.import_state(c.export_state())               # nor does a restart
        assert again.view(T0 + 1).bust_panel is None
        event.send(report)
        assert c.apply_plan(event.plan(n, 5), T0 + 2) and c.plan["chip_count"]["done"]
    bagged = event.tour.execute({"kind": "bag", "by": "td"}, T0 + 3)
    assert [e.kind for e in bagged] == ["bagged"]
