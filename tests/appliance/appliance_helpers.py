"""Helpers for the appliance tests: provisioned rooms, real Mosquitto brokers, MQTT clients."""

from __future__ import annotations

import queue
import re
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from waiting import eventually

from kiosk.appliance.provision import Room, provision

MOSQUITTO = "/usr/sbin/mosquitto"
EVENT = "spring-open"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes] | None = None,
              timeout: float = 30.0) -> None:
    """Block until something accepts on 127.0.0.1:port (or the process died)."""
    def listening() -> bool:
        if proc is not None and proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise RuntimeError(f"mosquitto exited with {proc.returncode}: {out}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            return False

    if not eventually(listening, True, timeout):
        raise TimeoutError(f"nothing listening on port {port}")


def conf_for_test(conf: Path, dest: Path, state: Path) -> Path:
    """The generated conf with test-only changes: a private persistence dir and stderr logs.

    `user root` keeps the broker from dropping to the mosquitto user, who cannot enter
    pytest's 0700 temp directories; on a Pi the files are group-readable by mosquitto.
    """
    text = conf.read_text()
    text = re.sub(r"^persistence_location .*$", f"persistence_location {state}/",
                  text, flags=re.M)
    text = re.sub(r"^log_dest .*$", "log_dest stderr", text, flags=re.M)
    dest.write_text(text + "user root\n")
    return dest


@dataclass
class Broker:
    """A running Mosquitto started from a provisioned room's config."""

    room: Room
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def out(self) -> Path:
        return self.room.out

    @property
    def ca(self) -> str | None:
        return str(self.out / "ca" / "ca.crt") if self.room.tls else None

    def password(self, user: str) -> str:
        import tomllib

        return str(tomllib.loads((self.out / "secrets.toml").read_text())["users"][user])


def start_broker(room: Room, port: int, tmp: Path) -> Broker:
    (tmp / "state").mkdir(exist_ok=True)
    conf = conf_for_test(room.out / "broker" / "mosquitto.conf", tmp / "mosquitto.conf",
                             tmp / "state")
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        wait_port(port, proc)
    except Exception:
        proc.kill()
        proc.wait()
        raise
    return Broker(room=room, port=port, proc=proc)


def stop_broker(broker: Broker) -> None:
    broker.proc.terminate()
    try:
        broker.proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        broker.proc.kill()
        broker.proc.wait()


def make_room(out: Path, *, tls: bool, port: int, tables: int = 4, **kw: Any) -> Room:
    """A room whose broker files live where the test runs them (no /etc paths)."""
    return provision(out, event=EVENT, tables=tables, use_tls=tls, director_host="127.0.0.1",
                     port=port, config_dir=str(out / "tables"),
                     broker_dir=str(out / "broker"), **kw)


@dataclass
class Client:
    """A paho client whose connect result and received messages tests can wait on."""

    mqtt: mqtt.Client
    connected: queue.Queue[Any] = field(default_factory=queue.Queue)
    messages: queue.Queue[mqtt.MQTTMessage] = field(default_factory=queue.Queue)
    subacks: queue.Queue[list[Any]] = field(default_factory=queue.Queue)

    def subscribe(self, *topics: str) -> list[Any]:
        self.mqtt.subscribe([(t, mqtt.SubscribeOptions(qos=1)) for t in topics])
        return self.subacks.get(timeout=30)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.mqtt.publish(topic, payload, qos=1, retain=retain).wait_for_publish(30)

    def receive(self, timeout: float = 5.0) -> mqtt.MQTTMessage:
        return self.messages.get(timeout=timeout)

    def drain(self, wait: float) -> list[tuple[str, bytes]]:
        """Everything that arrives within `wait` seconds."""
        got, deadline = [], time.monotonic() + wait
        while (left := deadline - time.monotonic()) > 0:
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                break
            got.append((m.topic, m.payload))
        return got


def connect(broker: Broker, user: str | None, password: str | None = None, *,
            ca: str | None = None, use_tls: bool | None = None) -> tuple[Client, Any]:
    """Connect with MQTT v5; returns the client and the CONNACK reason code."""
    c = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                    protocol=mqtt.MQTTv5, client_id=f"t-{user}-{time.monotonic_ns()}")
    client = Client(c)
    c.on_connect = lambda _c, _u, _f, rc, _p: client.connected.put(rc)
    c.on_message = lambda _c, _u, m: client.messages.put(m)
    c.on_subscribe = lambda _c, _u, _mid, rcs, _p: client.subacks.put(list(rcs))
    if user is not None:
        c.username_pw_set(user, password)
    if use_tls if use_tls is not None else broker.room.tls:
        c.tls_set(ca_certs=ca or broker.ca, cert_reqs=ssl.CERT_REQUIRED,
                  tls_version=ssl.PROTOCOL_TLS_CLIENT)
    c.connect("127.0.0.1", broker.port, keepalive=10)
    c.loop_start()
    try:
        rc = client.connected.get(timeout=30)
    except queue.Empty:
        rc = None
    return client, rc
