"""Slips in their reader's language, read back from the ESC/POS bytes.

A Czech slip prints in PC852 (ESC t 18): its text decodes back through that code page,
letter for letter. A Chinese slip's lines are raster images (GS v 0) as wide as the
paper (58 mm: 384 dots, 80 mm: 576), decoded back to images that have ink, match the
font's drawing of the expected words dot for dot, and read back as those words by
Tesseract (chi_sim): OCR at 24 dots a character misreads a glyph now and then, so it
must find most of the characters, and the dot-for-dot comparison proves the rest. Both
go through a pseudo-terminal standing in for a serial printer, as the desk's would.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageOps
from serial_printer import SerialPrinter

from kiosk.printer import cards, escpos, raster
from kiosk.printer.escpos import PAPER_DOTS, Raster
from kiosk.printer.settings import PrinterConfig
from kiosk.printer.slip import Line, Slip, wrap
from kiosk.printer.spooler import Spooler

T = 1_800_000_000.0
PAPERS = {58: 32, 80: 48}      # mm -> columns of Font A


def heading(language: str, columns: int, title: str) -> cards.Heading:
    return cards.Heading(event="sunday", title=title, columns=columns,
                         url="https://poker.example/p/sunday", language=language,
                         timezone="Europe/Prague", currency="CZK")


def czech(columns: int) -> Slip:
    return cards.seat_card(heading("cs", columns, "Nedělní turnaj"), "Antonín Dvořák", 3, 5,
                           T, cards.moved_from(2, 7))


def chinese(columns: int) -> Slip:
    return cards.seat_card(heading("zh_Hans", columns, "周日主赛"), "王伟", 3, 5, T,
                           cards.moved_from(2, 7))


def texts(lines: list[escpos.Printed]) -> list[str]:
    return [ln.text for ln in lines if isinstance(ln, Line)]


@pytest.mark.parametrize("mm", PAPERS)
def test_a_czech_slip_prints_in_pc852_and_reads_back_letter_for_letter(mm: int) -> None:
    slip = czech(PAPERS[mm])
    data = escpos.render(slip, PAPERS[mm], dots=PAPER_DOTS[mm])
    assert b"\x1bt\x12" in data and b"\x1bt\x13" not in data      # PC852 only
    assert "Dvořák".encode("cp852") in data and "Dvořák".encode() not in data
    [printed] = escpos.decode(data, PAPERS[mm])
    assert printed == slip.lines                                   # every line, as built
    said = texts(printed)
    assert said[1] == "KARTA MÍSTA" and "STŮL 3" in said and "MÍSTO 5" in said
    assert "přesunut ze stolu 2, místo 7" in said
    assert said[-1] == "15. 1. 2027 9:00"                          # the room's zone, cs
    assert not any(isinstance(ln, Raster) for ln in printed)


def test_a_czech_name_on_a_german_slip_switches_code_page_for_its_line() -> None:
    slip = cards.payout(heading("de", 42, "Sonntag"), "Antonín Dvořák", T, 3, 1500, 250,
                        language="de")
    data = escpos.render(slip, 42)
    assert data.count(b"\x1bt\x13") == 1 and data.count(b"\x1bt\x12") == 1   # 858, then 852
    assert data.index(b"\x1bt\x13") < data.index(b"\x1bt\x12")
    [printed] = escpos.decode(data, 42)
    said = texts(printed)
    assert printed == slip.lines and "Antonín Dvořák" in said
    assert any(t.startswith("Auszuzahlen") and t.endswith("1.750\xa0CZK") for t in said)


def ocr(img: Image.Image) -> str:
    """Tesseract's reading of one printed line (scaled up twice, a white margin)."""
    big = img.convert("L").resize((img.width * 2, img.height * 2), Image.LANCZOS)
    big = ImageOps.expand(big, border=20, fill=255)
    out = subprocess.run(["tesseract", "stdin", "stdout", "-l", "chi_sim", "--psm", "7"],
                         input=_png(big), capture_output=True, check=True, timeout=120)
    return out.stdout.decode().strip()


def _png(img: Image.Image) -> bytes:
    import io
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def has_chi_sim() -> bool:
    if shutil.which("tesseract") is None:
        return False
    langs = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True)
    return "chi_sim" in langs.stdout


@pytest.mark.parametrize("mm", PAPERS)
def test_a_chinese_slip_prints_its_lines_as_images_that_read_back(mm: int) -> None:
    assert has_chi_sim(), ".ci/run installs tesseract-ocr-chi-sim"
    columns, dots = PAPERS[mm], PAPER_DOTS[mm]
    slip = chinese(columns)
    data = escpos.render(slip, columns, dots=dots)
    [printed] = escpos.decode(data, columns)
    images = [(ln, img) for ln, img in zip(slip.lines, printed, strict=True)
              if isinstance(img, Raster)]
    want = {"周日主赛", "座位卡", "王伟", "牌桌 3", "座位 5", "从牌桌 2 座位 7 移来",
            "您的牌桌、计时和奖金:"}
    assert {ln.text for ln, _img in images} >= want
    for ln, img in images:
        assert img.width == dots and img.height % raster.CELL_H == 0, ln.text
        assert 0.02 < img.ink() < 0.5, (ln.text, img.ink())
        drawn = raster.draw(ln.text, columns, dots, ln.align, big=ln.style == "big",
                            bold=ln.style != "normal")
        assert img.image().convert("1").tobytes() == drawn.tobytes(), ln.text
    read = {ln.text: ocr(img.image()) for ln, img in images if ln.text in want}
    found = {t: difflib.SequenceMatcher(None, t.replace(" ", ""),
                                        r.replace(" ", "")).ratio() for t, r in read.items()}
    assert sum(found.values()) / len(found) >= 0.9, read
    assert all(r >= 0.75 for r in found.values()), read
    latin = texts(printed)
    assert "" in latin and not any(raster.cells(t) != len(t) for t in latin)   # rules, QR


def test_a_long_chinese_line_wraps_within_the_paper() -> None:
    text = "从第 12 桌第 7 号座位移来,请带好您的全部筹码并尽快前往新的座位就座"
    slip = cards.seat_card(heading("zh_Hans", 32, "周日主赛"), "王伟", 3, 5, T, text)
    data = escpos.render(slip, 32, dots=384)
    [printed] = escpos.decode(data, 32)
    rows = wrap(text, 32)
    said = [ln.text for ln in slip.lines]
    start = said.index(rows[0])
    assert len(rows) >= 2 and said[start:start + len(rows)] == rows
    assert "".join(rows).replace(" ", "") == text.replace(" ", "")       # nothing lost
    assert all(raster.cells(r) <= 32 for r in rows)
    assert all(img.width == 384 for img in printed if isinstance(img, Raster))


def test_a_czech_and_a_chinese_slip_through_a_serial_printer(tmp_path: Path) -> None:
    printer = SerialPrinter(tmp_path / "printer")
    cfg = PrinterConfig.of(f"serial:{tmp_path / 'printer'}?baud=19200", retry=0.3,
                           columns=32, paper=58)
    spool = Spooler(cfg, tmp_path / "queue.db")
    try:
        cz, zh = czech(32), chinese(32)
        spool.submit(cz)
        spool.submit(zh)
        data = printer.wait_for(2)
        assert spool.wait_idle(10)
        first, second = escpos.decode(data, 32)
        assert first == cz.lines
        assert sum(isinstance(ln, Raster) and ln.width == 384 for ln in second) >= 6
        assert [j["state"] for j in spool.status()["jobs"]] == ["printed", "printed"]
        assert spool.status()["paper"] == 58
    finally:
        spool.close()
        printer.unplug()
