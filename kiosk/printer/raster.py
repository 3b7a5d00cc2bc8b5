"""A line in a script the printer has no font for (Chinese), drawn as a raster image.

The image keeps the printer's own grid: a narrow character takes one 12x24-dot cell of
Font A, a wide one (a Han character, full-width punctuation) two, a big line twice that,
so a Chinese slip lines up as a Latin one does and its pairs stay flush right. It is as
wide as the paper (58 mm: 384 dots, 80 mm: 576), rows wrapped to fit, and sent with
`GS v 0` (every ESC/POS printer prints it); `decode` reads the bytes back to an image
for the tests and the preview. Glyphs come from the CJK font the kiosk uses
(kiosk.lang.fonts), drawn by Pillow, imported only when a line needs it.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.lang.fonts import cjk_font, needs_cjk

CELL_W, CELL_H = 12, 24        # Font A, the grid every text line uses
OTHER_SCRIPTS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"   # Cyrillic, Greek...


def cells(text: str) -> int:
    """Columns `text` takes on the printer's grid: two for a wide character, none for a
    combining mark."""
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def font_file(text: str) -> str | None:
    """The font that draws `text`: the CJK font for Chinese, else DejaVu Sans; None
    when this machine has neither (the line then prints as text, marks left off)."""
    path = cjk_font() if needs_cjk(text) else OTHER_SCRIPTS
    return path if path and Path(path).is_file() else cjk_font()


@functools.cache
def _font(path: str, size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def rows_of(text: str, room: int) -> list[str]:
    """`text` cut into rows of at most `room` cells (a line the slip did not wrap)."""
    rows, row, used = [], "", 0
    for ch in text:
        w = cells(ch)
        if used + w > room and row:
            rows.append(row)
            row, used = "", 0
        row, used = row + ch, used + w
    return [*rows, row] if row or not rows else rows


def draw(text: str, columns: int, dots: int, align: str = "left", big: bool = False,
         bold: bool = False) -> Any:
    """`text` as a 1-bit Pillow image `dots` wide (a multiple of 8), black on white, on
    the grid of `columns` cells (narrower when the paper holds fewer), wrapped to fit.
    Drawn in grey, then cut at mid-grey: thermal dots are on or off."""
    from PIL import Image, ImageDraw

    width = dots - dots % 8
    cw = min(CELL_W, width // columns)
    ch = cw * CELL_H // CELL_W
    scale = 2 if big else 1
    cw, ch = cw * scale, ch * scale
    room = columns // scale
    rows = rows_of(text, room)
    img = Image.new("L", (width, ch * len(rows)), 255)
    pen = ImageDraw.Draw(img)
    path = font_file(text)
    if path is None:
        raise OSError("no font to draw this script (fonts-wqy-microhei)")
    font = _font(path, int(ch * 0.9))
    grid = room * cw
    for i, row in enumerate(rows):
        span = cells(row) * cw
        x = {"left": 0, "center": (grid - span) // 2, "right": grid - span}[align]
        for glyph in row:
            w = cells(glyph) * cw
            if w:
                pen.text((x + w / 2, i * ch + ch / 2), glyph, font=font, fill=0,
                         anchor="mm", stroke_width=1 if bold else 0, stroke_fill=0)
            x += w
    return img.point(lambda v: 255 if v > 128 else 0, mode="1")


def gs_v0(img: Any) -> bytes:
    """The image as `GS v 0` (normal density): bytes per row, rows, then the bits, one
    a dot, most significant first, 1 printed."""
    from PIL import ImageOps

    width, height = img.size
    data = ImageOps.invert(img.convert("L")).convert("1").tobytes()   # PIL: 1 is white
    xb = width // 8
    return bytes([0x1D, 0x76, 0x30, 0, xb & 0xFF, xb >> 8, height & 0xFF, height >> 8]) + data


@dataclass(frozen=True)
class Raster:
    """A raster image as the printer received it: `width` and `height` in dots and its
    bits (1 printed); `image()` gives it back as a Pillow image, ink black."""

    width: int
    height: int
    bits: bytes

    def image(self) -> Any:
        from PIL import Image, ImageOps

        ink = Image.frombytes("1", (self.width, self.height), self.bits)
        return ImageOps.invert(ink.convert("L"))

    def ink(self) -> float:
        """The share of dots printed."""
        dots = sum(bin(b).count("1") for b in self.bits)
        return dots / max(1, self.width * self.height)


def read_gs_v0(data: bytes, i: int) -> tuple[Raster, int]:
    """The `GS v 0` image at `i` and the index after it (ValueError when cut short)."""
    head = data[i:i + 8]
    if len(head) < 8 or head[3] not in (0, 48):
        raise ValueError(f"a raster command cut short or of another density at byte {i}")
    xb, rows = head[4] | head[5] << 8, head[6] | head[7] << 8
    end = i + 8 + xb * rows
    if end > len(data):
        raise ValueError(f"a raster image of {xb * 8}x{rows} dots cut short at byte {i}")
    return Raster(xb * 8, rows, bytes(data[i + 8:end])), end
