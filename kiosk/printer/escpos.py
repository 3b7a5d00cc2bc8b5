"""Our small ESC/POS writer, and the reader that turns its bytes back into lines.

The writer uses only commands every Epson-compatible receipt printer knows: ESC @ (reset),
ESC t (code page: the one each line's letters are in, kiosk.printer.codepages), ESC a
(alignment), ESC E (bold), GS ! (character size), GS v 0 (a raster image: a line in a
script the printer has no font for, kiosk.printer.raster), GS ( k (a QR code drawn by the
printer itself), ESC d (feed), GS V (cut), and DLE EOT (real-time status: is there paper,
is the cover shut). The reader exists for the tests and for `file:` output: it decodes
exactly what the writer writes, and refuses anything else, so a stray byte shows up as
an error instead of a garbled slip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kiosk.printer import codepages, raster
from kiosk.printer.raster import Raster
from kiosk.printer.slip import Line, Slip, width

ESC, GS, DLE, EOT, LF = 0x1B, 0x1D, 0x10, 0x04, 0x0A
RESET = b"\x1b@"
PAPER_DOTS = {58: 384, 80: 576}     # a thermal head's dots across the paper
CUT = b"\x1bd\x04\x1dV\x01"       # feed the slip past the blade, then a partial cut
ALIGN = {"left": 0, "center": 1, "right": 2}
SIZE = {"normal": 0x00, "bold": 0x00, "big": 0x11}
STATUS_PAPER = b"\x10\x04\x04"      # DLE EOT 4: roll paper sensor
STATUS_OFFLINE = b"\x10\x04\x02"    # DLE EOT 2: offline cause (cover open, paper end)
QR_MODULE = 6                       # dots per QR module: ~20 mm for a player page address


def _qr(data: str) -> bytes:
    payload = data.encode("ascii", "replace")
    n = len(payload) + 3
    store = bytes([GS, ord("("), ord("k"), n & 0xFF, n >> 8, 0x31, 0x50, 0x30]) + payload
    return (b"\x1d(k\x04\x001A2\x00"              # model 2
            + bytes([GS, ord("("), ord("k"), 3, 0, 0x31, 0x43, QR_MODULE])  # module size
            + b"\x1d(k\x03\x001E1"                 # error correction M
            + store
            + b"\x1d(k\x03\x001Q0")                # print it


@dataclass
class Writer:
    """One job's bytes: the code page the printer holds now, chosen again only when a
    line needs another."""

    columns: int
    language: str = ""
    pages: Mapping[str, int] = field(default_factory=lambda: dict(codepages.DEFAULT_PAGES))
    dots: int = PAPER_DOTS[80]
    page: str | None = None

    def line(self, line: Line) -> bytes:
        """One line of a slip, ending in LF (a QR code prints centred, then LF; an image
        feeds by itself)."""
        if line.qr:
            return b"\x1ba\x01" + _qr(line.qr) + b"\n"
        style = bytes([ESC, ord("a"), ALIGN[line.align], ESC, ord("E"),
                       int(line.style == "bold"), GS, ord("!"), SIZE[line.style]])
        if line.rule:
            return style + self._text("-" * self.columns)
        text = _fit(line.text, width(line.style, self.columns))
        if as_image(text, self.language, self.pages):
            img = raster.draw(text, self.columns, self.dots, line.align,
                              big=line.style == "big", bold=line.style != "normal")
            return b"\x1ba\x00\x1bE\x00\x1d!\x00" + raster.gs_v0(img)
        return style + self._text(text)

    def _text(self, text: str) -> bytes:
        """A line in the page the printer holds when that page has its letters (no
        switch), else the first page of the language's order that has them."""
        tried = codepages.order(self.language, self.pages)
        held = self.page if self.page and codepages.holds(self.page, text) else None
        page = held or codepages.page_for(text, tried) or self.page or tried[0]
        switch = b"" if page == self.page else bytes([ESC, ord("t"), self.pages[page]])
        self.page = page
        return switch + codepages.fold(text, page).encode(page) + b"\n"


def as_image(text: str, language: str, pages: Mapping[str, int]) -> bool:
    """Whether a line prints as an image: no code page of the printer holds it, it has
    letters of another script, and this machine has a font that draws them."""
    tried = codepages.order(language, pages)
    return codepages.page_for(text, tried) is None and \
        codepages.foreign_letters(text, tried) and raster.font_file(text) is not None


def _fit(text: str, room: int) -> str:
    """`text` cut to `room` columns of the grid (a slip's lines are wrapped already)."""
    return raster.rows_of(text, room)[0] if raster.cells(text) > room else text


def render(slip: Slip, columns: int, pages: Mapping[str, int] | None = None,
           dots: int = PAPER_DOTS[80]) -> bytes:
    """The whole job: reset, every line in the code page (or as the image) it needs,
    feed and cut. `pages` are the printer's code pages and their ESC t numbers, `dots`
    its paper's width."""
    w = Writer(columns, slip.language, dict(pages or codepages.DEFAULT_PAGES), dots)
    return RESET + b"".join(w.line(ln) for ln in slip.lines) + CUT


