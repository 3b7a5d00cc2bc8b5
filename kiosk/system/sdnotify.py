"""systemd's notify protocol without a dependency, so `Type=notify` + `WatchdogSec=` work.

systemd passes a datagram socket in $NOTIFY_SOCKET; a service says `READY=1` once it
serves and `WATCHDOG=1` while it is alive. If the pings stop for `WatchdogSec`, systemd
kills and restarts the service — so the ping must come from the loop whose freezing we
want to catch (the Kivy UI loop, the director's tick loop), never from a side thread.
Everything is a no-op when NOTIFY_SOCKET is unset (a developer's shell, the tests).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


class Notifier:
    """Sends state lines to systemd; failures are swallowed because a kiosk must keep running."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self._env = env
        path = env.get("NOTIFY_SOCKET", "")
        # A leading '@' names a socket in the abstract namespace (no file on disk).
        self._address: str | bytes | None = (
            "\0" + path[1:] if path.startswith("@") else path) or None
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._address is not None

    def notify(self, *lines: str) -> bool:
        """Send `KEY=value` lines in one datagram; True if it was sent."""
        if self._address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(lines).encode(), self._address)
            return True
        except OSError:
            return False

    def ready(self) -> bool:
        """The service is up: systemd finishes `start` and starts the watchdog clock."""
        return self.notify("READY=1")

    def status(self, text: str) -> bool:
        """One line shown by `systemctl status`."""
        return self.notify(f"STATUS={text.splitlines()[0] if text else ''}")

    def watchdog(self) -> bool:
        """I am alive; call at least every `watchdog_interval() / 2` seconds."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        """A clean shutdown has begun, so a slow stop is not mistaken for a hang."""
        return self.notify("STOPPING=1")

    def watchdog_interval(self) -> float | None:
        """WatchdogSec in seconds when systemd expects pings from this process, else None."""
        usec = self._env.get("WATCHDOG_USEC", "")
        pid = self._env.get("WATCHDOG_PID", "")
        if not usec.isdigit() or int(usec) == 0:
            return None
        if pid and pid.isdigit() and int(pid) != os.getpid():
            return None   # the variable was inherited from a parent, not meant for us
        return int(usec) / 1_000_000

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


class WatchdogPinger:
    """Rate-limits `WATCHDOG=1` to one per half interval, driven by the caller's loop.

    It owns no thread on purpose: `tick()` is called from the loop being watched, so
    when that loop freezes or ends the pings stop and systemd restarts the service.
    """

    def __init__(self, notifier: Notifier, interval: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.notifier = notifier
        full = interval if interval is not None else notifier.watchdog_interval()
        self.period = full / 2 if full else None
        self._clock = clock
        self._last: float | None = None
        self.sent = 0

    def tick(self) -> bool:
        """Ping if half the interval has passed since the last ping; True when it pinged."""
        if self.period is None or not self.notifier.enabled:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.period:
            return False
        self._last = now
        if self.notifier.watchdog():
            self.sent += 1
            return True
        return False


__all__ = ["Notifier", "WatchdogPinger"]
