"""The screens of the tools against stalling (TDA RP-19) and of the handover (TDA 2024
RP-15A), headless at 800x480 and 1280x720, driven as a dealer drives them: a real event
(the director's core) gives the plans, the real controller runs the table, every press is
on the screen's own widgets.

- The shot clock: its count over the header, large enough for the far seat (1.5 m), the
  seat it runs on lit on the ring and every seat still there, TIME BANK and ACTED in the
  middle of the table; a card taken (the seconds it added, the cards left), the last 5 s
  in red with the buzzer's beep, TIME BANK off with no card left, and at time up the rule
  (the hand dead facing a bet, checked otherwise) with HAND DEAD and CHECKED.
- The handover: its panel over the table between hands while the push is due and after
  it: the next hand's blinds (the prior level's for r.23's one hand), the players warned
  or on a penalty by seat and name, the floor's note.
- Hands left where levels count hands, and orbit for orbit's wait.

Each in English, German (length) and Chinese (glyphs), the shot clock and the handover in
every shipped language; shot to tests/output/screens/.
"""

from __future__ import annotations

from typing import Any

import pytest
from stalling_screens import (
    NOTE,
    Kiosk,
    handed_over,
    hands_left,
    orbit_wait,
    shot_bank,
    shot_clock,
    shot_time,
)
from table_helpers import T0, StallingEvent
from ui_checks import BIG_CAP, FAR_CAP, TEXT_CAP, cap_height, check_screen, shown, walk
from ui_kit import SIZES, Harness

from kiosk.core.calc.clock import level_ends_at
from kiosk.core.model.dealer_events import PushDone
from kiosk.lang import active
from kiosk.lang.fonts import needs_cjk
from kiosk.table.calls import ShotRun

LANGS = ("en", "de", "zh_Hans")
SHORTEN = frozenset({"name", "who", "sc_name", "ho_note"})   # the note wraps (its height
                                                             # is checked where it shows)


def texts(ui: Harness) -> list[str]:
    return [str(w.text) for w in walk(ui.screen) if getattr(w, "text", "") and shown(w)]


def seat_boxes(ui: Harness) -> list[Any]:
    return [b for b in ui.screen.ids.oval.seats.values() if shown(b)]


def check(ui: Harness, size: tuple[int, int], shot: str = "") -> dict[str, Any]:
    """The screen shot (as `shot`, before it is measured: a failing screen is there to
    see) and measured as every screen is (tests/table/ui/ui_checks.py)."""
    if shot:
        ui.shot(shot, size)
    ids = ui.screen.ids
    return check_screen(ui.screen, size, big=tuple(b for b in (ids.clock, ids.blinds)
                                                   if shown(b)), may_shorten=SHORTEN)


def far(ui: Harness, size: tuple[int, int]) -> int:
    """The count's cap height, held to what the far seat reads (1.5 m)."""
    count = ui.screen.ids.sc_count
    cap = cap_height(count.font_size, count.bold, count.font_name)
    assert cap >= FAR_CAP * size[1] / 480, (count.text, cap, FAR_CAP)
    return cap