# ------------------------------------------------------------------ the reader
class DecodeError(ValueError):
    """Bytes that our writer would not have written."""


@dataclass
class _State:
    align: str = "left"
    bold: bool = False
    big: bool = False
    page: str = "cp437"          # a printer's page after ESC @ is its own default
    numbers: dict[int, str] = field(default_factory=dict)

    @property
    def style(self) -> str:
        return "big" if self.big else "bold" if self.bold else "normal"


_ALIGN_NAMES = {v: k for k, v in ALIGN.items()}


Printed = Line | Raster      # a line of text (or rule, or QR code), or an image


def decode(data: bytes, columns: int, pages: Mapping[str, int] | None = None
           ) -> list[list[Printed]]:
    """The slips in `data` (one list of lines per cut), as printed: text through the
    code page ESC t chose (`pages`: the printer's, by number), an image as a `Raster`.
    Status queries (DLE EOT) are skipped; anything the writer never sends raises
    DecodeError."""
    slips: list[list[Printed]] = []
    lines: list[Printed] = []
    st = _State(numbers={n: p for p, n in (pages or codepages.DEFAULT_PAGES).items()})
    i, text = 0, bytearray()
    while i < len(data):
        b = data[i]
        if b == LF:
            lines.append(_text_line(bytes(text), st, columns))
            text.clear()
            i += 1
        elif b in (ESC, GS, DLE):
            if text:
                raise DecodeError(f"command inside a line at byte {i}")
            if data[i:i + 3] == b"\x1dv0":
                try:
                    image, i = raster.read_gs_v0(data, i)
                except ValueError as exc:
                    raise DecodeError(str(exc)) from None
                lines.append(image)
                continue
            i, qr, cut = _command(data, i, st)
            if qr is not None:
                lines.append(Line(qr=qr))
                if data[i:i + 1] == b"\n":
                    i += 1
            if cut:
                slips.append(lines)
                lines = []
        elif b < 0x20:
            raise DecodeError(f"control byte {b:#04x} at {i}")
        else:
            text.append(b)
            i += 1
    if lines or text:
        raise DecodeError("the last slip was not cut (an unfinished job)")
    return slips


def _text_line(raw: bytes, st: _State, columns: int) -> Line:
    text = raw.decode(st.page, "replace")
    if text and text == "-" * columns and st.style == "normal":
        return Line(rule=True)
    return Line(text=text, style=st.style, align=st.align)  # type: ignore[arg-type]


def _command(data: bytes, i: int, st: _State) -> tuple[int, str | None, bool]:
    """One command at `i`: (next index, QR data if it printed one, whether it cut)."""
    two = data[i:i + 2]
    if two == b"\x1b@":
        st.align, st.bold, st.big = "left", False, False
        st.page = st.numbers.get(0, "cp437")
        return i + 2, None, False
    if two == b"\x10\x04":
        return i + 3, None, False
    if two == b"\x1bt":
        page = st.numbers.get(data[i + 2]) if i + 2 < len(data) else None
        if page is None:
            raise DecodeError(f"code page {data[i + 2:i + 3]!r} is none of the printer's")
        st.page = page
        return i + 3, None, False
    if two == b"\x1ba":
        st.align = _ALIGN_NAMES.get(data[i + 2], "left")
        return i + 3, None, False
    if two == b"\x1bE":
        st.bold = bool(data[i + 2])
        return i + 3, None, False
    if two == b"\x1d!":
        st.big = data[i + 2] == SIZE["big"]
        return i + 3, None, False
    if data[i:i + 3] == b"\x1bd\x04" and data[i + 3:i + 6] == b"\x1dV\x01":
        return i + 6, None, True
    if data[i:i + 3] == b"\x1d(k":
        return _qr_command(data, i)
    raise DecodeError(f"unknown command {data[i:i + 4]!r} at byte {i}")


def _qr_command(data: bytes, i: int) -> tuple[int, str | None, bool]:
    qr: str | None = None
    while data[i:i + 3] == b"\x1d(k":
        n = data[i + 3] | data[i + 4] << 8
        body = data[i + 5:i + 5 + n]
        if len(body) < n:
            raise DecodeError("a QR command cut short")
        if body[:3] == b"1P0":
            qr = body[3:].decode("ascii")
        elif body[:3] == b"1Q0":
            i += 5 + n
            return i, qr or "", False
        i += 5 + n
    raise DecodeError("a QR code stored but never printed")


def paper_problem(status: int) -> str | None:
    """The answer to DLE EOT 4, read: None when paper is in, else what is wrong."""
    if status & 0x60:
        return "out of paper"
    return None


__all__ = ["STATUS_PAPER", "DecodeError", "Printed", "Raster", "decode", "paper_problem",
           "render"]
