"""Kivy's own probesysfs run over a /sys of files: `python kivy_probe.py CONFIG ROOT`
prints, as JSON, each provider it creates (the device, the provider, its arguments).

Run as a child process: importing kivy.base opens a window, which a test process with
other Kivy tests must not share. The probe's only outside reads are redirected: the
input folder (/sys/class/input under ROOT) and xinput (absent); the providers it makes
are recorded instead of started."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(config: str, root: str) -> None:
    from kivy.base import EventLoop
    from kivy.config import ConfigParser
    from kivy.input.providers import probesysfs

    made: list[dict[str, object]] = []
    probesysfs._cache_xinput = []
    real = probesysfs.get_inputs
    probesysfs.get_inputs = lambda _path: real(str(Path(root) / "sys/class/input"))
    EventLoop.add_input_provider = lambda p, auto_remove=False: made.append(
        {"device": p.device, "provider": type(p).__name__,
         "input": getattr(p, "input_fn", None), "ranges": getattr(p, "default_ranges", {})})
    cp = ConfigParser(name="probe")
    cp.read(config)
    for key, value in cp.items("input"):
        provider_id, _, args = str(value).partition(",")
        if provider_id == "probesysfs":
            probesysfs.ProbeSysfsHardwareProbe(key, args)
    print(json.dumps(made))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
