"""Fixtures for the appliance tests: provisioned rooms and real Mosquitto brokers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from appliance_helpers import (
    Broker,
    Client,
    connect,
    free_port,
    make_room,
    start_broker,
    stop_broker,
)


@pytest.fixture
def room_broker(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Broker]:
    """A provisioned room and its broker; parametrize indirectly with True for TLS."""
    use_tls = bool(getattr(request, "param", False))
    port = free_port()
    room = make_room(tmp_path / "room", tls=use_tls, port=port)
    broker = start_broker(room, port, tmp_path)
    yield broker
    stop_broker(broker)


@pytest.fixture
def clients() -> Iterator[Callable[..., tuple[Client, Any]]]:
    """`connect` that disconnects everything it made at teardown."""
    made: list[Client] = []

    def make(*args: Any, **kw: Any) -> tuple[Client, Any]:
        client, rc = connect(*args, **kw)
        made.append(client)
        return client, rc

    yield make
    for c in made:
        c.mqtt.disconnect()
        c.mqtt.loop_stop()
