"""GPIO through gpiozero's mock pins, with reports carried by a real Mosquitto."""

from __future__ import annotations

import random
import time

from table_helpers import plan, schedule, table_config
from waiting import holds, wait_for

from kiosk.protocol.topics import Topics
from kiosk.table.hardware.gpio import TableGpio
from kiosk.table.service import TableService

TOPICS = Topics("test")


def press(pin, seconds: float = 0.05) -> None:
    pin.drive_low()        # pull-up button: pressed pulls the pin low
    time.sleep(seconds)    # held this long: the press under test, not a wait
    pin.drive_high()


def blinks(pin) -> bool:
    """The output seen both on and off (blinking, beeping), however late its thread runs."""
    seen: set[bool] = set()
    return bool(wait_for(lambda: seen.add(bool(pin.state)) or len(seen) == 2, step=0.02))


def test_floor_button_reaches_the_broker_and_drives_the_light(broker, observer, mock_pins,
                                                              tmp_path) -> None:
    cfg = table_config(str(tmp_path), broker.port)
    sub = observer(TOPICS.report(3))
    sub.publish(TOPICS.schedule("test"), schedule(), retain=True)
    sub.publish(TOPICS.plan(3), plan(rev=1), retain=True)
    svc = TableService(cfg, rng=random.Random(1))
    gpio = TableGpio(svc, cfg.gpio)
    svc.start()
    try:
        assert svc.link.wait_connected(10)
        wait_for(lambda: svc.ctl.plan["rev"] == 1)
        floor, led = mock_pins.pin(cfg.gpio.floor), mock_pins.pin(cfg.gpio.floor_led)
        assert led.state is False

        press(floor)
        (rep,) = wait_for(lambda: sub.on(TOPICS.report(3)))
        assert rep["kind"] == "floor_call" and rep["table"] == 3
        assert led.state is True                        # light on while the call is open

        sub.publish(TOPICS.plan(3), plan(rev=2, floor_calls={
            rep["id"]: {"state": "acked", "since": rep["ts"], "note": ""}}), retain=True)
        wait_for(lambda: svc.ctl.floor.call.state == "acked")
        assert blinks(led)                              # blinking once acknowledged

        sub.publish(TOPICS.plan(3), plan(rev=3, floor_calls={
            rep["id"]: {"state": "resolved", "since": rep["ts"], "note": "ruled"}}), retain=True)
        wait_for(lambda: svc.ctl.floor.call.state == "resolved" and led.state is False)
        holds(lambda: not led.state, 0.6, "the light came back on")   # and stays off
    finally:
        gpio.close()
        svc.stop()


def test_held_floor_press_cancels_instead_of_calling(broker, observer, mock_pins,
                                                     tmp_path) -> None:
    cfg = table_config(str(tmp_path), broker.port)
    sub = observer(TOPICS.report(3))
    svc = TableService(cfg, rng=random.Random(2))
    gpio = TableGpio(svc, cfg.gpio)
    svc.start()
    try:
        assert svc.link.wait_connected(10)
        floor, led = mock_pins.pin(cfg.gpio.floor), mock_pins.pin(cfg.gpio.floor_led)
        press(floor)
        wait_for(lambda: led.state is True)
        time.sleep(0.9)                                  # past the double-press window
        press(floor, cfg.gpio.hold_to_cancel_s + 0.3)    # held: cancel, do not raise
        kinds = wait_for(lambda: [m["kind"] for m in sub.on(TOPICS.report(3))]
                         if len(sub.on(TOPICS.report(3))) >= 2 else None)
        assert kinds == ["floor_call", "floor_cancel"]
        cancel = sub.on(TOPICS.report(3))[1]
        assert cancel["data"]["call"] == sub.on(TOPICS.report(3))[0]["id"]
        assert led.state is False and svc.ctl.floor.call is None
        holds(lambda: len(sub.on(TOPICS.report(3))) == 2, 0.3, "the release raised a call")
    finally:
        gpio.close()
        svc.stop()


def test_allin_button_then_seat_tap_and_clock_buzzer(broker, observer, mock_pins,
                                                     tmp_path) -> None:
    cfg = table_config(str(tmp_path), broker.port)
    sub = observer(TOPICS.report(3))
    now = [time.time()]
    svc = TableService(cfg, rng=random.Random(3), now=lambda: now[0])
    svc.ctl.directions.apply_schedule(schedule("sheridans", anchor=now[0]))
    svc.ctl.apply_plan(plan(rev=1), now[0])
    gpio = TableGpio(svc, cfg.gpio)
    svc.start()
    try:
        assert svc.link.wait_connected(10)
        svc.act("new_hand")
        press(mock_pins.pin(cfg.gpio.allin))
        assert svc.view().prompt == "ALL-IN: tap the seat"
        svc.act("choose_seat", 5)
        press(mock_pins.pin(cfg.gpio.clock))             # Sheridan's: players cannot call it
        assert svc.view().message.startswith("Only the dealer calls the clock")
        svc.act("call_clock", 2)
        gpio.sync()
        assert mock_pins.pin(cfg.gpio.clock_led).state is True
        now[0] += 30.5                                   # 30 s, no final count: buzzer
        gpio.sync()
        assert mock_pins.pin(cfg.gpio.buzzer).state is True
        kinds = wait_for(lambda: [m["kind"] for m in sub.on(TOPICS.report(3))]
                         if len(sub.on(TOPICS.report(3))) >= 3 else None)
        assert kinds == ["hand_started", "all_in", "clock_call"]
    finally:
        gpio.close()
        svc.stop()


def test_clock_button_runs_the_shot_clock_and_the_buzzer_beeps_its_last_seconds(
        broker, mock_pins, tmp_path) -> None:
    """Under a shot clock (TDA RP-19) CLOCK starts it on the next player in turn; the
    last five seconds beep, time up sounds the buzzer, and a long press stops it."""
    cfg = table_config(str(tmp_path), broker.port)
    now = [time.time()]
    svc = TableService(cfg, rng=random.Random(4), now=lambda: now[0])
    svc.ctl.directions.apply_schedule(schedule(anchor=now[0]))
    svc.ctl.apply_plan(plan(rev=1, shot_clock={"seconds": 30, "applies": "event",
                                               "from_level": 1, "bank_seconds": 30,
                                               "bank_cards": 0}), now[0])
    gpio = TableGpio(svc, cfg.gpio)
    svc.start()
    clock, led = mock_pins.pin(cfg.gpio.clock), mock_pins.pin(cfg.gpio.clock_led)
    buzzer = mock_pins.pin(cfg.gpio.buzzer)
    try:
        assert svc.link.wait_connected(10)
        svc.act("new_hand")
        press(clock)
        run = wait_for(lambda: svc.ctl.shot.current(now[0]))
        assert svc.view().shot_clock.seat == run.seat and led.state is True
        holds(lambda: not buzzer.state, 0.4, "the buzzer sounded early")
        now[0] += 27                                    # the last seconds: it beeps
        gpio.sync()
        assert blinks(buzzer)
        now[0] += 4                                     # time up: the buzzer sounds
        gpio.sync()
        holds(lambda: buzzer.state, 0.5, "the buzzer stopped")
        time.sleep(0.9)                                 # past the double-press window
        press(clock, cfg.gpio.hold_to_cancel_s + 0.3)   # held: the player acted, stop
        wait_for(lambda: svc.ctl.shot.current(now[0]) is None)
        gpio.sync()
        assert buzzer.state is False and led.state is False
    finally:
        gpio.close()
        svc.stop()
