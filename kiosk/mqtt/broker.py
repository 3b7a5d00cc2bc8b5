"""Start a broker for a demo or a test: Mosquitto when installed, else an embedded one.

Tests use the real Mosquitto so they can stop and restart it; the embedded amqtt broker
keeps `pokerkiosk demo` working on a machine without Mosquitto (MQTT 3.1.1 only).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kiosk.base.errors import KioskError
from kiosk.config.files import BrokerConfig


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0, host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), 0.2):
            return
        time.sleep(0.05)
    raise KioskError(f"nothing listens on {host}:{port} after {timeout:.0f} s")


def stop_process(proc: subprocess.Popen[bytes] | None, grace: float = 5.0) -> None:
    """Terminate a child process, killing it if it has not gone after `grace` seconds."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def find_mosquitto() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()),
        None)


def _die_with_parent() -> None:
    """In the child: Linux sends SIGTERM when the parent dies, even by kill -9."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG


class Mosquitto:
    """A private Mosquitto on a free loopback port; stop() and start() keep the port.

    With `die_with_parent` the broker cannot outlive the process that started it (the
    demo); start it from the main thread then, since Linux ties this to the thread.
    """

    def __init__(self, port: int | None = None, extra_conf: str = "",
                 workdir: str | None = None, persistence: bool = False,
                 die_with_parent: bool = False) -> None:
        exe = find_mosquitto()
        if exe is None:
            raise KioskError("mosquitto is not installed (apt-get install mosquitto)")
        self.exe = exe
        self.port = port or free_port()
        self.die_with_parent = die_with_parent
        self.own_dir = workdir is None
        self.dir = Path(workdir or tempfile.mkdtemp(prefix="pk-mosquitto-"))
        self.conf = self.dir / "mosquitto.conf"
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true", "set_tcp_nodelay true",
                 f"persistence {'true' if persistence else 'false'}",
                 f"persistence_location {self.dir}/", "log_dest stderr",
                 "log_type error", "log_type warning", "max_queued_messages 100000"]
        if die_with_parent and os.geteuid() == 0:
            lines.append("user root")   # switching user would clear the parent-death signal
        self.conf.write_text("\n".join(lines) + "\n" + extra_conf)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def config(self) -> BrokerConfig:
        return BrokerConfig(host="127.0.0.1", port=self.port)

    def start(self) -> Mosquitto:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     preexec_fn=_die_with_parent if self.die_with_parent
                                     else None)
        try:
            wait_port(self.port)
        except KioskError:
            err = self.proc.stderr.read().decode() if self.proc.poll() is not None \
                and self.proc.stderr else ""
            self.stop()
            raise KioskError(f"mosquitto did not start on port {self.port}: {err.strip()}") \
                from None
        return self

    def stop(self) -> None:
        stop_process(self.proc)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop for good: also remove the temporary folder this broker made."""
        self.stop()
        if self.own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)


class EmbeddedBroker:
    """amqtt in a background thread with its own event loop (MQTT 3.1.1)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="embedded-broker")
        self._broker: Any = None

    @property
    def config(self) -> BrokerConfig:
        return BrokerConfig(host="127.0.0.1", port=self.port, mqtt_version=3)

    def start(self) -> EmbeddedBroker:
        from amqtt.broker import Broker

        self._thread.start()

        async def boot() -> None:
            self._broker = Broker({
                "listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{self.port}"}},
                "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                            {"allow_anonymous": True}},
            })
            await self._broker.start()

        asyncio.run_coroutine_threadsafe(boot(), self._loop).result(15)
        wait_port(self.port)
        return self

    def stop(self) -> None:
        if self._broker is not None:
            asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop).result(15)
            self._broker = None
        self._loop.call_soon_threadsafe(self._loop.stop)

    close = stop


def start_broker(prefer: str = "mosquitto", port: int | None = None,
                 die_with_parent: bool = False,
                 workdir: Path | None = None) -> Mosquitto | EmbeddedBroker:
    """Mosquitto if it is installed (and preferred), otherwise the embedded broker."""
    if prefer == "mosquitto" and find_mosquitto():
        if workdir is not None:
            workdir.mkdir(parents=True, exist_ok=True)
        broker = Mosquitto(port, die_with_parent=die_with_parent,
                           workdir=str(workdir) if workdir else None)
        try:
            return broker.start()
        except BaseException:
            broker.close()
            raise
    return EmbeddedBroker(port).start()
