"""The Kivy dealer screen: draws `TableView`, turns taps into service actions.

Call `kiosk.table.ui.env.prepare(...)` before importing this module: Kivy reads its
settings when it is first imported.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from kiosk.appliance.sdnotify import Notifier
from kiosk.config import TableConfig
from kiosk.table.controller import Result
from kiosk.table.view import BustPanel, SeatView, TableView

KV = Path(__file__).with_name("table.kv")
FRAME_S = 1 / 10   # the view changes at most a few times a second; 10 Hz is plenty
WATCHDOG_S = 5.0

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
        ids.name.text = s.name or ("open" if not s.arriving else "")
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


CENTRE_LINES = 3
KEYPAD_ACTIONS = {"bust": ("bust_key", "bust_confirm"), "count": ("count_key", "count_send")}
PANEL_TAG = {"bust": "OUT", "winner": "WON", "count": ""}
PANEL_TINT = {"bust": (0.7, 0.12, 0.14, 1), "winner": (0.1, 0.45, 0.22, 1),
              "count": (0.16, 0.2, 0.26, 1)}
NAME_CHARS = 12    # a name on the bust panel's two-line seat buttons
LINE_BG = {"state": (0.45, 0.2, 0.6, 1), "final": (0.1, 0.35, 0.8, 1),
           "warn": (0.8, 0.4, 0.05, 1), "error": (0.7, 0.1, 0.1, 1), "info": (0.2, 0.2, 0.2, 1),
           "guide": (0, 0, 0, 0), "floor_open": (0.85, 0.1, 0.1, 1),
           "floor_acked": (0.8, 0.55, 0.05, 1), "floor_resolved": (0.15, 0.5, 0.2, 1),
           "move": (0.85, 0.42, 0.05, 1), "arrive": (0.1, 0.35, 0.8, 1),
           "result": (0.25, 0.25, 0.3, 1)}


def centre_lines(v: TableView) -> list[tuple[str, str]]:
    """What the middle of the table says, most urgent first; at most CENTRE_LINES."""
    lines: list[tuple[str, str]] = []
    if v.offline:
        lines.append((f"OFFLINE: {v.queued} queued" if v.queued else "OFFLINE", "error"))
    if v.state:
        lines.append((v.state, "final" if v.state.startswith("FINAL") else "state"))
    if v.floor_call:
        lines.append((v.floor_call, f"floor_{v.floor_state or 'open'}"))
    lines += [(m, "move") for m in v.moves]
    lines += [(a, "arrive") for a in v.arrivals]
    lines += [(r, "result") for r in v.bust_results]
    if v.message and v.message != v.guidance:
        lines.append((v.message, "error" if v.message_is_error else "info"))
    lines.append((v.guidance, "guide"))
    if len(lines) > CENTRE_LINES:   # keep the guidance; drop the least urgent above it
        lines = lines[:CENTRE_LINES - 1] + lines[-1:]
    return lines


class TableScreen(FloatLayout):
    """The root widget; `render(view)` updates it, taps call `act(name, *args)`."""

    pending = StringProperty("")
    table = NumericProperty(0)

    def __init__(self, act: Callable[..., Result] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.act = act or (lambda *a, **k: Result())
        self.ids.oval.on_seat = self.seat_tapped
        self.ids.oval.on_layout = self._place_centre
        self.view: TableView | None = None
        self.lines = [Factory.CentreLine(font_size=0) for _ in range(CENTRE_LINES)]
        for line in self.lines:
            self.ids.centre.add_widget(line)
        self.keypad_mode = ""
        self.keypad_ok: DealerButton | None = None
        self.keypad_split: DealerButton | None = None
        self._keypad_for("bust")
        self.mover_cells: list[Any] = []
        self.colour_up_cells: list[Any] = []
        self.bust_buttons: dict[int, DealerButton] = {}

    # ---------------------------------------------------------------- taps
    def tap(self, action: str, *args: Any) -> Result:
        return self.act(action, *args)

    def arm(self, action: str) -> Result:
        if self.view is not None and self.view.pending == action:
            return self.act("cancel_pending")
        return self.act("begin", action)

    def seat_tapped(self, seat: int) -> Result:
        return self.act("choose_seat", seat)

    def _keypad_for(self, mode: str) -> None:
        """The panel's right half: the digit keypad (busts and counts), or the winner
        step's SPLIT POT and SKIP / OK. Rebuilt only when the mode changes."""
        if self.keypad_mode == mode:
            return
        pad, self.keypad_mode = self.ids.keypad, mode
        pad.clear_widgets()
        self.keypad_split = None
        if mode == "winner":
            pad.cols = 1
            self.keypad_split = DealerButton(text="SPLIT POT")
            self.keypad_split.bind(on_release=lambda b: self.tap("split_pot"))
            pad.add_widget(self.keypad_split)
            self.keypad_ok = DealerButton(text="SKIP", tint=(0.1, 0.45, 0.22, 1))
            self.keypad_ok.bind(on_release=lambda b: self.tap("bust_send"))
            pad.add_widget(self.keypad_ok)
            return
        key_action, ok_action = KEYPAD_ACTIONS[mode]
        pad.cols = 3
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "000", "0", "<"):
            btn = DealerButton(text="DEL" if key == "<" else key)
            btn.bind(on_release=lambda b, k=key: self.tap(key_action, k))
            pad.add_widget(btn)
        if mode == "bust":
            cancel = DealerButton(text="CANCEL", tint=(0.45, 0.15, 0.15, 1))
            cancel.bind(on_release=lambda b: self.tap("cancel_pending"))
            pad.add_widget(cancel)
        else:
            pad.add_widget(Widget())
        pad.add_widget(Widget())
        self.keypad_ok = DealerButton(text="OK", tint=(0.1, 0.45, 0.22, 1))
        self.keypad_ok.bind(on_release=lambda b: self.tap(ok_action))
        pad.add_widget(self.keypad_ok)

    def _place_centre(self) -> None:
        x, y, w, h = self.ids.oval.centre
        c = self.ids.centre
        c.pos, c.size = (x, y), (max(w, 0), max(h, 0))
        for line in self.lines:
            line.font_size = self.height * 0.055

    # ---------------------------------------------------------------- drawing
    def render(self, v: TableView) -> None:
        self.view = v
        ids = self.ids
        self.table = v.table
        ids.level.text = " · ".join(x for x in (v.level + (" (paused)" if v.paused else ""),
                                              v.ante) if x)
        ids.blinds.text = v.blinds or v.level
        ids.clock.text = v.clock
        ids.clock.color = (1, 0.5, 0.3, 1) if v.paused else (1, 1, 1, 1)
        ids.next_level.text = v.next_hand_note or v.next_level
        hand = f"Hand {v.hand}" if v.hand else ""
        ids.field.text = " · ".join(x for x in (hand, v.field_text) if x)
        ids.to_break.text = v.to_break
        oval = ids.oval
        oval.set_count(len(v.seats))
        for s in v.seats:
            oval.seats[s.seat].show(s, bool(v.pending) and v.pending != "bust" and s.occupied)
        self._render_centre(v)
        for name in ("all_in", "bust", "absent", "clock"):
            ids[f"btn_{name}"].armed = v.pending == name
        ids.btn_new.disabled = not v.can_deal
        ids.btn_end.disabled = not v.in_hand
        ids.btn_all_in.disabled = not v.in_hand
        ids.btn_undo.disabled = not v.undo
        ids.btn_undo.text = f"UNDO\n{v.undo}" if v.undo else "UNDO"
        ids.break_screen.shown = v.is_break and not v.movers_title
        if v.is_break:
            ids.break_clock.text = v.clock
            ids.color_up.text = v.color_up or ""
            ids.break_next.text = v.next_level
            ids.break_moves.text = "\n".join([*v.moves, *v.arrivals])
        self._render_movers(v)
        self._render_bust_panel(v)
        self._render_colour_up(v)
        cc = v.clock_call
        ids.clock_call.shown = cc is not None
        if cc is not None:
            ids.cc_title.text = f"CLOCK ON SEAT {cc.seat}"
            ids.cc_count.text = cc.text
            ids.cc_count.font_size = self.height * (0.3 if cc.text.isdigit() else 0.1)
            ids.cc_count.color = ((1, 0.2, 0.2, 1) if cc.phase in ("countdown", "buzzer", "over")
                                  else (1, 1, 1, 1))
            ids.cc_detail.text = cc.detail

    def _render_centre(self, v: TableView) -> None:
        lines = centre_lines(v)
        each = self.height * 0.065
        for i, line in enumerate(self.lines):
            text, kind = lines[i] if i < len(lines) else ("", "guide")
            line.text, line.bg = text, LINE_BG[kind]
            line.bold = kind != "guide"
            line.size_hint_y, line.height = None, each if text else 0
            line.opacity = 1 if text else 0

    def _render_movers(self, v: TableView) -> None:
        ids = self.ids
        ids.movers.shown = bool(v.movers_title)
        if not v.movers_title:
            return
        ids.movers_title.text = v.movers_title + (
            f"  ({v.movers_page + 1}/{v.movers_pages})" if v.movers_pages > 1 else "")
        ids.movers_prev.disabled = v.movers_page == 0
        ids.movers_next.disabled = v.movers_page >= v.movers_pages - 1
        for b in (ids.movers_prev, ids.movers_next):
            b.opacity = 1 if v.movers_pages > 1 else 0
        ids.movers_hide.opacity = 1 if any(m.seat for m in v.movers) else 0
        ids.movers_hide.disabled = not any(m.seat for m in v.movers)
        grid = ids.mover_grid
        while len(self.mover_cells) < 10:
            cell = Factory.MoverCell()
            cell.bind(on_release=lambda c: c.seat and not c.arrived
                      and self.tap("confirm_arrival", c.seat))
            self.mover_cells.append(cell)
            grid.add_widget(cell)
        for i, cell in enumerate(self.mover_cells):
            m = v.movers[i] if i < len(v.movers) else None
            cell.opacity = 1 if m else 0
            cell.seat = m.seat if m else 0
            cell.ids.who.text = f"{m.name}" if m else ""
            cell.ids.origin.text = f"from {m.from_text}" if m else ""
            cell.ids.dest.text = ("ARRIVED " if m and m.arrived else "") + (m.to_text if m else "")
            cell.arrived = bool(m and m.arrived)

    def _render_bust_panel(self, v: TableView) -> None:
        """The seat-and-keypad panel: busts, then who won the pot, and the chip count."""
        ids, panel = self.ids, v.bust_panel
        ids.bust_panel.shown = panel is not None
        if panel is None:
            return
        ids.bust_prompt.text = panel.prompt
        ids.bust_prompt.color = (1, 0.45, 0.3, 1) if panel.error else (1, 0.85, 0.3, 1)
        self._keypad_for("bust" if panel.mode == "bust" else panel.mode)
        grid = ids.bust_seats
        wanted = [n for n, _ in panel.seats]
        if list(self.bust_buttons) != wanted:
            grid.clear_widgets()
            self.bust_buttons = {}
            for n in wanted:
                btn = DealerButton(font_size=0)
                btn.bind(on_release=lambda b, n=n: self.tap("choose_seat", n))
                self.bust_buttons[n] = btn
                grid.add_widget(btn)
        picked = dict(panel.picked)
        names = dict(panel.seats)
        for n, btn in self.bust_buttons.items():
            btn.markup = False
            btn.font_size = self.height * 0.055
            btn.text, on = seat_label(panel, n, names[n], picked.get(n))
            btn.armed = n == panel.focus
            btn.tint = PANEL_TINT[panel.mode] if on else (0.16, 0.2, 0.26, 1)
        assert self.keypad_ok is not None
        self.keypad_ok.text = panel.ok_text
        self.keypad_ok.disabled = not panel.ok
        if self.keypad_split is not None:     # two tall keys: a size that reads, not fills
            self.keypad_split.armed = panel.split
            for key in (self.keypad_split, self.keypad_ok):
                key.font_size = self.height * 0.08

    def _render_colour_up(self, v: TableView) -> None:
        """The colour-up walk-through: one row per seat, the race's cards and new stacks."""
        ids = self.ids
        ids.colour_up_panel.shown = bool(v.colour_up_title)
        if not v.colour_up_title:
            return
        ids.cu_title.text = v.colour_up_title
        box = ids.cu_rows
        while len(self.colour_up_cells) < len(v.colour_up):
            row = Factory.ColourUpRow()
            self.colour_up_cells.append(row)
            box.add_widget(row)
        each = min(self.height * 0.08, self.height * 0.81 / max(len(v.colour_up), 1))
        for i, row in enumerate(self.colour_up_cells):
            seat, cards, change = v.colour_up[i] if i < len(v.colour_up) else ("", "", "")
            for lab, text in ((row.ids.seat, seat), (row.ids.cards, cards),
                              (row.ids.change, change)):
                lab.text, lab.font_size = text, self.height * 0.055
            row.height = each if seat else 0
            row.opacity = 1 if seat else 0


