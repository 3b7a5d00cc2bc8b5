"""Every decision is a transaction: applied and logged whole, or as if it never came.

The director is real (in-process, its own SQLite log); reports go through `drain`
exactly as they come off the broker. Bugs are injected into the core to prove that
whatever raises, not only a rule, leaves state, log and acknowledgements untouched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.config.files import EventConfig
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.core.model.commands import BustReport, FloorCallReport
from kiosk.director.log.store import EventLog
from kiosk.director.service import Director
from kiosk.protocol.messages import encode


def director(tmp_path: Path, players: int = 18) -> Director:
    cfg = EventConfig(name="tx-test", structure="turbo", seed=3, db=str(tmp_path / "e.db"))
    d = Director(cfg)
    for i in range(players):
        d.act(commands.decode({"kind": "register", "name": f"Player {i + 1}"}))
    d.act(commands.decode({"kind": "start"}))
    return d


class Acks:
    """Captures what the director would publish: acks and plans."""

    def __init__(self, d: Director) -> None:
        self.acks: dict[int, list[dict[str, Any]]] = {}
        self.d = d
        d.wire.send = self._publish  # type: ignore[method-assign]

    def _publish(self, topic: str, body: dict[str, Any], retain: bool = True) -> None:
        if "/ack/" in topic:
            self.acks.setdefault(int(topic.rsplit("/", 1)[1]), []).append(body)

    def rejected(self, table: int) -> dict[str, str]:
        return {k: v for a in self.acks.get(table, []) for k, v in a.get("rejected", {}).items()}

    def ids(self, table: int) -> list[str]:
        return [i for a in self.acks.get(table, []) for i in a["ids"]]


def send(d: Director, table: int, rid: str, kind: str, **data: Any) -> None:
    body = {"table": table, "id": rid, "seq": 1, "ts": 1.0, "kind": kind, "data": data}
    d.inbox.queue.append((d.topics.report(table), encode(body)))


def seat_of(d: Director, table: int) -> tuple[int, str]:
    seat, pid = sorted(d.tour.tables[table].seat_of.items())[0]
    return seat, pid


def state(d: Director | Tournament) -> tuple:
    t = d if isinstance(d, Tournament) else d.tour
    return (sorted((p.id, p.status, p.table, p.seat) for p in t.players.values()),
            sorted((c.id, c.state) for c in t.floor_calls.values()), t.n_events,
            sorted(t.seen_reports))


@pytest.mark.internal_errors(1)
def test_a_bug_after_some_events_rolls_everything_back(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    d = director(tmp_path)
    out = Acks(d)
    seat, pid = seat_of(d, 1)
    send(d, 1, "ok-1", "floor_call", seat=seat)      # earlier in the same batch: kept
    part, real = Tournament.report_handlers[BustReport]

    def buggy(reports: Any, tab: Any, data: Any, t: float, rid: str) -> None:
        real(reports, tab, data, t, rid)                  # the bust is applied in memory...
        raise KeyError("a bug")                        # ...then something unexpected raises

    monkeypatch.setitem(Tournament.report_handlers, BustReport, (part, buggy))
    send(d, 1, "bad-1", "bust", seat=seat, player=pid)
    send(d, 1, "ok-2", "all_in", seat=seat, hand=0)  # later in the batch: still applied
    logged = len(d.log)
    d.drain()
    assert d.tour.players[pid].status == "seated", "the half-applied bust is gone"
    assert (1, "bad-1") not in d.tour.seen_reports
    assert out.ids(1) == ["ok-1", "bad-1", "ok-2"]
    assert out.rejected(1) == {"bad-1": "internal error (logged)"}   # a bug, not a rule
    assert d.internal_errors == 1
    # the log holds exactly what memory holds: a replay gives the same state
    assert len(d.log) == logged + 2
    assert state(d)[:2] == state(_replayed(d))[:2]
    monkeypatch.setitem(Tournament.report_handlers, BustReport, (part, real))
    send(d, 1, "bad-1", "bust", seat=seat, player=pid)   # the re-send now applies
    d.drain()
    assert d.tour.players[pid].status == "busted"


def _replayed(d: Director) -> Tournament:
    return Tournament.replay(EventLog(d.config.db).read())


@pytest.mark.internal_errors(1)
def test_an_event_that_cannot_be_stored_refuses_the_command(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture
                                                            ) -> None:
    d = director(tmp_path)
    out = Acks(d)
    seat, _ = seat_of(d, 2)
    part, real = Tournament.report_handlers[FloorCallReport]

    def oversized(reports: Any, tab: Any, data: Any, t: float, rid: str) -> None:
        real(reports, tab, data, t, rid)
        tour = reports.t
        tour.floor_calls[next(reversed(tour.floor_calls))].note = "x"
        tour._emit("floor_resolved", t, call="f1", table=tab.id, note="x" * 5000)

    monkeypatch.setitem(Tournament.report_handlers, FloorCallReport, (part, oversized))
    before = state(d)
    send(d, 2, "r1", "floor_call", seat=seat)
    d.drain()
    assert out.rejected(2)["r1"] == "internal error (logged)"
    assert "cannot be stored" in caplog.text       # the log says what went wrong
    assert state(d) == before


def test_a_refused_undo_leaves_nothing(tmp_path: Path) -> None:
    """The floor put the player back already: the table's undo is refused whole."""
    d = director(tmp_path)
    out = Acks(d)
    (s1, _p1), (s2, p2) = sorted(d.tour.tables[1].seat_of.items())[:2]
    send(d, 1, "a1", "all_in", seat=s1, hand=0)
    send(d, 1, "b1", "bust", seat=s2, player=p2)
    d.drain()
    d.act(commands.decode({"kind": "unbust", "player": p2}))          # the floor puts p2 back first
    before = state(d)
    send(d, 1, "u1", "undo", report="b1")            # so the table's undo must fail whole
    d.drain()
    assert "no longer out" in out.rejected(1)["u1"]
    assert state(d) == before


