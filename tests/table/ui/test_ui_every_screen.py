"""Every screen of the dealer's kiosk in other languages, headless at 800x480 and 1280x720.

Each flow and overlay is reached through the real screen (taps on its widgets, plans as
the director sends them): the hand, an armed prompt, the bust panel and its winner step,
the places and prizes, the clock call, a floor call, moves and arrivals, a breaking
table's list, the final table's arrivals, the break, hand-for-hand, the chip count and
its recount errors, the dealer's chip race and the colour-up, a free table, the PIN pad
(names, digits, letters), the dealers' push, a dealer's next table, offline, a refused
login and a full disk, a card at the wrong seat, and the tools against stalling (the shot
clock running, a time-bank card taken, time up and its ruling, the handover panel, hands
left in a level counted in hands, orbit for orbit's wait).

- In the pseudo-locale (en_XA) no text on any of them is unmarked: each went through the
  catalogue (names, numbers and titles are the room's data, and are left as they are).
- In German (length), Czech (diacritics) and Chinese (glyphs) the ordinary hand, a bust,
  a move, a push and a floor call read as every screen must (tests/table/ui/ui_checks.py),
  and are shot to tests/output/screens/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

import pytest
from flow_helpers import as_dealer
from stalling_screens import handed_over, hands_left, orbit_wait, shot_bank, shot_clock, shot_time
from table_helpers import T0, Event18, plan, schedule, seat, seating
from ui_checks import shown, walk
from ui_kit import ROOM, SIZES, TITLE, Harness, eight_movers, free, nine, on_table

from kiosk.lang import active
from kiosk.lang.fonts import needs_cjk
from kiosk.lang.pseudo import CLOSE, OPEN
from kiosk.table.controller import TableController
from kiosk.table.service import storage_text
from kiosk.table.view import REFUSED_LOGIN

PSEUDO = "en_XA"
MOVE = {"player": "p4", "name": "Dev E", "seat": 4, "to_table": 7, "to_seat": 2}
ARRIVAL = {"player": "p20", "name": "Anna K", "seat": 6, "from_table": 5, "from_seat": 1}
DEALER = {"dealer": "Ann", "push_at": T0 + 330.0, "incoming": "Cy"}
Scene = Callable[[Harness, tuple[int, int], str], None]


def restart(ui: Harness) -> None:
    """A new kiosk on the harness's schedule (the scenes before may have left another
    table's, or a free table's, state)."""
    ui.ctl = TableController(3, rng=random.Random(3), boot="ui", debounce_s=0)
    ui.ctl.directions.apply_schedule(schedule(players_left=27, average_stack=16667, entries=30))
    ui.t = T0 + 60


def speaking(ui: Harness, code: str) -> None:
    """The plan held, in `code`: what the kiosk says from the start of a scene on."""
    assert ui.ctl.apply_plan({**ui.ctl.plan, "language": code}, ui.t)


# ------------------------------------------------------------------ the screens
def hand(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A hand on: an all-in, a player away, the link down with reports queued."""
    ui.t = T0 + 60
    ui.fresh(10, nine(), language=code)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.press(ids.btn_all_in)
    ui.seat(5)
    ui.press(ids.btn_absent)
    ui.seat(8)
    ui.ctl.set_link(False, 3)
    ui.draw(size)


def armed(ui: Harness, size: tuple[int, int], code: str) -> None:
    """CLOCK armed: the seat prompt."""
    ui.fresh(11, nine(), language=code)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.press(ids.btn_clock)
    ui.draw(size)


def bust(ui: Harness, size: tuple[int, int], code: str) -> None:
    """Two busts on the panel, one stack typed, the other asked for."""
    ui.fresh(12, nine(), language=code)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.press(ids.btn_bust)
    keys = {b.text: b for b in ui.screen.ids.keypad.children if getattr(b, "text", "")}
    ui.press(ui.screen.bust_buttons[4])
    ui.press(keys["8"])
    ui.press(keys["000"])
    ui.press(ui.screen.bust_buttons[6])
    ui.draw(size)


