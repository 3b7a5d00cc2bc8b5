"""Slips through a pseudo-terminal standing in for a serial receipt printer: the bytes
read back and decoded are the slip (reset, text, QR, cut); a printer out of paper or
unplugged mid-job keeps the job, and prints it whole once it is back."""

from __future__ import annotations

from pathlib import Path

import pytest
from serial_printer import SerialPrinter
from waiting import wait_for

from kiosk.printer import cards, escpos
from kiosk.printer.settings import PrinterConfig
from kiosk.printer.spooler import Spooler

HEAD = cards.Heading(event="sunday", title="Sunday Main", columns=42,
                     url="https://poker.example/p/sunday")


def spooler_for(tmp_path: Path, **kw: object) -> Spooler:
    cfg = PrinterConfig.of(f"serial:{tmp_path / 'printer'}?baud=19200", retry=0.3, **kw)
    return Spooler(cfg, tmp_path / "queue.db")


def slips_in(data: bytes) -> list[list]:
    assert data.startswith(escpos.STATUS_PAPER + escpos.RESET)
    return escpos.decode(data, HEAD.columns)


def test_a_seat_card_reads_back_as_printed(tmp_path: Path) -> None:
    printer = SerialPrinter(tmp_path / "printer")
    spool = spooler_for(tmp_path)
    try:
        card = cards.seat_card(HEAD, "Zoë <b>Ñandú</b>", 3, 5, 1_800_000_000, "registration")
        spool.submit(card)
        data = printer.wait_for(1)
        assert spool.wait_idle(30)
        assert slips_in(data) == [card.lines]
        texts = [ln.text for ln in card.lines]
        assert "TABLE 3" in texts and "SEAT 5" in texts and "Zoë <b>Ñandú</b>" in texts
        assert [ln.qr for ln in card.lines if ln.qr] == ["https://poker.example/p/sunday"]
        assert spool.status()["online"] is True
        assert spool.status()["jobs"][0]["state"] == "printed"
    finally:
        spool.close()
        printer.unplug()


def test_unplugged_mid_job_loses_nothing(tmp_path: Path) -> None:
    printer = SerialPrinter(tmp_path / "printer", unplug_after=120)
    spool = spooler_for(tmp_path)
    try:
        card = cards.seat_card(HEAD, "Ann Lee", 7, 2, 1_800_000_000, "moved from table 3")
        receipt = cards.receipt(HEAD, "Ann Lee", "Buy-in",
                                [("Prize pool", 100), ("Fee", 10)], 1_800_000_000)
        first, second = spool.submit(card), spool.submit(receipt)
        wait_for(lambda: spool.status()["online"] is False)   # the unplugged printer noticed
        half = printer.received()
        assert len(half) > 0 and escpos.CUT not in half     # a slip cut off mid-job
        status = spool.status()
        assert status["waiting"] == 2 and status["error"]
        assert [j["id"] for j in status["jobs"][:2]] == [first, second]

        printer.plug()                      # the cable back in: both slips, whole, in order
        data = printer.wait_for(2)
        assert spool.wait_idle(10)
        assert slips_in(data) == [card.lines, receipt.lines]
        assert spool.status()["waiting"] == 0 and spool.status()["online"] is True
    finally:
        spool.close()
        printer.unplug()


def test_out_of_paper_waits_then_prints(tmp_path: Path) -> None:
    printer = SerialPrinter(tmp_path / "printer")
    printer.paper = False
    spool = spooler_for(tmp_path)
    try:
        slip = cards.payout(HEAD, "Bo", 1_800_000_000, 4, 250, 40)
        spool.submit(slip)
        wait_for(lambda: spool.status()["error"] == "out of paper")
        assert escpos.RESET not in printer.received()     # nothing printed on no paper
        printer.paper = True
        spool.retry_now()
        data = printer.wait_for(1)
        lines = escpos.decode(data, HEAD.columns)
        assert lines == [slip.lines]
        assert any(ln.text.startswith("To pay") and ln.text.endswith("290") for ln in lines[0])
    finally:
        spool.close()
        printer.unplug()


def test_the_queue_survives_a_restart_and_reprints(tmp_path: Path) -> None:
    printer = SerialPrinter(tmp_path / "printer")
    printer.unplug()
    spool = spooler_for(tmp_path)
    card = cards.seat_card(HEAD, "Cy", 1, 1, 1_800_000_000)
    job = spool.submit(card)
    spool.close()                           # the director stops with the job waiting

    printer.plug()
    spool = spooler_for(tmp_path)
    try:
        printer.wait_for(1)
        assert spool.wait_idle(30)
        again = spool.reprint(job)
        assert again != job
        assert slips_in(printer.wait_for(2)) == [card.lines, card.lines]
        with pytest.raises(KeyError):
            spool.reprint(999)
    finally:
        spool.close()
        printer.unplug()
