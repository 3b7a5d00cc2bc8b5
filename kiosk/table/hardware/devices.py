"""The table's optional devices: GPIO buttons and the card reader."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from kiosk.system import gpiochip
from kiosk.table.service import TableService

log = logging.getLogger(__name__)
_said: set[str] = set()       # what was logged once for this process


def start_devices(service: TableService, *, gpio: bool, root: Path = Path("/")) -> list[Any]:
    """GPIO buttons and the card reader, each optional; a missing device is a warning."""
    cfg = service.cfg
    out: list[Any] = []
    if gpio and cfg.gpio is not None and not _mock_pins():
        chip, seen = gpiochip.header_chip(root)
        if chip is None:       # said once; the dealer keeps dealing by touch
            line = gpiochip.no_chip_line(seen)
            if line not in _said:
                _said.add(line)
                log.warning("table %s: %s; dealing by touch only", cfg.table, line)
            gpio = False
    if gpio and cfg.gpio is not None:
        try:
            from kiosk.table.hardware.gpio import TableGpio
            out.append(TableGpio(service, cfg.gpio))
        except Exception as exc:   # gpiozero raises many kinds when no pins exist
            log.warning("table %s: no GPIO buttons (%s)", cfg.table, exc)
    if cfg.reader_port:
        from kiosk.table.hardware.reader import CardReader
        reader = CardReader(cfg.reader_port, lambda card: service.act("card", card),
                            baud=cfg.reader_baud)
        reader.start()
        out.append(reader)
    return out


def _mock_pins() -> bool:
    """GPIOZERO_PIN_FACTORY=mock (buttons tried on a PC) needs no chip."""
    return os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock"
