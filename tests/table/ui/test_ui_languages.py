"""The dealer screen in German (length), Czech (diacritics) and Chinese (glyphs), and in
the pseudo-locale (no unmarked text), at 800x480 and 1280x720: the ordinary hand, a
bust and a floor call, measured as every screen is (tests/table/ui/ui_checks.py)."""

from __future__ import annotations

from typing import Any

import pytest
from ui_checks import shown, walk
from ui_kit import SIZES, Harness, nine

from kiosk.lang import active
from kiosk.lang.fonts import cjk_font
from kiosk.lang.pseudo import is_marked

LANGS = ("de", "cs", "zh_Hans")


def in_language(ui: Harness, code: str, rev: int) -> None:
    ui.fresh(rev, nine(), language=code)


def labels(ui: Harness) -> list[Any]:
    from kivy.uix.label import Label
    return [w for w in walk(ui.screen) if isinstance(w, Label) and w.text.strip() and shown(w)]


def ink(texture: Any) -> list[int]:
    """Columns of a rendered text that hold any ink (alpha)."""
    w, h = texture.size
    px = texture.pixels
    return [x for x in range(w) if any(px[(y * w + x) * 4 + 3] > 40 for y in range(h))]


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_ordinary_hand_and_a_bust_read_in_each_language(
        ui: Harness, code: str, size: tuple[int, int]) -> None:
    in_language(ui, code, 10 + LANGS.index(code))
    ids = ui.draw(size)
    assert active.language() == code
    ui.press(ids.btn_new)
    ids = ui.draw(size)
    want = {"de": "HAND\nENDE", "cs": "KONEC\nHRY", "zh_Hans": "结束\n本手"}[code]
    assert ids.btn_end.text == want
    ui.check(size)
    ui.shot(f"lang_{code}_hand", size)
    ui.press(ids.btn_bust)
    ui.seat(4)
    ids = ui.draw(size)
    ui.check(size)
    ui.shot(f"lang_{code}_bust", size)


def test_chinese_is_drawn_as_glyphs_not_missing_glyph_boxes(ui: Harness) -> None:
    assert cjk_font() is not None, "fonts-wqy-microhei is installed by .ci/run"
    in_language(ui, "zh_Hans", 30)
    ui.draw((800, 480))
    from kivy.core.text import Label as CoreLabel

    from kiosk.table.ui.tr import CJK
    assert ui.screen.ids.btn_new.font_name == CJK

    def rendered(text: str, font: str) -> Any:
        core = CoreLabel(text=text, font_size=40, font_name=font)
        core.refresh()
        return core.texture

    # Kivy's default font has no Han glyph: each character is the same .notdef box
    boxes = rendered("淘汰出局", "Roboto")
    glyphs = rendered("淘汰出局", CJK)
    box_one = rendered("淘", "Roboto").pixels
    assert rendered("汰", "Roboto").pixels == box_one          # the box, twice the same
    assert rendered("淘", CJK).pixels != rendered("汰", CJK).pixels   # real glyphs differ
    assert boxes.pixels != glyphs.pixels
    assert len(ink(glyphs)) > 0.6 * glyphs.size[0]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_czech_diacritics_are_drawn(ui: Harness, size: tuple[int, int]) -> None:
    from kivy.core.text import Label as CoreLabel

    def px(text: str) -> bytes:
        core = CoreLabel(text=text, font_size=40, font_name="Roboto")
        core.refresh()
        return bytes(core.texture.pixels)

    assert px("ŘŮŽĚ") != px("RUZE")                     # the marks are drawn
    assert px("Ř") != px("Ž") and px("ů") != px("ú")
    in_language(ui, "cs", 40)
    ids = ui.draw(size)
    assert ids.btn_new.text == "NOVÁ\nHRA"
    assert any("ř" in w.text or "ů" in w.text or "á" in w.text for w in labels(ui)), \
        [w.text for w in labels(ui)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pseudo_locale_leaves_no_unmarked_text_on_the_hand_screen(
        ui: Harness, size: tuple[int, int]) -> None:
    in_language(ui, "en_XA", 50)
    ids = ui.draw(size)
    ui.press(ids.btn_new)
    ids = ui.draw(size)
    view = ui.ctl.view(ui.t)
    data = {s.name for s in view.seats} | {ids.clock.text, view.event_title}
    unmarked = []
    for w in labels(ui):
        text = w.text.strip()
        if text in data or text.replace(" ", "").replace("/", "").replace(",", "").isdigit():
            continue
        if text.isdigit():
            continue
        parts = [p for p in text.split(" · ") if p.strip()]   # texts joined on one line
        unmarked += [p for p in parts if p not in data and not is_marked(p)
                     and not p.replace(",", "").isdigit()]
    assert not unmarked, unmarked
    ui.shot("lang_en_XA_hand", size)
