"""The table's Kivy config takes each touch panel a table may have, once: never none (a
dead screen) and never two providers (every tap twice). The doctor says which device it
would take, or the names it saw when it takes none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import fake_sysfs

from kiosk.appliance import checks, touch

SHIPPED = Path(__file__).parents[2] / "firmware_cfg" / "kivy_config.ini"

# The names the kernel gives each panel's input device (/sys/class/input/eventN/device/name),
# with whether it reports multitouch (ABS_MT_POSITION_X), and where the name comes from.
PANELS = {
    # Pi 7" display on the firmware driver: drivers/input/touchscreen/raspberrypi-ts.c,
    # `input->name = "raspberrypi-ts";` (mainline Linux)
    "raspberrypi-ts": True,
    # Pi 7" display on the KMS overlay (vc4-kms-dsi-7inch): edt-ft5x06.c names a panel it
    # does not know "generic ft5x06 (%02x)" by its model byte: "(79)" as this display
    # reports itself
    "generic ft5x06 (79)": True,
    # Pi Touch Display 2: a Goodix GT911 (Raspberry Pi's specifications page); goodix.c,
    # `ts->input_dev->name = "Goodix Capacitive TouchScreen";`
    "Goodix Capacitive TouchScreen": True,
    # eGalax resistive USB panels: the USB product string, as usbtouchscreen/touchkitusb
    # register it (`input: eGalax Inc. USB TouchController` in dmesg, xinput_calibrator)
    "eGalax Inc. USB TouchController": False,
    # ILITEK USB HDMI panels: the USB product string under hid-multitouch, 10 points
    # (`ILITEK ILITEK-TP` in xinput list and labwc's touch deviceName)
    "ILITEK ILITEK-TP": True,
}


def test_each_known_panel_is_taken_by_exactly_one_provider_line() -> None:
    lines = touch.probes(SHIPPED)
    for name, multitouch in PANELS.items():
        dev = touch.InputDevice("event0", name, multitouch)
        takers = [p for p in lines if p.takes(dev)]
        assert len(takers) == 1, (name, [p.key for p in takers])
        # protocol-B panels need libmtdev; hidinput reads only the single-touch one
        assert takers[0].provider == ("mtdev" if multitouch else "hidinput"), name


def test_kivy_reads_the_same_provider_lines(tmp_path: Path) -> None:
    """Kivy's own parser sees the lines the rule above was applied to."""
    from kivy.config import ConfigParser

    cp = ConfigParser(name="touch-test")
    cp.read(str(SHIPPED))
    kivy_lines = {k: v for k, v in cp.items("input") if v.startswith("probesysfs,")}
    assert sorted(kivy_lines) == sorted(p.key for p in touch.probes(SHIPPED))
    single = next(v for v in kivy_lines.values() if "provider=hidinput" in v)
    assert "param=invert_y=0" in single.split(","), "a tap lands where the finger is"


def test_doctor_names_the_panel_it_takes(tmp_path: Path) -> None:
    root = fake_sysfs.table_pi(tmp_path)
    assert checks.touch(SHIPPED, root).line() == \
        "OK   touch: 'raspberrypi-ts' (/dev/input/event0) by mtdev"
    fake_sysfs.input_device(root, 2, "eGalax Inc. USB TouchController", multitouch=False)
    assert checks.touch(SHIPPED, root).message == (
        "'raspberrypi-ts' (/dev/input/event0) by mtdev; "
        "'eGalax Inc. USB TouchController' (/dev/input/event2) by hidinput")


def test_doctor_says_why_no_panel_is_taken(tmp_path: Path) -> None:
    fake_sysfs.keyboard(tmp_path, 0, "vc4-hdmi-0")
    fake_sysfs.keyboard(tmp_path, 1, "Logitech USB Keyboard")
    # a touch panel's name, but no multitouch: the mtdev line's select_all=0 skips it
    fake_sysfs.input_device(tmp_path, 2, "Some Touchscreen", multitouch=False)
    found = checks.touch(SHIPPED, tmp_path)
    assert found.failed
    assert found.message == (
        "no panel matches kivy_config.ini's providers: names seen: 'vc4-hdmi-0', "
        "'Logitech USB Keyboard', 'Some Touchscreen'")
    assert "kivy_config.ini" in found.fix
    # a windowed kiosk (a PC, the try-out) is tapped with the mouse: said, not failed
    windowed = checks.touch(SHIPPED, tmp_path, windowed=True)
    assert windowed.status == "WARN" and not windowed.failed
    assert windowed.message.startswith("no panel matches") and "mouse" in windowed.message


def test_kivy_itself_gives_each_panel_one_provider(tmp_path: Path) -> None:
    """Kivy's probesysfs, run over a /sys holding all five panels and a keyboard, makes
    one provider per panel, of the kind its protocol needs, and none for the keyboard."""
    for n, (name, multitouch) in enumerate(PANELS.items()):
        fake_sysfs.input_device(tmp_path, n, name, multitouch)
    fake_sysfs.keyboard(tmp_path, 9, "Logitech USB Keyboard")
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "KIVY_NO_FILELOG": "1", "KIVY_HOME": str(tmp_path / "kivy"),
           "SDL_VIDEODRIVER": "offscreen"}
    probe = Path(__file__).parents[1] / "kivy_probe.py"
    done = subprocess.run([sys.executable, str(probe), str(SHIPPED), str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    made = [p for p in json.loads(done.stdout.splitlines()[-1]) if p["input"]]
    by_node = {p["input"]: p for p in made}
    assert len(by_node) == len(made) == len(PANELS), made      # one each, never two
    for n, (name, multitouch) in enumerate(PANELS.items()):
        got = by_node[f"/dev/input/event{n}"]
        if multitouch:
            assert got["provider"] == "MTDMotionEventProvider", name
        else:
            assert got["provider"] == "HIDInputMotionEventProvider", name
            assert got["ranges"]["invert_y"] == 0


def test_doctor_fails_a_panel_two_lines_would_take(tmp_path: Path) -> None:
    """A local edit that lets both lines take one panel: each tap would land twice."""
    edited = tmp_path / "config.ini"
    edited.write_text(SHIPPED.read_text().replace("match=egalax", "match=.*(egalax|goodix)"))
    fake_sysfs.input_device(tmp_path, 0, "Goodix Capacitive TouchScreen")
    found = checks.touch(edited, tmp_path)
    assert found.failed
    assert found.message == (
        "'Goodix Capacitive TouchScreen' (/dev/input/event0) is taken by 2 lines "
        "(%(name)s, usbtouch_%(name)s): every tap would arrive twice")
