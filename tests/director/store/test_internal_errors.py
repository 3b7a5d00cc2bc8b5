"""A bug is never a rule: whatever raises that is not a RuleError, in an event's decision,
in the room's own or in what the room does after an event's, refuses the command whole as
"internal error (logged)", writes nothing, and is counted; the test fixtures fail any test
whose directors met one unless it says so."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import paho.mqtt.publish as publish
import pytest
from room_kit import register, room
from served import Served
from waiting import holds, wait_for

from kiosk.base.errors import InternalError
from kiosk.config.files import EventConfig
from kiosk.core.event import plans
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.director.centre.transactions import Transactions
from kiosk.director.mqtt.publisher import Publishing
from kiosk.director.service import Director
from kiosk.mqtt.broker import Mosquitto, free_port
from kiosk.protocol.messages import decode, encode

TESTS = Path(__file__).resolve().parents[2]


@pytest.mark.internal_errors(1)
def test_a_bug_in_a_room_command_leaves_room_and_event_as_they_were(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Assigning a table: the room decides, then the event's grant breaks half-way."""
    d = room(tmp_path)
    part, grant = Tournament.DECIDES[commands.GrantTables]

    def broken(seating: Any, cmd: Any, t: float) -> None:
        grant(seating, cmd, t)                     # the event holds the table now...
        raise ZeroDivisionError("a bug")           # ...and then something breaks

    monkeypatch.setitem(Tournament.DECIDES, commands.GrantTables, (part, broken))
    written = d.store.last_seq
    with pytest.raises(InternalError, match=r"^internal error \(logged\)$"):
        d.room_act(rc.AssignTable(table=8, event="sat"), user="floor")
    assert d.store.last_seq == written
    assert d.table_event(8) is None and 8 in d.room.free_tables()
    assert 8 not in d.events["sat"].tour.seating.granted
    assert d.internal_errors == 1
    monkeypatch.setitem(Tournament.DECIDES, commands.GrantTables, (part, grant))
    d.room_act(rc.AssignTable(table=8, event="sat"), user="floor")   # the same, fixed
    assert d.table_event(8) == "sat"


@pytest.mark.internal_errors(1)
def test_a_bug_in_what_the_room_does_after_a_decision_undoes_the_decision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The event started (decided, folded); the room then fails to mark it running: the
    start is undone too, not left in memory ahead of the log."""
    d = room(tmp_path)
    register(d, "daily", 8)

    def broken(self: Transactions, *args: Any, **kw: Any) -> None:
        raise KeyError("running")

    monkeypatch.setattr(Transactions, "set_state", broken)
    written = d.store.last_seq
    with pytest.raises(InternalError):
        d.act(commands.Start(), event="daily")
    assert d.store.last_seq == written
    assert not d.events["daily"].tour.started
    assert d.room.events["daily"].state == "open"
    assert d.internal_errors == 1


INNER = '''
import pytest
from kiosk.config.files import EventConfig
from kiosk.core.model import commands
from kiosk.core.play.registry import Registry
from kiosk.director.service import Director


def a_director_meets_a_bug(tmp_path, monkeypatch) -> None:
    d = Director(EventConfig(name="inner", structure="turbo", db=str(tmp_path / "e.db")))
    monkeypatch.setattr(Registry, "player", lambda *a: 1 / 0)
    with pytest.raises(Exception, match="internal error"):
        d.act(commands.Bust(player="p1"))


def test_unmarked(tmp_path, monkeypatch) -> None:
    a_director_meets_a_bug(tmp_path, monkeypatch)


@pytest.mark.internal_errors(1)
def test_marked(tmp_path, monkeypatch) -> None:
    a_director_meets_a_bug(tmp_path, monkeypatch)


@pytest.mark.internal_errors(1)
def test_marked_but_clean(tmp_path) -> None:
    Director(EventConfig(name="inner", structure="turbo", db=str(tmp_path / "e.db")))


def test_clean(tmp_path) -> None:
    Director(EventConfig(name="inner", structure="turbo", db=str(tmp_path / "e.db")))
'''


def test_the_fixtures_fail_a_test_whose_director_met_a_bug(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's own conftest, in a pytest of its own: an unmarked bug fails its test, a
    marked one passes, a marked test that provokes none fails too."""
    pytester.makeconftest((TESTS / "conftest.py").read_text())
    pytester.makepyfile(test_inner=INNER)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS),
                                                      os.environ.get("PYTHONPATH", "")]))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=4, errors=2)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_unmarked*",
                                 "*the directors met 1 internal error(s), expected 0*"])
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_marked_but_clean*",
                                 "*the directors met 0 internal error(s), expected 1*"])