def test_report_ids_are_per_table(tmp_path: Path) -> None:
    """Table 2 using an id that table 1 also uses shadows nothing."""
    d = director(tmp_path)
    out = Acks(d)
    seat1, _ = seat_of(d, 1)
    seat2, _ = seat_of(d, 2)
    send(d, 2, "1-b0-7", "floor_call", seat=seat2)   # shaped like table 1's next id
    send(d, 1, "1-b0-7", "floor_call", seat=seat1)
    d.drain()
    assert sorted(c.table for c in d.tour.floor_calls.values()) == [1, 2]
    assert out.rejected(1) == {} and out.rejected(2) == {}


def test_a_report_resent_after_its_table_broke_is_acknowledged_as_applied(
        tmp_path: Path) -> None:
    """A table re-sends a report the director applied (its ack was lost in a restart)
    after the table broke: acknowledged again as applied, not refused as out of play."""
    d = director(tmp_path, players=20)   # three tables
    out = Acks(d)
    seat, pid = seat_of(d, 3)
    send(d, 3, "a-1", "absent", seat=seat)
    d.drain()
    for other in sorted(set(d.tour.tables[3].seat_of.values()) - {pid})[:2]:  # 18 fit 2
        d.act(commands.decode({"kind": "bust", "player": other}))
    assert d.tour.tables[3].broken
    before, logged = state(d), len(d.log)
    send(d, 3, "a-1", "absent", seat=seat)
    d.drain()
    assert out.ids(3) == ["a-1", "a-1"] and out.rejected(3) == {}
    assert state(d) == before and len(d.log) == logged
    assert d.tour.players[pid].absent


def test_a_report_naming_another_table_is_acknowledged_as_rejected(tmp_path: Path) -> None:
    d = director(tmp_path)
    out = Acks(d)
    body = {"table": 2, "id": "x-1", "seq": 1, "ts": 1.0, "kind": "floor_call", "data": {}}
    d.inbox.queue.append((d.topics.report(1), encode(body)))
    d.drain()
    assert out.ids(1) == ["x-1"] and "names table 2" in out.rejected(1)["x-1"]


@pytest.mark.parametrize("data", [
    {"hand": 10**30, "button": 1, "sb": 2, "bb": 3, "dealt": [1, 2, 3]},
    {"hand": 1, "button": "1", "sb": 2, "bb": 3, "dealt": [1, 2, 3]},
    {"hand": 1, "button": 1, "sb": 2, "bb": 3, "dealt": [1, 1]},
    {"hand": 1, "button": 1, "sb": 2, "bb": 3, "dealt": [1, 2], "waiting": None},
    {"hand": 1, "button": 1, "sb": 2, "bb": 3, "dealt": [1, 2], "waiting": 5},
])
def test_crash_loop_reports_are_refused_and_the_log_stays_replayable(tmp_path: Path,
                                                                     data: dict) -> None:
    d = director(tmp_path)
    out = Acks(d)
    logged = len(d.log)
    send(d, 1, "h1", "hand_started", **data)
    seat, pid = seat_of(d, 1)
    send(d, 1, "b1", "bust", seat=seat, player=pid, stack=2**64)
    send(d, 1, "b2", "bust", seat=seat, player=pid, stack=[1])
    d.drain()
    assert set(out.rejected(1)) == {"h1", "b1", "b2"}
    assert len(d.log) == logged
    Tournament.replay(EventLog(d.config.db).read()).places()