def side_pots(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The winner step, pot by pot: seat 4's won by seat 2, seat 6's asked."""
    bust(ui, size, code)
    keys = {b.text: b for b in ui.screen.ids.keypad.children if getattr(b, "text", "")}
    ui.press(keys["5"])
    ui.press(ui.screen.keypad_ok)
    ui.draw(size)
    assert ui.screen.keypad_side is not None
    ui.press(ui.screen.keypad_side)
    ui.press(ui.screen.bust_buttons[2])
    ui.draw(size)


def places(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The director's places, a tie, a prize and bounties; a penalty to a time."""
    seats = {n: s for n, s in nine().items() if n not in (4, 6)} | {
        7: seat(7, penalty_until=T0 + 3600)}
    ui.fresh(13, seats, language=code, busts=[
        {"seat": 4, "player": "p4", "name": "Dev E", "place": 18, "tied": 2, "prize": 120,
         "bounty_won": 50},
        {"seat": 6, "player": "p6", "name": "Finn G", "place": 19, "tied": 1, "prize": 0}])
    ui.draw(size)


def clock_call(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A clock called by a player, waiting for the floor's approval."""
    ui.fresh(14, nine(), language=code)
    ui.draw(size)
    assert ui.act("call_clock", 6, "player").report is not None
    ui.draw(size)


def clock_running(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The floor approved: the countdown, the profile's rule beside it."""
    clock_call(ui, size, code)
    ui.ctl.apply_plan(plan(nine(), rev=15, language=code, clock_calls={"c1": {
        "state": "approved", "seat": 6, "approved_at": ui.t, "seconds": 25,
        "countdown": 5}}), ui.t)
    ui.t += 10
    ui.draw(size)


def floor(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A floor call, then the floor's word: who is on the way."""
    ui.fresh(16, nine(), language=code)
    ui.draw(size)
    res = ui.act("press_floor")
    ui.ctl.apply_plan(plan(nine(), rev=17, language=code, floor_calls={
        res.report["id"]: {"state": "acked", "since": ui.t, "by": "Mia"}}), ui.t)
    ui.draw(size)


def moves(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A balancing move out and a player on the way in."""
    seats = nine() | {6: seat(6, "Anna K", player="p20", status="arriving")}
    ui.fresh(18, seats, language=code, moves_out=[MOVE], moves_in=[ARRIVAL])
    ui.draw(size)


def breaking(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A broken table's list: where each of eight players goes."""
    ui.fresh(19, {}, language=code, moves_out=eight_movers(), broken=True, hold=True)
    ui.draw(size)


def final_arrivals(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The final table: arrivals to tap, one arrived."""
    ins = [{"player": f"q{i}", "name": f"Player {i}", "seat": i, "from_table": 2 + i % 2,
            "from_seat": i} for i in range(1, 9)]
    seats = {i: seat(i, f"Player {i}", player=f"q{i}", status="arriving") for i in range(1, 9)}
    ui.fresh(20, seats, language=code, moves_in=ins, final_table=True)
    ui.draw(size)
    ui.press(ui.screen.mover_cells[2])
    ui.draw(size)


def final_draw(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The final table's draw holds the table."""
    ui.fresh(21, nine(), language=code, hold=True, final_pending=True)
    ui.draw(size)


def break_screen(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The second break (the 25s race off), a move ordered during it."""
    ui.fresh(22, nine(), language=code, moves_out=[MOVE])
    ui.t = T0 + 170 * 60 + 30
    ui.draw(size)


def hand_for_hand(ui: Harness, size: tuple[int, int], code: str) -> None:
    """Hand-for-hand: this table waits for two others."""
    ui.t = T0 + 60
    ui.ctl.directions.apply_schedule(schedule(rev=50, hand_for_hand={"on": True, "round": 3,
                                                          "playing": [2, 5]}))
    ui.fresh(23, nine(), language=code, hand_for_hand={"on": True, "round": 3, "go": True})
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.press(ids.btn_end)
    ui.draw(size)
    ui.ctl.directions.apply_schedule(schedule(rev=51, players_left=27, average_stack=16667))


def count(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A chip count: one stack typed, SEND refused (the others are missing)."""
    event = Event18()
    event.tour.execute({"kind": "count_chips", "label": "end of level 2", "by": "td"}, T0)
    on_table(ui, event, 2, 1)
    speaking(ui, code)
    ids = ui.draw(size)
    keys = {b.text: b for b in ids.keypad.children if getattr(b, "text", "")}
    for k in ("2", "1", "000"):
        ui.press(keys[k])
    ui.press(ui.screen.keypad_ok)
    ui.draw(size)


def counted(ui: Harness, code: str) -> Event18:
    """Table 1 of a real event at the break where the 25s leave, its count sent."""
    event = Event18()
    stacks = event.colour_up_break(1)
    on_table(ui, event, 1, 1)
    speaking(ui, code)
    event.send(ui.ctl.chip_count(ui.t, stacks, 1).report)
    return event


def race(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The dealer's chip race: cards per seat, two chips given."""
    event = counted(ui, code)
    ui.ctl.apply_plan({**as_dealer(event.plan(1, 2), 3), "language": code}, ui.t)
    ui.draw(size)
    for s in (4, 2):
        ui.press(ui.screen.bust_buttons[s])
    ui.draw(size)


def colour_up(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The colour-up walk-through after the director's race."""
    event = counted(ui, code)
    ui.ctl.apply_plan({**event.plan(1, 2), "language": code}, ui.t)
    ui.draw(size)


def idle(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A free table: a card of another event's player read here, the director away."""
    free(ui, rev=30)
    speaking(ui, code)
    ui.ctl.directions.apply_seating({**seating(table=5), "event": "sunday"})
    ui.ctl.directions.set_director(False)
    ui.act("card", "CA000004")
    ui.draw(size)


def pin_names(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The push is due: the PIN pad with the names the plan knows, two digits typed."""
    ui.t = DEALER["push_at"] + 5
    ui.fresh(32, nine(), language=code, dealer=DEALER)
    ids = ui.draw(size)
    ui.press(ids.btn_pin)
    keys = {b.text: b for b in ids.pin_keys.children if getattr(b, "text", "")}
    ui.press(keys["2"])
    ui.press(keys["4"])
    ui.draw(size)


def pin_letters(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The letter pad, for a name the plan does not hold."""
    pin_names(ui, size, code)
    ui.press(ui.screen.ids.pin_names.children[0])     # TYPE A NAME: the last button
    ui.draw(size)


def push(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The push is due in a hand: finish it, then the relief badges in."""
    ui.t = T0 + 60
    ui.fresh(33, nine(), language=code, dealer=DEALER)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.t = DEALER["push_at"] + 5
    ui.draw(size)


def dealer_next(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The dealer pushed off reads where to go: a break until a time of day."""
    ui.t = T0 + 4000
    after = {"dealer": "Cy", "push_at": ui.t + 1800, "incoming": "Dee", "outgoing": "Ann",
             "outgoing_to": "Break until 12:00", "pushed_at": ui.t - 10,
             "outgoing_to_msg": {"key": "dealer.break_until", "args": {"until": T0 + 5000}}}
    ui.fresh(34, nine(), language=code, dealer=after)
    ui.draw(size)


def refused(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The broker refused the login, the disk is full: both on the offline line."""
    ui.fresh(35, nine(), language=code)
    ui.ctl.set_link(False, 2, REFUSED_LOGIN)
    ui.ctl.set_storage(storage_text("DISK FULL: /var/lib/pokerkiosk (0 B free)", 2))
    ui.draw(size)


def wrong_seat(ui: Harness, size: tuple[int, int], code: str) -> None:
    """A card read at the wrong table; the last action refused."""
    ui.fresh(36, nine(), language=code)
    ui.ctl.directions.apply_seating({**seating(), "event": "test"})
    ui.act("card", "CB000007")
    ui.draw(size)


def shot_ruled(ui: Harness, size: tuple[int, int], code: str) -> None:
    """The dealer gave the shot clock's rule: the ruling said in the middle of the table."""
    shot_time(ui, size, code)
    ui.press(ui.screen.ids.sc_key_a)
    ui.draw(size)


SCENES: dict[str, Scene] = {f.__name__: f for f in (
    hand, armed, bust, side_pots, places, clock_call, clock_running, floor, moves, breaking,
    final_arrivals, final_draw, break_screen, hand_for_hand, count, race, colour_up, idle,
    pin_names, pin_letters, push, dealer_next, refused, wrong_seat, shot_clock, shot_bank,
    shot_time, shot_ruled, handed_over, hands_left, orbit_wait)}


# ------------------------------------------------------------------ what is unmarked
_DATA = re.compile(r"^[\d\s,.:/+\->()x%*…?]*$"     # numbers, times, blinds, stars
                   r"|^[A-Z]$"                          # the PIN pad's letters
                   r"|^([2-9TJQKA][cdhs] ?)+$")         # cards of the chip race


def parts(text: str) -> Iterator[str]:
    """The texts a label joins (by lines, " · " and double spaces), a marked text whole
    (its lines and spaces included)."""
    depth, start, i = 0, 0, 0
    while i < len(text):
        depth += (text[i] == OPEN) - (text[i] == CLOSE)
        sep = next((s for s in ("\n", " · ", "  ") if text.startswith(s, i)), None)
        if depth == 0 and sep:
            yield text[start:i].strip()
            i += len(sep)
            start = i
            continue
        i += 1
    yield text[start:].strip()


def room_data(ui: Harness) -> set[str]:
    """The room's own words on the screen: names, titles, the section."""
    plan_ = ui.ctl.plan
    names = {str(s.get("name", "")) for s in plan_.get("seats", {}).values()}
    for part in ("moves_in", "moves_out", "busts"):
        names |= {str(m.get("name", "")) for m in plan_.get(part) or []}
    d = plan_.get("dealer") or {}
    names |= {str(d.get(k) or "") for k in ("dealer", "incoming", "outgoing")}
    names |= {"Mia", TITLE, ROOM, str(plan_.get("section") or ""),
              str(plan_.get("event") or ""), str(plan_.get("title") or "")}
    return {n for n in names if n}


def unmarked(ui: Harness) -> list[str]:
    data = room_data(ui)
    found = []
    for w in walk(ui.screen):
        text = str(getattr(w, "text", "") or "")
        if not text.strip() or not shown(w):
            continue
        for p in parts(text):
            known = p in data or any(n.startswith(p.rstrip("…")) for n in data if p.endswith("…"))
            if p and not known and not _DATA.match(p) and not (OPEN in p and CLOSE in p):
                found.append(f"{p!r} in {text!r}")
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SCENES))
def test_the_pseudo_locale_leaves_no_unmarked_text_on_any_screen(
        ui: Harness, name: str, size: tuple[int, int]) -> None:
    restart(ui)
    SCENES[name](ui, size, PSEUDO)
    assert active.language() == PSEUDO
    assert not unmarked(ui), unmarked(ui)
    ui.shot(f"lang_en_XA_{name}", size)


# ------------------------------------------------------------------ the languages
LANGS = ("de", "cs", "zh_Hans", "es", "fr", "pt_BR")   # length, diacritics, glyphs; the rest
SHOWN = ("hand", "bust", "moves", "push", "floor")
SAYS = {   # one text each screen must show, in each language
    ("de", "moves"): "Platz 4: an Tisch 7 Platz 2",
    ("cs", "moves"): "Místo 4: ke stolu 7, místo 2", ("zh_Hans", "moves"): "座位 4:去牌桌 7 座位 2",
    ("de", "floor"): "Floor unterwegs: Mia", ("cs", "floor"): "Floorman je na cestě: Mia",
    ("zh_Hans", "floor"): "现场裁判正在赶来:Mia",
    ("de", "push"): "WECHSEL nach dieser Hand: Cy",
    ("cs", "push"): "STŘÍDÁNÍ po této hře: Cy", ("zh_Hans", "push"): "本手后换荷官:Cy",
    ("de", "bust"): "Zwei oder mehr raus", ("cs", "bust"): "Dva a více ven",
    ("zh_Hans", "bust"): "两人及以上出局",
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SHOWN)
@pytest.mark.parametrize("code", LANGS)
def test_the_hand_a_bust_a_move_a_push_and_a_floor_call_read_in_each_language(
        ui: Harness, code: str, name: str, size: tuple[int, int]) -> None:
    restart(ui)
    SCENES[name](ui, size, code)
    assert active.language() == code
    texts = [str(w.text) for w in walk(ui.screen) if getattr(w, "text", "") and shown(w)]
    want = SAYS.get((code, name))
    assert want is None or any(want in t for t in texts), (want, texts)
    if code == "zh_Hans":       # said in Chinese, drawn in the font that has its glyphs
        from kiosk.table.ui.tr import CJK
        chinese = [w for w in walk(ui.screen) if needs_cjk(str(getattr(w, "text", "")))
                   and shown(w)]
        assert chinese and all(w.font_name == CJK for w in chinese)
    assert not [t for t in texts if "«" in t]
    ui.check(size)
    ui.shot(f"lang_{code}_{name}", size)