class ServedOverMosquitto(Served):
    """A director serving its room over a real Mosquitto, with its dashboard;
    `retained(topic)` is what a table subscribing now would get."""

    def __init__(self, tmp_path: Path, broker: Mosquitto) -> None:
        self.broker = broker
        super().__init__(Director(EventConfig(name="plans", structure="turbo", seed=3,
                                              db=str(tmp_path / "e.db"),
                                              broker=broker.config, http_port=free_port())),
                         web=True)

    def retained(self, topic: str) -> dict[str, Any]:
        got: list[bytes] = []
        c = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                        client_id=f"look-{time.monotonic_ns()}")
        c.on_connect = lambda cl, *_: cl.subscribe(topic, 1)
        c.on_message = lambda cl, u, m: got.append(m.payload)
        c.connect("127.0.0.1", self.broker.port)
        c.loop_start()
        try:
            wait_for(lambda: got, timeout=10)
        finally:
            c.loop_stop()
            c.disconnect()
        return decode("plan", got[-1]) if topic.endswith("/plan") else json.loads(got[-1])

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.d.dashboard_url + "api/health", timeout=5) as r:
            return dict(json.load(r))


@pytest.mark.internal_errors(1)
def test_a_plan_that_breaks_its_schema_is_never_published_and_is_counted(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    """The director checks every message against its schema before it publishes it. A
    plan that lists eleven busts (a bug planted where the plan lists them; the schema
    allows ten) stays unpublished: the table keeps its last good plan instead of
    refusing a new one where nobody sees it, and the bug is counted where the dashboard
    and `pokerkiosk doctor` read it. The bust itself stands."""
    served = ServedOverMosquitto(tmp_path, mosquitto)
    try:
        d = served.d
        for i in range(11):
            served.call(lambda i=i: d.act(commands.Register(name=f"Player {i + 1}")))
        served.call(lambda: d.act(commands.Start()))
        topic = d.topics.plan(1)
        seats = sorted(d.tour.tables[1].seat_of)
        hand = {"v": 2, "table": 1, "id": "h1", "seq": 1, "ts": 1.0, "kind": "hand_started",
                "data": {"hand": 1, "button": seats[0], "sb": seats[1], "bb": seats[2],
                         "dealt": seats}}   # table 1 deals: its busts are that hand's
        publish.single(d.topics.report(1), encode(hand), qos=1, hostname="127.0.0.1",
                       port=mosquitto.port)
        before = wait_for(lambda: (p := served.retained(topic)) and p["hand"] == 1 and p)
        real = plans.hand_busts

        def eleven(tour: Any, tab: Any) -> list[dict[str, Any]]:
            found = real(tour, tab)
            return found * 11 if found else found

        monkeypatch.setattr(plans, "hand_busts", eleven)
        out = next(p.id for p in d.tour.players.values() if p.table == 1)
        served.call(lambda: d.act(commands.Bust(player=out), "floor"))
        assert d.tour.players[out].status == "busted"
        assert served.health()["internal_errors"] == 1 == d.internal_errors
        assert "publishing " + topic in d.service.tx.bugs[-1]
        holds(lambda: served.retained(topic)["rev"] == before["rev"], 0.5,
              "the plan the bug broke went out")
        monkeypatch.setattr(plans, "hand_busts", real)   # fixed: the next change goes out
        second = next(p.id for p in d.tour.players.values()
                      if p.table == 1 and p.status == "seated")
        served.call(lambda: d.act(commands.Bust(player=second), "floor"))
        wait_for(lambda: [b["player"] for b in served.retained(topic)["busts"]]
                 == [out, second], timeout=10)
    finally:
        served.close()


@pytest.mark.internal_errors(1)
def test_a_bug_in_publishing_after_the_write_is_counted_and_the_decision_stands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch is written; telling the publishing about it then fails. The report is
    applied and logged all the same, its table is acknowledged (it need not send it
    again), and the bug is counted like one met while deciding."""
    d = Director(EventConfig(name="pub", structure="turbo", seed=3,
                             db=str(tmp_path / "e.db")))
    for i in range(12):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    acks: list[dict[str, Any]] = []
    d.wire.send = lambda topic, body, retain=True: acks.append(body) \
        if "/ack/" in topic else None   # type: ignore[method-assign]

    def broken(self: Publishing, batch: Any) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(Publishing, "committed", broken)
    written = d.store.last_seq
    seat, pid = min(d.tour.tables[1].seat_of.items())
    body = {"v": 2, "table": 1, "id": "b1", "seq": 1, "ts": 1.0, "kind": "bust",
            "data": {"seat": seat, "player": pid}}
    d.inbox.queue.append((d.topics.report(1), encode(body)))
    d.drain()
    assert d.store.last_seq > written and d.tour.players[pid].status == "busted"
    assert acks == [{"ids": ["b1"]}]
    assert d.internal_errors == 1 and "Publishing after the write" in d.service.tx.bugs[-1]
