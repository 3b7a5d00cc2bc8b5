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
from kivy.graphics import Color, Ellipse, Rectangle
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout

from kiosk.appliance.sdnotify import Notifier
from kiosk.config import TableConfig
from kiosk.table.controller import Result
from kiosk.table.view import SeatView, TableView

KV = Path(__file__).with_name("table.kv")
FRAME_S = 1 / 10   # the view changes at most a few times a second; 10 Hz is plenty
WATCHDOG_S = 5.0

SEAT_FILL = {"empty": (0.13, 0.15, 0.17, 1), "seated": (0.16, 0.2, 0.26, 1),
             "all_in": (0.78, 0.1, 0.12, 1), "absent": (0.33, 0.33, 0.33, 1),
             "busted": (0.08, 0.08, 0.08, 1), "arriving": (0.1, 0.35, 0.8, 1),
             "waiting": (0.35, 0.3, 0.12, 1)}


class DealerButton(Button):
    armed = BooleanProperty(False)


class SeatButton(Button):
    seat = 0
    fill = ListProperty(SEAT_FILL["empty"])
    highlight = BooleanProperty(False)


class Overlay(FloatLayout):
    """A full-screen layer that swallows touches only while shown."""

    shown = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            Color(0.02, 0.03, 0.04, 0.94)
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


