"""The colour-up flow and its chip race (TDA 2017 r.24): by default the dealer races with
real cards, the kiosk says who gets how many and the card order, the dealer taps the
seats in card order and the director applies exactly that. A "draw" plan still shows
the director's own cards."""

from __future__ import annotations

import random
from pathlib import Path

from flow_helpers import ORDER, answered, as_dealer, raced, table_for
from table_helpers import T0, Event18, schedule, table_config

from kiosk.protocol import messages
from kiosk.table.controller import TableController
from kiosk.table.service import TableService


def table() -> tuple[Event18, TableController]:
    event = Event18()
    c = TableController(1, rng=random.Random(1), boot="cu", debounce_s=0)
    assert c.directions.apply_schedule(schedule())
    assert c.apply_plan(event.plan(1, 1), T0)
    return event, c


def test_the_dealer_races_with_cards_and_the_director_applies_the_entry() -> None:
    event, c = table()
    core = raced(event, c)
    assert c.apply_plan(as_dealer(core, 3), T0 + 1)
    v = c.view(T0 + 1)
    panel = v.bust_panel
    assert panel is not None and panel.mode == "race" and v.colour_up_title == ""
    assert dict(panel.cards) == {1: 1, 2: 3, 3: 1, 4: 3, 5: 1, 6: 3, 7: 1, 8: 3, 9: 1}
    assert panel.note == ORDER and panel.prompt == "CHIP RACE: 4 x 100: tap the highest card's seat"
    assert not panel.ok and not panel.can_undo              # SEND waits for four taps
    for seat in (4, 2):
        assert not c.choose_seat(T0 + 2, seat).refused
    assert c.choose_seat(T0 + 3, 4).refused                  # TDA: one chip each at most
    assert c.view(T0 + 3).bust_panel.blocked == (2, 4)
    assert c.race_send(T0 + 3).refused                       # two of four
    c.choose_seat(T0 + 4, 8)
    assert c.race_undo(T0 + 5).message == "Seat 8: chip taken back"
    for seat in (6, 1):
        c.choose_seat(T0 + 6, seat)
    assert c.choose_seat(T0 + 6, 3).refused                  # all four are given
    panel = c.view(T0 + 6).bust_panel
    assert panel.prompt == "CHIP RACE: all 4 given - SEND"
    assert panel.picked == ((4, "1"), (2, "2"), (6, "3"), (1, "4")) and panel.ok
    sent = c.race_send(T0 + 7)
    assert sent.report["kind"] == "chip_race"
    assert sent.report["data"] == {"round": 1, "winners": [4, 2, 6, 1]}
    messages.check("report", sent.report)
    v = c.view(T0 + 8)                                       # waiting: the table plays on
    assert v.bust_panel is None and v.colour_up_title == "" and v.can_deal
    assert v.guidance == "Chip race sent: waiting for the director"
    assert c.apply_plan(answered(as_dealer(core, 4), 5, [4, 2, 6, 1]), T0 + 9)
    v = c.view(T0 + 9)
    assert v.colour_up_title == "COLOUR-UP: 25 off, race for 100"
    assert ("Seat 4", "wins 1", "20,075 -> 20,100") in v.colour_up
    assert ("Seat 8", "", "20,075 -> 20,000") in v.colour_up
    c.colour_up_done(T0 + 10)
    assert c.view(T0 + 10).colour_up_title == "" and c.view(T0 + 10).bust_panel is None


def test_home_rules_let_one_seat_win_several_chips() -> None:
    event, c = table()
    c.apply_plan(as_dealer(raced(event, c), 3, max_each=None, to_give=2), T0 + 1)
    assert not c.choose_seat(T0 + 2, 4).refused
    assert not c.choose_seat(T0 + 3, 4).refused
    assert c.view(T0 + 3).bust_panel.picked == ((4, "1 2"),)
    assert c.choose_seat(T0 + 3, 10).refused                 # no cards, no chip
    assert c.race_send(T0 + 4).report["data"]["winners"] == [4, 4]


def test_a_draw_plan_shows_the_directors_cards_as_before() -> None:
    event, c = table()
    c.apply_plan(raced(event, c), T0 + 1)
    v = c.view(T0 + 1)
    assert v.bust_panel is None and v.colour_up_title == "COLOUR-UP: 25 off, race for 100"
    assert ("Seat 4", "Ks Ad Td  wins 1", "20,075 -> 20,100") in v.colour_up
    assert c.race_tap(T0 + 2, 4).refused and c.race_send(T0 + 2).refused


def test_race_taps_survive_a_restart(tmp_path: Path) -> None:
    event = Event18()
    stacks = event.colour_up_break(1)
    svc = TableService(table_config(str(tmp_path), 1, table=1), now=lambda: T0,
                       rng=random.Random(2), connect=False, debounce_s=0)
    svc._on_message("schedule", schedule())
    svc._on_message("plan", event.plan(1, 1))
    event.send(svc.act("chip_count", stacks, 1).report)
    svc._on_message("plan", as_dealer(event.plan(1, 2), 3))
    svc.act("choose_seat", 6)
    svc.act("choose_seat", 8)
    del svc                                                  # the power goes
    again = TableService(table_config(str(tmp_path), 1, table=1), now=lambda: T0 + 90,
                         rng=random.Random(2), connect=False, debounce_s=0)
    assert again.view().bust_panel.picked == ((6, "1"), (8, "2"))


def test_the_colour_up_walks_the_dealer_through_the_race_then_play_resumes() -> None:
    event = Event18()
    stacks = event.colour_up_break(1)
    c = table_for(event, 1)
    assert c.view(T0).bust_panel.mode == "count"            # the count comes first
    seats = sorted(stacks)
    for s in seats:
        c.choose_seat(T0, s)
        for k in str(stacks[s]):
            c.count_key(T0, k)
    event.send(c.count_send(T0 + 1).report)
    assert c.apply_plan(event.plan(1, rev=2), T0 + 2)
    v = c.view(T0 + 2)
    assert v.bust_panel is None
    assert v.colour_up_title == "COLOUR-UP: 25 off, race for 100"
    assert [r[0] for r in v.colour_up] == [f"Seat {s}" for s in seats]
    assert any(r[2].endswith("-> 20,100") for r in v.colour_up)
    assert any("wins 1" in r[1] for r in v.colour_up)
    assert c.colour_up_done(T0 + 3).message == "Colour-up done"
    assert c.view(T0 + 3).colour_up == () and c.view(T0 + 3).can_deal


def test_a_finished_colour_up_stays_finished_after_a_restart(tmp_path) -> None:
    """DONE sends no report, but a kiosk restarted after it must not ask again."""
    from table_helpers import table_config

    from kiosk.table.service import TableService

    event = Event18()
    stacks = event.colour_up_break(1)
    cfg = table_config(str(tmp_path), port=1, table=1)
    svc = TableService(cfg, connect=False, now=lambda: T0, debounce_s=0)
    svc._on_message("schedule", schedule())
    svc._on_message("plan", event.plan(1, 1))
    for s in sorted(stacks):
        svc.act("choose_seat", s)
        for k in str(stacks[s]):
            svc.act("count_key", k)
    event.send(svc.act("count_send").report)
    svc._on_message("plan", event.plan(1, 2))
    assert svc.view().colour_up
    assert svc.act("colour_up_done").message == "Colour-up done"
    svc.stop()
    again = TableService(cfg, connect=False, now=lambda: T0, debounce_s=0)
    assert again.view().colour_up == () and again.view().can_deal
    again.stop()
