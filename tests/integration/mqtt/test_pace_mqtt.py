"""Each table's own pace (TDA RP-19) over a real Mosquitto, with the director as a process
and real table kiosks: orbit for orbit, one table breaking mid-orbit; levels counted in
hands at two tables dealing at different speeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from floor_client import FloorClient
from stalling_kit import hands_toml, table_kiosk
from waiting import wait_for

from kiosk.director.log.store import EventLog
from kiosk.table.service import TableService


def kiosk(tmp_path: Path, mosquitto: Any, director: Any, table: int,
          players: int) -> TableService:
    """A real kiosk at `table`, once it has its event's schedule."""
    return table_kiosk(tmp_path, mosquitto, director, table, players,
                       lambda svc: svc.ctl.ctx.schedule)


def caught_up(svc: TableService) -> bool:
    """The director has every report of the table and its plan shows the last hand."""
    return svc.outbox.pending_count() == 0 and \
        svc.ctl.plan.get("hand") == svc.ctl.local.hand


def hand(svc: TableService) -> None:
    """One hand, dealt and ended, and the director's word on it back at the table."""
    res = svc.act("new_hand")
    assert not res.refused, res.message
    assert not svc.act("end_hand").refused
    wait_for(lambda: caught_up(svc), 30)


def orbit(svc: TableService, limit: int = 20) -> int:
    """Hands the table deals until it shows its orbit of this round played out (or the
    round is over: it was the last table playing)."""
    n, round_ = 0, svc.ctl.plan["orbit"]["round"]
    while svc.view().orbit == "playing" and svc.ctl.plan["orbit"]["round"] == round_:
        hand(svc)
        n += 1
        assert n <= limit, "the orbit never ended"
        wait_for(lambda: caught_up(svc) and svc.ctl.plan["orbit"]["hand"] ==
                 svc.ctl.local.hand, 30)
    return n


def logged(director: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in EventLog(director.db).read() if e["kind"] == kind]


def test_orbit_for_orbit_with_a_table_breaking_mid_orbit(tmp_path, mosquitto,
                                                         director_factory) -> None:
    director = director_factory(players=19, web=True, floor_users={"td": "pw"}).start()
    floor = FloorClient(f"http://127.0.0.1:{director.http_port}", "td", "pw")
    one, two, three = (kiosk(tmp_path, mosquitto, director, n, c)
                       for n, c in ((1, 7), (2, 6), (3, 6)))
    tables = (one, two, three)
    assert floor.post("/api/act", {"kind": "orbit", "on": True})["ok"]
    wait_for(lambda: all(t.view().orbit == "playing" for t in tables), 30)
    assert orbit(one) == 7                          # seven players: seven big blinds
    view = one.view()
    assert view.state == "ORBIT FOR ORBIT 1: WAIT" and not view.can_deal
    assert one.act("new_hand").refused
    hand(two)                                       # table 2: one hand of its orbit
    # table 3, mid-orbit: a player busts, the floor breaks it, the others move on
    assert not three.act("new_hand").refused
    three.act("begin", "bust")
    out = next(s.seat for s in three.view().seats if s.name)
    assert three.act("choose_seat", out, 20000).report is not None
    wait_for(lambda: three.outbox.pending_count() == 0, 30)
    assert floor.post("/api/act", {"kind": "break_table", "table": 3})["ok"]
    three.act("end_hand")
    wait_for(lambda: three.ctl.plan.get("broken"), 30)
    summary = floor.get("/api/snapshot")["summary"]
    assert summary["orbit"] == {"on": True, "round": 1, "playing": [2]}, \
        "a breaking table no longer holds the round"
    wait_for(lambda: sum(1 for s in two.view().seats if s.name) > 6, 30)
    for s in two.view().seats:                     # the newcomers sit down
        if s.arriving:
            two.act("choose_seat", s.seat)
    wait_for(lambda: not any(s.arriving for s in two.view().seats) and caught_up(two), 30)
    gained = sum(1 for s in two.view().seats if s.name)
    rest = orbit(two)
    assert rest >= gained - 3, "the players it gained are dealt into its orbit"
    wait_for(lambda: one.view().orbit == "playing" and one.view().can_deal, 30)
    done = [(e["table"], e["round"]) for e in logged(director, "orbit_done")]
    assert done == [(1, 1), (2, 1)]
    go = [(e["round"], e["tables"]) for e in logged(director, "orbit_go")]
    assert go == [(1, [1, 2, 3]), (2, [1, 2])]
    for t in tables:
        t.stop()
    assert "rejected" not in director.log_text()




def test_levels_counted_in_hands_at_two_tables_dealing_at_different_speeds(
        tmp_path, mosquitto, director_factory) -> None:
    structure = tmp_path / "hands.toml"
    structure.write_text(hands_toml(3, 3, 5))
    director = director_factory(players=18, profile="tda-2015", structure=str(structure),
                                web=True, floor_users={"td": "pw"}).start()
    floor = FloorClient(f"http://127.0.0.1:{director.http_port}", "td", "pw")
    fast, slow = kiosk(tmp_path, mosquitto, director, 1, 9), \
        kiosk(tmp_path, mosquitto, director, 2, 9)
    assert (fast.view().level, fast.view().clock) == ("Level 1", "3 hands")
    for _ in range(4):
        hand(fast)
    hand(slow)
    v = fast.view()
    assert (v.level, v.blinds, v.clock, v.hands_left) == ("Level 2", "100/200", "2 hands", 2)
    v = slow.view()
    assert (v.level, v.blinds, v.clock) == ("Level 1", "50/100", "2 hands")
    tv = floor.get("/api/snapshot")
    assert (tv["summary"]["level"], tv["summary"]["hands_left"], tv["summary"]["hands"]) == (
        1, 2, True)
    tiles = {x["table"]: x["hand_level"] for x in tv["tables"]}
    assert tiles == {1: {"period": 1, "level": 2, "hands_left": 2},
                     2: {"period": 0, "level": 1, "hands_left": 2}}
    # the slow table's blinds go up by its own hands; then the event's level follows
    for _ in range(2):
        hand(slow)
    assert slow.view().level == "Level 2"
    wait_for(lambda: floor.get("/api/snapshot")["summary"]["level"] == 2, 30)
    assert [e["clock"]["period"] for e in logged(director, "clock_set")
            if e.get("why") == "hands"] == [1]
    refused = floor.post("/api/act", {"kind": "clock", "action": "add", "seconds": 60})
    assert not refused["ok"] and "counts its levels in hands" in refused["error"]
    fast.stop()
    slow.stop()
