"""Debian's Chromium for the browser tests: launched once per test process (each worker
of a parallel run has its own), every context it makes waiting as long as a loaded
machine needs.

Playwright waits 30 s for an action and 5 s for an `expect` unless told otherwise; a page
on two cores shared with QEMU building the appliance's roots took longer than 5 s to show
a login. `WAIT_MS` is the deadline of every wait: `patient` sets it on a context, and
tests/conftest.py sets it for `expect`.

Chromium's crash handler leaves it as soon as it starts and is adopted by the test
process (tests/processes.py): the shared one's is counted as the process's own, not as
an orphan of the test that happened to start it.

Playwright's sync API marks its event loop as this thread's running loop between calls,
which would refuse every `asyncio.run` of a later test; `Chromium.lend` hands the loop to
Playwright for one test and takes it back after.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import processes

WAIT_MS = 60_000
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def launch(pw: Any) -> Any:
    """Debian's Chromium, headless, started by Playwright `pw`."""
    return pw.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                              args=ARGS)


def patient(context: Any) -> Any:
    """`context` with WAIT_MS for its actions, waits and navigations."""
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(WAIT_MS)
    return context


class Browser:
    """A Chromium as a test uses it: its contexts (and their pages) are patient and close
    with `close()` or at the end of a `with` block; the Chromium itself closes too when
    the test launched its own (`own`), not when it is the process's shared one."""

    def __init__(self, chromium: Any, own: bool) -> None:
        self.chromium = chromium
        self.own = own
        self.contexts: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        context = patient(self.chromium.new_context(**options))
        self.contexts.append(context)
        return context

    def new_page(self, **options: Any) -> Any:
        """A page in a context of its own, as Playwright's Browser.new_page makes it."""
        return self.new_context(**options).new_page()

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts.clear()
        if self.own:
            self.chromium.close()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Chromium:
    """The process's one Chromium, started on first use and lent to one test at a time."""

    def __init__(self) -> None:
        self.manager: Any = None
        self.playwright: Any = None
        self.chromium: Any = None

    @contextmanager
    def lend(self) -> Iterator[Browser]:
        from playwright.sync_api import sync_playwright
        if self.manager is None:
            self.manager = sync_playwright()
            self.playwright = self.manager.start()
            self.chromium = launch(self.playwright)
            self.own_crash_handlers()
        asyncio.events._set_running_loop(self.manager._loop)   # Playwright's, for the test
        if not self.chromium.is_connected():   # an earlier test's page took it down
            self.chromium = launch(self.playwright)
            self.own_crash_handlers()
        browser = Browser(self.chromium, own=False)
        try:
            yield browser
        finally:
            try:
                browser.close()
            finally:
                asyncio.events._set_running_loop(None)   # the thread's own again

    @staticmethod
    def own_crash_handlers() -> None:
        for pid in processes.orphans():   # Chromium's crash handler, forked away from it
            if "chrome_crashpad_handler" in processes.command_line(pid):
                processes.own(pid)

    def stop(self) -> None:
        if self.manager is None:
            return
        asyncio.events._set_running_loop(self.manager._loop)
        try:
            self.chromium.close()
        finally:
            self.manager.__exit__()
            asyncio.events._set_running_loop(None)
            self.manager = None
