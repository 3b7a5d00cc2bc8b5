"""What the tests leave running: the suite adopts the orphans of its own processes and
fails the test after which one is still alive.

A test that starts a process and ends it (or lets its parent die) without stopping what
that process started leaves an orphan: Linux hands it to the nearest "child subreaper",
normally init, and nothing ever stops it (two table kiosks ran on for an hour and a half
after a run). The test process makes itself the subreaper, so such orphans become its
children. A child it did not start itself is an orphan: after each test, once the test's
own fixtures are torn down, every orphan is given a few seconds to exit (a kiosk told by
PR_SET_PDEATHSIG stops cleanly), reaped, and one still running is killed and named in the
test's failure. Linux only (/proc and prctl); elsewhere nothing is checked.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
from pathlib import Path

from waiting import eventually

PR_SET_CHILD_SUBREAPER = 36
GRACE_S = 10.0

_started: set[tuple[int, int]] = set()   # (pid, start time): children this process made


def start_time(pid: int) -> int | None:
    """The kernel's start time of `pid` (clock ticks after boot), None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def state(pid: int) -> str:
    """'R', 'S', 'T', 'Z'... ('' once gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def alive(pid: int) -> bool:
    """Running (or stopped), not a zombie waiting to be reaped."""
    return state(pid) not in ("", "Z", "X")


def children(parent: int) -> list[int]:
    """The children of `parent`: from its threads' children lists where the kernel keeps
    them (cheap enough to ask after every test), else by reading every process."""
    tasks = Path(f"/proc/{parent}/task")
    with contextlib.suppress(OSError):
        return sorted({int(pid) for task in tasks.iterdir()
                       for pid in (task / "children").read_text().split()})
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            out.append(int(entry.name))
    return out


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()
    except OSError:
        return ""


def adopt_orphans() -> bool:
    """Make this process the subreaper of everything it starts, and note each child it
    starts itself (subprocess.Popen, os.fork). False where Linux's prctl is missing."""
    if not Path("/proc/self/stat").exists():
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    if prctl(PR_SET_CHILD_SUBREAPER, 1) != 0:
        return False
    popen_init, fork = subprocess.Popen.__init__, os.fork

    def noted(pid: int) -> None:
        started = start_time(pid)
        if started is not None:
            _started.add((pid, started))

    def popen(self: subprocess.Popen, *args: object, **kw: object) -> None:  # type: ignore[type-arg]
        popen_init(self, *args, **kw)  # type: ignore[arg-type]
        noted(self.pid)

    def forked() -> int:
        pid = fork()
        if pid:
            noted(pid)
        return pid

    subprocess.Popen.__init__ = popen  # type: ignore[method-assign]
    os.fork = forked
    return True


def own(pid: int) -> None:
    """Count `pid` as started by this process: a helper a shared server of the session
    leaves beside it (Chromium's crash handler), not an orphan of the test that ran."""
    started = start_time(pid)
    if started is not None:
        _started.add((pid, started))


def orphans() -> list[int]:
    """Children of this process that it did not start: adopted after their parent died."""
    return [pid for pid in children(os.getpid()) if (pid, start_time(pid)) not in _started]


def reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


def left_running(grace: float = GRACE_S) -> list[str]:
    """The orphans still running after `grace` seconds, killed and reaped: each as
    'pid N: its command line' (empty when every orphan stopped by itself)."""
    def running() -> list[int]:
        found = orphans()
        for pid in found:
            if not alive(pid):
                reap(pid)
        return [pid for pid in found if alive(pid)]

    return kill(eventually(running, [], grace, step=0.1))


def stop_children() -> list[str]:
    """Every child of this process still running, killed and reaped, as left_running
    names them (the end of the suite: nothing of it may run on)."""
    return kill([pid for pid in children(os.getpid()) if alive(pid)])


def kill(pids: list[int]) -> list[str]:
    """Each process killed and reaped: 'pid N: its command line' for each."""
    out = []
    for pid in pids:
        out.append(f"pid {pid}: {command_line(pid)}")
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, 0)
    return out