def clocked(ui: Harness) -> ShotRun:
    """The decision the shot clock runs on."""
    run = ui.ctl.shot.current(ui.t)
    assert run is not None
    return run


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_shot_clock_counts_over_the_header_and_leaves_the_seats_to_the_dealer(
        ui: Harness, size: tuple[int, int]) -> None:
    shot_clock(ui, size)
    run = clocked(ui)
    ids = ui.screen.ids
    assert ids.shot_band.shown and not ids.clock_call.shown
    assert ids.sc_count.text == "22" and tuple(ids.sc_count.color) == (1, 1, 1, 1)
    assert ids.sc_title.text == f"SHOT CLOCK · SEAT {run.seat}"
    assert ids.sc_name.text == ui.ctl.ctx.plan_seats()[run.seat]["name"]
    assert ids.sc_line.text == "Time bank: 2 cards of 30 s" and ids.sc_more.text == ""
    assert (ids.sc_key_a.text, ids.sc_key_b.text) == ("TIME\nBANK", "ACTED")
    assert not ids.sc_key_a.disabled and not ids.sc_key_b.disabled
    # the header gives way; the seats, who acts and the dealer's buttons stay
    assert not shown(ids.blinds) and not shown(ids.clock)
    assert len(seat_boxes(ui)) == 9 and shown(ids.btn_end) and shown(ids.btn_all_in)
    lit = [b.seat for b in seat_boxes(ui) if b.highlight]
    assert lit == [run.seat]
    got = check(ui, size, "stall_shot_clock")
    assert got["targets"] == 9 + 7 + 2                 # the seats, the buttons, the keys
    far(ui, size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_time_bank_card_taken_shows_the_seconds_added_and_the_cards_left(
        ui: Harness, size: tuple[int, int]) -> None:
    k = shot_clock(ui, size)
    run = clocked(ui)
    ids = ui.screen.ids
    ui.press(ids.sc_key_a)                             # TIME BANK: +30 s
    assert ui.sent[-1]["kind"] == "time_bank"
    assert ui.sent[-1]["data"] == {"seat": run.seat, "player": run.player, "hand": 1}
    ids = ui.draw(size)
    assert ids.sc_count.text == "51"
    assert ids.sc_line.text == "Time bank: 1 card of 30 s"
    assert ids.sc_more.text == "+30 s: 1 card taken"
    check(ui, size, "stall_shot_clock_bank")
    far(ui, size)
    k.sync()                                           # the event counts it: once
    assert k.event.tour.shot_clock.cards_left(k.event.tour.players[run.player]) == 1
    ids = ui.draw(size)
    assert ids.sc_line.text == "Time bank: 1 card of 30 s" and ids.sc_count.text == "51"
    ui.press(ids.sc_key_a)                             # the last card
    ids = ui.draw(size)
    assert ids.sc_count.text == "80" and ids.sc_more.text == "+60 s: 2 cards taken"
    assert ids.sc_line.text == "Time bank: no card left" and ids.sc_key_a.disabled
    check(ui, size, "stall_shot_clock_no_card")
    ui.press(ids.sc_key_b)                             # ACTED: the clock stops
    ids = ui.draw(size)
    assert not ids.shot_band.shown and shown(ids.blinds) and shown(ids.clock)
    assert not [b for b in seat_boxes(ui) if b.highlight]
    k.sync()
    assert k.event.tour.shot_clock.cards_left(k.event.tour.players[run.player]) == 0


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_last_five_seconds_are_red_and_beep_and_time_up_says_the_rule(
        ui: Harness, size: tuple[int, int]) -> None:
    shot_clock(ui, size)
    run = clocked(ui)
    ui.t += 18.5                                       # 3.5 s left
    ids = ui.draw(size)
    assert ids.sc_count.text == "4" and tuple(ids.sc_count.color) == (1, 0.2, 0.2, 1)
    assert ui.ctl.sound(ui.t) == "beep"                # the buzzer's beep, once a second
    check(ui, size, "stall_shot_clock_last5")
    far(ui, size)
    ui.t += 10                                         # time up
    ids = ui.draw(size)
    assert ids.sc_count.text == "0" and tuple(ids.sc_count.color) == (1, 0.2, 0.2, 1)
    assert ids.sc_title.text == f"TIME · SEAT {run.seat}"
    assert ids.sc_line.text == "Facing a bet: HAND DEAD"
    assert ids.sc_more.text == "No bet to face: CHECKED"
    assert (ids.sc_key_a.text, ids.sc_key_b.text) == ("HAND\nDEAD", "CHECKED")
    assert not ids.sc_key_a.disabled                   # no card now: the rule
    check(ui, size, "stall_shot_clock_time")
    far(ui, size)
    ui.press(ids.sc_key_b)                             # CHECKED: no bet to face
    assert ui.sent[-1]["kind"] == "shot_clock_out"
    assert ui.sent[-1]["data"]["outcome"] == "checked"
    ids = ui.draw(size)
    assert not ids.shot_band.shown
    assert f"Seat {run.seat}: checked (no bet to face)" in texts(ui)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_incoming_dealer_reads_the_handover_on_its_panel(
        ui: Harness, size: tuple[int, int]) -> None:
    k = handed_over(ui, size)
    tour = k.event.tour
    ids = ui.screen.ids
    assert ids.handover.shown and not shown(ids.oval) and shown(ids.btn_new)
    assert ids.ho_title.text == "HANDOVER: Ann to Cy"
    level = tour.structure.periods[tour.levels.period(ui.t)]
    assert ids.ho_blinds.text == f"{level.sb}/{level.bb}" and ids.ho_level.text == "Level 1"
    seats = sorted(tour.tables[1].seat_of)
    rows = [(r.ids.seat.text, r.ids.name.text, r.ids.what.text)
            for r in reversed(ids.ho_players.children[:-1]) if shown(r)]
    name = {s: tour.players[tour.tables[1].seat_of[s]].name for s in seats}
    assert rows == [(str(seats[2]), name[seats[2]], "warned"),
                    (str(seats[4]), name[seats[4]], "PEN x2")]
    assert ids.ho_note.text == f"Floor: {NOTE}"           # the whole note
    assert ids.ho_note.texture_size[1] <= ids.ho_note.height + 1
    assert ids.ho_status.text == "PUSH: Cy badges in"     # the middle's line, kept
    got = check(ui, size, "stall_handover")
    assert got["targets"] == 7 + 1 + 1                    # the buttons, PIN, TABLE
    assert cap_height(ids.ho_note.font_size, False, ids.ho_note.font_name) >= \
        TEXT_CAP * size[1] / 480 - 0.01
    # TABLE: the seats again (warned and penalised marked), until the next hand is over
    ui.press(ids.ho_hide)
    ids = ui.draw(size)
    assert not ids.handover.shown and len(seat_boxes(ui)) == 9
    assert ids.oval.seats[seats[2]].ids.status.text == "warned"
    assert ids.oval.seats[seats[4]].ids.status.text == "PEN x2"
    check(ui, size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_after_the_push_the_panel_stays_until_the_incoming_dealer_deals(
        ui: Harness, size: tuple[int, int]) -> None:
    k = handed_over(ui, size)
    k.dealer = {"dealer": "Cy", "push_at": ui.t + 1800, "incoming": "Dee", "outgoing": "Ann",
                "outgoing_to": "Table 14", "pushed_at": ui.t}
    ui.t += 3
    k.sync()
    ids = ui.draw(size)
    assert ids.handover.shown and ids.ho_title.text == "HANDOVER: Ann to Cy"
    assert ids.ho_status.text == "Ann: Table 14"          # where the outgoing goes
    check(ui, size)
    ui.press(ids.btn_new)                                 # the first hand: the seats
    ids = ui.draw(size)
    assert not ids.handover.shown and len(seat_boxes(ui)) == 9
    ui.press(ids.btn_end)
    ids = ui.draw(size)
    assert not ids.handover.shown                         # told once, not after each hand


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_handover_gives_the_prior_levels_blinds_for_r23s_one_hand(
        ui: Harness, size: tuple[int, int]) -> None:
    """The push falls due in the 90 s before a level change (RP-7 holds it to the change):
    the incoming dealer's first hand is dealt at the prior level, and the panel says so."""
    event = StallingEvent()
    tour, s = event.tour, event.tour.structure
    ends = level_ends_at(tour.clock, s, T0 + 120)
    assert ends is not None
    ui.t = ends - 100
    k = Kiosk(ui, event, dealer={"dealer": "Ann", "push_at": ends - 60, "incoming": "Cy"})
    ids = ui.draw(size)
    ui.press(ids.btn_new)                              # the outgoing's last hand
    k.sync()
    ui.t = ends + 20                                   # the level changed during it
    ui.press(ids.btn_end)
    k.sync()
    k.push = PushDone(t=ui.t, table=1, incoming="Cy", outgoing="Ann", push_at=ends - 60,
                      next="table", to=4, hand=tour.tables[1].hand, period=0)
    k.dealer = {"dealer": "Cy", "push_at": ui.t + 1800, "incoming": "Dee", "outgoing": "Ann",
                "outgoing_to": "Table 4", "pushed_at": ui.t}
    ui.t += 2
    k.sync()
    ids = ui.draw(size)
    assert ids.handover.shown
    assert ids.ho_blinds.text == f"{s.periods[0].sb}/{s.periods[0].bb}"
    assert ids.ho_first.text == "One hand, then level 2"
    check(ui, size, "stall_handover_r23")
    ui.press(ids.btn_new)                              # dealt there: the level's own after
    assert ui.ctl.local.period == 0


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hands_left_stand_where_the_clock_stands_and_read(
        ui: Harness, size: tuple[int, int], code: str) -> None:
    hands_left(ui, size, code)
    ids = ui.screen.ids
    want = {"en": "12 hands", "de": "12 Hände", "zh_Hans": "12 手"}[code]
    assert ids.clock.text == want and ui.ctl.view(ui.t).hands_left == 12
    got = check(ui, size, f"stall_hands_left_{code}")
    assert got["caps"][want] >= BIG_CAP * size[1] / 480


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_table_that_played_its_orbit_waits_and_names_the_tables_still_playing(
        ui: Harness, size: tuple[int, int], code: str) -> None:
    orbit_wait(ui, size, code)
    v = ui.ctl.view(ui.t)
    assert v.orbit == "waiting" and not v.can_deal and ui.ctl.local.hand == 9
    assert ui.screen.ids.btn_new.disabled
    lines = [w.text for w in ui.screen.lines if w.text]
    want = {"en": ("ORBIT FOR ORBIT 1: WAIT", "Playing: table 2"),
            "de": ("ORBIT FÜR ORBIT 1: WARTEN", "Spielt: Tisch 2"),
            "zh_Hans": ("逐圈同步 1:请等待", "进行中:牌桌 2")}[code]
    assert (lines[0], lines[-1]) == want
    check(ui, size, f"stall_orbit_wait_{code}")


SCENES = {f.__name__: f for f in (shot_clock, shot_bank, shot_time, handed_over, hands_left,
                                  orbit_wait)}
SAYS = {   # one text each screen must show, in each language
    ("de", "shot_bank"): "+30 s: 1 Karte genommen",
    ("de", "shot_time"): "Bei Einsatz: HAND TOT", ("de", "handed_over"): "Nächste Hand",
    ("zh_Hans", "shot_bank"): "+30 秒:已用 1 张", ("zh_Hans", "shot_time"): "面对下注:死牌",
    ("zh_Hans", "handed_over"): "下一手",
}


@pytest.mark.parametrize("code", ("de", "zh_Hans", "es", "fr", "cs", "pt_BR"))
@pytest.mark.parametrize("name", ("shot_bank", "shot_time", "handed_over"))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_shot_clock_and_the_handover_read_in_every_language(
        ui: Harness, size: tuple[int, int], name: str, code: str) -> None:
    """German for length and Chinese for glyphs, said as the catalogue says them; every
    shipped language fits and reads."""
    SCENES[name](ui, size, code)
    assert active.language() == code
    want = SAYS.get((code, name))
    assert want is None or any(want in t for t in texts(ui)), (want, texts(ui))
    if code == "zh_Hans":
        from kiosk.table.ui.tr import CJK
        assert all(w.font_name == CJK for w in walk(ui.screen)
                   if needs_cjk(str(getattr(w, "text", ""))) and shown(w))
    check(ui, size, f"stall_{name}_{code}")
    if name.startswith("shot"):
        far(ui, size)