def seat_label(panel: BustPanel, n: int, name: str, typed: str | None) -> tuple[str, bool]:
    """A seat button's text on the panel, and whether it stands out as picked."""
    short = name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"
    if panel.mode == "count":
        return f"{n}  {short}\n{int(typed):,}" if typed else f"{n}  {short}\n-", bool(typed)
    if typed is None:
        return f"{n}  {short}", False
    if panel.mode == "winner":
        return f"{n} WON\n{short}", True
    shown = f"{int(typed):,}" if typed else ("stack?" if panel.stacks_needed else "")
    return f"{n} OUT  {shown}".rstrip() + "\n" + short, True


Builder.load_file(str(KV))


class TableApp(App):
    """The kiosk app: a service, its devices, and a 10 Hz refresh."""

    title = "poker-kiosk table"

    def __init__(self, service: Any, devices: list[Any] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.service, self.devices = service, devices or []
        self.screen: TableScreen | None = None
        self._notifier: Any = None
        self._last_ping = 0.0

    def load_kv(self, filename: str | None = None) -> bool:
        """table.kv is loaded once at import; Kivy's name-based autoload would load it twice."""
        return True

    def build(self) -> TableScreen:
        self.screen = TableScreen(act=self.service.act)
        self.screen.render(self.service.view())
        Clock.schedule_interval(self.refresh, FRAME_S)
        return self.screen

    def on_start(self) -> None:
        self.service.start()
        self._notifier = Notifier()
        self._notifier.ready()

    def on_stop(self) -> None:
        if self._notifier is not None:
            self._notifier.stopping()
        for dev in self.devices:
            (dev.close if hasattr(dev, "close") else dev.stop)()
        self.service.stop()

    def refresh(self, _dt: float = 0.0) -> None:
        """One UI tick: service housekeeping, redraw, outputs, watchdog."""
        assert self.screen is not None
        self.screen.render(self.service.tick())
        for dev in self.devices:
            if hasattr(dev, "sync"):
                dev.sync()
        now = time.monotonic()
        if self._notifier is not None and now - self._last_ping > WATCHDOG_S:
            self._last_ping = now
            self._notifier.watchdog()


def run_ui(cfg: TableConfig) -> int:
    """Run the kiosk with its screen (blocks until the window closes); the caller has
    run `env.prepare` before Kivy was first imported."""
    from kiosk.table.cli import start_devices
    from kiosk.table.service import TableService
    service = TableService(cfg)
    TableApp(service, start_devices(service, gpio=True)).run()
    return 0
