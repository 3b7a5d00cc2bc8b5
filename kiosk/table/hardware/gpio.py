"""GPIO adapter (gpiozero): three buttons in, two LEDs and a buzzer out.

Thin on purpose: edges become controller actions, controller state becomes outputs.
A press acts on release, so a press held for `hold_to_cancel_s` can cancel the
pending call instead of raising a new one.
"""

from __future__ import annotations

import logging
import threading

from gpiozero import LED, Button, Buzzer

from kiosk.config.files import GpioConfig
from kiosk.table.service import TableService

log = logging.getLogger(__name__)

BEEP_S = 0.15   # each beep of a shot clock's last seconds
# button -> (action on a short press, action on a hold)
ACTIONS = {"allin": ("press_allin", "hold_allin"), "clock": ("press_clock", "hold_clock"),
           "floor": ("press_floor", "hold_floor")}


class TableGpio:
    """Wires one table's buttons and outputs to its service."""

    def __init__(self, service: TableService, cfg: GpioConfig) -> None:
        self.service = service
        self.buttons: dict[str, Button] = {}
        self._held: dict[str, bool] = {}
        self._lock = threading.Lock()
        for name in ACTIONS:
            btn = Button(getattr(cfg, name), pull_up=True, bounce_time=cfg.bounce_s or None,
                         hold_time=cfg.hold_to_cancel_s)
            btn.when_pressed = lambda n=name: self._pressed(n)
            btn.when_held = lambda n=name: self._hold(n)
            btn.when_released = lambda n=name: self._released(n)
            self.buttons[name] = btn
        self.floor_led = LED(cfg.floor_led)
        self.clock_led = LED(cfg.clock_led)
        self.buzzer = Buzzer(cfg.buzzer)
        self._out: tuple[str, str, str] | None = None   # floor light, clock light, buzzer
        service.listeners.append(self.sync)

    def close(self) -> None:
        if self.sync in self.service.listeners:
            self.service.listeners.remove(self.sync)
        for dev in (*self.buttons.values(), self.floor_led, self.clock_led, self.buzzer):
            dev.close()

    # ---------------------------------------------------------------- inputs
    def _pressed(self, name: str) -> None:
        self._held[name] = False

    def _hold(self, name: str) -> None:
        self._held[name] = True
        res = self.service.act(ACTIONS[name][1])
        log.info("%s held: %s", name.upper(), res.message)
        self.sync()

    def _released(self, name: str) -> None:
        if self._held.pop(name, False):
            return
        res = self.service.act(ACTIONS[name][0])
        log.info("%s pressed: %s", name.upper(), res.message)
        self.sync()

    # ---------------------------------------------------------------- outputs
    def sync(self) -> None:
        """Drive the LEDs and buzzer from the controller (called after every change)."""
        ctl, t = self.service.ctl, self.service.now()
        floor = ctl.floor.call.state if ctl.floor.call else ""
        call, shot = ctl.clock.call, ctl.shot.current(t)
        phase = call.phase(t) if call else shot.phase(t) if shot else ""
        clock = "blink" if phase == "countdown" else "on" if phase else ""
        state = (floor, clock, ctl.sound(t))
        with self._lock:
            if state == self._out:
                return
            self._out = state
            if floor == "open":
                self.floor_led.on()
            elif floor == "acked":
                self.floor_led.blink(on_time=0.5, off_time=0.5)
            else:
                self.floor_led.off()
            if clock == "blink":
                self.clock_led.blink(on_time=0.25, off_time=0.25)
            elif clock == "on":
                self.clock_led.on()
            else:
                self.clock_led.off()
            if state[2] == "on":
                self.buzzer.on()
            elif state[2] == "beep":   # a shot clock's last seconds: a short beep a second
                self.buzzer.beep(on_time=BEEP_S, off_time=1 - BEEP_S)
            else:
                self.buzzer.off()
