"""Fixtures shared by the whole suite: a real Mosquitto and a real director process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import processes
import pytest
from director_process import DirectorProcess

from kiosk.mqtt.broker import Mosquitto

pytest_plugins = ["pytester"]   # tests/director/test_internal_errors.py runs a pytest
os.environ.setdefault("KIVY_NO_ARGS", "1")
ADOPTING = processes.adopt_orphans()    # orphans of the tests' processes come to us


@pytest.fixture(autouse=True)
def stops_what_it_starts() -> Iterator[None]:
    """A test leaves nothing running: after its fixtures are torn down, a process whose
    parent the test ended (an orphan, adopted by this process) must stop within a few
    seconds; one that does not is killed and fails the test (tests/processes.py)."""
    yield
    if ADOPTING:
        left = processes.left_running()
        assert not left, f"the test left processes running (killed now): {left}"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Whatever still runs when the suite ends (a module's or the session's fixture
    that never stopped its process) is killed and named."""
    if not ADOPTING:
        return
    left = processes.left_running(grace=2.0)
    left += processes.stop_children()
    if left:
        print(f"\nprocesses left running by the suite: {left}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The VMs' check last: `.ci/run` starts it beside the suite, the test waits for it."""
    items.sort(key=lambda item: item.get_closest_marker("vm_boot") is not None)


PROCESS_ERRORS = pytest.StashKey[list[tuple[str, int]]]()   # director_factory's count


@pytest.fixture(autouse=True)
def no_internal_errors(request: pytest.FixtureRequest,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A director that met a bug (a command refused as an internal error) fails the test
    that drove it, unless the test says how many it provokes
    (`@pytest.mark.internal_errors(n)`). Counted at teardown over every Director the test
    built in its own process and every director process of `director_factory`."""
    from kiosk.director.service import Director
    made: list[Director] = []
    build = Director.__init__

    def tracked(self: Director, *args: object, **kw: object) -> None:
        made.append(self)
        build(self, *args, **kw)   # type: ignore[arg-type]

    monkeypatch.setattr(Director, "__init__", tracked)
    yield
    met = [(f"in process: {getattr(d, 'config', None) and d.config.name}",
            getattr(d, "internal_errors", 0)) for d in made]
    met += request.node.stash.get(PROCESS_ERRORS, [])
    marker = request.node.get_closest_marker("internal_errors")
    expected = marker.args[0] if marker else 0
    total = sum(n for _, n in met)
    assert total == expected, (f"the directors met {total} internal error(s), expected "
                               f"{expected} (their logs hold the tracebacks): {met}")


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """A private Mosquitto on a free port; tests may stop() and start() it."""
    (tmp_path / "broker").mkdir()
    broker = Mosquitto(workdir=str(tmp_path / "broker")).start()
    yield broker
    broker.stop()


@pytest.fixture
def director_factory(request: pytest.FixtureRequest, tmp_path: Path,
                     mosquitto: Mosquitto) -> Iterator:
    made: list[DirectorProcess] = []

    def make(workdir: Path | None = None, **kw: object) -> DirectorProcess:
        """A director in `tmp_path`, or in a folder of its own (a second machine)."""
        if workdir is not None:
            workdir.mkdir(parents=True, exist_ok=True)
        d = DirectorProcess(workdir or tmp_path, mosquitto, **kw)  # type: ignore[arg-type]
        made.append(d)
        return d

    yield make
    met = request.node.stash.setdefault(PROCESS_ERRORS, [])
    for d in made:
        met.append((f"process in {d.dir}", d.internal_errors()))   # no_internal_errors checks
        d.stop()


@pytest.fixture
def pg_dsn() -> Iterator[str]:
    """A database of its own on the machine's PostgreSQL (created, then dropped)."""
    from kiosk.director.log.pg_admin import scratch_database
    with scratch_database() as dsn:
        yield dsn


@pytest.fixture(params=["sqlite", "postgresql"])
def log_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new room log on each backend: a SQLite file's path, or a scratch PostgreSQL
    database's DSN (the same tests run on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    return str(request.getfixturevalue("pg_dsn"))

