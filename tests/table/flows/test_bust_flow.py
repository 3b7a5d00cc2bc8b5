"""The bust flow: seats out, then who won each pot. One seat that won every pot is one
tap; SIDE POTS names each bust's own winner(s), and the director records them apart.
The entries survive a restart in the middle of the winner step."""

from __future__ import annotations

import random
from pathlib import Path

from flow_helpers import quick as make
from flow_helpers import table_for
from table_helpers import T0, Event18, plan, schedule, table_config

from kiosk.table.controller import PENDING_S, TableController
from kiosk.table.service import TableService


def event_table(event: Event18) -> tuple[TableController, list[int]]:
    c = TableController(1, rng=random.Random(1), boot="bf", debounce_s=0)
    assert c.directions.apply_schedule(schedule())
    assert c.apply_plan(event.plan(1, 1), T0)
    return c, sorted(event.tour.tables[1].seat_of)


def two_out(c: TableController, a: int, b: int, t: float = T0) -> None:
    c.new_hand(t)
    c.begin(t + 1, "bust")
    for seat, stack in ((a, "8"), (b, "5")):     # two out: ranked by starting stack
        c.choose_seat(t + 2, seat)
        c.bust_key(t + 2, stack)
        c.bust_key(t + 2, "000")
    assert not c.bust_confirm(t + 4).refused


def test_side_pots_give_each_bust_its_own_eliminators_at_the_director() -> None:
    event = Event18()
    c, seats = event_table(event)
    short, medium, big, other = seats[0], seats[1], seats[2], seats[3]
    event.deal(1)
    two_out(c, short, medium)
    panel = c.view(T0 + 4).bust_panel
    assert panel.mode == "winner" and panel.sides and not panel.side
    assert c.side_pots(T0 + 5).message == f"Seat {short}'s pot: who won it? Tap the seat"
    step = c.choose_seat(T0 + 6, big)                       # the main pot: seat `big`
    assert not step.reports and step.message == f"Seat {medium}'s pot: who won it? Tap the seat"
    assert c.view(T0 + 6).bust_panel.done == ((short, (big,)),)
    c.split_pot(T0 + 7)                                     # the side pot was split
    c.choose_seat(T0 + 8, big)
    c.choose_seat(T0 + 9, other)
    sent = c.bust_send(T0 + 10)
    assert [(r["data"]["seat"], r["data"]["eliminator"]) for r in sent.reports] == [
        (short, big), (medium, sorted([big, other]))]
    assert c.pending is None and c.view(T0 + 10).bust_panel is None
    for rep in sent.reports:
        event.send(rep)
    assert c.apply_plan(event.plan(1, 2), T0 + 11)
    got = {b["seat"]: b["eliminators"] for b in c.plan["busts"]}
    assert got == {short: [big], medium: sorted([big, other])}


def _seat_4_out(rng: random.Random, boot: str) -> TableController:
    """A table in its first hand with seat 4 marked out and OK tapped: the winner step."""
    c = TableController(3, rng=rng, boot=boot, debounce_s=0)
    c.directions.apply_schedule(schedule())
    c.apply_plan(plan(), T0)
    c.new_hand(T0)
    c.begin(T0 + 1, "bust")
    c.choose_seat(T0 + 2, 4)
    c.bust_confirm(T0 + 3)
    return c


def test_one_seat_that_won_every_pot_is_still_one_tap() -> None:
    c = TableController(3, rng=random.Random(2), boot="one", debounce_s=0)
    c.directions.apply_schedule(schedule())
    c.apply_plan(plan(), T0)
    two_out(c, 4, 6)
    assert c.view(T0 + 4).bust_panel.prompt == "Who won? One seat won all: tap it"
    c.end_hand(T0 + 5)
    assert c.new_hand(T0 + 5).refused                       # the busts wait for a winner
    sent = c.choose_seat(T0 + 5, 2)
    assert [(r["data"]["seat"], r["data"]["eliminator"]) for r in sent.reports] == [
        (4, 2), (6, 2)]


def test_side_pots_are_refused_with_one_bust_and_a_bust_cannot_win_a_pot() -> None:
    c = _seat_4_out(random.Random(2), "ref")
    assert c.side_pots(T0 + 4).refused and not c.view(T0 + 4).bust_panel.sides
    c.bust_send(T0 + 5)
    c.end_hand(T0 + 6)
    c.apply_plan(plan([n for n in range(1, 10) if n != 4], rev=2), T0 + 7)
    two_out(c, 5, 6, T0 + 10)
    c.side_pots(T0 + 15)
    assert c.choose_seat(T0 + 16, 6).refused                # a busted seat won nothing
    skipped = c.bust_send(T0 + 17)                          # seat 5's pot: winner unknown
    assert not skipped.reports and c.view(T0 + 17).bust_panel.done == ((5, ()),)
    sent = c.choose_seat(T0 + 18, 9)
    assert [r["data"] for r in sent.reports] == [
        {"seat": 5, "player": "p5", "stack": 8000},
        {"seat": 6, "player": "p6", "stack": 5000, "eliminator": 9}]


def service(tmp: Path) -> TableService:
    svc = TableService(table_config(str(tmp), 1), now=lambda: T0 + 60,
                       rng=random.Random(4), connect=False, debounce_s=0)
    svc._on_message("schedule", schedule())
    svc._on_message("plan", plan())
    return svc


def test_a_restart_in_the_winner_step_resumes_it(tmp_path: Path) -> None:
    svc = service(tmp_path)
    svc.act("new_hand")
    svc.act("begin", "bust")
    for act in (("choose_seat", 4), ("bust_key", "9"), ("bust_key", "000"),
                ("choose_seat", 6), ("bust_key", "5"), ("bust_key", "000"),
                ("bust_confirm",), ("side_pots",), ("choose_seat", 2)):
        assert not svc.act(*act).refused
    queued = svc.outbox.pending_count()
    del svc                                   # the power goes: no stop, no close

    again = service(tmp_path)
    again.now = lambda: T0 + 60 + PENDING_S * 10   # long after: the step does not lapse
    panel = again.view().bust_panel
    assert panel is not None and panel.mode == "winner" and panel.side
    assert panel.done == ((4, (2,)),)
    assert panel.prompt == "Seat 6's pot: who won it? Tap the seat"
    sent = again.act("choose_seat", 7)
    assert [(r["data"]["seat"], r["data"]["stack"], r["data"]["eliminator"])
            for r in sent.reports] == [(4, 9000, 2), (6, 5000, 7)]
    assert again.outbox.pending_count() == queued + 2
    assert again.view().bust_panel is None
    third = service(tmp_path)                 # sent busts are not resumed a second time
    assert third.view().bust_panel is None


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
    c = _seat_4_out(random.Random(1), "sp")
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
