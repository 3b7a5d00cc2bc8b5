"""GPIO is said, not guessed: the kiosk looks for the chip with the header's lines before
it wires the buttons. Without one it says so once, with what it found, and the dealer
keeps dealing by touch; with one, the buttons work (gpiozero's mock pins)."""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path

import fake_sysfs
import pytest
from table_helpers import T0, plan, schedule, table_config
from waiting import wait_for

from kiosk.appliance import checks
from kiosk.system import gpiochip
from kiosk.table.hardware.devices import start_devices
from kiosk.table.hardware.gpio import TableGpio
from kiosk.table.service import TableService


def kiosk(tmp_path: Path) -> TableService:
    svc = TableService(table_config(str(tmp_path / "state"), 1), now=lambda: T0 + 60,
                       rng=random.Random(2), connect=False, debounce_s=0)
    svc._on_message("schedule", schedule())
    svc._on_message("plan", plan(rev=1))
    return svc


def test_without_the_header_chip_the_kiosk_says_so_once_and_deals_by_touch(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    pc = tmp_path / "pc"
    fake_sysfs.gpio_chip(pc, 0, "gpio-mockup-A")       # a PC: a chip, not the header's
    svc = kiosk(tmp_path)
    try:
        with caplog.at_level(logging.WARNING, "kiosk.table.hardware.devices"):
            assert start_devices(svc, gpio=True, root=pc) == []
            assert start_devices(svc, gpio=True, root=pc) == []   # a second start
        said = [r.getMessage() for r in caplog.records if "buttons:" in r.getMessage()]
        assert said == ["table 3: buttons: no GPIO chip with the header's lines "
                        "(pinctrl-bcm2835, pinctrl-bcm2711, pinctrl-rp1); found: "
                        "/dev/gpiochip0 (gpio-mockup-A); dealing by touch only"]
        started = svc.act("new_hand")                     # the touch screen still deals
        assert not started.refused and started.report is not None
    finally:
        svc.stop()
    # the doctor shows the same finding
    line = checks.buttons(table_config(str(tmp_path), 1).gpio, pc).line()
    assert line.startswith("WARN buttons: no GPIO chip with the header's lines")
    assert "found: /dev/gpiochip0 (gpio-mockup-A)" in line


def test_with_the_header_chip_the_buttons_are_wired(tmp_path: Path, mock_pins,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    pi5 = tmp_path / "pi5"
    fake_sysfs.gpio_chip(pi5, 0, "gpio-brcmstb@107d508500")
    fake_sysfs.gpio_chip(pi5, 4, "pinctrl-rp1")
    chip, seen = gpiochip.header_chip(pi5)
    assert chip == gpiochip.Chip("/dev/gpiochip4", "pinctrl-rp1") and len(seen) == 2
    svc = kiosk(tmp_path)
    devices = start_devices(svc, gpio=True, root=pi5)
    try:
        assert [type(d) for d in devices] == [TableGpio]
        floor = mock_pins.pin(svc.cfg.gpio.floor)
        floor.drive_low()
        time.sleep(0.05)                              # a press this long: the behaviour
        floor.drive_high()
        wait_for(lambda: svc.view().floor_state == "open")   # the FLOOR button raised a call
    finally:
        for d in devices:
            d.close()
        svc.stop()


def test_a_chip_without_sysfs_label_is_asked_through_its_device(tmp_path: Path) -> None:
    """No label file: the character device is asked (GPIO_GET_CHIPINFO_IOCTL); a plain
    file answers nothing, so the chip is listed without a label, never taken."""
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "gpiochip0").touch()
    assert gpiochip.chips(tmp_path) == [gpiochip.Chip("/dev/gpiochip0", "")]
    assert gpiochip.header_chip(tmp_path)[0] is None
    assert gpiochip.describe(gpiochip.chips(tmp_path)) == "/dev/gpiochip0 (no label)"
