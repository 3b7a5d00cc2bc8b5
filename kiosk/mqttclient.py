"""The one place a paho-mqtt client is built: version, login, TLS, last will, no Nagle.

Director, table kiosks, the simulator and `pokerkiosk doctor` all connect the same way,
so a broker setting that works for one works for all.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from typing import Any

import paho.mqtt.client as mqtt

from kiosk.config import BrokerConfig


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Small reports must not wait ~40 ms behind Nagle's algorithm."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def make_client(client_id: str, broker: BrokerConfig, *, will_topic: str | None = None,
                will_payload: bytes | None = None,
                reconnect: tuple[float, float] = (1, 8)) -> mqtt.Client:
    """A paho 2 client (MQTT 5, or 3.1.1 when the broker config says so)."""
    client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                         client_id=client_id,
                         protocol=mqtt.MQTTv5 if broker.mqtt_version == 5 else mqtt.MQTTv311)
    if broker.username:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file, cert_reqs=ssl.CERT_REQUIRED)
    if will_topic:
        client.will_set(will_topic, will_payload, qos=1, retain=True)
    client.reconnect_delay_set(min_delay=int(reconnect[0]) or 1, max_delay=int(reconnect[1]))
    client.on_socket_open = _no_delay
    return client
