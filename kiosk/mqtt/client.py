"""The one place a paho-mqtt client is built: version, login, TLS, last will, no Nagle,
and the move to the next broker when one is gone.

Director, table kiosks, the simulator and `pokerkiosk doctor` all connect the same way,
so a broker setting that works for one works for all.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from kiosk.config.files import BrokerConfig

log = logging.getLogger(__name__)


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Small reports must not wait ~40 ms behind Nagle's algorithm."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class FailoverClient(mqtt.Client):
    """A paho client that, on every (re)connect, takes the first broker that answers.

    paho reconnects to one host:port; with several brokers configured each attempt walks
    the list in order instead, so a client whose broker is gone is on the next one at
    its first retry, and every client with the same list settles on the same broker.
    """

    def __init__(self, broker: BrokerConfig, **kw: Any) -> None:
        super().__init__(**kw)
        self.broker = broker
        self.at = (broker.host, broker.port)   # the broker of the last attempt
        self._skip = 0    # brokers to pass over at the next attempt (move_on)

    @property
    def address(self) -> str:
        """The broker this client is (or was last) connected to, as a URL."""
        return self.broker.url_of(*self.at)

    def reconnect(self) -> mqtt.MQTTErrorCode:
        addresses = self.broker.addresses
        if len(addresses) == 1 or (self._host, self._port) not in addresses:
            self.at = (self._host, self._port)   # connect() to somewhere else: as asked
            return super().reconnect()
        skip, self._skip = self._skip, 0
        addresses = addresses[skip:] + addresses[:skip]
        for n, (host, port) in enumerate(addresses[:-1]):
            self._host, self._port = self.at = host, port
            try:
                return super().reconnect()
            except OSError as exc:
                log.info("%s: cannot reach %s (%s); trying %s", self._client_id.decode(),
                         self.address, exc, self.broker.url_of(*addresses[n + 1]))
        self._host, self._port = self.at = addresses[-1]
        return super().reconnect()

    def move_on(self) -> None:
        """Drop this broker and reconnect starting from the next one in the list (the
        broker answers, but whoever this client talks to is elsewhere). Safe from any
        thread: the socket is shut, paho's own loop notices and reconnects."""
        addresses = self.broker.addresses
        if len(addresses) < 2 or self.at not in addresses:
            return
        self._skip = (addresses.index(self.at) + 1) % len(addresses)
        shut = getattr(self.socket(), "shutdown", None)
        if shut is not None:
            with contextlib.suppress(OSError):
                shut(socket.SHUT_RDWR)


def make_client(client_id: str, broker: BrokerConfig, *, will_topic: str | None = None,
                will_payload: bytes | None = None,
                reconnect: tuple[float, float] = (1, 8), session: bool = False) -> FailoverClient:
    """A paho 2 client (MQTT 5, or 3.1.1 when the broker config says so) that walks
    `broker.addresses` on each connect: connect_async(broker.host, broker.port), or
    `connect_session` for a client whose session the broker keeps (`session`)."""
    v5 = broker.mqtt_version == 5
    client = FailoverClient(broker, callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                            client_id=client_id,
                            protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
                            **({} if v5 or not session else {"clean_session": False}))
    if broker.username:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file, cert_reqs=ssl.CERT_REQUIRED)
    if will_topic:
        client.will_set(will_topic, will_payload, qos=1, retain=True)
    client.reconnect_delay_set(min_delay=int(reconnect[0]) or 1, max_delay=int(reconnect[1]))
    client.on_socket_open = _no_delay
    return client


def connect_session(client: mqtt.Client, broker: BrokerConfig, keepalive: int,
                    session_s: int) -> None:
    """connect_async to a session the broker keeps `session_s` seconds after this client
    is gone: what is published to its subscriptions meanwhile waits there for whoever
    connects next with the same client id (a restarted director, or its standby), in
    order, instead of being dropped."""
    if broker.mqtt_version == 5:
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = session_s
        client.connect_async(broker.host, broker.port, keepalive=keepalive, clean_start=False,
                             properties=props)
    else:   # 3.1.1: clean_session=False at construction (make_client's `session`)
        client.connect_async(broker.host, broker.port, keepalive=keepalive)
