"""The screens of the tools against stalling and of the handover, set up as a dealer
reaches them: a real event (the director's core) behind a kiosk on the headless screen.
tests/table/ui/test_ui_stalling.py measures them; test_ui_every_screen.py walks them in
every language."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from stalling_kit import hands_toml
from table_helpers import T0, StallingEvent
from ui_kit import Harness

from kiosk.core.model.dealer_events import PushDone
from kiosk.rules.structure_files import load_structure
from kiosk.table.controller import TableController

SHOT = {"seconds": 30, "bank_cards": 2, "bank_seconds": 30}


class Kiosk:
    """One table of a real event on the harness's screen: the reports its taps make go to
    the event, and the plan comes back with what the event made of them."""

    def __init__(self, ui: Harness, event: StallingEvent, table: int = 1,
                 language: str = "en", dealer: dict[str, Any] | None = None) -> None:
        self.ui, self.event, self.table = ui, event, table
        self.language, self.dealer = language, dealer
        self.push: PushDone | None = None
        self.rev, self.sent = 1, 0
        ui.ctl = TableController(table, rng=ui.ctl.ctx.rng, boot=f"st{table}", debounce_s=0)
        ui.ctl.set_link(True, 0)
        ui.sent.clear()
        self.sync()

    def sync(self) -> None:
        """What the table reported reaches the event; its schedule and plan come back."""
        for rep in self.ui.sent[self.sent:]:
            self.event.send(rep)
        self.sent = len(self.ui.sent)
        self.rev += 1
        assert self.ui.ctl.directions.apply_schedule(self.event.schedule(self.rev))
        body = {**self.event.plan(self.table, self.rev, self.dealer, self.push),
                "language": self.language}
        assert self.ui.ctl.apply_plan(body, self.ui.t)


# ------------------------------------------------------------------ the handover
ROTATION = {"dealer": "Ann", "push_at": T0 + 600.0, "incoming": "Cy"}
NOTE = "Seat 6 is slow to act: watch him; a camera crew films from seat 2 after the break"


# ------------------------------------------------------------------ the shot clock
def shot_clock(ui: Harness, size: tuple[int, int], code: str = "en") -> Kiosk:
    """A hand dealt at table 1 of a TDA 2024 event with a 30 s shot clock and two time-bank
    cards of 30 s each; CLOCK (the button) on the first player in turn, 8 s ago."""
    ui.t = T0 + 120
    k = Kiosk(ui, StallingEvent(shot_clock=SHOT), language=code)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    k.sync()
    assert not ui.act("press_clock").refused
    ui.t += 8
    ui.draw(size)
    return k


def handed_over(ui: Harness, size: tuple[int, int], code: str = "en",
                note: str = NOTE) -> Kiosk:
    """Table 1 of a TDA 2024 event: the floor warned one player, gave another two hands
    and wrote the table a note; the push is due between hands."""
    event = StallingEvent()
    tour = event.tour
    seats = sorted(tour.tables[1].seat_of)
    tour.execute({"kind": "penalty", "player": tour.tables[1].seat_of[seats[2]],
                  "type": "warning", "by": "fl"}, T0)
    tour.execute({"kind": "penalty", "player": tour.tables[1].seat_of[seats[4]],
                  "type": "hands", "amount": 2, "by": "fl"}, T0)
    tour.execute({"kind": "table_note", "table": 1, "note": note, "by": "fl"}, T0)
    ui.t = ROTATION["push_at"] + 5
    k = Kiosk(ui, event, language=code, dealer=ROTATION)
    ui.draw(size)
    return k


# ------------------------------------------------------------------ hands and orbits
def hands_left(ui: Harness, size: tuple[int, int], code: str = "en") -> None:
    """Levels of 12, 10 and 8 hands (TDA 2015: no clock for hand-for-hand to stop): the
    first hand of the first level dealt."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.toml"
        path.write_text(hands_toml(12, 10, 8))
        structure = load_structure(str(path))
    ui.t = T0 + 120
    Kiosk(ui, StallingEvent(profile="tda-2015", structure=structure), language=code)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ui.draw(size)


def orbit_wait(ui: Harness, size: tuple[int, int], code: str = "en") -> None:
    """Orbit for orbit: table 1 deals its orbit (a hand a player) and waits for table 2."""
    event = StallingEvent()
    event.tour.execute({"kind": "orbit", "on": True, "by": "fl"}, T0 + 60)
    ui.t = T0 + 120
    k = Kiosk(ui, event, language=code)
    for _ in range(12):                                # an orbit at a table of nine
        if ui.ctl.view(ui.t).orbit == "waiting":
            break
        ids = ui.draw(size)
        ui.press(ids.btn_new)
        ui.t += 60
        ui.press(ids.btn_end)
        k.sync()
    ui.draw(size)


# ------------------------------------------------------------------ the languages
def shot_bank(ui: Harness, size: tuple[int, int], code: str = "en") -> None:
    """The shot clock, a time-bank card just taken."""
    shot_clock(ui, size, code)
    ui.press(ui.screen.ids.sc_key_a)
    ui.draw(size)


def shot_time(ui: Harness, size: tuple[int, int], code: str = "en") -> None:
    """The shot clock ran out: the rule, HAND DEAD and CHECKED."""
    shot_clock(ui, size, code)
    ui.t += 30
    ui.draw(size)
