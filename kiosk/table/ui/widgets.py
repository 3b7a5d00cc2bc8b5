"""The dealer screen's own widgets: the buttons, a seat box, the overlays and the felt
with its seats. table.kv styles them by class name."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout

from kiosk.lang.active import _
from kiosk.table.view import SeatView

SEAT_FILL = {"empty": (0.13, 0.15, 0.17, 1), "seated": (0.16, 0.2, 0.26, 1),
             "all_in": (0.78, 0.1, 0.12, 1), "absent": (0.33, 0.33, 0.33, 1),
             "busted": (0.08, 0.08, 0.08, 1), "arriving": (0.1, 0.35, 0.8, 1),
             "waiting": (0.35, 0.3, 0.12, 1)}


class DealerButton(Button):
    armed = BooleanProperty(False)
    tint = ListProperty([0.16, 0.2, 0.26, 1])


class SeatBox(ButtonBehavior, BoxLayout):
    """One seat: number, name (shortened, markup off), blind badges and status."""

    seat = NumericProperty(0)
    fill = ListProperty(SEAT_FILL["empty"])
    highlight = BooleanProperty(False)

    def show(self, s: SeatView, highlight: bool) -> None:
        ids = self.ids
        self.seat = s.seat
        ids.name.text = s.name or (_("open") if not s.arriving else "")
        ids.name.color = (0.55, 0.58, 0.6, 1) if not s.name else (1, 1, 1, 1)
        for badge, on in ((ids.b_d, s.button), (ids.b_sb, s.sb), (ids.b_bb, s.bb)):
            badge.opacity = 1 if on else 0
        ids.status.text = s.status or s.penalty
        self.fill = seat_fill(s)
        self.highlight = highlight


class Overlay(FloatLayout):
    """A full-screen layer that swallows touches only while shown."""

    shown = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            Color(0.02, 0.03, 0.04, 1)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw, shown=self._redraw)
        self.opacity = 0

    def _redraw(self, *_: Any) -> None:
        # Kivy still rasterises opacity-0 widgets; a hidden overlay shrinks to nothing so
        # it costs no fill (software GL spends most of a frame on fill)
        self.size_hint = (1, 1) if self.shown else (0, 0)
        self._rect.pos, self._rect.size = self.pos, self.size
        self.opacity = 1 if self.shown else 0

    def on_touch_down(self, touch: Any) -> bool:
        if not self.shown:
            return False
        super().on_touch_down(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        return super().on_touch_up(touch) if self.shown else False


class Panel(FloatLayout):
    """A layer over part of the screen (the shot clock's band, the handover): it takes the
    touches that land on it only while shown, and the screen hides what it covers. Hidden,
    it shrinks to nothing, as an overlay does; `open_hint` is its size when shown."""

    shown = BooleanProperty(False)
    partial = True                    # tests/table/ui/ui_checks.py: a layer, not the screen
    open_hint = ListProperty([1, 1])
    bg = ListProperty([0.1, 0.12, 0.16, 1])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            self._colour = Color(*self.bg)
            self._rect = RoundedRectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw, shown=self._redraw,
                  open_hint=self._redraw, bg=self._redraw)
        self.opacity = 0

    def _redraw(self, *_: Any) -> None:
        self.size_hint = tuple(self.open_hint) if self.shown else (0, 0)
        self._colour.rgba = self.bg
        self._rect.pos, self._rect.size = self.pos, self.size
        self._rect.radius = [min(self.size) * 0.06]
        self.opacity = 1 if self.shown else 0

    def on_touch_down(self, touch: Any) -> bool:
        if not self.shown or not self.collide_point(*touch.pos):
            return False
        super().on_touch_down(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        return super().on_touch_up(touch) if self.shown else False


class IdleOverlay(Overlay):
    """The free table's screen: a tap anywhere is answered (`on_tap`), never dealt on."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.on_tap: Callable[[], Any] = lambda: None

    def on_touch_down(self, touch: Any) -> bool:
        if not self.shown:
            return False
        if FloatLayout.on_touch_down(self, touch):    # its own button (DEALER PIN)
            return True
        if self.collide_point(*touch.pos):
            self.on_tap()
        return True


def seat_slots(n: int) -> list[tuple[float, float]]:
    """Seat centres as fractions of the table area (x right, y up): seat 1 on the
    dealer's left at the bottom, then clockwise (bottom-left, left end, top row, right
    end, bottom-right). Rows hold at most four seats, so boxes never overlap."""
    top = math.ceil((n - 2) / 2) if n > 2 else 0
    bottom = max(0, n - 2 - top)
    left = math.ceil(bottom / 2)
    row = {0: [], 1: [0.5], 2: [0.3, 0.7], 3: [0.2, 0.5, 0.8],
           4: [0.125, 0.375, 0.625, 0.875]}[top]
    right_xs = [0.875, 0.625][2 - (bottom - left):] if bottom - left else []
    return ([(x, 0.0) for x in [0.375, 0.125][:left]] + [(0.0, 0.5)]
            + [(x, 1.0) for x in row] + [(1.0, 0.5)] + [(x, 0.0) for x in right_xs])[:n]


class TableOval(FloatLayout):
    """The felt, with one seat box per seat round it; `centre` is the free middle."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.seats: dict[int, SeatBox] = {}
        self.on_seat: Callable[[int], None] = lambda seat: None
        self.on_layout: Callable[[], None] = lambda: None
        self.centre = (0.0, 0.0, 0.0, 0.0)
        with self.canvas.before:
            Color(0.45, 0.28, 0.12, 1)
            self._rail = RoundedRectangle()
            Color(0.07, 0.38, 0.2, 1)
            self._felt = RoundedRectangle()
        self.bind(pos=self._layout, size=self._layout)

    def set_count(self, n: int) -> None:
        if len(self.seats) == n:
            return
        for box in self.seats.values():
            self.remove_widget(box)
        self.seats = {}
        for seat in range(1, n + 1):
            box = SeatBox(seat=seat)
            box.bind(on_release=lambda b: self.on_seat(int(b.seat)))
            self.seats[seat] = box
            self.add_widget(box)
        self._layout()

    def _layout(self, *_: Any) -> None:
        w, h = self.size
        H = self.parent.height if self.parent else h / 0.54
        gap = H * 0.025
        bw, bh = w * 0.225, H * 0.14
        x0, y0 = self.x + gap, self.y
        span_x, span_y = w - 2 * gap - bw, h - bh
        for (fx, fy), box in zip(seat_slots(len(self.seats)), self.seats.values(), strict=True):
            box.size_hint = (None, None)
            box.size = (bw, bh)
            box.pos = (x0 + fx * span_x if fx in (0.0, 1.0) else self.x + fx * w - bw / 2,
                       y0 + fy * span_y)
        pad = min(w, h) * 0.04
        self._rail.pos = (self.x + bw * 0.45, self.y + bh * 0.45)
        self._rail.size = (w - bw * 0.9, h - bh * 0.9)
        self._rail.radius = [h * 0.3]
        self._felt.pos = (self._rail.pos[0] + pad, self._rail.pos[1] + pad)
        self._felt.size = (self._rail.size[0] - 2 * pad, self._rail.size[1] - 2 * pad)
        self._felt.radius = [h * 0.27]
        # the free middle: between the end seats and between the top and bottom rows
        self.centre = (self.x + gap * 2 + bw, self.y + bh + gap,
                       w - 2 * (gap * 2 + bw), h - 2 * (bh + gap))
        self.on_layout()


def seat_fill(s: SeatView) -> tuple[float, ...]:
    key = ("busted" if s.busted else "all_in" if s.all_in else "arriving" if s.arriving
           else "absent" if s.absent else "waiting" if s.waiting
           else "seated" if s.occupied else "empty")
    return SEAT_FILL[key]
