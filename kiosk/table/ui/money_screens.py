"""The dealer's money screens in Kivy: a bust with place and prize (and who won the
pot), the chip-count keypad, and the colour-up walk-through. Built from the table's
plan through kiosk.table.money_entry; sizes follow the window so the text stays
readable from the dealer's chair on the 7-inch screen and on larger ones."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from kiosk.table.money_entry import (
    KEYS,
    ChipCountEntry,
    bust_lines,
    colour_up_rows,
    ordinal,
    seat_choices,
)

BG = (0.06, 0.08, 0.1, 1)


def _px(height: float, share: float, least: float = 18) -> float:
    """A font size: a share of the window's height, never below `least` pixels."""
    return max(least, height * share)


class Panel(BoxLayout):
    """A full-window panel with a title line and a dark background."""

    def __init__(self, title: str, height: float, **kw: Any) -> None:
        super().__init__(orientation="vertical", padding=height * 0.02, spacing=height * 0.015,
                         **kw)
        with self.canvas.before:
            Color(*BG)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._paint, size=self._paint)
        self.title = Label(text=title, font_size=_px(height, 0.06, 24), bold=True,
                           size_hint_y=None, height=height * 0.1, halign="left",
                           valign="middle")
        self.title.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.title)

    def _paint(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size


def _button(text: str, window_h: float, on_press: Callable[[], Any], **kw: Any) -> Button:
    b = Button(text=text, font_size=_px(window_h, 0.05, 22), **kw)
    b.bind(on_release=lambda *_: on_press())
    return b


class BustPanel(Panel):
    """Who is out with which place and prize; then one optional tap: who won the pot."""

    def __init__(self, plan: Mapping[str, Any], busted: int, height: float,
                 on_winner: Callable[[int | None], Any]) -> None:
        super().__init__("Player out", height)
        lines = bust_lines(plan) or [f"Seat {busted} is out"]
        self.lines = Label(text="\n".join(lines), font_size=_px(height, 0.055, 22),
                           halign="left", valign="top")
        self.lines.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.lines)
        ask = Label(text="Who won the pot? (tap the seat, or skip)",
                    font_size=_px(height, 0.045, 20), size_hint_y=None, height=height * 0.08)
        self.add_widget(ask)
        row = BoxLayout(spacing=height * 0.01, size_hint_y=None, height=height * 0.16)
        self.choices = []
        for s in seat_choices(plan, busted):
            b = _button(str(s), height, functools.partial(on_winner, s))
            self.choices.append(b)
            row.add_widget(b)
        self.skip = _button("Skip", height, lambda: on_winner(None),
                            background_color=(0.45, 0.45, 0.45, 1))
        row.add_widget(self.skip)
        self.add_widget(row)


class ChipCountPanel(Panel):
    """Seat by seat on a keypad: the stack typed so far, and what cannot be right."""

    def __init__(self, entry: ChipCountEntry, height: float,
                 on_send: Callable[[dict[int, int]], Any], label: str = "") -> None:
        super().__init__(f"Chip count{': ' + label if label else ''}", height)
        self.entry, self.on_send = entry, on_send
        body = BoxLayout(spacing=height * 0.02)
        left = BoxLayout(orientation="vertical", spacing=height * 0.01)
        self.current = Label(font_size=_px(height, 0.075, 30), bold=True, size_hint_y=0.3)
        self.summary = Label(font_size=_px(height, 0.042, 18), halign="left", valign="top")
        self.summary.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.problem = Label(font_size=_px(height, 0.042, 18), color=(1, 0.6, 0.2, 1),
                             size_hint_y=0.2)
        nav = BoxLayout(spacing=height * 0.01, size_hint_y=0.22)
        nav.add_widget(_button("< Seat", height, lambda: self._move(-1)))
        nav.add_widget(_button("Seat >", height, lambda: self._move(1)))
        self.send = _button("Send", height, self._send, background_color=(0.15, 0.55, 0.3, 1))
        nav.add_widget(self.send)
        for w in (self.current, self.summary, self.problem, nav):
            left.add_widget(w)
        pad = GridLayout(cols=3, spacing=height * 0.01, size_hint_x=0.42)
        self.keys = {}
        for k in KEYS:
            self.keys[k] = _button(k, height, functools.partial(self._press, k))
            pad.add_widget(self.keys[k])
        body.add_widget(left)
        body.add_widget(pad)
        self.add_widget(body)
        self.refresh()

    def _press(self, key: str) -> None:
        self.entry.press(key)
        self.refresh()

    def _move(self, step: int) -> None:
        self.entry.move(step)
        self.refresh()

    def _send(self) -> None:
        bad = self.entry.problems()
        if bad:
            self.problem.text = bad[0]
            return
        self.on_send(self.entry.stacks())

    def refresh(self) -> None:
        e = self.entry
        value = e.stack(e.seat)
        self.current.text = f"Seat {e.seat}: {value:,}" if value is not None \
            else f"Seat {e.seat}: _"
        self.summary.text = "\n".join(
            f"{'>' if s == e.seat else ' '} {s} {e.names.get(s, '')[:14]}: "
            f"{'' if e.stack(s) is None else format(e.stack(s), ',')}" for s in e.seats)
        bad = e.problems()
        self.problem.text = "" if not bad else f"{len(bad)} to check: {bad[0]}"


class ColourUpPanel(Panel):
    """The race as the core decided it: cards per seat, who wins a chip, new stacks."""

    def __init__(self, cu: Mapping[str, Any], height: float,
                 on_done: Callable[[], Any]) -> None:
        chip = cu.get("new_chip", 0)
        super().__init__(f"Colour-up: race to {chip:,} chips" if chip else "Colour-up", height)
        grid = GridLayout(cols=3, spacing=(height * 0.02, height * 0.005))
        self.rows = []
        for seat, cards, change in colour_up_rows(cu):
            for text, hx in ((seat, "left"), (cards, "left"), (change, "right")):
                lab = Label(text=text, font_size=_px(height, 0.045, 20), halign=hx,
                            valign="middle")
                lab.bind(size=lambda w, s: setattr(w, "text_size", s))
                grid.add_widget(lab)
                self.rows.append(lab)
        self.add_widget(grid)
        self.done = _button("Done", height, on_done, size_hint_y=None, height=height * 0.14,
                            background_color=(0.15, 0.55, 0.3, 1))
        self.add_widget(self.done)


__all__ = ["BustPanel", "ChipCountPanel", "ColourUpPanel", "ordinal"]
