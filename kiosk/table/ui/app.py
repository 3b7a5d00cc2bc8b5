"""The Kivy dealer screen: draws `TableView`, turns taps into service actions.

Call `kiosk.table.ui.env.prepare(...)` before importing this module: Kivy reads its
settings when it is first imported.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from kiosk.config.files import TableConfig
from kiosk.lang.active import _, language
from kiosk.system.sdnotify import Notifier
from kiosk.table.controller import Result
from kiosk.table.flows.pin import LETTERS
from kiosk.table.ui import panels
from kiosk.table.ui.texts import (
    CENTRE_LINES,
    LINE_BG,
    OK_TINT,
    PANEL_TINT,
    centre_lines,
    offline_text,
    seat_label,
    show_mover,
)
from kiosk.table.ui.widgets import DealerButton
from kiosk.table.view import BustPanel, PinPanel, TableView

log = logging.getLogger(__name__)

DIGITS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "", "0", "<")
KEYPAD_ACTIONS = {"bust": ("bust_key", "bust_confirm"), "count": ("count_key", "count_send")}
KV = Path(__file__).with_name("table.kv")
FRAME_S = 1 / 10   # the view changes at most a few times a second; 10 Hz is plenty
WATCHDOG_S = 5.0

class TableScreen(FloatLayout):
    """The root widget; `render(view)` updates it, taps call `act(name, *args)`."""

    pending = StringProperty("")
    table = NumericProperty(0)

    def __init__(self, act: Callable[..., Result] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.act = act or (lambda *a, **k: Result())
        self.ids.oval.on_seat = self.seat_tapped
        self.ids.oval.on_layout = self._place_centre
        self.ids.idle_screen.on_tap = lambda: self.tap("free_tap")
        self.view: TableView | None = None
        self.lines = [Factory.CentreLine(font_size=0) for _ in range(CENTRE_LINES)]
        for line in self.lines:
            self.ids.centre.add_widget(line)
        self.keypad_mode: tuple[str, str] = ("", "")     # (mode, the language it speaks)
        self.keypad_ok: DealerButton | None = None
        self.keypad_split: DealerButton | None = None
        self.keypad_side: DealerButton | None = None
        self.keypad_undo: DealerButton | None = None
        self.keypad_note: Any = None
        self._keypad_for("bust")
        self.mover_cells: list[Any] = []
        self.colour_up_cells: list[Any] = []
        self.bust_buttons: dict[int, DealerButton] = {}
        self.pin_mode: tuple[bool, str] | None = None   # letters (True) or digits, language
        self.pin_names: tuple[str, ...] | None = None

    # ---------------------------------------------------------------- taps
    def tap(self, action: str, *args: Any) -> Result:
        return self.act(action, *args)

    def arm(self, action: str) -> Result:
        if self.view is not None and self.view.pending == action:
            return self.act("cancel_pending")
        return self.act("begin", action)

    def seat_tapped(self, seat: int) -> Result:
        return self.act("choose_seat", seat)

    def shot_key(self, key: int) -> Result:
        """The shot clock's two keys: TIME BANK and ACTED, then HAND DEAD and CHECKED."""
        shot = self.view.shot_clock if self.view is not None else None
        if shot is None:
            return Result()
        if shot.ruling:
            return self.act("shot_out", ("dead", "checked")[key])
        return self.act(("time_bank", "shot_stop")[key])

    def _keypad_for(self, mode: str) -> None:
        """The panel's right half: the digit keypad (busts and counts), the winner step's
        SPLIT POT (and SIDE POTS) and SKIP / OK, or the race's card order, UNDO and SEND.
        Rebuilt only when the mode changes."""
        if self.keypad_mode == (mode, language()):
            return
        pad, self.keypad_mode = self.ids.keypad, (mode, language())
        pad.clear_widgets()
        self.keypad_split = self.keypad_side = self.keypad_undo = self.keypad_note = None
        if mode in ("winner", "winner_sides", "race"):
            pad.cols = 1
            self._column_keys(mode)
            return
        key_action, ok_action = KEYPAD_ACTIONS[mode]
        pad.cols = 3
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "000", "0", "<"):
            btn = DealerButton(text=_("DEL") if key == "<" else key)
            btn.bind(on_release=lambda b, k=key: self.tap(key_action, k))
            pad.add_widget(btn)
        if mode == "bust":
            cancel = DealerButton(text=_("CANCEL"), tint=(0.45, 0.15, 0.15, 1))
            cancel.bind(on_release=lambda b: self.tap("cancel_pending"))
            pad.add_widget(cancel)
        else:
            pad.add_widget(Widget())
        pad.add_widget(Widget())
        self.keypad_ok = self._key(pad, _("OK"), ok_action, OK_TINT)

    def _column_keys(self, mode: str) -> None:
        """One column of tall keys: the winner step's, or the race's under its card order."""
        pad = self.ids.keypad
        if mode == "race":
            self.keypad_note = Factory.Big(shorten=False, color=(1, 0.85, 0.3, 1))
            pad.add_widget(self.keypad_note)
            self.keypad_undo = self._key(pad, _("UNDO"), "race_undo")
            self.keypad_ok = self._key(pad, _("SEND"), "race_send", OK_TINT)
            return
        self.keypad_split = self._key(pad, _("SPLIT POT"), "split_pot")
        if mode == "winner_sides":
            self.keypad_side = self._key(pad, _("SIDE POTS"), "side_pots")
        self.keypad_ok = self._key(pad, _("SKIP"), "bust_send", OK_TINT)

    def _key(self, pad: Any, text: str, action: str,
             tint: tuple[float, ...] | None = None) -> DealerButton:
        btn = DealerButton(text=text) if tint is None else DealerButton(text=text, tint=tint)
        btn.bind(on_release=lambda b: self.tap(action))
        pad.add_widget(btn)
        return btn

    def _place_centre(self) -> None:
        x, y, w, h = self.ids.oval.centre
        c = self.ids.centre
        c.pos, c.size = (x, y), (max(w, 0), max(h, 0))
        for line in self.lines:
            line.font_size = self.height * 0.055

    # ---------------------------------------------------------------- drawing
    def render(self, v: TableView) -> None:
        self.view = v
        self.table = v.table
        self._render_header(v)
        oval = self.ids.oval
        oval.set_count(len(v.seats))
        clocked = v.shot_clock.seat if v.shot_clock else None
        for s in v.seats:
            box = oval.seats[s.seat]
            box.show(s, (bool(v.pending) and v.pending != "bust" and s.occupied)
                     or s.seat == clocked)
            if s.seat == clocked:
                box.fill = panels.CLOCKED_FILL
        self._render_centre(v)
        panels.render(self.ids, v, self.height)
        self._render_buttons(v)
        self._render_break(v)
        self._render_movers(v)
        self._render_bust_panel(v)
        self._render_colour_up(v)
        self._render_clock_call(v)
        self._render_idle(v)
        self._render_pin(v)

    def _render_pin(self, v: TableView) -> None:
        """The PIN button under a due push (or a table without a dealer), and the pad:
        the names to pick beside the digits, or the letters for a name typed."""
        ids, pad = self.ids, v.pin_panel
        offered = v.pin_button and not v.free
        _show(ids.btn_pin, 0.12 if offered else 0)
        _show(ids.table_no, 0 if offered else 0.12)
        ids.btn_pin.disabled = not offered
        ids.pin_pad.shown = pad is not None
        if pad is None:
            return
        ids.pin_title.text = _("PIN for {name}: {pin}").format(name=pad.name or "...",
                                                              pin=pad.stars or "-")
        self._pin_keys(pad.typing)
        self._pin_names(pad)
        ids.pin_ok.disabled = not pad.ok

    def _pin_keys(self, typing: bool) -> None:
        """The digit pad beside the names, or the letter pad across the screen."""
        if self.pin_mode == (typing, language()):
            return
        self.pin_mode, keys, names = (typing, language()), self.ids.pin_keys, self.ids.pin_names
        keys.clear_widgets()
        keys.cols = 8 if typing else 3
        keys.size_hint_x = 0.98 if typing else 0.52
        _show(names, 0 if typing else 0.44)
        for key in ((*LETTERS, " ", "<", "NEXT") if typing else DIGITS):
            if not key:
                keys.add_widget(Widget())
                continue
            btn = DealerButton(text={"<": _("DEL"), " ": _("SPACE"), "NEXT": _("NEXT")}
                               .get(key, key))
            btn.bind(on_release=lambda b, k=key: self.tap("pin_key", k))
            keys.add_widget(btn)

    def _pin_names(self, pad: PinPanel) -> None:
        """A button a name the plan holds (the one picked lit), and TYPE A NAME."""
        box = self.ids.pin_names
        if self.pin_names != (*pad.names, language()):
            self.pin_names = (*pad.names, language())
            box.clear_widgets()
            for name in pad.names:
                btn = DealerButton(text=name, shorten=True)
                btn.kid = "name"              # a long name is shortened, never spills
                btn.bind(on_release=lambda b, n=name: self.tap("pin_pick", n))
                box.add_widget(btn)
            self._key(box, _("TYPE A NAME"), "pin_type")
        for btn in box.children:
            btn.armed = btn.text == pad.name and not pad.typing
            btn.font_size = self.height * 0.07       # a name reads, never fills the key

    def _render_idle(self, v: TableView) -> None:
        """A free table: the room's name, "FREE TABLE n", and what a press or a card got."""
        ids = self.ids
        ids.idle_screen.shown = v.free
        if not v.free:
            return
        ids.idle_room.text = v.room_title
        ids.idle_message.text = v.checkin or v.message
        status = offline_text(v) if v.offline else (_("Director offline")
                                                     if v.director_offline else "")
        ids.idle_status.text = v.storage or status

    def _render_header(self, v: TableView) -> None:
        ids = self.ids
        ids.level.text = " · ".join(x for x in (v.level + (" " + _("(paused)") if v.paused
                                                           else ""), v.ante) if x)
        ids.blinds.text = v.blinds or v.level
        ids.clock.text = v.clock
        ids.clock.color = (1, 0.5, 0.3, 1) if v.paused else (1, 1, 1, 1)
        ids.next_level.text = v.next_hand_note or v.next_level
        hand = _("Hand {n}").format(n=v.hand) if v.hand else ""
        ids.field.text = " · ".join(x for x in (v.section, hand, v.field_text) if x)
        ids.to_break.text = " · ".join(x for x in (v.dealer_line, v.to_break) if x)

    def _render_buttons(self, v: TableView) -> None:
        ids = self.ids
        for name in ("all_in", "bust", "absent", "clock"):
            ids[f"btn_{name}"].armed = v.pending == name
        ids.btn_new.disabled = not v.can_deal
        ids.btn_end.disabled = not v.in_hand
        ids.btn_all_in.disabled = not v.in_hand
        ids.btn_undo.disabled = not v.undo
        ids.btn_undo.text = _("UNDO") + (f"\n{v.undo}" if v.undo else "")

    def _render_break(self, v: TableView) -> None:
        ids = self.ids
        ids.break_screen.shown = v.is_break and not v.movers_title
        if v.is_break:
            ids.break_clock.text = v.clock
            ids.color_up.text = v.color_up or ""
            ids.break_next.text = v.next_level
            ids.break_moves.text = "\n".join([*v.moves, *v.arrivals])

    def _render_clock_call(self, v: TableView) -> None:
        ids, cc = self.ids, v.clock_call
        ids.clock_call.shown = cc is not None
        if cc is None:
            return
        ids.cc_title.text = _("CLOCK ON SEAT {seat}").format(seat=cc.seat)
        ids.cc_count.text = cc.text
        ids.cc_count.font_size = self.height * (0.3 if cc.text.isdigit() else 0.1)
        ids.cc_count.color = (panels.RED if cc.phase in ("countdown", "buzzer", "over")
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
        self._render_mover_nav(v)
        grid = ids.mover_grid
        while len(self.mover_cells) < 10:
            cell = Factory.MoverCell()
            cell.bind(on_release=lambda c: c.seat and not c.arrived
                      and self.tap("confirm_arrival", c.seat))
            self.mover_cells.append(cell)
            grid.add_widget(cell)
        for i, cell in enumerate(self.mover_cells):
            show_mover(cell, v.movers[i] if i < len(v.movers) else None)

    def _render_mover_nav(self, v: TableView) -> None:
        """Title with the page, PREV / NEXT for a long list, and the arrivals' HIDE."""
        ids = self.ids
        ids.movers_title.text = v.movers_title + (
            f"  ({v.movers_page + 1}/{v.movers_pages})" if v.movers_pages > 1 else "")
        ids.movers_prev.disabled = v.movers_page == 0
        ids.movers_next.disabled = v.movers_page >= v.movers_pages - 1
        for b in (ids.movers_prev, ids.movers_next):
            b.opacity = 1 if v.movers_pages > 1 else 0
        arrivals = any(m.seat for m in v.movers)
        ids.movers_hide.opacity = 1 if arrivals else 0
        ids.movers_hide.disabled = not arrivals

    def _render_bust_panel(self, v: TableView) -> None:
        """The seat-and-keypad panel: busts, who won each pot, the race, the chip count."""
        ids, panel = self.ids, v.bust_panel
        ids.bust_panel.shown = panel is not None
        if panel is None:
            return
        ids.bust_prompt.text = panel.prompt
        ids.bust_prompt.color = (1, 0.45, 0.3, 1) if panel.error else (1, 0.85, 0.3, 1)
        self._keypad_for("winner_sides" if panel.mode == "winner" and panel.sides
                         else panel.mode)
        self._panel_seats(panel)
        assert self.keypad_ok is not None
        self.keypad_ok.text = _(panel.ok_text)
        self.keypad_ok.disabled = not panel.ok
        self._render_column(panel)

    def _panel_seats(self, panel: BustPanel) -> None:
        grid = self.ids.bust_seats
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
            btn.disabled = n in panel.blocked

    def _render_column(self, panel: BustPanel) -> None:
        """The tall keys of the winner step and the race: a size that reads, not fills."""
        keys = [k for k in (self.keypad_note, self.keypad_split, self.keypad_side,
                            self.keypad_undo, self.keypad_ok) if k is not None]
        if self.keypad_split is not None:
            self.keypad_split.armed = panel.split
        if self.keypad_side is not None:
            self.keypad_side.armed = panel.side
        if self.keypad_undo is not None:
            self.keypad_undo.disabled = not panel.can_undo
        if self.keypad_note is not None:
            note = self.keypad_note
            note.text, note.font_size = panel.note, self.height * 0.055
        if len(keys) > 1:
            for key in keys:
                if key is not self.keypad_note:
                    key.font_size = self.height * (0.08 if len(keys) < 3 else 0.065)

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


def _show(w: Widget, share: float) -> None:
    """`w` takes this share of its parent's width, or none at all (hidden)."""
    w.size_hint_x = share or None
    if not share:
        w.width = 0
    w.opacity = 1 if share else 0


Builder.load_file(str(KV))


class TableApp(App):
    """The kiosk app: a service, its devices, and a 10 Hz refresh."""

    title = "poker-kiosk table"

    def __init__(self, service: Any, devices: list[Any] | None = None, *,
                 log_touches: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.service, self.devices = service, devices or []
        self.log_touches = log_touches
        self.screen: TableScreen | None = None
        self._notifier: Any = None
        self._last_ping = 0.0
        self._screen_line = ""

    def load_kv(self, filename: str | None = None) -> bool:
        """table.kv is loaded once at import; Kivy's name-based autoload would load it twice."""
        return True

    def build(self) -> TableScreen:
        self.screen = TableScreen(act=self.service.act)
        if self.log_touches:
            from kivy.core.window import Window  # the window exists once the app runs
            Window.bind(on_touch_down=log_touch)
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
        view = self.service.tick()
        self.screen.render(view)
        if self.log_touches and (line := view.screen_line()) != self._screen_line:
            # logged in this frame's clock tick; its layout runs before the next frame
            # reads input, so a touch sent on seeing this line meets this screen
            self._screen_line = line
            log.info("screen: %s", line)
        for dev in self.devices:
            if hasattr(dev, "sync"):
                dev.sync()
        now = time.monotonic()
        if self._notifier is not None and now - self._last_ping > WATCHDOG_S:
            self._last_ping = now
            self._notifier.watchdog()


def log_touch(window: Any, touch: Any) -> bool:
    """`[ui] log_touches`: where a finger landed and which input device brought it (a
    probesysfs device is named for its /dev/input node), in screen pixels from the top
    left, so an installer sees a panel's taps arrive once each and in the right place."""
    log.info("touch: %s at %d,%d", touch.device, round(touch.x),
             round(window.height - touch.y))
    return False


def run_ui(cfg: TableConfig, config: str | None = None) -> int:
    """Run the kiosk with its screen (blocks until the window closes); the caller has
    run `env.prepare` before Kivy was first imported. With an update.toml beside
    `config`, the updater runs too; its switch closes the app and exits with RESTART."""
    from kiosk.releases.ab import RESTART
    from kiosk.table.hardware.devices import start_devices
    from kiosk.table.service import TableService
    from kiosk.table.updater import start_updater
    service = TableService(cfg)
    app = TableApp(service, start_devices(service, gpio=True), log_touches=cfg.log_touches)
    updater = start_updater(service, config, on_switch=lambda: Clock.schedule_once(
        lambda _dt: app.stop())) if config else None
    if updater is not None:
        updater.start()
    app.run()
    if updater is not None:
        updater.stop()
    return RESTART if updater is not None and updater.switched else 0
