"""One emulated arm64 machine: QEMU's process, its QMP monitor and the command channel.

Networking is QEMU's user mode with `restrict=on`: a guest reaches nothing but the
forwards named here, all on the host's loopback. The director's broker and dashboard
are forwarded to host ports; a table's guestfwd sends 10.0.2.100:8883 (the address its
provisioned config names) to the director's forwarded broker port. Nothing leaves the
machine, and no guest can reach another except through those forwards.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

DIRECTOR_ADDR = "10.0.2.100"
# QEMU's USB serial adapter is an FTDI (the guest's ftdi_sio drives it); its serial number
# names it in /dev/serial/by-id, as a real reader's does
# always-plugged: QEMU otherwise attaches the adapter only while a host client holds its
# socket, and the guest saw no USB device at all
READER = {"driver": "usb-serial", "id": "reader", "chardev": "rdr", "bus": "xhci.0",
          "serial": "PKREADER1", "always-plugged": "on"}
READER_DEVICE = ",".join([READER["driver"]] + [f"{k}={v}" for k, v in READER.items()
                                               if k != "driver"])
READER_QMP = {**READER, "always-plugged": True}    # QMP's device_add takes JSON types
READER_BY_ID = "/dev/serial/by-id/usb-QEMU_QEMU_USB_SERIAL_PKREADER1-if00-port0"


@dataclass
class Machine:
    """A VM booted from `disk`; `display` adds virtio-gpu (KMS) for screendumps."""

    name: str
    work: Path
    disk: Path
    kernel: Path
    initrd: Path
    append: str
    net: str
    display: bool = False
    reader: bool = False      # a USB serial card reader (FTDI) on an xHCI controller
    memory_mb: int = 1024
    smp: int = 2
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    _ctl: socket.socket | None = field(default=None, repr=False)
    _buf: bytes = b""
    _ids: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def console_log(self) -> Path:
        return self.work / f"{self.name}.console.log"

    def reader_socket(self) -> Path:
        return self._sock("reader")

    def _sock(self, kind: str) -> Path:
        return self.work / f"{self.name}.{kind}.sock"

    def command(self) -> list[str]:
        cmd = ["nice", "-n", "15", "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72",
               "-smp", str(self.smp), "-m", str(self.memory_mb), "-nodefaults",
               "-kernel", str(self.kernel), "-initrd", str(self.initrd),
               "-append", self.append,
               "-drive", f"file={self.disk},format=raw,if=none,id=d0,cache=writeback",
               "-device", "virtio-blk-pci,drive=d0",
               # no option ROM: it boots -kernel, never from the network (and Debian ships
               # the ROM in ipxe-qemu, which --no-install-recommends leaves out)
               "-netdev", self.net, "-device", "virtio-net-pci,netdev=n0,romfile=",
               "-device", "virtio-rng-pci",
               "-chardev", f"socket,id=ctl,path={self._sock('ctl')},server=on,wait=off",
               "-device", "virtio-serial-pci",
               "-device", "virtserialport,chardev=ctl,name=pk.ctl",
               "-serial", f"file:{self.console_log}",
               "-qmp", f"unix:{self._sock('qmp')},server=on,wait=off",
               "-display", "none"]
        if self.display:
            cmd += ["-device", "virtio-gpu-pci,xres=800,yres=480"]
        if self.reader:      # the host writes card lines into the socket (inputs.py)
            cmd += ["-device", "qemu-xhci,id=xhci",
                    "-chardev", f"socket,id=rdr,path={self._sock('reader')},server=on,wait=off",
                    "-device", READER_DEVICE]
        return cmd

    def start(self) -> None:
        for kind in ("ctl", "qmp", "reader"):
            self._sock(kind).unlink(missing_ok=True)
        self.console_log.unlink(missing_ok=True)
        out = open(self.work / f"{self.name}.qemu.log", "ab")   # noqa: SIM115 (lives with proc)
        self.proc = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        out.close()
        self.started = time.monotonic()
        self._ctl, self._buf = None, b""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Power cut: SIGKILL to QEMU, nothing flushed, no shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        if self._ctl is not None:
            self._ctl.close()
        self._ctl = None

    # ------------------------------------------------------------------ command channel
    def _connect(self) -> socket.socket:
        if self._ctl is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(str(self._sock("ctl")))
            self._ctl = s
        return self._ctl

    def sh(self, script: str, timeout: float = 120.0) -> tuple[int, str]:
        """Run a shell script as root in the guest; (exit code, output)."""
        if not self.alive():
            raise RuntimeError(f"{self.name}: QEMU is not running (see {self.console_log})")
        s = self._connect()
        rid = f"{self.name}-{next(self._ids)}"
        s.sendall(f"{rid} {base64.b64encode(script.encode()).decode()}\n".encode())
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                got, rc, out = ([*line.decode().split(" ", 2), "", ""])[:3]
                if got == rid:
                    return int(rc), base64.b64decode(out).decode(errors="replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no answer to {script[:60]!r} in {timeout} s")
            s.settimeout(left)
            chunk = s.recv(65536)
            if not chunk:
                self._ctl = None
                raise ConnectionError(f"{self.name}: command channel closed")
            self._buf += chunk

    def wait_agent(self, timeout: float) -> float:
        """Wait until the guest answers on its command channel; seconds since QEMU started."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"{self.name}: QEMU exited; {self.console_tail()}")
            try:
                rc, _ = self.sh("true", timeout=5)
                if rc == 0:
                    return time.monotonic() - self.started
            except (OSError, TimeoutError, ConnectionError):
                self._ctl = None
                time.sleep(2)
        raise TimeoutError(f"{self.name}: no command channel after {timeout:.0f} s; "
                           f"{self.console_tail()}")

    def console_tail(self, n: int = 1500) -> str:
        text = self.console_log.read_text(errors="replace") if self.console_log.exists() else ""
        return "console: " + text[-n:]

    # ---------------------------------------------------------------------- QMP monitor
    def qmp(self, command: str, **arguments: object) -> dict[str, object]:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(30)
            s.connect(str(self._sock("qmp")))
            f = s.makefile("rwb")
            f.readline()                                   # greeting
            for cmd in ({"execute": "qmp_capabilities"},
                        {"execute": command, "arguments": arguments}):
                f.write(json.dumps(cmd).encode() + b"\n")
                f.flush()
                while True:
                    reply = json.loads(f.readline())
                    if "return" in reply or "error" in reply:
                        break
            if "error" in reply:
                raise RuntimeError(f"{self.name}: QMP {command}: {reply['error']}")
            return reply

    def screendump(self, ppm: Path) -> Path:
        ppm.unlink(missing_ok=True)
        self.qmp("screendump", filename=str(ppm))
        return ppm
