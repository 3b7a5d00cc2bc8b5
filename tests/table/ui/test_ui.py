"""The dealer screen rendered headless (SDL2 offscreen), at 800x480 and 1280x720.

Each critical moment is drawn at both sizes, measured (cap heights, touch targets and
gaps in px, text that fits, nothing overlapping) and saved to tests/output/screens/.
"""

from __future__ import annotations

import pytest
from flow_helpers import table_for
from table_helpers import T0, Event18, plan, schedule, seat
from ui_kit import LONG, MARKUP, SIZES, TITLE, Harness, eight_movers, nine

MOVE = {"player": "p4", "name": "Dev E", "seat": 4, "to_table": 7, "to_seat": 2}
ARRIVAL = {"player": "p20", "name": "Anna K", "seat": 6, "from_table": 5, "from_seat": 1}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen_reads_at_arms_length(ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(1)
    ids = ui.draw(size)
    assert ids.btn_new.disabled is False and ids.btn_end.disabled and ids.btn_undo.disabled
    ui.press(ids.btn_new)
    ui.press(ids.btn_all_in)
    ui.seat(5)
    ui.press(ids.btn_absent)
    ui.seat(8)
    ui.ctl.set_link(False, 3)
    ids = ui.draw(size)
    clock = ui.ctl.view(ui.t).clock
    assert ids.blinds.text == "25/50" and ids.clock.text == clock and clock.startswith("18:")
    assert ids.level.text == "Level 1" and ids.next_level.text == "Next: 50/100"
    assert ids.table_no.text == "T3" and ids.field.text == "Hand 1 · 27 left · avg 16,667"
    assert ids.to_break.text.startswith("Break in ")
    assert ids.btn_new.disabled and not ids.btn_end.disabled
    assert ids.btn_undo.text == "UNDO\naway 8"                  # says what it takes back
    seats = ids.oval.seats
    assert seats[5].ids.status.text.strip() == "ALL-IN"
    assert seats[8].ids.status.text.strip() == "absent"
    assert seats[7].ids.status.text.strip() == "PEN x2"
    assert seats[3].ids.name.text == MARKUP and not seats[3].ids.name.markup   # literal
    assert seats[2].ids.name.text == LONG and seats[2].ids.name.shorten
    pos = ui.ctl.local.positions
    assert seats[pos.button].ids.b_d.opacity == 1 and seats[pos.bb].ids.b_bb.opacity == 1
    lines = [w.text for w in ui.screen.lines if w.text]
    assert lines[0] == "OFFLINE: 3 queued"
    got = ui.check(size)
    scale = size[1] / 480
    assert got["caps"][clock] >= 38.5 * scale and got["caps"]["25/50"] >= 38.5 * scale
    assert got["targets"] == 16                                   # 9 seats + 7 buttons
    ui.ctl.set_link(True, 0)
    ids = ui.draw(size)
    assert TITLE in [w.text for w in ui.screen.lines]            # which event this table deals
    ui.shot("main", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clock_call_overlay(ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(1)
    assert ui.act("call_clock", 6, "player").report is not None
    ui.ctl.apply_plan(plan(nine(), rev=2, clock_calls={f"c{size[0]}": {
        "state": "approved", "seat": 6, "approved_at": ui.t, "seconds": 25,
        "countdown": 5}}), ui.t)
    ui.t += 10
    ids = ui.draw(size)
    assert ids.clock_call.shown and ids.cc_title.text == "CLOCK ON SEAT 6"
    assert ids.cc_count.text == "20" and "25 + 5 s" in ids.cc_detail.text
    ui.check(size)
    ui.shot("clock_call", size)
    ui.t += 17                                       # into the final 5 s count
    ids = ui.draw(size)
    assert ids.cc_count.text == "3" and tuple(ids.cc_count.color) == (1, 0.2, 0.2, 1)
    ui.act("clock_done", "acted")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_balancing_move_and_an_arrival_confirmed_by_a_tap(ui: Harness,
                                                          size: tuple[int, int]) -> None:
    seats = nine() | {6: seat(6, "Anna K", player="p20", status="arriving")}
    ui.fresh(3, seats, moves_out=[MOVE], moves_in=[ARRIVAL])
    ids = ui.draw(size)
    lines = [w.text for w in ui.screen.lines if w.text]
    assert "Seat 4: go to table 7 seat 2" in lines
    assert "Seat 6: arriving from T5" in lines
    assert ids.oval.seats[6].ids.status.text.strip() == "arriving T5"
    ui.check(size)
    ui.shot("move_banner", size)
    before = ui.taps
    ui.seat(6)                                        # no card: the dealer taps the seat
    assert ui.taps - before == 1
    assert ui.ctl.view(ui.t).seats[5].occupied and ui.ctl.local.checked_in == {6: "p20"}
    ids = ui.draw(size)
    assert ids.oval.seats[6].ids.status.text == "" and ids.oval.seats[6].ids.name.text == "Anna K"
    assert "Seat 6: Anna K arrived" in [w.text for w in ui.screen.lines]
    ui.check(size)
    ui.shot("arrived", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_last_hand_of_a_breaking_table(ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(12)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.ctl.apply_plan(plan(nine(), rev=13, breaking=True, hold=True), ui.t)
    ids = ui.draw(size)
    lines = [w.text for w in ui.screen.lines if w.text]
    assert lines[0] == "LAST HAND - TABLE BREAKS" and not ids.btn_end.disabled
    ui.check(size)
    ui.shot("breaking_last_hand", size)
    ui.press(ids.btn_end)
    assert ui.draw(size).btn_new.disabled                 # no new hand at a breaking table


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_breaking_table_shows_all_eight_destinations(ui: Harness,
                                                       size: tuple[int, int]) -> None:
    ui.fresh(4, {}, moves_out=eight_movers(), broken=True, breaking=False, hold=True)
    ids = ui.draw(size)
    assert ids.movers.shown and ids.movers_title.text == "TABLE BREAKING: players move"
    cells = [c for c in ui.screen.mover_cells if c.opacity]
    assert len(cells) == 8
    for i, cell in enumerate(cells, start=1):
        assert cell.ids.dest.text == f"TABLE {10 + i % 3}  SEAT {i + 1}"
        assert cell.ids.origin.text == f"from seat {i}"
    assert cells[4].ids.who.text == MARKUP and not cells[4].ids.who.markup
    got = ui.check(size)                             # every destination fits, unshortened
    assert got["caps"]["TABLE 11  SEAT 2"] >= 3 * 5.5 * size[1] / 480
    ui.shot("breaking_movers", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_final_table_draw_holds_the_table(ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(5, hold=True, final_pending=True,
             hold_reason="the final table draw waits for every hand to end")
    ids = ui.draw(size)
    assert ids.btn_new.disabled                         # not refused after the tap: disabled
    lines = [w.text for w in ui.screen.lines if w.text]
    assert lines == ["FINAL TABLE DRAW", TITLE, "Final draw: do not deal"]
    assert ui.ctl.new_hand(ui.t).refused
    ui.check(size)
    ui.shot("final_hold", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_final_table_arrivals_list_confirms_by_tap(ui: Harness, size: tuple[int, int]) -> None:
    ins = [{"player": f"q{i}", "name": f"Player {i}", "seat": i, "from_table": 2 + i % 2,
            "from_seat": i} for i in range(1, 9)]
    seats = {i: seat(i, f"Player {i}", player=f"q{i}", status="arriving") for i in range(1, 9)}
    ui.fresh(6, seats, moves_in=ins, final_table=True)
    ids = ui.draw(size)
    assert ids.movers_title.text == "FINAL TABLE: tap arrivals"
    ui.check(size)
    ui.shot("final_arrivals", size)
    before = ui.taps
    ui.press(ui.screen.mover_cells[2])                 # Player 3 has no card
    assert ui.taps - before == 1 and ui.ctl.local.checked_in == {3: "q3"}
    ui.draw(size)
    assert ui.screen.mover_cells[2].ids.dest.text == "ARRIVED SEAT 3"
    ui.press(ids.movers_hide)
    assert not ui.draw(size).movers.shown
    assert "FINAL TABLE" in [w.text for w in ui.screen.lines]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_two_busts_with_stacks_on_the_keypad(ui: Harness, size: tuple[int, int]) -> None:
    ui.fresh(7)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    start = ui.taps
    ui.press(ids.btn_bust)
    ids = ui.draw(size)
    assert ids.bust_panel.shown
    buttons = ui.screen.bust_buttons
    keys = {b.text: b for b in ids.keypad.children if hasattr(b, "text")}
    ui.press(buttons[4])
    ui.press(keys["8"])
    ui.press(keys["000"])
    ui.press(buttons[6])
    ids = ui.draw(size)
    assert ids.bust_prompt.text.startswith("Two or more out") and ui.screen.keypad_ok.disabled
    assert buttons[6].text.startswith("6 OUT  stack?")
    ui.press(keys["5"])
    ui.press(keys["000"])
    ui.draw(size)
    assert buttons[4].text.startswith("4 OUT  8,000") and not ui.screen.keypad_ok.disabled
    ui.check(size)
    ui.shot("bust_keypad", size)
    ui.press(ui.screen.keypad_ok)
    assert ui.screen.keypad_ok.text == "SKIP"              # who won the pot, if known
    sent = ui.screen.tap("bust_send")
    assert ui.taps - start == 9                          # BUST, 4, 8, 000, 6, 5, 000, OK, SKIP
    assert [(r["data"]["seat"], r["data"]["stack"]) for r in sent.reports] == [(4, 8000),
                                                                             (6, 5000)]
    # the director answers with places and prizes
    seats = {n: s for n, s in nine().items() if n not in (4, 6)}
    ui.ctl.apply_plan(plan(seats, rev=8, busts=[
        {"seat": 4, "player": "p4", "name": "Dev E", "place": 18, "tied": 1, "prize": 120},
        {"seat": 6, "player": "p6", "name": "Finn G", "place": 19, "tied": 1, "prize": 0}]),
        ui.t)
    ids = ui.draw(size)
    assert ids.oval.seats[4].ids.status.text.strip() == "OUT 18th"
    assert ids.oval.seats[6].ids.name.text == "Finn G"
    lines = [w.text for w in ui.screen.lines if w.text]
    assert lines[:2] == ["Seat 4: 18th, wins 120", "Seat 6: 19th"]
    assert ids.btn_undo.text == "UNDO\nbust 6"
    ui.check(size)
    ui.shot("bust_places", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hand_for_hand_wait_keeps_bust_and_undo(ui: Harness, size: tuple[int, int]) -> None:
    rev = size[0]
    ui.ctl.directions.apply_schedule(schedule(rev=rev, hand_for_hand={"on": True, "round": 3,
                                                           "playing": [2, 5]},
                                   players_left=19))
    ui.fresh(9, hand_for_hand={"on": True, "round": 3, "go": True})
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.press(ids.btn_end)
    ids = ui.draw(size)
    assert ids.btn_new.disabled and not ids.btn_bust.disabled
    assert [w.text for w in ui.screen.lines if w.text] == [
        "HAND-FOR-HAND 3: WAIT", "Hand 1 ended", "Playing: tables 2, 5"]
    ui.check(size)
    ui.shot("h4h_wait", size)
    ui.press(ids.btn_bust)                               # a bust noticed after END HAND
    ui.press(ui.screen.bust_buttons[2])
    ui.press(ui.screen.keypad_ok)
    ui.press(ui.screen.keypad_ok)                        # SKIP: the pot's winner unknown
    assert ui.ctl.local.busted == {2: "p2"}
    ui.press(ids.btn_undo)
    assert ui.ctl.local.busted == {}
    ui.ctl.directions.apply_schedule(schedule(rev=rev + 1, players_left=27, average_stack=16667))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_break_screen_shows_a_move_ordered_during_the_break(ui: Harness,
                                                           size: tuple[int, int]) -> None:
    ui.fresh(10, moves_out=[MOVE])
    saved, ui.t = ui.t, T0 + 170 * 60 + 30      # the second break: the 25s leave there
    try:
        ids = ui.draw(size)
        assert ids.break_screen.shown and ids.break_clock.text == "14:30"
        assert ids.color_up.text == "Race off the 25 chips"
        assert ids.break_moves.text == "Seat 4: go to table 7 seat 2"
        ui.check(size)
        ui.shot("break", size)
    finally:
        ui.t = saved


def test_tap_counts(ui: Harness) -> None:
    """The taps a dealer makes for the common jobs (docs/table.md's table)."""
    counts = {}
    ui.fresh(11)
    ids = ui.draw((800, 480))
    n = ui.taps
    ui.press(ids.btn_new)
    ui.press(ids.btn_end)
    counts["ordinary hand"] = ui.taps - n
    ui.press(ids.btn_new)
    n = ui.taps
    ui.press(ids.btn_bust)
    ui.press(ui.screen.bust_buttons[3])
    ui.press(ui.screen.keypad_ok)
    ui.press(ui.screen.bust_buttons[5])                  # seat 5 won the pot
    counts["one bust"] = ui.taps - n
    assert ui.sent[-1]["data"]["eliminator"] == 5
    n = ui.taps
    ui.press(ids.btn_undo)
    counts["undo"] = ui.taps - n
    assert ui.ctl.local.busted == {}
    n = ui.taps
    ui.press(ids.btn_bust)
    ui.press(ui.screen.bust_buttons[3])
    ui.press(ui.screen.keypad_ok)
    ui.press(ui.screen.keypad_ok)                        # SKIP
    counts["one bust, winner skipped"] = ui.taps - n
    assert "eliminator" not in ui.sent[-1]["data"]
    ui.press(ids.btn_undo)
    n = ui.taps
    ui.press(ids.btn_bust)
    ui.press(ui.screen.bust_buttons[3])
    ui.press(ui.screen.keypad_ok)
    ui.press(ui.screen.keypad_split)
    ui.press(ui.screen.bust_buttons[5])
    ui.press(ui.screen.bust_buttons[8])
    ui.press(ui.screen.keypad_ok)
    counts["one bust, split pot"] = ui.taps - n
    assert ui.sent[-1]["data"]["eliminator"] == [5, 8]
    ui.press(ids.btn_undo)
    n = ui.taps
    ui.press(ids.btn_bust)
    keys = {b.text: b for b in ui.screen.ids.keypad.children if hasattr(b, "text")}
    for n_seat, digit in ((3, "8"), (4, "5")):           # two out: each starting stack
        ui.press(ui.screen.bust_buttons[n_seat])
        ui.press(keys[digit])
        ui.press(keys["000"])
    ui.press(ui.screen.keypad_ok)
    ui.press(ui.screen.bust_buttons[5])                  # seat 5 won both pots: one tap
    counts["two busts, one winner"] = ui.taps - n
    assert [(r["data"]["seat"], r["data"]["eliminator"]) for r in ui.sent[-2:]] == [
        (3, 5), (4, 5)]
    assert counts == {"ordinary hand": 2, "one bust": 4, "undo": 1,
                      "one bust, winner skipped": 4, "one bust, split pot": 7,
                      "two busts, one winner": 9}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_refused_login_and_full_disk_read_on_the_screen(ui: Harness,
                                                         size: tuple[int, int]) -> None:
    """Both are the operator's to fix: the screen says what, not only "OFFLINE"."""
    ui.fresh(1)
    ui.ctl.set_link(False, 2, "broker refused this table's login")
    ui.ctl.set_storage("DISK FULL: not saving (2 kept)")
    ui.draw(size)
    lines = [w.text for w in ui.screen.lines if w.text]
    assert lines[:2] == ["DISK FULL: not saving (2 kept)", "Broker refused this table's login"]
    assert lines[-1] == "Tap NEW HAND to deal"                   # the dealer can go on
    ui.check(size)
    ui.shot("login_refused_disk_full", size)
    ui.ctl.set_storage("")
    ui.ctl.set_link(True, 0, "broker refused this table's login")   # a good login clears it
    ui.draw(size)
    assert not any("refused" in w.text or "DISK" in w.text for w in ui.screen.lines)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_shows_who_of_the_floor_is_on_the_way(ui: Harness,
                                                        size: tuple[int, int]) -> None:
    """FLOOR pressed, the call decided by a real tournament, "On my way" answered by a
    floor login: the plan it publishes (through the wire) names them on the screen."""
    event = Event18()
    ui.ctl = table_for(event, 1)
    ui.ctl.set_link(True, 0)
    ui.act("press_floor")                        # the FLOOR button by the dealer
    event.send(ui.sent[-1])
    call = next(iter(event.tour.floor_calls))
    ui.ctl.apply_plan(event.plan(1, 2), ui.t)
    ui.draw(size)
    assert "Floor called" in [w.text for w in ui.screen.lines]
    event.tour.execute({"kind": "floor_ack", "call": call, "by": "Maria"}, T0)
    ui.ctl.apply_plan(event.plan(1, 3), ui.t)
    ui.draw(size)
    assert "Floor on the way: Maria" in [w.text for w in ui.screen.lines]
    ui.check(size)
    ui.shot("floor_on_the_way", size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_header_names_the_tables_section(ui: Harness, size: tuple[int, int]) -> None:
    """In a big room the dealer (and the floor walking past) reads the section up top."""
    ui.fresh(1, section="Pavilion")
    ids = ui.draw(size)
    assert ids.field.text.split(" · ")[0] == "Pavilion"
    ui.check(size)
    ui.shot("section_in_header", size)
