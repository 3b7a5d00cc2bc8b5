"""A table kiosk without a screen: the same service, dealer commands on standard input.

`pokerkiosk table --headless` runs it (tests, the simulator, a bench, a PC): one command
per line: new, end, allin N, bust N [stack], absent N, present N, clock N, done OUTCOME,
floor, cancel-floor, card ID, undo, view, quit. Each answer is one JSON line.
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from dataclasses import asdict
from typing import Any

from kiosk.config.files import TableConfig
from kiosk.releases.ab import RESTART
from kiosk.system.sdnotify import Notifier
from kiosk.table.hardware.devices import start_devices
from kiosk.table.service import TableService
from kiosk.table.updater import start_updater

log = logging.getLogger(__name__)

TICK_S = 0.2
COMMANDS: dict[str, tuple[str, tuple[type, ...]]] = {
    "new": ("new_hand", ()), "end": ("end_hand", ()), "allin": ("all_in", (int,)),
    "bust": ("bust", (int, int)), "absent": ("set_absent", (int,)),
    "clock": ("call_clock", (int,)), "done": ("clock_done", (str,)),
    "floor": ("press_floor", ()), "cancel-floor": ("hold_floor", ()),
    "card": ("card", (str,)), "undo": ("undo", ()),
    "pin": ("dealer_pin", (str, str)),      # a dealer's name and PIN, for the director
}


def run_headless(cfg: TableConfig, config_path: str, gpio: bool = False) -> int:
    """Serve until `quit` or SIGTERM; RESTART when an update switched versions."""
    service = TableService(cfg)
    extras = start_devices(service, gpio=gpio)
    stop = threading.Event()
    updater = start_updater(service, config_path, on_switch=stop.set)
    service.start()
    if updater is not None:
        updater.start()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    # "ready" first, then answers: a reader of stdout never sees the two on one line
    print(f"table {cfg.table} ready ({service.outbox.pending_count()} report(s) queued)",
          flush=True)
    threading.Thread(target=_stdin_loop, args=(service, stop), daemon=True,
                     name="stdin").start()
    notifier = Notifier()
    notifier.ready()
    try:
        while not stop.wait(TICK_S):
            service.tick()
            for dev in extras:
                if hasattr(dev, "sync"):
                    dev.sync()
            notifier.watchdog()
    finally:
        for dev in extras:
            (dev.close if hasattr(dev, "close") else dev.stop)()
        if updater is not None:
            updater.stop()
        service.stop()
    return RESTART if updater is not None and updater.switched else 0


def _stdin_loop(service: TableService, stop: threading.Event) -> None:
    """Commands until `quit`; end of input just leaves the kiosk running."""
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["quit"]:
            stop.set()
            return
        if words:   # one write per answer: a line is never split by another writer
            sys.stdout.write(json.dumps(command(service, words), default=str) + "\n")
            sys.stdout.flush()


def command(service: TableService, words: list[str]) -> dict[str, Any]:
    """Run one stdin command; the reply is a JSON-able dict."""
    name, *rest = words
    if name == "view":
        return asdict(service.view())
    if name == "present":
        res = service.act("set_absent", int(rest[0]), False)
    elif name in COMMANDS:
        action, types = COMMANDS[name]
        try:
            values = [kind(v) for kind, v in zip(types, rest, strict=False)]
        except ValueError:
            return {"error": f"bad arguments for {name}: {' '.join(rest)}"}
        res = service.act(action, *values)
    else:
        return {"error": f"unknown command {name!r}"}
    return {"ok": not res.refused, "message": res.message,
            "report": res.report["id"] if res.report else None}

