"""The money moments at the table, through the controller and a real tournament: the
pot's winner on the bust report, place, prize and bounty back on the screen, the chip
count typed between hands, and the colour-up walk-through."""

from __future__ import annotations

import random

from table_helpers import T0, Event18, plan, schedule

from kiosk.table.controller import PENDING_S, TableController


def table_for(event: Event18, table: int, rev: int = 1) -> TableController:
    c = TableController(table, rng=random.Random(table), boot="mm", debounce_s=0)
    assert c.apply_schedule(schedule())
    assert c.apply_plan(event.plan(table, rev), T0)
    return c


def test_the_pots_winner_reaches_the_report_and_the_director() -> None:
    event = Event18()
    c = table_for(event, 1)
    seats = sorted(c.view(T0).seats[i].seat for i in range(9) if c.view(T0).seats[i].occupied)
    out, winner = seats[0], seats[3]
    event.deal(1)
    c.new_hand(T0)
    c.begin(T0 + 1, "bust")
    c.choose_seat(T0 + 2, out)
    asked = c.bust_confirm(T0 + 3)
    assert asked.message == "Who won the pot? Tap the seat, or SKIP" and not asked.reports
    panel = c.view(T0 + 3).bust_panel
    assert panel.mode == "winner" and panel.ok_text == "SKIP"
    assert out not in [n for n, _ in panel.seats] and winner in [n for n, _ in panel.seats]
    assert c.cancel_pending(T0 + 4).refused                 # the entered bust is not lost
    assert c.press_allin(T0 + 4).refused and c.pending == "bust_winner"   # nor to a button
    assert c.choose_seat(T0 + 4, out).refused               # nobody knocks himself out
    sent = c.choose_seat(T0 + 5, winner)                    # one tap sends it
    assert sent.report["kind"] == "bust"
    assert sent.report["data"] == {"seat": out, "player": c.local.busted[out],
                                   "eliminator": winner}
    event.send(sent.report)
    c.end_hand(T0 + 6)
    assert c.apply_plan(event.plan(1, rev=2), T0 + 7)
    bust = c.plan["busts"][0]
    assert (bust["place"], bust["eliminators"]) == (18, [winner])
    assert c.view(T0 + 7).bust_results == (f"Seat {out}: 18th",)
    assert c.view(T0 + 7).undo == f"bust {out}"


def test_a_split_pot_names_every_winner_and_a_bounty_shows() -> None:
    c = TableController(3, rng=random.Random(1), boot="sp", debounce_s=0)
    c.apply_schedule(schedule())
    c.apply_plan(plan(), T0)
    c.new_hand(T0)
    c.begin(T0 + 1, "bust")
    c.choose_seat(T0 + 2, 4)
    c.bust_confirm(T0 + 3)
    c.split_pot(T0 + 4)
    assert c.view(T0 + 4).bust_panel.split
    c.choose_seat(T0 + 5, 7)
    c.choose_seat(T0 + 6, 2)
    c.choose_seat(T0 + 7, 9)
    c.choose_seat(T0 + 8, 9)                                # a second tap drops seat 9
    panel = c.view(T0 + 8 + PENDING_S * 2).bust_panel       # the winner step never lapses
    assert panel.picked == ((2, ""), (7, "")) and panel.ok_text == "OK"
    sent = c.bust_send(T0 + 9)
    assert sent.report["data"]["eliminator"] == [2, 7] and c.pending is None
    c.apply_plan(plan([n for n in range(1, 10) if n != 4], rev=2, busts=[
        {"seat": 4, "player": "p4", "name": "Dev E", "place": 9, "prize": 300,
         "bounty_won": 150, "eliminators": [2, 7]}]), T0 + 10)
    assert c.view(T0 + 10).bust_results == ("Seat 4: 9th, wins 300", "Seat 4: bounties 150")


def test_the_chip_count_is_typed_between_hands_and_checked_before_it_is_sent() -> None:
    event = Event18()
    event.tour.execute({"kind": "count_chips", "label": "end of level 2", "by": "td"}, T0)
    c = table_for(event, 2)
    c.apply_schedule(schedule(rev=2, players_left=18, average_stack=20000))
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
