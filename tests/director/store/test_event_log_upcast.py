"""Logs written by earlier code replay, through the typed decoder, to the same places."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events
from kiosk.director.log.store import EventLog

FIXTURES = Path(__file__).parents[2] / "fixtures"


@pytest.mark.parametrize("name", ["event-log-v1", "event-log-v1-floor"])
def test_a_v1_log_replays_to_the_same_state(tmp_path: Path, name: str) -> None:
    """The fixtures were written by the code before events were declared classes."""
    shutil.copy(FIXTURES / f"{name}.db", tmp_path)
    expected = json.loads((FIXTURES / f"{name}.json").read_text())
    log = EventLog(tmp_path / f"{name}.db")
    evs = list(log.read())
    assert len(evs) == expected["events"]
    assert sorted({e.kind for e in evs}) == expected["kinds"]
    assert all(isinstance(e, events.KINDS[e.kind]) for e in evs)
    tour = Tournament.replay(evs)
    assert tour.places() == expected["places"]
    if "players" in expected:
        got = sorted([p.id, p.status, p.table, p.seat, p.absent, p.penalty_hands, p.strikes]
                     for p in tour.players.values())
        assert got == expected["players"]


def test_an_old_shape_is_upcast_and_a_bad_row_is_named(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log = EventLog(tmp_path / "e.db")
    created = Tournament.create(event="u", structure=_structure(), t=1.0).config
    log.append([created])
    # a row as an older release might have written it: the note under another name
    log.store.db.execute("INSERT INTO events(stream, kind, body, v) "
                   "VALUES (?, 'floor_resolved', ?, 1)",
                   (log.stream,
                    b'{"kind":"floor_resolved","t":2,"call":"f1","table":1,"comment":"ok"}'))
    monkeypatch.setitem(events.UPCASTS, (1, "floor_resolved"),
                        lambda raw: {**raw, "note": raw.pop("comment", "")})
    rows = list(log.read())
    assert rows[1].note == "ok"
    log.store.db.execute("INSERT INTO events(stream, kind, body) VALUES (?, 'busted', ?)",
                   (log.stream, b'{"kind":"busted","t":2,"player":"p1","table":1,'
                    b'"stack":"lots","group":[]}'))
    with pytest.raises(events.EventError, match=r"stack"):
        list(log.read())


def _structure():
    from kiosk.rules.structure_files import load_structure
    return load_structure("turbo")
