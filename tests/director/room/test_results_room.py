"""`pokerkiosk results` on a room log: one player's results across every event, one event
of the room by name, and a clear error when a room log is read as if it held one event."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from room_kit import Dealer, register, room

from kiosk.commands.main import main
from kiosk.core.model import commands


def _played_room(tmp_path: Path) -> None:
    d = room(tmp_path)
    d.act(commands.Register(name="Ann Byrne", card="c1", country="IE"), event="daily")
    d.act(commands.Register(name="Ann Byrne", card="c1"), event="sat")
    register(d, "daily", 11)
    register(d, "sat", 11, "S")
    for event in ("daily", "sat"):
        d.act(commands.Start(), event=event)
    d.act(commands.LockPayouts(), user="floor", event="sat")
    Dealer(d, "daily").play_down(1)
    Dealer(d, "sat").play_down(1)
    d.store.close()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["results", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_players_results_across_the_rooms_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _played_room(tmp_path)
    db = str(tmp_path / "room.db")
    code, out, _ = _run(capsys, "--db", db, "--player", "ann byrne", "--json")
    assert code == 0
    found = json.loads(out)
    assert len(found["players"]) == 1 and found["players"][0]["card"] == "c1"
    assert [r["event"] for r in found["results"]] == ["daily", "sat"]
    assert all(r["place"] is not None for r in found["results"])
    sat = next(r for r in found["results"] if r["event"] == "sat")
    assert sat["title"] == "Satellite to Sunday" and sat["kind"] == "satellite"
    won_seat = sat["prize"] >= 300
    assert [t["target"] for t in found["tickets"]] == (["sunday"] if won_seat else [])
    # the same by card, as CSV
    code, out, _ = _run(capsys, "--db", db, "--player", "c1")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["event"] for r in rows] == ["daily", "sat"]
    assert rows[0]["name"] == "Ann Byrne" and rows[0]["country"] == "IE"
    code, _, err = _run(capsys, "--db", db, "--player", "Nobody")
    assert code == 2 and "no player 'Nobody'" in err


def test_one_event_of_a_room_log_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _played_room(tmp_path)
    db = str(tmp_path / "room.db")
    code, out, _ = _run(capsys, "--db", db, "--event", "daily", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["event"] == "daily" and len(body["results"]) == 12
    assert sorted(r["place"] for r in body["results"]) == list(range(1, 13))
    code, _, err = _run(capsys, "--db", db)
    assert code == 2 and "several events" in err and "--event" in err
    code, _, err = _run(capsys, "--db", db, "--event", "nowhere")
    assert code == 2 and "no event 'nowhere'" in err and "daily" in err
