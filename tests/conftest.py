"""Fixtures shared by the whole suite: a real Mosquitto and a real director process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from director_process import DirectorProcess

from kiosk.broker import Mosquitto

os.environ.setdefault("KIVY_NO_ARGS", "1")


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """A private Mosquitto on a free port; tests may stop() and start() it."""
    (tmp_path / "broker").mkdir()
    broker = Mosquitto(workdir=str(tmp_path / "broker")).start()
    yield broker
    broker.stop()


@pytest.fixture
def director_factory(tmp_path: Path, mosquitto: Mosquitto) -> Iterator:
    made: list[DirectorProcess] = []

    def make(workdir: Path | None = None, **kw: object) -> DirectorProcess:
        """A director in `tmp_path`, or in a folder of its own (a second machine)."""
        if workdir is not None:
            workdir.mkdir(parents=True, exist_ok=True)
        d = DirectorProcess(workdir or tmp_path, mosquitto, **kw)  # type: ignore[arg-type]
        made.append(d)
        return d

    yield make
    for d in made:
        d.stop()


@pytest.fixture
def pg_dsn() -> Iterator[str]:
    """A database of its own on the machine's PostgreSQL (created, then dropped)."""
    from kiosk.director.pg_admin import scratch_database
    with scratch_database() as dsn:
        yield dsn


@pytest.fixture(params=["sqlite", "postgresql"])
def log_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new room log on each backend: a SQLite file's path, or a scratch PostgreSQL
    database's DSN (the same tests run on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    return str(request.getfixturevalue("pg_dsn"))

