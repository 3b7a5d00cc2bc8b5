"""Two brokers: when the table's broker dies, the table and the director move to the other
one, and every report the director had not acknowledged arrives there once."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from waiting import PROMPT_S, holds, wait_for

from kiosk.base.errors import ConfigError
from kiosk.config.files import load_table_config
from kiosk.director.log.store import EventLog
from kiosk.mqtt.broker import Mosquitto
from kiosk.table.service import TableService


@pytest.fixture
def second_broker(tmp_path: Path):
    (tmp_path / "broker-b").mkdir()
    broker = Mosquitto(workdir=str(tmp_path / "broker-b")).start()
    yield broker
    broker.stop()


def table_toml(tmp_path: Path, room: str, *urls: str) -> Path:
    state = tmp_path / "table-1"
    state.mkdir(exist_ok=True)
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\nnumber = 1\nroom = "{room}"\nstate_dir = "{state}"\n\n'
                    f"[broker]\nurls = [{', '.join(repr(u) for u in urls)}]\n\n"
                    "[gpio]\nenabled = false\n")
    return path


def sent(*results) -> list[str]:
    ids = [r.report["id"] for r in results if r.report]
    assert len(ids) == len(results), [r.message for r in results]
    return ids


def test_the_table_moves_to_the_next_broker_and_nothing_is_lost_or_doubled(
        tmp_path, mosquitto, second_broker, director_factory) -> None:
    a, b = (f"mqtt://127.0.0.1:{m.port}" for m in (mosquitto, second_broker))
    director = director_factory(players=18, brokers=[mosquitto, second_broker]).start()
    cfg = load_table_config(table_toml(tmp_path, director.name, a, b))
    # a long re-send period: only the move itself may send the unacked reports again
    svc = TableService(cfg, resend_s=300, reconnect=(1, 2), debounce_s=0.0)
    svc.start()
    try:
        wait_for(lambda: sum(1 for s in svc.view().seats if s.name) == 9)
        assert svc.link.client.address == a               # the first that answers
        ids = sent(svc.act("new_hand"))
        wait_for(lambda: svc.outbox.pending_count() == 0)

        assert director.proc is not None
        os.kill(director.proc.pid, signal.SIGSTOP)        # taken by broker A, never acked
        try:
            ids += sent(svc.act("end_hand"), svc.act("new_hand"), svc.act("press_floor"))
            wait_for(lambda: not svc.outbox.unsent() and svc.outbox.pending_count() == 3)
            mosquitto.stop()                              # broker A is gone with them
            gone = time.monotonic()
            ids += sent(svc.act("end_hand"), svc.act("new_hand"))
            wait_for(lambda: svc.link.connected and svc.link.client.address == b, timeout=10)
            moved_s = time.monotonic() - gone
        finally:   # the director wakes up after the table is on B, and follows it there
            os.kill(director.proc.pid, signal.SIGCONT)
        wait_for(lambda: svc.outbox.pending_count() == 0, timeout=20)
        assert moved_s < PROMPT_S, f"the table took {moved_s:.1f} s to reach broker B"
        reported = [e["report"] for e in EventLog(director.db).read()
                    if e.get("table") == 1 and e.get("report")]
        assert sorted(reported) == sorted(ids), "every report applied exactly once"
        assert not svc.view().offline
        # the director moved too: a report made now is acknowledged over broker B
        sent(svc.act("end_hand"))
        wait_for(lambda: svc.outbox.pending_count() == 0, timeout=10)
    finally:
        svc.stop()


def test_a_table_on_a_broker_without_director_finds_it_on_the_next(
        tmp_path, mosquitto, second_broker, director_factory) -> None:
    """Broker A answers but the director is on B (A came back after everyone moved):
    the table does not wait there forever."""
    a, b = (f"mqtt://127.0.0.1:{m.port}" for m in (mosquitto, second_broker))
    director = director_factory(players=18, brokers=[second_broker]).start()
    svc = TableService(load_table_config(table_toml(tmp_path, director.name, a, b)),
                       resend_s=300, reconnect=(1, 2), debounce_s=0.0)
    svc.link.hunt_s = 2.0
    svc.start()
    try:
        assert svc.link.wait_connected(10) and svc.link.client.address == a
        wait_for(lambda: svc.link.client.address == b and svc.link.connected, timeout=10)
        wait_for(lambda: sum(1 for s in svc.view().seats if s.name) == 9)
        ids = sent(svc.act("new_hand"), svc.act("end_hand"))
        wait_for(lambda: svc.outbox.pending_count() == 0, timeout=10)
        holds(lambda: svc.link.client.address == b and svc.link.connected, 3,   # past a hunt
              "the director is on B: the table stays there")
        reported = [e["report"] for e in EventLog(director.db).read()
                    if e.get("table") == 1 and e.get("report")]
        assert sorted(reported) == sorted(ids)
    finally:
        svc.stop()


@pytest.mark.parametrize(("broker", "error"), [
    ('urls = ["mqtt://a:1883", "mqtts://b:8883"]', "same scheme"),
    ('urls = ["mqtt://a:1883", "mqtt://a:1883"]', "listed twice"),
    ('urls = ["mqtt://a:1883", "http://b"]', "broker.urls"),
    ('url = "mqtt://c:1883"\nurls = ["mqtt://a:1883"]', "not in broker.urls"),
])
def test_a_wrong_broker_list_is_one_clear_error(tmp_path, broker, error) -> None:
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\nnumber = 1\nroom = "r"\nstate_dir = "{tmp_path}"\n\n'
                    f"[broker]\n{broker}\n\n[gpio]\nenabled = false\n")
    with pytest.raises(ConfigError, match=error):
        load_table_config(path)
