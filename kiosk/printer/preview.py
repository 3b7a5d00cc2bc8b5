"""A slip as a PNG, drawn the way an 80 mm receipt printer lays it out: a fixed grid of
12x24-dot characters (24x48 when big), the QR code in 6-dot modules, the cut at the foot;
a line the printer gets as an image (Chinese) is that very image. The dashboard shows
queued and printed jobs with it, and the README's pictures are made by it. Pillow and
segno are imported here only, when a preview is asked for."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from kiosk.printer import raster
from kiosk.printer.codepages import DEFAULT_PAGES, fold, order, page_for
from kiosk.printer.escpos import QR_MODULE, as_image
from kiosk.printer.slip import Line, Slip, printable

CELL_W, CELL_H = 12, 24         # Font A: 12x24 dots
MARGIN = 24
FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono{}.ttf",
         "/usr/share/fonts/truetype/liberation/LiberationMono-{}.ttf")


@functools.cache
def _font(bold: bool, size: int) -> Any:
    from PIL import ImageFont

    for pattern in FONTS:
        name = pattern.format("-Bold" if bold else ("" if "DejaVu" in pattern else "Regular"))
        if Path(name).is_file():
            return ImageFont.truetype(name, size)
    return ImageFont.load_default(size)


def _height(line: Line) -> int:
    if line.qr:
        import segno

        side = segno.make(line.qr, error="m").symbol_size(scale=QR_MODULE, border=0)[1]
        return int(side) + CELL_H // 2
    return CELL_H * 2 if line.style == "big" else CELL_H


def png(slip: Slip, columns: int) -> bytes:
    """The slip as PNG bytes."""
    from PIL import Image, ImageDraw

    width = columns * CELL_W + 2 * MARGIN
    height = sum(_height(ln) for ln in slip.lines) + 2 * MARGIN + CELL_H
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    y = MARGIN
    for line in slip.lines:
        if line.qr:
            _qr(img, line.qr, y)
        elif line.rule:
            draw.line([(MARGIN, y + CELL_H // 2), (width - MARGIN, y + CELL_H // 2)], fill=0,
                      width=2)
        elif as_image(line.text, slip.language, DEFAULT_PAGES):
            img.paste(raster.draw(line.text, columns, columns * CELL_W, line.align,
                                  big=line.style == "big", bold=line.style != "normal"),
                      (MARGIN, y))
        else:
            _text(draw, line, y, columns, slip.language)
        y += _height(line)
    for x in range(0, width, 16):   # the cut
        draw.line([(x, height - CELL_H // 2), (x + 8, height - CELL_H // 2)], fill=128)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()


def _text(draw: Any, line: Line, y: int, columns: int, language: str = "") -> None:
    scale = 2 if line.style == "big" else 1
    cell = CELL_W * scale
    text = printable(line.text)[:columns // scale]
    page = page_for(text, order(language, DEFAULT_PAGES))
    if page is None:       # what the printer prints: the marks no page holds left off
        text = fold(text, order(language, DEFAULT_PAGES)[0])
    span = len(text) * cell
    room = columns * CELL_W
    x0 = MARGIN + {"left": 0, "center": (room - span) // 2, "right": room - span}[line.align]
    font = _font(line.style != "normal", int(CELL_H * scale * 0.85))
    for i, ch in enumerate(text):
        draw.text((x0 + i * cell, y + 1), ch, font=font, fill=0)


def _qr(img: Any, data: str, y: int) -> None:
    import segno
    from PIL import Image

    buf = io.BytesIO()
    segno.make(data, error="m").save(buf, kind="png", scale=QR_MODULE, border=0)
    code = Image.open(io.BytesIO(buf.getvalue())).convert("L")
    img.paste(code, ((img.width - code.width) // 2, y))
