"""Slips from awkward names, and their PNG previews: what the desk sees is what prints."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from kiosk.printer import cards, escpos, preview, samples

HEAD = samples.HEAD
ROOT = Path(__file__).resolve().parents[2]


def test_a_name_of_64_emoji_or_with_printer_commands_prints_as_plain_text() -> None:
    emoji = cards.seat_card(HEAD, "😀" * 64, 3, 5, samples.T)
    names = [ln.text for ln in emoji.lines if ln.style == "bold"][1:]
    assert names == ["?" * 42, "?" * 22]          # wrapped to the paper, nothing lost
    sneaky = cards.seat_card(HEAD, "Al\x1bd\x09\x1dV\x00 <script>", 1, 1, samples.T)
    data = escpos.render(sneaky, HEAD.columns)
    assert data.count(escpos.CUT) == 1            # no cut smuggled in by a name
    slips = escpos.decode(data, HEAD.columns)
    assert slips == [sneaky.lines]
    assert "AldV <script>" in [ln.text for ln in slips[0]]     # control bytes dropped


def test_previews_are_receipt_shaped_and_the_readme_pictures_current() -> None:
    for name, slip in samples.samples().items():
        img = Image.open(io.BytesIO(preview.png(slip, HEAD.columns)))
        assert img.width == HEAD.columns * preview.CELL_W + 2 * preview.MARGIN
        assert img.height > 200
        pictured = Image.open(ROOT / "docs" / "slips" / f"{name}.png")
        assert pictured.size == img.size, "run python -m kiosk.printer.samples docs/slips"
