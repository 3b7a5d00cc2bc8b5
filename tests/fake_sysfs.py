"""A machine's /sys and /dev as files under a test's folder: input devices with the name
and `capabilities/abs` the kernel gives them, GPIO chips with their labels."""

from __future__ import annotations

from pathlib import Path

# capabilities/abs of a 64-bit kernel's multitouch panel: ABS_X, ABS_Y, ABS_MT_SLOT,
# ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID (raspberrypi-ts, goodix report these)
MULTITOUCH_ABS = "260800000000003"
SINGLE_TOUCH_ABS = "3"                  # ABS_X and ABS_Y only (usbtouchscreen)


def input_device(root: Path, n: int, name: str, multitouch: bool = True) -> None:
    dev = root / "sys/class/input" / f"event{n}" / "device"
    (dev / "capabilities").mkdir(parents=True)
    (dev / "name").write_text(name + "\n")
    (dev / "capabilities" / "abs").write_text(
        (MULTITOUCH_ABS if multitouch else SINGLE_TOUCH_ABS) + "\n")


def keyboard(root: Path, n: int, name: str) -> None:
    dev = root / "sys/class/input" / f"event{n}" / "device"
    (dev / "capabilities").mkdir(parents=True)
    (dev / "name").write_text(name + "\n")
    (dev / "capabilities" / "abs").write_text("0\n")


def gpio_chip(root: Path, n: int, label: str) -> None:
    (root / "dev").mkdir(parents=True, exist_ok=True)
    (root / "dev" / f"gpiochip{n}").touch()
    sysfs = root / "sys/bus/gpio/devices" / f"gpiochip{n}"
    sysfs.mkdir(parents=True)
    (sysfs / "label").write_text(label + "\n")


def table_pi(root: Path) -> Path:
    """A Pi 4 at a table: the 7-inch display's panel, a keyboard, the SoC's chip and the
    firmware's expander."""
    input_device(root, 0, "raspberrypi-ts")
    keyboard(root, 1, "Logitech USB Keyboard")
    gpio_chip(root, 0, "pinctrl-bcm2711")
    gpio_chip(root, 1, "raspberrypi-exp-gpio")
    return root
