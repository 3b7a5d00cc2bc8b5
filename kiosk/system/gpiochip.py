"""The GPIO chips this machine has, by label: whether the header's buttons can be wired.

gpiozero, asked for a pin on a machine whose header chip it cannot find, fails in one of
several ways depending on the pin factory; the kiosk and the doctor look first and say
what they found instead. The header's lines belong to the SoC's pin controller: labelled
`pinctrl-bcm2835` (Pi 1 to 3), `pinctrl-bcm2711` (Pi 4, 400, CM4) or `pinctrl-rp1`
(Pi 5, on the RP1 south bridge). Other chips (the firmware's expander, a display's
GPIOs, `gpio-mockup` on a PC) carry no buttons.
"""

from __future__ import annotations

import fcntl
import os
import struct
from dataclasses import dataclass
from pathlib import Path

HEADER_LABELS = ("pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1")
# linux/gpio.h: struct gpiochip_info { char name[32]; char label[32]; __u32 lines; }
CHIPINFO = struct.Struct("32s32sI")
GPIO_GET_CHIPINFO_IOCTL = (2 << 30) | (CHIPINFO.size << 16) | (0xB4 << 8) | 0x01


@dataclass(frozen=True)
class Chip:
    path: str                # /dev/gpiochip4
    label: str               # pinctrl-rp1, or "" when it could not be read

    @property
    def header(self) -> bool:
        return self.label in HEADER_LABELS


def _label(root: Path, name: str) -> str:
    """The chip's label: sysfs when it has one, else the character device's ioctl."""
    for sysfs in (root / "sys/bus/gpio/devices" / name / "label",
                  root / "sys/class/gpio" / name / "label"):
        try:
            return sysfs.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            pass
    try:
        fd = os.open(root / "dev" / name, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        raw = fcntl.ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, bytes(CHIPINFO.size))
        return CHIPINFO.unpack(raw)[1].split(b"\0")[0].decode("ascii", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def chips(root: Path = Path("/")) -> list[Chip]:
    """Every /dev/gpiochip* under `root` with its label, by number."""
    found = [p for p in (root / "dev").glob("gpiochip*") if p.name[8:].isdigit()]
    return [Chip(f"/dev/{p.name}", _label(root, p.name))
            for p in sorted(found, key=lambda p: int(p.name[8:]))]


def header_chip(root: Path = Path("/")) -> tuple[Chip | None, list[Chip]]:
    """The chip with the header's lines (None without one), and all chips seen."""
    seen = chips(root)
    return next((c for c in seen if c.header), None), seen


def describe(seen: list[Chip]) -> str:
    """What was found, for a log line: `/dev/gpiochip0 (gpio-mockup-A)`, or `none`."""
    return ", ".join(f"{c.path} ({c.label or 'no label'})" for c in seen) or "none"


def no_chip_line(seen: list[Chip]) -> str:
    """The one line the kiosk logs and the doctor shows when there is no header chip."""
    return (f"buttons: no GPIO chip with the header's lines ({', '.join(HEADER_LABELS)}); "
            f"found: {describe(seen)}")
