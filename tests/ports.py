"""Free loopback ports for the workers of a parallel run, none handed to two of them.

A port is free when the kernel gives it for `bind(("127.0.0.1", 0))`, but the test only
binds it later (a broker's or a director's start, seconds on a loaded machine); in that
window another worker asking the kernel may be given the same port. The workers of one
run (pytest-xdist's PYTEST_XDIST_TESTRUNUID) note each port they hand out in a file they
share, under a lock, and skip one another worker took in the last ten minutes.

The ports come from below the kernel's ephemeral range (ip_local_port_range): a port from
that range can be given to any outgoing connection (a browser's, a client's) between the
test choosing it and the server binding it, which a loaded machine showed ("address
already in use" for a director's dashboard). Outside a parallel run, a free such port.
"""

from __future__ import annotations

import fcntl
import os
import random
import socket
import tempfile
import time
from pathlib import Path

KEPT_S = 600.0        # a port handed out is not handed out again for this long


LOWEST = 20_000       # below it: the well-known services' ports a machine may run


def ephemeral_low() -> int:
    """The first port of the kernel's ephemeral range (32768 unless configured)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def kernel_port() -> int:
    """A loopback port free now, outside the ephemeral range where one is left, else
    the kernel's."""
    top = ephemeral_low()
    for _ in range(200):
        port = random.randrange(LOWEST, top) if top > LOWEST + 1000 else 0
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise OSError("no free loopback port")


def shared_file() -> Path | None:
    """The run's record of the ports its workers took (None outside a parallel run)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    return Path(tempfile.gettempdir()) / f"pk-test-ports-{run}" if run else None


def free_port() -> int:
    """A loopback port free now and given to no other worker of this run lately."""
    record = shared_file()
    if record is None:
        return kernel_port()
    with record.open("a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        now = time.time()
        taken = {int(port) for port, at in (line.split() for line in f if line.strip())
                 if now - float(at) < KEPT_S}
        port = kernel_port()
        while port in taken:
            port = kernel_port()
        f.write(f"{port} {now}\n")
        return port


def forget() -> None:
    """The run's record removed (its end)."""
    record = shared_file()
    if record is not None:
        record.unlink(missing_ok=True)
