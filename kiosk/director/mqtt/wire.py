"""The director's one door to the broker: every outgoing message goes through `send`.

It holds the MQTT client while one is connected (the link sets it, a deposed leader drops
it), this run's epoch (tables follow the newest director) and the stamp a retained message
carries: the log's position, the epoch and the time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from kiosk.director.centre.ports import Clock
from kiosk.protocol.messages import MAX_MESSAGE, ProtocolError, encode, parse
from kiosk.protocol.topics import Topics

log = logging.getLogger("kiosk.director")


def _unpublishable(what: str, exc: BaseException) -> None:
    log.error("internal error in %s: not published: %s", what, exc)


class Position(Protocol):
    """The log's global position: a plan's revision."""

    @property
    def last_seq(self) -> int: ...


class Wire:
    """Publishing at QoS 1, stamped; silent while no client is connected."""

    def __init__(self, topics: Topics, log_: Position, clock: Clock) -> None:
        self.topics = topics
        self.log = log_
        self.clock = clock
        self.epoch = round(clock(), 3)   # this run: tables follow a restored director
        self.client: mqtt.Client | None = None
        # a message its schema refuses: the director counts it as an internal error
        self.bug: Callable[[str, BaseException], None] = _unpublishable

    def send(self, topic: str, body: dict[str, Any], retain: bool = True) -> int:
        """Publish `body` at QoS 1, checked first against the schema of its topic as
        its receiver will check it: one that breaks it is not sent (the receiver would
        refuse it, silently to us) and goes to `bug`, which counts it as an internal
        error. One above the broker's size limit is logged, not sent. The bytes sent
        (0: none), for the pacing of what every table hears."""
        if self.client is None:
            return 0
        kind = self.topics.kind(topic)
        try:
            payload = encode(body)
            if kind is not None:
                parse(kind, payload)
        except ProtocolError as exc:
            self.bug(f"publishing {topic}", exc)
            return 0
        if len(payload) > MAX_MESSAGE:   # the broker would drop us, again and again
            log.error("not published: %s is %d bytes, above the %d-byte limit", topic,
                      len(payload), MAX_MESSAGE)
            return 0
        self.client.publish(topic, payload, qos=1, retain=retain)
        return len(payload)

    def send_encoded(self, topic: str, payload: bytes, retain: bool = True) -> bool:
        """Publish a message encoded already (a release's own schema) at QoS 1; whether
        a client was there to take it."""
        if self.client is None:
            return False
        self.client.publish(topic, payload, qos=1, retain=retain)
        return True

    def stamp(self) -> dict[str, Any]:
        """The revision, epoch and time every plan and schedule carries."""
        return {"rev": self.log.last_seq, "epoch": self.epoch, "ts": self.clock()}

    def silence(self) -> None:
        """Drop the connection quietly (no "offline" status): a deposed leader's."""
        client, self.client = self.client, None
        if client is not None:
            client.disconnect()
            client.loop_stop()
