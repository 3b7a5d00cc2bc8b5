"""The printing thread: takes the oldest waiting job, prints it, marks it printed.

Submitting a job only writes it to the queue on disk and wakes this thread, so
registration never waits for paper. A job is marked printed only after its last byte
went out; a printer that fails mid-job (unplugged, switched off, out of paper) keeps the
job at the head of the queue, and the whole slip is printed again once the printer
answers (it starts with ESC @, so a half-printed slip is never continued in a wrong
state). Blocking serial or socket writes stay on this thread, never on the event loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.printer import escpos
from kiosk.printer.jobs import JobStore
from kiosk.printer.ports import Port, open_port
from kiosk.printer.settings import PrinterConfig
from kiosk.printer.slip import Slip

log = logging.getLogger("kiosk.printer")
CHUNK = 256     # bytes per write: a printer pulled mid-job fails within one chunk
ANSWER_S = 2.0  # a printer answers DLE EOT within milliseconds; longer is "switched off"


class PrinterAway(OSError):
    """The printer is there but cannot print (no paper, no answer)."""


class Spooler:
    """One printer and its queue: `submit`, `reprint`, `status`, `close`."""

    def __init__(self, config: PrinterConfig, queue_file: str | Path) -> None:
        self.config = config
        self.jobs = JobStore(queue_file)
        self.online: bool | None = None      # None: nothing tried yet
        self.error = ""
        self._port: Port | None = None
        self.on_change: Callable[[], None] | None = None   # online or error changed (thread)
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="printer", daemon=True)
        self._thread.start()

    def submit(self, slip: Slip) -> int:
        """Queue `slip` (on disk at once) and wake the printing thread; its job id."""
        job = self.jobs.add(slip)
        self._idle.clear()
        self._wake.set()
        return job

    def reprint(self, job: int) -> int:
        """A copy of job `job` at the end of the queue; KeyError if there is no such job."""
        found = self.jobs.get(job)
        if found is None:
            raise KeyError(job)
        return self.submit(found.slip)

    def retry_now(self) -> None:
        """Try the waiting jobs at once (paper loaded, printer switched on)."""
        self._wake.set()

    def status(self, limit: int = 50) -> dict[str, Any]:
        c = self.config
        return {"port": f"{c.port.kind}:{c.port.target}", "online": self.online,
                "error": self.error, "waiting": self.jobs.waiting(), "columns": c.columns,
                "paper": c.paper,
                "jobs": [j.summary() for j in self.jobs.recent(limit)]}

    def wait_idle(self, timeout: float) -> bool:
        """Until every job is printed (tests, the demo's shutdown); whether they are."""
        end = time.monotonic() + timeout
        while not (self._idle.is_set() and self.jobs.waiting() == 0):
            if time.monotonic() >= end:
                return False
            self._idle.wait(0.05)
        return True

    def close(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=10)
        self._disconnect()
        self.jobs.close()

    # ------------------------------------------------------------ the thread
    def _run(self) -> None:
        while not self._stop:
            self._wake.clear()
            job = self.jobs.next_queued()
            if job is None:
                self._idle.set()
                self._wake.wait()
                continue
            try:
                c = self.config
                data = escpos.render(job.slip, c.columns, c.pages, c.dots)
            except Exception as exc:   # a slip that cannot be rendered: never blocks the rest
                log.exception("print job %d cannot be rendered", job.id)
                self.jobs.printed(job.id, error=f"not printed: {exc}")
                continue
            try:
                self._print(data)
            except Exception as exc:   # the port's errors (OSError, termios.error...): the
                self._failed(job.id, exc)   # thread lives on, the job waits
                self._wake.wait(self.config.retry)
                continue
            self.jobs.printed(job.id)
            self._state(True, "")

    def _print(self, data: bytes) -> None:
        """The job's bytes, between two status questions when the printer answers them:
        the first finds no paper before anything is printed; the answer to the second
        proves every byte before it reached the printer (a serial line keeps the order),
        so a job is never marked printed while it sits in a buffer of a pulled cable."""
        if self._port is None:
            self._port = open_port(self.config.port)
        port = self._port
        asks = self.config.status and self.config.port.answers
        if asks:
            self._paper(port)
        for i in range(0, len(data), CHUNK):
            port.write(data[i:i + CHUNK])
        if asks:
            self._paper(port)

    @staticmethod
    def _paper(port: Port) -> None:
        port.write(escpos.STATUS_PAPER)
        answer = port.read(1, ANSWER_S)
        if not answer:
            raise PrinterAway("the printer does not answer (switched off?)")
        problem = escpos.paper_problem(answer[-1])
        if problem:
            raise PrinterAway(problem)

    def _failed(self, job: int, exc: Exception) -> None:
        error = str(exc) or type(exc).__name__
        if error != self.error:
            log.warning("printer %s:%s: %s; job %d waits", self.config.port.kind,
                        self.config.port.target, error, job)
        self.jobs.failed(job, error)
        self._state(False, error)
        self._disconnect()

    def _state(self, online: bool, error: str) -> None:
        changed = (online, error) != (self.online, self.error)
        self.online, self.error = online, error
        if changed and self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("printer state listener failed")

    def _disconnect(self) -> None:
        if self._port is not None:
            self._port.close()
            self._port = None

