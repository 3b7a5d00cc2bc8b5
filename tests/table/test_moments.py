"""The controller at the moments that matter: busts on one hand, hand-for-hand, long
mover lists, the final-table hold and arrivals without a card."""

from __future__ import annotations

import random

from table_helpers import T0, plan, schedule, seat

from kiosk.table.controller import TableController


def make(**plan_kw: object) -> TableController:
    c = TableController(3, rng=random.Random(1), boot="m", debounce_s=0)
    assert c.apply_schedule(schedule())
    assert c.apply_plan(plan(**plan_kw), T0)
    return c


def test_two_busts_need_stacks_one_does_not() -> None:
    c = make()
    c.new_hand(T0)
    c.begin(T0 + 1, "bust")
    c.choose_seat(T0 + 2, 3)
    assert not c.view(T0 + 2).bust_panel.stacks_needed      # one bust: stack optional
    c.choose_seat(T0 + 3, 5)
    panel = c.view(T0 + 3).bust_panel
    assert panel.stacks_needed and not panel.ok and panel.focus == 5
    refused = c.bust_confirm(T0 + 4)
    assert refused.refused and refused.message == "Type the starting stack of seat 3"
    for key in ("1", "2", "000"):
        c.bust_key(T0 + 5, key)                              # into seat 5, focused last
    c.choose_seat(T0 + 6, 3)                                # refocus seat 3
    for key in ("9", "<", "7", "000"):
        c.bust_key(T0 + 7, key)
    asked = c.bust_confirm(T0 + 8)                         # on to: who won the pot?
    assert not asked.reports and c.view(T0 + 8).bust_panel.mode == "winner"
    sent = c.bust_send(T0 + 8)                              # SKIP
    assert [(r["kind"], r["data"]["seat"], r["data"]["stack"]) for r in sent.reports] == [
        ("bust", 3, 7000), ("bust", 5, 12000)]
    assert all("eliminator" not in r["data"] for r in sent.reports)
    assert c.pending is None and c.view(T0 + 9).undo == "bust 5"


def test_a_second_tap_on_the_focused_seat_drops_it() -> None:
    c = make()
    c.new_hand(T0)
    c.begin(T0 + 1, "bust")
    c.choose_seat(T0 + 2, 3)
    c.choose_seat(T0 + 3, 3)
    assert c.view(T0 + 3).bust_panel.picked == ()
    assert c.bust_confirm(T0 + 4).refused


def test_hand_for_hand_busts_tie_under_tda_2017_so_no_stacks_are_asked() -> None:
    c = make(hand_for_hand={"on": True, "round": 2, "go": True})
    c.new_hand(T0)
    c.begin(T0 + 1, "bust")
    c.choose_seat(T0 + 2, 3)
    c.choose_seat(T0 + 3, 5)
    assert not c.view(T0 + 3).bust_panel.stacks_needed      # TDA RP-8: they tie anyway
    c.bust_confirm(T0 + 4)
    assert len(c.bust_send(T0 + 5).reports) == 2


def test_a_mover_list_longer_than_a_page_pages() -> None:
    moves = [{"player": f"p{i}", "name": f"P{i}", "seat": i, "to_table": 2, "to_seat": i}
             for i in range(1, 11)]
    c = make(seats={}, moves_out=moves, broken=True)
    assert len(c.view(T0).movers) == 10 and c.view(T0).movers_pages == 1   # one page
    c.moves.per_page = 4                       # a smaller screen's page
    v = c.view(T0)
    assert (len(v.movers), v.movers_page, v.movers_pages) == (4, 0, 3)
    c.mover_page_step(T0, 2)
    v = c.view(T0)
    assert [m.name for m in v.movers] == ["P9", "P10"] and v.movers_page == 2
    assert v.guidance == "Table closed: do not deal" and not v.can_deal


def test_final_hold_blocks_dealing_before_the_tap() -> None:
    c = make(hold=True, final_pending=True)
    v = c.view(T0)
    assert not v.can_deal and v.state == "FINAL TABLE DRAW"
    assert c.new_hand(T0).refused and c.local.hand == 0


def test_tapping_an_arriving_seat_confirms_the_arrival() -> None:
    seats = {n: seat(n) for n in range(1, 6)} | {6: seat(6, "Zed", player="p60",
                                                         status="arriving")}
    c = make(seats=seats, moves_in=[{"player": "p60", "name": "Zed", "seat": 6,
                                     "from_table": 4, "from_seat": 2}])
    assert c.choose_seat(T0, 2).refused                     # nothing armed, seated player
    res = c.choose_seat(T0 + 1, 6)
    assert res.report["kind"] == "present" and res.report["data"] == {"seat": 6}
    assert c.view(T0 + 1).arrivals == () and 6 in {s.seat for s in c.view(T0 + 1).seats
                                                   if s.occupied}
