"""A receipt printer at the far end of a pseudo-terminal, standing in for one on a serial
line: it answers the paper question (DLE EOT 4) as a real printer does, keeps every other
byte, and can be unplugged (the pty closed) and plugged back in (a new pty behind the
same device link, as udev's /dev/serial/by-id links do)."""

from __future__ import annotations

import os
import select
import threading
from pathlib import Path

import waiting

from kiosk.printer import escpos

PAPER_OK, PAPER_OUT = 0x12, 0x72


class SerialPrinter:
    def __init__(self, link: Path, unplug_after: int | None = None) -> None:
        self.link = link
        self.paper = True
        self.unplug_after = unplug_after    # bytes of jobs read before the cable is pulled
        self.data = bytearray()
        self.plugged = False
        self._lock = threading.Lock()
        self.plug()

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        self.link.unlink(missing_ok=True)
        self.link.symlink_to(os.ttyname(self.slave))
        self.data = bytearray()
        self.plugged = True
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the reader stops first, so it never reads from a descriptor
        number the next pseudo-terminal reuses."""
        with self._lock:
            if not self.plugged:
                return
            self.plugged = False
        if self._thread is not threading.current_thread():
            self._thread.join(5)
        os.close(self.master)
        os.close(self.slave)

    def received(self) -> bytes:
        with self._lock:
            return bytes(self.data)

    def wait_for(self, n_cuts: int, timeout: float = 30) -> bytes:
        """What the printer has received once it holds `n_cuts` cut slips."""
        try:
            return bytes(waiting.wait_for(lambda: (data := self.received()).count(escpos.CUT)
                                          >= n_cuts and data, timeout, step=0.02))
        except AssertionError:
            raise AssertionError(f"the printer got {self.received()!r}") from None

    def _run(self) -> None:
        scanned = 0
        while self.plugged:
            try:
                ready = select.select([self.master], [], [], 0.05)[0]
                chunk = os.read(self.master, 4096) if ready else b""
            except OSError:
                return
            with self._lock:
                self.data += chunk
                asked = self.data.count(escpos.STATUS_PAPER, max(0, scanned - 2))
                scanned = len(self.data)
                pulled = self.unplug_after is not None and len(self.data) >= self.unplug_after
                if pulled:      # what was still on the wire never arrives
                    del self.data[self.unplug_after or 0:]
            if pulled:
                self.unplug_after = None
                self.unplug()
                return
            for _ in range(asked):
                os.write(self.master, bytes([PAPER_OK if self.paper else PAPER_OUT]))
