"""The store: several events' streams in one log, written together or not at all, on
both backends (a SQLite file, a PostgreSQL database of the machine's server)."""

from __future__ import annotations

import pickle
import sqlite3
from pathlib import Path

import psycopg
import pytest
from harness.pg_admin import PrivateCluster, scratch_database

from kiosk.base.errors import KioskError
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events as ev_
from kiosk.core.room.room import ROOM_STREAM, Room
from kiosk.director.log import snapshots
from kiosk.director.log.store import EventLog, Store, StreamLog, open_store
from kiosk.mqtt.broker import free_port
from kiosk.rules.structure_files import load_structure


def created(event: str, t: float = 1.0) -> ev_.Event:
    return Tournament.create(event=event, structure=load_structure("turbo"), t=t).config


def registered(player: str, t: float = 2.0) -> ev_.Event:
    return ev_.make("registered", t, player=player, name=f"Player {player}", stack=10000)


def players(log: StreamLog) -> list[str]:
    return sorted(Tournament.replay(log.read()).players)


@pytest.fixture
def db(log_db: str) -> str:
    return log_db


def test_streams_are_isolated_and_share_one_global_seq(db: str) -> None:
    store = open_store(db)
    daily, sat = store.stream("daily"), store.stream("sat")
    daily.append([created("daily"), registered("p1")])
    sat.append([created("sat"), registered("p9")])
    daily.append([registered("p2")])
    assert players(daily) == ["p1", "p2"] and players(sat) == ["p9"]
    assert (daily.last_seq, sat.last_seq, store.last_seq) == (5, 4, 5)
    assert (len(daily), len(sat)) == (3, 2)
    assert [e.kind for e in sat.read(after=3)] == ["registered"]   # global seq
    assert store.streams() == ["daily", "sat"]
    store.close()
    again = open_store(db)       # positions as written, after a restart
    assert (again.stream("daily").last_seq, again.stream("sat").last_seq) == (5, 4)
    assert again.last_seq == 5
    again.close()
    with pytest.raises(KioskError, match="several events"):
        EventLog(db)       # "the only event" is ambiguous here


def test_a_multi_stream_append_is_all_or_nothing(db: str) -> None:
    store = open_store(db)
    store.append({"main": [created("main")], "sat": [created("sat")]})
    before = store.last_seq
    good = ("registered", ev_.check(registered("p1")))
    bad = ("registered", None)                # NOT NULL: the insert fails mid-way
    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.IntegrityError)):
        store.append_many({"main": [good], "sat": [good, bad]})   # type: ignore[dict-item]
    assert store.last_seq == before
    assert (len(store.stream("main")), len(store.stream("sat"))) == (1, 1)
    assert players(store.stream("main")) == [] and players(store.stream("sat")) == []
    with pytest.raises(ev_.EventError, match="registered"):    # checked before any write
        store.append({"main": [registered("p1")],
                      "sat": [{"kind": "registered", "t": 3, "player": "p2"}]})
    assert open_store(db).last_seq == before     # nothing reached the log
    last = store.append_many({"main": [good], "sat": [good]})
    assert last == before + 2 == store.last_seq
    assert players(store.stream("main")) == players(store.stream("sat")) == ["p1"]


def test_event_log_of_a_new_file_names_its_stream_after_the_event(db: str) -> None:
    log = EventLog(db)
    assert log.last_seq == 0
    log.append([created("sunday"), registered("p1")])
    assert log.stream == "sunday" and open_store(db).streams() == ["sunday"]
    store = open_store(db)
    store.stream("room").append_rows([("created", ev_.check(created("x")))])
    reopened = EventLog(db)   # the room's stream is not an event
    assert reopened.stream == "sunday" and players(reopened) == ["p1"]


