"""The provisioned broker config, enforced by a real Mosquitto: one client id per login,
and no message larger than the protocol's largest (the seating directory)."""

from __future__ import annotations

import queue
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from appliance_helpers import EVENT, Broker
from waiting import wait_for

from kiosk.config.files import BrokerConfig
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import MAX_MESSAGE, encode
from kiosk.protocol.topics import Topics

T = Topics(EVENT)


class Watched:
    """A client built exactly as the services build theirs, with its events queued."""

    def __init__(self, broker: Broker, user: str, client_id: str) -> None:
        cfg = BrokerConfig(host="127.0.0.1", port=broker.port, username=user,
                           password=broker.password(user))
        self.client = make_client(client_id, cfg)
        self.connects: queue.Queue[Any] = queue.Queue()
        self.disconnects: list[Any] = []
        self.messages: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
        self.subacks: queue.Queue[int] = queue.Queue()
        c = self.client
        c.on_connect = lambda _c, _u, _f, rc, _p: self.connects.put(rc)
        c.on_disconnect = lambda _c, _u, _f, rc, _p: self.disconnects.append(rc)
        c.on_message = lambda _c, _u, m: self.messages.put(m)
        c.on_subscribe = lambda _c, _u, mid, _rcs, _p: self.subacks.put(mid)
        c.connect("127.0.0.1", broker.port, keepalive=10)
        c.loop_start()
        rc = self.connects.get(timeout=30)
        assert not rc.is_failure, rc

    def subscribe(self, topic: str) -> None:
        """Subscribed once the broker says so (its SUBACK): a round trip on this
        connection, after anything the broker did to it before."""
        _rc, mid = self.client.subscribe(topic, qos=1)
        try:
            assert self.subacks.get(timeout=30) == mid
        except queue.Empty:
            raise AssertionError(f"no SUBACK for {topic}: the connection was lost") from None

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_table_login_cannot_take_over_the_directors_session(room_broker: Broker) -> None:
    director = Watched(room_broker, "director", f"director-{EVENT}")
    try:
        impostors = [Watched(room_broker, "table-3", cid)
                     for cid in (f"director-{EVENT}", "director")]
        # a takeover would have closed the director's connection before this round trip
        director.subscribe(T.report(3))
        assert director.disconnects == [], "the director was thrown off"
        assert director.connects.empty(), "the director had to reconnect"
        # both impostors are table-3 to the broker, each taking the login from the other
        # as it reconnects: the last one stays, and the director still hears it
        impostors[0].close()
        wait_for(impostors[1].client.is_connected)
        impostors[1].client.publish(T.report(3), b"{}", qos=1).wait_for_publish(30)
        assert director.messages.get(timeout=30).topic == T.report(3)   # still receiving
        impostors[1].close()
        # two logins of the same table: the newer one wins, as with one kiosk restarting
        first = Watched(room_broker, "table-2", "anything")
        second = Watched(room_broker, "table-2", "something-else")
        wait_for(lambda: first.disconnects)
        assert first.disconnects and not second.disconnects
        first.close()
        second.close()
    finally:
        director.close()


@pytest.mark.parametrize("room_broker", [False], ids=["plain"], indirect=True)
def test_messages_above_the_limit_are_refused(room_broker: Broker) -> None:
    director = Watched(room_broker, "director", f"director-{EVENT}")
    table = Watched(room_broker, "table-1", "table-1")
    try:
        table.subscribe(T.seating(EVENT))
        # the seating directory of a 10,000-player field fits, with room to spare
        cards = {f"C{i:06d}": [i // 9 + 1, i % 9 + 1, f"Firstname Lastname-Doublebarrel {i}"]
                 for i in range(10_000)}
        big = encode({"rev": 1, "cards": cards})
        assert len(big) < MAX_MESSAGE // 4
        director.client.publish(T.seating(EVENT), big, qos=1).wait_for_publish(30)
        assert len(table.messages.get(timeout=30).payload) == len(big)
        # above the limit: Mosquitto drops it; what follows still arrives
        director.client.publish(T.seating(EVENT), b"x" * (MAX_MESSAGE + 1), qos=0)
        director.client.publish(T.seating(EVENT), b'{"rev": 2, "cards": {}}', qos=1)
        got = table.messages.get(timeout=30)
        assert got.payload == b'{"rev": 2, "cards": {}}', len(got.payload)
        with pytest.raises(queue.Empty):
            table.messages.get(timeout=1.0)
    finally:
        table.close()
        director.close()
