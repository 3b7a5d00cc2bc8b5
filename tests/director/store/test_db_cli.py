"""`pokerkiosk db copy` between a SQLite file and PostgreSQL, the doctor's database line,
and the one-line refusals of a log the director cannot use."""

from __future__ import annotations

from pathlib import Path

import pytest
from small_room import ROOM

from kiosk.appliance import checks
from kiosk.commands.main import main
from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.log.store import open_store
from kiosk.director.service import Director


def played_room(folder: Path, db: str) -> Director:
    """A room whose daily has players seated and a few reports in (a real log)."""
    (folder / "room.toml").write_text(ROOM.format(db=db))
    d = Director(load_director_config(folder / "room.toml"), clock=lambda: 1000.0)
    for i in range(14):
        d.act(commands.Register(name=f"P{i}", card=f"c{i}"), event="daily")
    d.act(commands.Start(), event="daily")
    return d


def every_row(db: str) -> list[tuple]:
    store = open_store(db)
    try:
        return [tuple(r) for rows in store.all_rows() for r in rows]
    finally:
        store.close()


def seating(d: Director) -> list[tuple]:
    players = d.events["daily"].tour.players.values()
    return sorted((p.id, p.status, p.table, p.seat) for p in players)


def test_a_room_copied_into_postgresql_and_back_is_the_same_room(
        tmp_path: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    d = played_room(tmp_path, "room.db")
    d.events["daily"].snapshots.save(d.events["daily"].tour)
    seen = seating(d)
    d.store.close()
    sqlite = str(tmp_path / "room.db")
    assert main(["db", "copy", sqlite, pg_dsn]) == 0
    assert capsys.readouterr().out.startswith(f"copied {len(every_row(sqlite))} events of "
                                              "2 streams")
    assert every_row(pg_dsn) == every_row(sqlite)
    assert open_store(pg_dsn).snapshots() == open_store(sqlite).snapshots()
    # the director on PostgreSQL folds the same room and goes on writing there
    (tmp_path / "pg").mkdir()
    (tmp_path / "pg" / "room.toml").write_text(ROOM.format(db=pg_dsn))
    on_pg = Director(load_director_config(tmp_path / "pg" / "room.toml"), clock=lambda: 1000.0)
    assert seating(on_pg) == seen
    on_pg.act(commands.Register(name="Late", card="late"), event="daily")
    on_pg.store.close()
    back = str(tmp_path / "back.db")
    assert main(["db", "copy", pg_dsn, back]) == 0
    assert every_row(back) == every_row(pg_dsn) and len(every_row(back)) > len(every_row(sqlite))


def test_a_copy_into_a_log_that_holds_events_is_refused_and_writes_nothing(
        tmp_path: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    played_room(tmp_path, "room.db").store.close()
    (tmp_path / "other").mkdir()
    played_room(tmp_path / "other", pg_dsn).store.close()
    before = every_row(pg_dsn)
    assert main(["db", "copy", str(tmp_path / "room.db"), pg_dsn]) == 2
    err = capsys.readouterr().err
    assert "already holds" in err and err.count("\n") == 1
    assert every_row(pg_dsn) == before
    assert main(["db", "copy", str(tmp_path / "missing.db"), pg_dsn]) == 2
    assert "missing.db: no such event log" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()


def test_a_director_on_a_wrong_dsn_says_so_in_one_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = "postgresql://postgres:pw@127.0.0.1:1/room"
    (tmp_path / "room.toml").write_text(ROOM.format(db=wrong))
    assert main(["director", "--config", str(tmp_path / "room.toml"), "--no-web"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerkiosk director: error: event log "
                          "postgresql://postgres:***@127.0.0.1:1/room: cannot connect")
    assert err.count("\n") == 1 and "pw@" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["room.toml"]


def test_doctor_checks_the_postgresql_log(tmp_path: Path, pg_dsn: str) -> None:
    empty = checks.database(pg_dsn)
    assert empty.status == "OK" and "empty (the director creates it)" in empty.message
    played_room(tmp_path, pg_dsn).store.close()
    line = checks.database(pg_dsn)
    assert line.status == "OK" and "schema version 1" in line.message
    assert "a primary with no streaming standby" in line.message
    with open_store(pg_dsn).db as conn:   # type: ignore[attr-defined]
        conn.execute("UPDATE schema_version SET version = 7")
    newer = checks.database(pg_dsn)
    assert newer.status == "FAIL" and "schema version 7 (newer)" in newer.message
    gone = checks.database("postgresql://postgres@127.0.0.1:1/room")
    assert gone.status == "FAIL" and "cannot connect" in gone.message and "fix" in gone.line()


def test_db_check_says_what_a_log_holds_and_results_read_postgresql(
        tmp_path: Path, pg_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    played_room(tmp_path, pg_dsn).store.close()
    assert main(["db", "check", pg_dsn]) == 0
    out = capsys.readouterr().out
    assert "(postgresql)" in out and "in 2 streams (daily " in out and "room " in out
    assert main(["results", "--db", pg_dsn, "--json"]) == 0
    assert '"P0"' in capsys.readouterr().out