def old_file(path: Path, evs: list[ev_.Event], snapshot: Tournament | None = None) -> None:
    """A log as the code before streams wrote it: no `stream` column, seq per event."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
               "body BLOB NOT NULL, v INTEGER NOT NULL DEFAULT 2)")
    db.executemany("INSERT INTO events(kind, body) VALUES (?, ?)",
                   [(e.kind, ev_.check(e)) for e in evs])
    if snapshot is not None:
        db.execute("CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, version TEXT NOT NULL, "
                   "state BLOB NOT NULL)")
        db.execute("INSERT INTO snapshots VALUES (?, ?, ?)",
                   (len(evs), snapshots.code_version(), pickle.dumps(snapshot)))
    db.commit()
    db.close()


def test_an_old_single_event_file_is_migrated_in_place(tmp_path: Path) -> None:
    evs = [created("friday"), registered("p1"), registered("p2")]
    marked = Tournament.replay(evs)
    marked.alive = -7                          # tells the migrated snapshot apart
    old_file(tmp_path / "old.db", evs, snapshot=marked)
    store = Store(tmp_path / "old.db")
    assert store.streams() == ["friday"] and store.last_seq == 3
    friday = store.stream("friday")
    assert players(friday) == ["p1", "p2"]
    assert snapshots.Snapshots(friday).load().alive == -7     # its snapshot came along
    assert players(EventLog(tmp_path / "old.db")) == ["p1", "p2"]
    store.append({"room": [created("room-marker")]})          # and it takes new streams
    assert store.streams() == ["friday", "room"]
    index = store.db.execute("SELECT sql FROM sqlite_master WHERE name = 'events_stream_seq'")
    assert "stream, seq" in index.fetchone()[0]


def test_a_migration_that_fails_leaves_the_old_file_as_it_was(tmp_path: Path) -> None:
    old_file(tmp_path / "old.db", [created("friday")])
    db = sqlite3.connect(tmp_path / "old.db")
    db.execute("UPDATE events SET body = '{\"kind\":\"created\"}'")   # names no event
    db.commit()
    with pytest.raises(KioskError, match="names no event"):
        Store(tmp_path / "old.db")
    cols = [r[1] for r in db.execute("PRAGMA table_info(events)")]
    assert "stream" not in cols and db.execute("SELECT COUNT(*) FROM events").fetchone() == (1,)


def test_snapshots_are_kept_per_stream(db: str) -> None:
    store = open_store(db)
    a, b = store.stream("a"), store.stream("b")
    a.append([created("a"), registered("p1")])
    b.append([created("b"), registered("p2"), registered("p3")])
    snap_a, snap_b = snapshots.Snapshots(a), snapshots.Snapshots(b)
    state_a = Tournament.replay(a.read())
    state_a.alive = -1
    snap_a.save(state_a)
    a.append([registered("p4")])
    b.append([registered("p5")])
    from_a = snap_a.load()
    assert from_a.alive == -1 and sorted(from_a.players) == ["p1", "p4"]   # snapshot + tail
    assert sorted(snap_b.load().players) == ["p2", "p3", "p5"]            # b: a full replay
    snap_b.save(Tournament.replay(b.read()))
    assert snapshots.Snapshots(a).last_seq == 2                  # b's save kept a's own
    assert snapshots.Snapshots(store.stream("a")).load().alive == -1


def test_the_room_stream_is_stored_replayed_and_snapshotted(db: str) -> None:
    room = Room.create("main-room", "Main Room", tables=[1, 2, 3], t=1.0)
    store = open_store(db)
    body = created("daily").to_dict()
    decided = room.execute({"kind": "add_event", "event": "daily", "created": body,
                            "tables": [1, 2]}, 2.0)
    # one transaction: the room's directory and the event's own first row
    store.append({ROOM_STREAM: [room.config, *decided], "daily": [created("daily")]})
    log = store.stream(ROOM_STREAM)
    assert [e.kind for e in log.read()] == ["room_created", "event_added", "table_assigned",
                                            "table_assigned"]
    snaps = snapshots.Snapshots(log, fold=Room)
    assert snaps.load().tables_of("daily") == [1, 2]
    snaps.save(snaps.load())
    freed = room.execute({"kind": "free_table", "table": 2, "why": "broken"}, 3.0)
    log.append(freed)
    again = snapshots.Snapshots(open_store(db).stream(ROOM_STREAM), fold=Room)
    assert again.load().free_tables() == [2, 3]
    assert EventLog(db).stream == "daily"   # the only event


def raw(db: str, sql: str) -> list[tuple]:
    """A statement straight on the database, past the store (what another release did)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db, autocommit=True) as conn:
            cur = conn.execute(sql)   # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_a_log_of_another_schema_version_is_refused_in_one_line(db: str) -> None:
    open_store(db).append({"main": [created("main")]})
    raw(db, "UPDATE schema_version SET version = 99")
    with pytest.raises(KioskError, match=r"schema version 99 \(newer\); this director reads "
                                         r"version 1") as err:
        open_store(db)
    assert "\n" not in str(err.value)
    assert raw(db, "SELECT version FROM schema_version") == [(99,)]    # nothing written
    assert raw(db, "SELECT COUNT(*) FROM events") == [(1,)]


def test_a_wrong_dsn_is_one_line_naming_the_database_without_its_password() -> None:
    with pytest.raises(KioskError) as err:
        open_store("postgresql://kiosk:secret@127.0.0.1:1/room")
    text = str(err.value)
    assert text.startswith("event log postgresql://kiosk:***@127.0.0.1:1/room: cannot connect")
    assert "secret" not in text and "\n" not in text


def test_a_held_store_reads_as_of_one_position_then_follows_from_it(db: str) -> None:
    """A standby loads while the leader writes: every stream as of one seq, then exactly
    the rows after it (none folded twice, none missed)."""
    leader, standby = open_store(db), open_store(db)
    leader.append({"a": [created("a"), registered("p1")], "b": [created("b")]})
    standby.hold(standby.end())
    leader.append({"a": [registered("p2")], "b": [registered("p3")]})   # while it loads
    assert players(standby.stream("a")) == ["p1"] and players(standby.stream("b")) == []
    assert (standby.last_seq, standby.last_of("a"), len(standby.stream("a"))) == (3, 2, 2)
    standby.hold(None)
    follow = [r[:2] for rows in standby.all_rows(standby.last_seq) for r in rows]
    assert follow == [(4, "a"), (5, "b")]


def test_a_replay_reads_on_across_a_database_restart() -> None:
    """A director replaying the log at its start while the server restarts (a standby
    coming back during maintenance) reads every event once, not a traceback."""
    cluster = PrivateCluster(free_port())   # ours to restart: never the machine's server
    try:
        cluster.start()
        with scratch_database(cluster.dsn) as dsn:
            store = open_store(dsn)
            store.stream("daily").append([created("daily")] +
                                         [registered(f"p{i}") for i in range(30)])
            store.close()
            again = open_store(dsn)
            events = again.stream("daily").read(batch=10)
            first = [next(events) for _ in range(10)]          # the first page
            cluster.restart()
            read = [e.kind for e in first + list(events)]
            assert read == ["created"] + ["registered"] * 30
            # the other reads of a director's start, each right after a restart
            asked = {"streams": again.event_streams, "snapshot": lambda: again.snapshot_seq(
                "daily"), "end": again.end, "count": lambda: again._count_rows("daily")}
            answers = {}
            for name, ask in asked.items():
                cluster.restart()
                answers[name] = ask()
            assert answers == {"streams": ["daily"], "snapshot": 0, "end": 31, "count": 31}
            again.close()
    finally:
        cluster.remove()
