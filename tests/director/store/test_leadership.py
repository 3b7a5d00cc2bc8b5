"""Two directors on one PostgreSQL log, in one process: one leads, the other follows the
log into a warm fold, takes over when the lease runs out, and the deposed leader's
writes are refused (fencing) while it steps down where the floor sees it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import psycopg
import pytest
from harness.pg_admin import PrivateCluster, scratch_database
from small_room import ROOM
from waiting import wait_for

from kiosk.base.errors import KioskError
from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.log.lease import TTL
from kiosk.director.log.logstore import Fenced
from kiosk.director.log.pg_store import WRITE_LOCK
from kiosk.director.service import Director
from kiosk.mqtt.broker import free_port


def director(folder: Path, db: str, standby: bool = False) -> Director:
    folder.mkdir(exist_ok=True)
    (folder / "room.toml").write_text(ROOM.format(db=db))
    return Director(load_director_config(folder / "room.toml"), clock=lambda: 1000.0,
                    standby=standby)


def seating(d: Director) -> list[tuple]:
    players = d.events["daily"].tour.players.values()
    return sorted((p.id, p.status, p.table, p.seat) for p in players)


def terms(dsn: str) -> list[int]:
    with psycopg.connect(dsn) as conn:
        return [r[0] for r in conn.execute("SELECT term FROM events ORDER BY seq")]


def test_the_standby_follows_takes_over_and_the_deposed_leader_writes_nothing(
        tmp_path: Path, pg_dsn: str) -> None:
    a = director(tmp_path / "a", pg_dsn)
    assert a.ha is not None and a.ha.leading
    for i in range(8):
        a.act(commands.Register(name=f"P{i}", card=f"c{i}"), event="daily")
    b = director(tmp_path / "b", pg_dsn, standby=True)
    assert b.ha is not None and b.ha.role == "standby"
    assert seating(b) == seating(a)                        # loaded from the log
    a.act(commands.Start(), event="daily")
    a.open_event({"name": "evening", "title": "Evening Turbo", "structure": "turbo"})
    a.act(commands.Register(name="Eve", card="eve"), event="evening")
    b.ha.apply(b.ha.fetch())                               # followed, row by row
    assert seating(b) == seating(a) and b.store.last_seq == a.store.last_seq
    assert b.events["evening"].title == "Evening Turbo"    # an event opened meanwhile
    assert {p.name for p in b.events["evening"].tour.players.values()} == {"Eve"}
    assert b.room.events.keys() == a.room.events.keys()
    assert b.ha.status()["behind"] == 0 and not b.ha.look()   # the leader's lease holds
    # the leader freezes: its lease runs out and the standby takes the next term
    a.ha.lease.stop_renewing()
    wait_for(b.ha.look, timeout=TTL + 30)                  # once the lease has run out
    asyncio.run(b.ha.take_over())
    assert b.ha.leading and b.ha.lease.term == a.ha.lease.term + 1
    assert b.epoch > a.epoch                               # the tables follow b's plans
    end = b.store.end()
    with pytest.raises(Fenced, match="no longer leads; nothing written"):
        a.act(commands.Register(name="Zombie", card="z"), event="daily")
    assert b.store.end() == end
    assert a.ha.role == "stepped down" and "stepped down from term" in str(a.health["leader"])
    b.act(commands.Register(name="After", card="after"), event="daily")
    assert terms(pg_dsn) == sorted(terms(pg_dsn))          # no old term after the new one
    assert "Zombie" not in {p.name for p in b.events["daily"].tour.players.values()}
    b.ha.close()


def test_two_leaders_on_one_lease_is_one_line_and_nothing_written(
        tmp_path: Path, pg_dsn: str) -> None:
    a = director(tmp_path / "a", pg_dsn)
    end = a.store.end()
    with pytest.raises(KioskError, match=r"already led by .* two leaders on one lease; start "
                                         "this one with --standby") as err:
        director(tmp_path / "b", pg_dsn)
    assert "\n" not in str(err.value) and a.store.end() == end
    assert a.ha is not None and a.ha.leading
    a.ha.close()


def test_a_standby_on_sqlite_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(KioskError, match="--standby needs the log on PostgreSQL"):
        director(tmp_path / "a", "room.db", standby=True)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["room.toml"]


def test_a_clean_stop_hands_the_lease_over_at_once(tmp_path: Path, pg_dsn: str) -> None:
    a = director(tmp_path / "a", pg_dsn)
    b = director(tmp_path / "b", pg_dsn, standby=True)
    assert b.ha is not None and a.ha is not None and not b.ha.look()
    a.ha.close()
    assert b.ha.look()                                     # no TTL to wait out


def test_a_leader_that_loses_the_database_steps_down_and_writes_nothing(
        tmp_path: Path) -> None:
    cluster = PrivateCluster(free_port())   # ours to stop: never the machine's server
    try:
        cluster.start()
        with scratch_database(cluster.dsn) as dsn:
            a = director(tmp_path / "a", dsn)
            assert a.ha is not None and a.ha.leading
            cluster.stop()
            wait_for(lambda: a.ha is not None and a.ha.role == "stepped down",
                     timeout=TTL + 3)
            assert "lost the database" in str(a.health["leader"])
            cluster.start()
            cluster.wait_ready()
            with pytest.raises(Fenced):   # the database is back: the write is still refused
                a.act(commands.Register(name="Late", card="late"), event="daily")
            with psycopg.connect(dsn) as conn:
                late = conn.execute("SELECT COUNT(*) FROM events WHERE "
                                    "convert_from(body, 'UTF8') LIKE '%Late%'").fetchone()
            assert late == (0,)
            a.ha.close()
            a.store.close()
    finally:
        cluster.remove()


def test_a_leader_whose_loop_is_stuck_lets_its_lease_run_out(
        tmp_path: Path, pg_dsn: str) -> None:
    a = director(tmp_path / "a", pg_dsn)
    b = director(tmp_path / "b", pg_dsn, standby=True)
    assert a.ha is not None and b.ha is not None
    a.ha.beat = time.monotonic() - 60          # its loop last turned a minute ago
    assert wait_for(b.ha.look, timeout=TTL + 30), \
        "the lease ran out although the renewing thread is alive"
    a.ha.close()
    b.ha.close()


def test_a_leader_frozen_inside_an_append_does_not_block_the_takeover(
        tmp_path: Path, pg_dsn: str) -> None:
    a = director(tmp_path / "a", pg_dsn)
    b = director(tmp_path / "b", pg_dsn, standby=True)
    assert a.ha is not None and b.ha is not None
    a.ha.lease.stop_renewing()
    a.store.db.execute("BEGIN")            # frozen here, the log's write lock held
    a.store.db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
    started = time.monotonic()
    wait_for(b.ha.look, timeout=10, step=0.2)   # the server ends the idle transaction
    assert time.monotonic() - started < TTL + 3
    with pytest.raises(Fenced):
        a.act(commands.Register(name="Zombie", card="z"), event="daily")
    b.ha.close()
