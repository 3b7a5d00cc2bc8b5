"""What the floor's pages read of the tools against stalling (TDA RP-19), from the
director's state: hands left in place of time, each table's own level and its part in
orbit for orbit, the shot clock and the final table's banks, the players' clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.core.calc import button as btn
from kiosk.core.event.tournament import Tournament
from kiosk.director.views.player_views import clock_part
from kiosk.director.views.views import summary, table_view
from kiosk.rules.structure import Period, Structure

HANDS = Structure("by hands", 10000, (Period(0, 50, 100, hands=3), Period(0, 100, 200, hands=4)))
TIMED = Structure("timed", 10000, tuple(Period(20, 50 * 2 ** i, 100 * 2 ** i) for i in range(8)))


@dataclass
class EventAggregate:
    tour: Tournament
    live: dict[int, dict[str, Any]] = field(default_factory=dict)
    online: dict[int, bool] = field(default_factory=dict)


def event(players: int, structure: Structure, **extra: Any) -> Tournament:
    tour = Tournament.create(event="v", profile="tda-2015", structure=structure, **extra)
    for i in range(players):
        tour.execute({"kind": "register", "name": f"P{i}", "player": f"p{i}"}, 0.0)
    tour.execute({"kind": "start"}, 0.0)
    return tour


def hand(tour: Tournament, table: int, n: int) -> None:
    tab = tour.tables[table]
    pos = btn.first_hand(set(tab.seat_of), min(tab.seat_of), tab.seats) \
        if tab.positions is None else btn.next_hand(tab.positions, set(tab.seat_of),
                                                    tab.seats, dead_button=True)
    for kind, data in (("hand_started", {"hand": tab.hand + 1, "button": pos.button,
                                         "sb": pos.sb, "bb": pos.bb,
                                         "dealt": list(pos.dealt)}),
                       ("hand_ended", {"hand": tab.hand + 1})):
        tour.execute({"kind": "report", "table": table, "report": {
            "table": table, "id": f"{kind}-{table}-{n}", "kind": kind, "data": data}}, 1.0)


def test_hands_left_in_place_of_time_and_each_tables_own_level() -> None:
    tour = event(18, HANDS)
    for n in range(4):
        hand(tour, 1, n)
    hand(tour, 2, 0)
    d = EventAggregate(tour)
    s = summary(d, 5.0)
    assert (s["hands"], s["level"], s["hands_left"], s["paused"]) == (True, 1, 2, False)
    assert table_view(d, 1, 5.0)["hand_level"] == {"period": 1, "level": 2, "hands_left": 3}
    assert table_view(d, 2, 5.0)["hand_level"] == {"period": 0, "level": 1, "hands_left": 2}
    assert clock_part(tour, 5.0)["hands_left"] == 2
    timed = event(9, TIMED)
    assert summary(EventAggregate(timed), 5.0)["hands_left"] is None
    assert clock_part(timed, 5.0)["hands_left"] is None


def test_the_final_tables_banks_show_only_while_its_shot_clock_runs() -> None:
    tour = event(18, TIMED, shot_clock={"seconds": 30, "applies": "final", "bank_cards": 2,
                                        "bank_seconds": 45})
    d = EventAggregate(tour)
    assert summary(d, 1.0)["shot_clock"]["banks"] == []          # no final table yet
    for pid in [f"p{i}" for i in range(8)]:
        tour.execute({"kind": "bust", "player": pid}, 1.0)
    shot = summary(d, 1.0)["shot_clock"]
    assert shot["final_table"] and len(shot["banks"]) == 10
    assert {b["cards"] for b in shot["banks"]} == {2} and shot["bank_seconds"] == 45
    tour.execute({"kind": "shot_clock", "applies": "off"}, 2.0)
    shot = summary(d, 2.0)["shot_clock"]
    assert not shot["final_table"] and shot["banks"] == [] and shot["applies"] == "off"
    tour.execute({"kind": "orbit", "on": True}, 3.0)
    assert summary(d, 3.0)["orbit"]["on"]
    assert table_view(d, tour.final_table or 0, 3.0)["orbit"] == "playing"
