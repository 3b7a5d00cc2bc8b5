"""Which input devices the table's Kivy config gives a touch provider, by Kivy's own rule.

Kivy's probesysfs (kivy/input/providers/probesysfs.py, Kivy 2.3) lists
/sys/class/input/event*, keeps only those reporting ABS_MT_POSITION_X unless
`select_all=1`, then keeps a device when `match` matches its name: from the name's start,
any case (`re.match(match, name, IGNORECASE)`) with `use_regex=1`, as a plain substring
otherwise. The doctor applies the same rule to the same file, so "the screen ignores my
finger" gets a line that says which panel was seen and why it was not taken.
"""

from __future__ import annotations

import configparser
import ctypes
import re
from dataclasses import dataclass
from pathlib import Path

ABS_MT_POSITION_X = 0x35            # linux/input-event-codes.h
LONG_BITS = ctypes.sizeof(ctypes.c_long) * 8
INSTALLED = Path("/var/lib/pokerkiosk/kivy/config.ini")     # KIVY_HOME in the table unit
SHIPPED = Path(__file__).resolve().parents[2] / "firmware_cfg" / "kivy_config.ini"


@dataclass(frozen=True)
class Probe:
    """One `probesysfs` line of `[input]`."""

    key: str
    provider: str = "mtdev"             # probesysfs's own default
    match: str | None = None
    use_regex: bool = False
    select_all: bool = False            # Kivy's default off a Pi (on one: on); our
                                        # config always says it

    def takes_name(self, name: str) -> bool:
        """Whether this line's `match` keeps a device called `name` (Kivy's test)."""
        if self.match is None:
            return True
        if self.use_regex:
            return re.match(self.match, name, re.IGNORECASE) is not None
        return self.match in name

    def takes(self, dev: InputDevice) -> bool:
        """Kivy's whole test: the capability filter, then the name."""
        return (self.select_all or dev.multitouch) and self.takes_name(dev.name)


@dataclass(frozen=True)
class InputDevice:
    node: str                           # event3
    name: str
    multitouch: bool                    # reports ABS_MT_POSITION_X


def probes(config: Path) -> list[Probe]:
    """The `probesysfs` lines of a Kivy config's `[input]`, in file order."""
    parser = configparser.RawConfigParser(inline_comment_prefixes=None)
    parser.read_string(config.read_text(encoding="utf-8"))
    out = []
    for key, value in parser.items("input") if parser.has_section("input") else []:
        provider_id, _, args = value.partition(",")
        if provider_id.strip() != "probesysfs":
            continue
        kw: dict[str, str] = {}
        for arg in args.split(","):
            k, sep, v = arg.partition("=")
            if sep and k not in kw:
                kw[k.strip()] = v
        out.append(Probe(key=key, provider=kw.get("provider", "mtdev"), match=kw.get("match"),
                         use_regex=kw.get("use_regex", "0") == "1",
                         select_all=kw.get("select_all", "0") == "1"))
    return out


def _multitouch(abs_caps: str) -> bool:
    """The ABS_MT_POSITION_X bit of a sysfs `capabilities/abs` line (words of one C long,
    most significant first)."""
    value = 0
    for word in abs_caps.split():
        value = (value << LONG_BITS) | int(word, 16)
    return bool(value >> ABS_MT_POSITION_X & 1)


def devices(root: Path = Path("/")) -> list[InputDevice]:
    """The event devices under `root`/sys/class/input, as probesysfs reads them."""
    out = []
    for ev in sorted((root / "sys/class/input").glob("event*"),
                     key=lambda p: int(p.name[5:]) if p.name[5:].isdigit() else 0):
        try:
            name = (ev / "device" / "name").read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError, UnicodeDecodeError):
            continue
        try:
            caps = (ev / "device" / "capabilities" / "abs").read_text().strip()
            mt = _multitouch(caps)
        except (OSError, ValueError):
            mt = False
        out.append(InputDevice(ev.name, name, mt))
    return out


def taken(config: Path, root: Path = Path("/")) -> tuple[
        list[tuple[InputDevice, list[Probe]]], list[InputDevice]]:
    """Each device some line takes (with every line that takes it: Kivy makes a provider
    for each), and every device seen."""
    lines = probes(config)
    seen = devices(root)
    pairs = [(dev, [p for p in lines if p.takes(dev)]) for dev in seen]
    return [(dev, ps) for dev, ps in pairs if ps], seen


def summary(config: Path, root: Path = Path("/")) -> tuple[bool, str]:
    """(one provider for each panel taken, the doctor's sentence)."""
    try:
        pairs, seen = taken(config, root)
    except (OSError, configparser.Error) as exc:
        return False, f"cannot read {config}: {str(exc).splitlines()[0]}"
    twice = [(d, ps) for d, ps in pairs if len(ps) > 1]
    if twice:
        return False, "; ".join(f"{d.name!r} (/dev/input/{d.node}) is taken by "
                                f"{len(ps)} lines ({', '.join(p.key for p in ps)}): "
                                "every tap would arrive twice" for d, ps in twice)
    if pairs:
        return True, "; ".join(f"{d.name!r} (/dev/input/{d.node}) by {ps[0].provider}"
                               for d, ps in pairs)
    names = ", ".join(repr(d.name) for d in seen) or "none"
    return False, f"no panel matches {config.name}'s providers: names seen: {names}"
