"""The font a language's script needs, where the system keeps it.

Latin scripts (Czech's diacritics included) are in every font the kiosk and the printer
preview use already; Chinese needs a font that carries CJK glyphs. The appliance image
installs Debian's fonts-wqy-microhei (WenQuanYi Micro Hei: one 5 MB file, Latin and CJK);
the other candidates are what a desktop machine may have instead.
"""

from __future__ import annotations

import functools
from pathlib import Path

CJK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)
NEEDS_CJK = frozenset({"zh_Hans"})


@functools.cache
def cjk_font() -> str | None:
    """The first CJK font this machine has, or None."""
    return next((f for f in CJK_FONTS if Path(f).is_file()), None)


def font_for(code: str) -> str | None:
    """The font file `code`'s script needs, or None when the default font carries it
    (or, for CJK, when none is installed: the doctor line says so)."""
    return cjk_font() if code in NEEDS_CJK else None


def needs_cjk(text: str) -> bool:
    """Whether `text` has a character of the CJK blocks (Han, kana, Hangul, CJK
    punctuation and full-width forms)."""
    return any(0x2E80 <= ord(ch) <= 0x9FFF or 0xAC00 <= ord(ch) <= 0xD7AF
               or 0xF900 <= ord(ch) <= 0xFAFF or 0xFF00 <= ord(ch) <= 0xFFEF
               or 0x20000 <= ord(ch) <= 0x2FA1F for ch in text)
