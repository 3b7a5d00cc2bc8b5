"""The table's optional devices: GPIO buttons and the card reader."""

from __future__ import annotations

import logging
from typing import Any

from kiosk.table.service import TableService

log = logging.getLogger(__name__)


def start_devices(service: TableService, *, gpio: bool) -> list[Any]:
    """GPIO buttons and the card reader, each optional; a missing device is a warning."""
    cfg = service.cfg
    out: list[Any] = []
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