class TableOval(FloatLayout):
    """The felt, with one seat button per seat laid out round an ellipse."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.seats: dict[int, SeatButton] = {}
        self.on_seat: Callable[[int], None] = lambda seat: None
        with self.canvas.before:
            Color(0.55, 0.35, 0.15, 1)
            self._rail = Ellipse()
            Color(0.07, 0.42, 0.22, 1)
            self._felt = Ellipse()
        self.bind(pos=self._layout, size=self._layout)

    def set_count(self, n: int) -> None:
        if len(self.seats) == n:
            return
        for btn in self.seats.values():
            self.remove_widget(btn)
        self.seats = {}
        for seat in range(1, n + 1):
            btn = SeatButton()
            btn.seat = seat
            btn.bind(on_release=lambda b: self.on_seat(b.seat))
            self.seats[seat] = btn
            self.add_widget(btn)
        self._layout()

    def _layout(self, *_: Any) -> None:
        w, h = self.size
        cx, cy = self.x + w / 2, self.y + h / 2
        rx, ry = w * 0.36, h * 0.33
        self._rail.pos, self._rail.size = (cx - rx, cy - ry), (2 * rx, 2 * ry)
        inset = min(w, h) * 0.03
        self._felt.pos = (cx - rx + inset, cy - ry + inset)
        self._felt.size = (2 * (rx - inset), 2 * (ry - inset))
        n = max(1, len(self.seats))
        bw, bh = min(w * 0.16, h * 0.5), h * 0.22
        for seat, btn in self.seats.items():
            # seat 1 on the dealer's left (bottom left), then clockwise round the top
            a = -math.pi / 2 - (seat - 0.5) * 2 * math.pi / n
            btn.size_hint = (None, None)
            btn.size = (bw, bh)
            btn.center = (cx + (rx + bw * 0.2) * math.cos(a) * 1.05,
                          cy + (ry + bh * 0.15) * math.sin(a) * 1.05)


def seat_text(s: SeatView) -> str:
    name = s.name or ("open" if not s.arriving else "")
    lines = [f"[b]{s.seat}[/b]  {name}"[:40]]
    if s.markers:
        lines.append(f"[b][color=ffd84d]{s.markers}[/color][/b]")
    if s.penalty:
        lines.append(f"[color=ff9a9a]{s.penalty}[/color]")
    return "\n".join(lines)


def seat_fill(s: SeatView) -> tuple[float, ...]:
    key = ("busted" if s.busted else "all_in" if s.all_in else "arriving" if s.arriving
           else "absent" if s.absent else "waiting" if s.waiting
           else "seated" if s.occupied else "empty")
    return SEAT_FILL[key]


class TableScreen(FloatLayout):
    """The root widget; `render(view)` updates it, taps call `act(name, *args)`."""

    pending = StringProperty("")

    def __init__(self, act: Callable[..., Result] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.act = act or (lambda *a, **k: Result())
        self.ids.oval.on_seat = self.seat_tapped
        self.view: TableView | None = None

    # ---------------------------------------------------------------- taps
    def tap(self, action: str, *args: Any) -> Result:
        return self.act(action, *args)

    def arm(self, action: str) -> Result:
        if self.view is not None and self.view.pending == action:
            return self.act("cancel_pending")
        return self.act("begin", action)

    def seat_tapped(self, seat: int) -> Result:
        stack = None
        if self.view is not None and self.view.pending == "bust":
            text = self.ids.bust_stack.text.strip()
            stack = int(text) if text.isdigit() else None
            self.ids.bust_stack.text = ""
        return self.act("choose_seat", seat, stack)

    # ---------------------------------------------------------------- drawing
    def render(self, v: TableView) -> None:
        self.view = v
        ids = self.ids
        ids.level.text = v.level if not v.paused else f"{v.level} (paused)"
        ids.blinds.text = v.blinds
        ids.ante.text = v.ante
        ids.clock.text = v.clock
        ids.clock.color = (1, 0.5, 0.3, 1) if v.paused else (1, 1, 1, 1)
        ids.next_level.text = v.next_level
        ids.hand.text = (f"Hand {v.hand}" + (" - running" if v.in_hand else "")) if v.hand else ""
        ids.next_hand.text = v.next_hand_note
        oval = ids.oval
        oval.set_count(len(v.seats))
        for s in v.seats:
            btn = oval.seats[s.seat]
            btn.text = seat_text(s)
            btn.fill = seat_fill(s)
            btn.highlight = bool(v.pending) and s.occupied
        ids.centre.text = v.prompt or v.checkin or ("Tap NEW HAND to deal" if not v.in_hand
                                                    else "")
        bust = v.pending == "bust"
        ids.bust_entry.opacity, ids.bust_entry.disabled = (1 if bust else 0), not bust
        for name in ("all_in", "bust", "absent", "present", "clock"):
            ids[f"btn_{name}"].armed = v.pending == name
        ids.offline.text = (f"OFFLINE - clock runs locally, {v.queued} report(s) queued"
                            if v.offline else "")
        ids.moves.text = "  |  ".join(v.moves)
        ids.arrivals.text = "  |  ".join(f"Arriving: {a}" for a in v.arrivals)
        ids.floor.text = v.floor_call
        ids.floor.bg = {"open": (0.85, 0.1, 0.1, 1), "acked": (0.85, 0.6, 0.05, 1)}.get(
            v.floor_state, (0.15, 0.5, 0.2, 1))
        banner = v.hand_for_hand or ("HALTED by the floor" if v.halt else "") or (
            "Table breaking" if v.breaking else "")
        ids.h4h.text = banner
        ids.message.text = v.message
        ids.message.bg = (0.6, 0.1, 0.1, 0.95) if v.message_is_error else (0.2, 0.2, 0.2, 0.9)
        ids.break_screen.shown = v.is_break
        if v.is_break:
            ids.break_clock.text = v.clock
            ids.color_up.text = v.color_up or ""
            ids.break_next.text = v.next_level
        ids.h4h_wait.shown = v.h4h_waiting and not v.is_break
        cc = v.clock_call
        ids.clock_call.shown = cc is not None
        if cc is not None:
            ids.cc_title.text = f"CLOCK ON SEAT {cc.seat}"
            ids.cc_count.text = cc.text
            ids.cc_count.font_size = self.height * (0.3 if cc.text.isdigit() else 0.1)
            ids.cc_count.color = ((1, 0.2, 0.2, 1) if cc.phase in ("countdown", "buzzer", "over")
                                  else (1, 1, 1, 1))
            ids.cc_detail.text = cc.detail


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
