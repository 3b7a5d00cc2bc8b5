"""What covers part of the dealer screen for a while: the shot clock (TDA RP-19), its count
over the header and its keys in the middle of the table, and the handover (TDA 2024
RP-15A), a panel over the seat ring between hands. Each hides what it covers (the
screen's checks see what a person sees) and leaves the rest to the dealer."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory

from kiosk.table.ui.texts import handover_texts, shot_texts, status_line
from kiosk.table.view import HandoverView, ShotClockView, TableView

COUNT_H = 0.26     # the shot clock's count: 0.26 h at most, a 79 px (14 mm) cap at
                   # 800x480, read from the far seat (tests/table/ui/ui_checks.py FAR_CAP)
TEXT_H = 0.055     # the dealer's text (table.kv's TXT)
RED = (1, 0.2, 0.2, 1)
BAND_BG = {"calm": (0.1, 0.12, 0.16, 1), "red": (0.32, 0.04, 0.05, 1)}
KEY_TINT = {False: ((0.1, 0.35, 0.8, 1), (0.1, 0.45, 0.22, 1)),    # TIME BANK, ACTED
            True: ((0.55, 0.08, 0.1, 1), (0.55, 0.3, 0.05, 1))}    # HAND DEAD, CHECKED
CLOCKED_FILL = (0.55, 0.4, 0.05, 1)    # the seat the shot clock runs on


def render(ids: Any, v: TableView, height: float) -> None:
    """The shot clock and the handover as `v` has them, on a screen `height` px high."""
    layers(ids, v)
    if v.shot_clock is not None:
        shot_clock(ids, v.shot_clock, height)
    if v.handover is not None and v.handover.shown:
        handover(ids, v, v.handover, height)


def layers(ids: Any, v: TableView) -> None:
    """What each covers: the shot clock the header (the level's clock and blinds give way
    while a player decides) and the middle of the table, where its keys go; the handover
    the seat ring and the middle, between hands."""
    shot, up = v.shot_clock is not None, bool(v.handover and v.handover.shown)
    ids.shot_band.shown, ids.handover.shown = shot, up
    ids.top.opacity = 0 if shot else 1
    ids.oval.opacity = 0 if up else 1
    ids.info.opacity = ids.centre.opacity = 0 if shot or up else 1
    keys = shot and not up
    x, y, w, h = ids.oval.centre if keys else (0, 0, 0, 0)   # hidden, it draws nothing
    ids.shot_keys.pos, ids.shot_keys.size = (x, y), (max(w, 0), max(h, 0))
    ids.shot_keys.opacity = 1 if keys else 0
    for key in (ids.sc_key_a, ids.sc_key_b):
        key.disabled = not keys


def shot_clock(ids: Any, s: ShotClockView, height: float) -> None:
    """The count, red in its last seconds, whose decision, the cards left and what the
    cards taken added, or the rule at time up; the keys for the decision or the rule."""
    said = shot_texts(s)
    red = s.phase in ("countdown", "buzzer", "over")
    ids.shot_band.bg = BAND_BG["red" if red else "calm"]
    count = ids.sc_count
    count.text, count.color = said["count"], RED if red else (1, 1, 1, 1)
    count.font_size = fit(said["count"], height * COUNT_H, count.width * 0.96, count.height,
                          count.font_name)
    for key in ("title", "name", "line", "more"):
        ids[f"sc_{key}"].text = said[key]
    ids.sc_title.color = RED if s.ruling else (1, 0.85, 0.3, 1)
    ids.sc_line.bold = s.ruling
    ids.sc_more.color = (1, 1, 1, 1) if s.ruling else (0.45, 0.95, 0.5, 1)
    for key, name, tint in zip((ids.sc_key_a, ids.sc_key_b), ("key_a", "key_b"),
                               KEY_TINT[s.ruling], strict=True):
        key.text, key.tint = said[name], tint
        key.font_size = fit(key.text, min(key.height * 0.42, key.width * 0.3),
                            key.width * 0.9, key.height * 0.9, key.font_name)
    ids.sc_key_a.disabled = not (s.ruling or s.can_bank)


def handover(ids: Any, v: TableView, h: HandoverView, height: float) -> None:
    """Who hands over to whom, the next hand's blinds, the players warned or on a penalty,
    the floor's note, and what the middle of the table must not lose meanwhile."""
    said = handover_texts(h)
    for key in ("title", "blinds", "level", "first", "note"):
        ids[f"ho_{key}"].text = said[key]
    ids.ho_status.text = status_line(v)[0]
    box, rows = ids.ho_players, said["rows"]
    while len(box.children) < 1 + len(rows):
        box.add_widget(Factory.HandoverRow(), index=0)      # under the column's title
    for i, row in enumerate(reversed(box.children[:-1])):
        seat, name, what = rows[i] if i < len(rows) else ("", "", "")
        for lab, text in ((row.ids.seat, seat), (row.ids.name, name), (row.ids.what, what)):
            lab.text, lab.font_size = text, height * TEXT_H
        row.ids.name.size_hint_x = 0.5 if seat else 0.9     # "Nobody", "and 2 more..."
        row.ids.what.size_hint_x = 0.4 if seat else 0
        row.opacity = 1 if i < len(rows) else 0


@lru_cache(maxsize=512)
def _size(text: str, size: float, font: str) -> tuple[int, int]:
    core = CoreLabel(text=text, font_size=size, bold=True, font_name=font, halign="center")
    core.refresh()
    return core.texture.size


def fit(text: str, size: float, width: float, height: float, font: str) -> float:
    """The font size, at most `size`, at which `text` (bold) fits `width` x `height`."""
    if not text or width <= 0 or height <= 0:
        return size
    w, h = _size(text, round(size), font)
    return size * min(1.0, width / max(w, 1), height / max(h, 1))
