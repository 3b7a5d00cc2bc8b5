"""Where a printer hangs: `serial:`, `usb:`, `tcp:` or `file:`, as one small Port.

Every port writes bytes and may read the printer's status answer; any failure is an
OSError (pyserial's errors are OSErrors too), which the spooler takes as "printer away,
keep the job". Nothing here retries: that is the spooler's job.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import termios
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol
from urllib.parse import parse_qs

PortKind = Literal["serial", "usb", "tcp", "file"]
USB_SYSFS = Path("/sys/class/usbmisc")


@dataclass(frozen=True)
class PortSpec:
    """A parsed `[printer] port`."""

    kind: PortKind
    target: str               # device path, VID:PID, host:port or file path
    baud: int = 19200

    @property
    def answers(self) -> bool:
        """Whether a printer on this port can be asked for its status (not a file)."""
        return self.kind != "file"


def parse_port(text: str) -> PortSpec:
    """`serial:/dev/ttyUSB0?baud=19200`, `usb:04b8:0202`, `tcp:host:9100`, `file:PATH`;
    ValueError with a readable message otherwise."""
    kind, _, rest = text.partition(":")
    if kind == "serial" and rest:
        path, _, query = rest.partition("?")
        bauds = parse_qs(query).get("baud", ["19200"])
        if not bauds[0].isdigit() or int(bauds[0]) < 300:
            raise ValueError(f"baud must be a number of at least 300, got {bauds[0]!r}")
        return PortSpec("serial", path, int(bauds[0]))
    if kind == "usb":
        vid, _, pid = rest.partition(":")
        if not (_hex4(vid) and _hex4(pid)):
            raise ValueError(f"usb: wants VID:PID in hex, like usb:04b8:0202, got {text!r}")
        return PortSpec("usb", f"{vid.lower()}:{pid.lower()}")
    if kind == "tcp":
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"tcp: wants host:port, like tcp:192.168.1.50:9100, got {text!r}")
        return PortSpec("tcp", rest)
    if kind == "file" and rest:
        return PortSpec("file", rest)
    raise ValueError(f"printer port {text!r}: expected serial:/dev/ttyUSB0?baud=19200, "
                     "usb:VID:PID, tcp:host:9100 or file:PATH")


def _hex4(s: str) -> bool:
    return len(s) == 4 and all(c in "0123456789abcdefABCDEF" for c in s)


class Port(Protocol):
    def write(self, data: bytes) -> None: ...
    def read(self, n: int, timeout: float) -> bytes: ...
    def close(self) -> None: ...


class SerialPort:
    """A printer on a serial line (RS-232, a USB-serial adapter, a pseudo-terminal)."""

    def __init__(self, spec: PortSpec, timeout: float) -> None:
        import serial

        self.timeout = timeout
        self.dev = serial.Serial(spec.target, spec.baud, timeout=timeout,
                                 write_timeout=timeout, exclusive=True)

    def write(self, data: bytes) -> None:
        try:
            self.dev.write(data)
            self.dev.flush()
        except termios.error as exc:   # tcdrain on a line that went away
            raise OSError(f"serial line lost: {exc}") from None

    def read(self, n: int, timeout: float) -> bytes:
        try:
            self.dev.timeout = timeout
            return bytes(self.dev.read(n))
        except termios.error as exc:
            raise OSError(f"serial line lost: {exc}") from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.dev.close()


class FdPort:
    """A device or file opened as a file descriptor: usblp (/dev/usb/lpN) or `file:`.
    A device is non-blocking: usblp would hold a write for as long as the printer is out
    of paper, so a write that makes no progress for `timeout` seconds is an error."""

    def __init__(self, path: str, append: bool = False, timeout: float = 2.0) -> None:
        flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT if append
                 else os.O_RDWR | os.O_NONBLOCK)
        self.fd = os.open(path, flags | os.O_CLOEXEC, 0o644)
        self.append = append
        self.timeout = timeout

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            if not self.append and not select.select([], [self.fd], [], self.timeout)[1]:
                raise TimeoutError("the printer takes no data (out of paper? cover open?)")
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:
                continue
        if self.append:
            os.fsync(self.fd)

    def read(self, n: int, timeout: float) -> bytes:
        if self.append or not select.select([self.fd], [], [], timeout)[0]:
            return b""
        try:
            return os.read(self.fd, n)
        except BlockingIOError:
            return b""

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


class TcpPort:
    """A network printer's raw port (9100, "JetDirect")."""

    def __init__(self, target: str, timeout: float) -> None:
        host, _, port = target.rpartition(":")
        self.sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self, n: int, timeout: float) -> bytes:
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(n)
        except TimeoutError:
            return b""

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def usb_device(vid_pid: str, sysfs: Path = USB_SYSFS) -> str:
    """The usblp device of the printer VID:PID; OSError when none is plugged in."""
    vid, pid = vid_pid.split(":")
    for lp in sorted(sysfs.glob("lp*")):
        dev = (lp / "device").resolve().parent
        try:
            ids = ((dev / "idVendor").read_text().strip(), (dev / "idProduct").read_text().strip())
        except OSError:
            continue
        if ids == (vid, pid):
            return f"/dev/usb/{lp.name}"
    raise OSError(f"no USB printer {vid_pid} plugged in")


def open_port(spec: PortSpec, timeout: float = 2.0) -> Port:
    """The port, opened; OSError when the printer is not there."""
    if spec.kind == "serial":
        return SerialPort(spec, timeout)
    if spec.kind == "usb":
        return FdPort(usb_device(spec.target), timeout=timeout)
    if spec.kind == "tcp":
        return TcpPort(spec.target, timeout)
    Path(spec.target).parent.mkdir(parents=True, exist_ok=True)
    return FdPort(spec.target, append=True)
