"""Polling for something a real process, broker or browser does in its own time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(cond: Callable[[], Any], timeout: float = 30.0, step: float = 0.05) -> Any:
    """Poll until `cond()` is truthy and return that value; fail the test on timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if value := cond():
            return value
        time.sleep(step)
    raise AssertionError(f"condition not met within {timeout} s")
