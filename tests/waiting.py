"""Polling for something a real process, broker or browser does in its own time, with a
deadline sized for a loaded machine; and for something that must not happen within a
period the product keeps."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

# how long a director or the demo may take to open on a machine that the whole suite, the
# appliance's VMs and a browser load at once (about a second on a quiet one; over a
# minute was seen in a cold run)
STARTUP_S = 180.0

# a takeover or a move to another broker: about 2 s on a quiet machine (the lease, the
# reconnect back-off; bench/failover_bench.py times it), bounded here for the same load
PROMPT_S = 15.0


def wait_for(cond: Callable[[], Any], timeout: float = 30.0, step: float = 0.05) -> Any:
    """Poll until `cond()` is truthy and return that value; fail the test on timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if value := cond():
            return value
        time.sleep(step)
    raise AssertionError(f"condition not met within {timeout} s")


def holds(cond: Callable[[], Any], seconds: float, what: str = "the condition stopped holding",
          step: float = 0.05) -> None:
    """`cond()` stays truthy for `seconds`: what must not happen within a period the
    product itself keeps (a resend, a lease, a hunt for another broker). Checked all
    along, so a change that comes and goes is caught too; fails at once when it breaks."""
    end = time.monotonic() + seconds
    while True:
        assert cond(), what
        if time.monotonic() >= end:
            return
        time.sleep(step)


def eventually(get: Callable[[], Any], want: Any, timeout: float = 30.0,
               step: float = 0.05) -> Any:
    """`get()` once it equals `want`, or its value at the deadline: for a page or a
    process still settling, compared by the caller's own assert (which says what differs)."""
    end = time.monotonic() + timeout
    while (got := get()) != want and time.monotonic() < end:
        time.sleep(step)
    return got
