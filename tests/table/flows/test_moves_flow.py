"""The moves-and-arrivals flow: long mover lists, the final-table hold, and arrivals
confirmed with a tap."""

from __future__ import annotations

from flow_helpers import quick as make
from table_helpers import T0, seat


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
