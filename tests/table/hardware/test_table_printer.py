"""A table with a receipt printer prints the seat card of each player the plan moves to
it, and, when the plan asks (`slips`), the payout slip of a bust in the money: once each,
whatever the plan's revisions, and not again after a restart."""

from __future__ import annotations

import random
from pathlib import Path

from table_helpers import T0, plan, schedule, table_config

from kiosk.lang import active
from kiosk.printer import escpos
from kiosk.printer.settings import PrinterConfig
from kiosk.table.service import TableService

COLUMNS = 32     # a 58 mm printer at the table


def service(tmp: Path, paper: Path) -> TableService:
    printer = PrinterConfig.of(f"file:{paper}", columns=COLUMNS,
                               player_url="https://poker.example/p/{event}")
    svc = TableService(table_config(str(tmp), 1, table=3, printer=printer),
                       now=lambda: T0 + 60, rng=random.Random(4), connect=False, debounce_s=0)
    svc._on_message("schedule", schedule())
    return svc


def arriving(rev: int) -> dict:
    return plan([1, 2, 3, 5], rev=rev, moves_in=[
        {"player": "p40", "name": "Zoë Mover", "seat": 4, "from_table": 7, "from_seat": 2}])


def test_a_player_moved_here_gets_a_seat_card(tmp_path: Path) -> None:
    paper = tmp_path / "paper.bin"
    svc = service(tmp_path, paper)
    try:
        svc._on_message("plan", plan([1, 2, 3, 5], rev=1))
        svc._on_message("plan", arriving(2))
        svc._on_message("plan", arriving(3))          # the same move, a later revision
        assert svc.printer is not None and svc.printer.spooler.wait_idle(10)
        slips = escpos.decode(paper.read_bytes(), COLUMNS)
        assert len(slips) == 1
        texts = [ln.text for ln in slips[0]]
        assert texts[1] == "SEAT CARD" and "Zoë Mover" in texts
        assert "TABLE 3" in texts and "SEAT 4" in texts
        assert "moved from table 7 seat 2" in texts
        assert [ln.qr for ln in slips[0] if ln.qr] == ["https://poker.example/p/test"]
    finally:
        svc.stop()

    again = service(tmp_path, paper)                  # a restart, the move still listed
    try:
        again._on_message("plan", arriving(4))
        assert again.printer is not None and again.printer.spooler.wait_idle(10)
        assert len(escpos.decode(paper.read_bytes(), COLUMNS)) == 1
    finally:
        again.stop()


def busting(rev: int, slips: bool = True, hand: int = 7) -> dict:
    """Table 3's plan after hand `hand`: Zoë out 4th with a prize, Al out 5th with none."""
    return plan([1, 2, 3, 5], rev=rev, slips=slips, hand=hand, busts=[
        {"seat": 4, "player": "p40", "name": "Zoë Winner", "place": 4, "prize": 1240,
         "bounty_won": 175},
        {"seat": 6, "player": "p60", "name": "Al Bubble", "place": 5, "prize": 0}])


def test_a_bust_in_the_money_gets_its_payout_slip_once(tmp_path: Path) -> None:
    paper = tmp_path / "paper.bin"
    svc = service(tmp_path, paper)
    try:
        svc._on_message("plan", busting(1, slips=False))   # the room prints at the desk
        svc._on_message("plan", busting(2))
        svc._on_message("plan", busting(3))                 # the same busts, a later revision
        assert svc.printer is not None and svc.printer.spooler.wait_idle(10)
        slips = escpos.decode(paper.read_bytes(), COLUMNS)
        assert len(slips) == 1, "Al left with nothing to collect; Zoë's slip once"
        texts = [ln.text for ln in slips[0]]
        assert texts[1] == "PAYOUT" and "Zoë Winner" in texts
        pairs = {t.split()[0]: t.split()[-1] for t in texts if len(t) == COLUMNS}
        assert (pairs["Place"], pairs["Prize"], pairs["Bounties"]) == ("4th", "1,240", "175")
        assert any(t.startswith("To pay") and t.endswith("1,415") for t in texts)
    finally:
        svc.stop()

    again = service(tmp_path, paper)                  # a restart, the bust still listed
    try:
        again._on_message("plan", busting(4))
        assert again.printer is not None and again.printer.spooler.wait_idle(10)
        assert len(escpos.decode(paper.read_bytes(), COLUMNS)) == 1
    finally:
        again.stop()


def test_the_seat_card_speaks_the_arriving_players_language(tmp_path: Path) -> None:
    """The plan's table speaks German; the player moved here registered in Czech."""
    paper = tmp_path / "paper.bin"
    svc = service(tmp_path, paper)
    try:
        svc._on_message("plan", plan([1, 2, 3, 5], rev=1, language="de"))
        svc._on_message("plan", plan([1, 2, 3, 5], rev=2, language="de", moves_in=[
            {"player": "p40", "name": "Zoë Mover", "seat": 4, "from_table": 7,
             "from_seat": 2, "language": "cs"},
            {"player": "p41", "name": "Bo Berg", "seat": 6, "from_table": 7}]))
        assert svc.printer is not None and svc.printer.spooler.wait_idle(10)
        czech, german = (([ln.text for ln in s]) for s in escpos.decode(paper.read_bytes(),
                                                                        COLUMNS))
        assert czech[1] == "KARTA MÍSTA" and "přesunut ze stolu 7, místo 2" in czech
        assert german[1] == "PLATZKARTE" and "von Tisch 7 verlegt" in german
        assert b"\x1bt\x12" in paper.read_bytes()              # Czech in PC852
    finally:
        svc.stop()
        active.use("en")
