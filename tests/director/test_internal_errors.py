"""A bug is never a rule: whatever raises that is not a RuleError, in an event's decision,
in the room's own or in what the room does after an event's, refuses the command whole as
"internal error (logged)", writes nothing, and is counted; the test fixtures fail any test
whose directors met one unless it says so."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_room_director import register, room

from kiosk.base.errors import InternalError
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.director.centre.transactions import Transactions

TESTS = Path(__file__).resolve().parents[1]


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
    assert 8 not in d.desks["sat"].tour.seating.granted
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
    assert not d.desks["daily"].tour.started
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
