"""Our small ESC/POS writer, and the reader that turns its bytes back into lines.

The writer uses only commands every Epson-compatible receipt printer knows: ESC @ (reset),
ESC t (code page), ESC a (alignment), ESC E (bold), GS ! (character size), GS ( k (a QR
code drawn by the printer itself: no image to rasterise), ESC d (feed), GS V (cut), and
DLE EOT (real-time status: is there paper, is the cover shut). The reader exists for the
tests and for `file:` output: it decodes exactly what the writer writes, and refuses
anything else, so a stray byte shows up as an error instead of a garbled slip.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.printer.slip import CODEPAGE, Line, Slip, printable, width

ESC, GS, DLE, EOT, LF = 0x1B, 0x1D, 0x10, 0x04, 0x0A
RESET = b"\x1b@"
CODEPAGE_1252 = b"\x1bt\x10"
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


def line_bytes(line: Line, columns: int) -> bytes:
    """One line of a slip, ending in LF (a QR code prints centred, then LF)."""
    if line.qr:
        return b"\x1ba\x01" + _qr(line.qr) + b"\n"
    text = "-" * columns if line.rule else printable(line.text)[:width(line.style, columns)]
    return (bytes([ESC, ord("a"), ALIGN[line.align], ESC, ord("E"), int(line.style == "bold"),
                   GS, ord("!"), SIZE[line.style]])
            + text.encode(CODEPAGE, "replace") + b"\n")


def render(slip: Slip, columns: int) -> bytes:
    """The whole job: reset, code page, every line, feed and cut."""
    return (RESET + CODEPAGE_1252 + b"".join(line_bytes(ln, columns) for ln in slip.lines)
            + CUT)


# ------------------------------------------------------------------ the reader
class DecodeError(ValueError):
    """Bytes that our writer would not have written."""


@dataclass
class _State:
    align: str = "left"
    bold: bool = False
    big: bool = False

    @property
    def style(self) -> str:
        return "big" if self.big else "bold" if self.bold else "normal"


_ALIGN_NAMES = {v: k for k, v in ALIGN.items()}


def decode(data: bytes, columns: int) -> list[list[Line]]:
    """The slips in `data` (one list of lines per cut), as printed. Status queries
    (DLE EOT) are skipped; anything the writer never sends raises DecodeError."""
    slips: list[list[Line]] = []
    lines: list[Line] = []
    st = _State()
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
    text = raw.decode(CODEPAGE, "replace")
    if text and text == "-" * columns and st.style == "normal":
        return Line(rule=True)
    return Line(text=text, style=st.style, align=st.align)  # type: ignore[arg-type]


def _command(data: bytes, i: int, st: _State) -> tuple[int, str | None, bool]:
    """One command at `i`: (next index, QR data if it printed one, whether it cut)."""
    two = data[i:i + 2]
    if two == b"\x1b@":
        st.align, st.bold, st.big = "left", False, False
        return i + 2, None, False
    if two == b"\x10\x04":
        return i + 3, None, False
    if two == b"\x1bt":
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


__all__ = ["STATUS_PAPER", "DecodeError", "decode", "paper_problem", "render"]
