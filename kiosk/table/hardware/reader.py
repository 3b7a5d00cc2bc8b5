"""Serial card reader (pyserial): one card id per line, survives being unplugged.

The port is a pyserial URL (`/dev/ttyUSB0`, `loop://`, `rfc2217://...`), opened with
`serial.serial_for_url`, so tests run through `loop://` with no hardware.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
from collections.abc import Callable
from typing import Any

import serial

log = logging.getLogger(__name__)

CARD_RE = re.compile(r"^[0-9A-F]{4,32}$")   # hex UIDs: 4-byte MIFARE up to 16-byte
MAX_LINE = 64                               # longer than any card id: garbage


def parse_line(raw: bytes) -> str | None:
    """A card id from one line, or None for noise (logged by the caller)."""
    try:
        text = raw.decode("ascii").strip().upper()
    except UnicodeDecodeError:
        return None
    return text if CARD_RE.match(text) else None


class CardReader:
    """Reads card ids on a thread and hands each to `on_card`."""

    def __init__(self, url: str, on_card: Callable[[str], Any], *, baud: int = 9600,
                 opener: Callable[..., Any] = serial.serial_for_url,
                 backoff: tuple[float, float] = (0.5, 8.0)) -> None:
        self.url, self.on_card, self.baud, self.opener = url, on_card, baud, opener
        self.backoff = backoff
        self.opens = 0                      # how many times the port was (re)opened
        self.ignored = 0                    # lines dropped as garbage
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="card-reader", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._close()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                self._port = self.opener(self.url, baudrate=self.baud, timeout=0.2)
                self.opens += 1
                log.info("card reader open on %s", self.url)
                delay = self.backoff[0]
                self._read(self._port)
            except (serial.SerialException, OSError) as exc:
                if self._stop.is_set():
                    break
                log.warning("card reader on %s: %s; retrying in %.1f s", self.url, exc, delay)
                self._close()
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])

    def _close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _read(self, port: Any) -> None:
        buf = b""
        while not self._stop.is_set():
            if not port.is_open:
                raise serial.SerialException("port closed (reader unplugged?)")
            chunk = port.read(port.in_waiting or 1)
            if not chunk:
                continue
            buf += chunk
            *lines, buf = re.split(rb"[\r\n]", buf)
            if len(buf) > MAX_LINE:
                self._ignore(buf)
                buf = b""
            for raw in lines:
                if raw.strip():
                    self._line(raw)

    def _line(self, raw: bytes) -> None:
        card = parse_line(raw)
        if card is None:
            self._ignore(raw)
            return
        try:
            self.on_card(card)
        except Exception:
            log.exception("card reader: handling card %s failed", card)

    def _ignore(self, raw: bytes) -> None:
        self.ignored += 1
        log.warning("card reader: ignored %d garbage byte(s): %r", len(raw), raw[:MAX_LINE])
