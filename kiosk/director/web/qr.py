"""QR codes pointing players at their event's public page (the TV clock, seat cards).

The address comes from the config (kiosk.config.public: `[director] public_url`): the
director only knows the address it listens on, which is often 127.0.0.1 or a name phones
cannot resolve.
"""

from __future__ import annotations

import io

import segno

from kiosk.config.public import player_page_url as player_page_url  # the codes' address


def _code(url: str) -> segno.QRCode:
    # level M: survives a crease or a smudge on a seat card, still small at this length
    return segno.make_qr(url, error="m", boost_error=False)


def qr_png(url: str, scale: int = 8) -> bytes:
    """The code as a black-on-white PNG, `scale` pixels a module, with the quiet zone."""
    buf = io.BytesIO()
    _code(url).save(buf, kind="png", scale=scale, border=4)
    return buf.getvalue()


def qr_svg(url: str) -> bytes:
    """The code as an SVG that scales to its box (the TV clock sizes it by CSS)."""
    buf = io.BytesIO()
    _code(url).save(buf, kind="svg", scale=1, border=4, xmldecl=False, svgns=True,
                    omitsize=True, dark="#000", light="#fff")
    return buf.getvalue()
