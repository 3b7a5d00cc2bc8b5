"""Fixtures shared by the whole suite: a real Mosquitto, a real director process, the
process's Chromium; and what keeps a parallel run (pytest-xdist, `-n N`) sound: ports
no two workers share, each worker minding the processes its own tests start, the VMs'
check last."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import argon2
import ports
import processes
import pytest
from browsers import WAIT_MS, Browser, Chromium
from director_process import DirectorProcess

import kiosk.mqtt.broker
from kiosk.config import floor_users
from kiosk.mqtt.broker import Mosquitto

pytest_plugins = ["pytester"]   # tests/director/store/test_internal_errors.py runs a pytest
os.environ.setdefault("KIVY_NO_ARGS", "1")
ADOPTING = processes.adopt_orphans()    # orphans of the tests' processes come to us
# every broker, director and server a test starts takes its port here (before the test
# modules import free_port by name): no two workers of a parallel run are handed one port
kiosk.mqtt.broker.free_port = ports.free_port


class CheapArgon2(argon2.PasswordHasher):
    """argon2 at its cheapest for the suite's floor logins and dealers' PINs: the same
    hashing and checking at a hundredth of the CPU (a test's login cost 0.1-0.5 s of
    it); the cost travels in each hash, so a director process checks a test's hash as
    cheaply. Production's cost is argon2-cffi's default."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)


argon2.PasswordHasher = CheapArgon2            # what kiosk.config.dealers makes per check
floor_users._hasher = CheapArgon2()            # made when kiosk.config.floor_users loaded


CONTROLLER = pytest.StashKey[bool]()   # this config runs a parallel run's workers


def pytest_configure(config: pytest.Config) -> None:
    from playwright.sync_api import expect
    expect.set_options(timeout=WAIT_MS)   # not Playwright's 5 s: a loaded machine is slow
    if not hasattr(config, "workerinput") and config.pluginmanager.hasplugin("xdist") \
            and config.getoption("numprocesses", None):
        # the controller of a parallel run names it, so it can remove the workers' record
        config.option.testrunuid = config.option.testrunuid or uuid.uuid4().hex
        os.environ["PYTEST_XDIST_TESTRUNUID"] = config.option.testrunuid
        config.stash[CONTROLLER] = True


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(CONTROLLER, False):
        ports.forget()


@pytest.fixture(autouse=True)
def stops_what_it_starts() -> Iterator[None]:
    """A test leaves nothing running: after its fixtures are torn down, a process whose
    parent the test ended (an orphan, adopted by this process) must stop within a few
    seconds; one that does not is killed and fails the test (tests/processes.py)."""
    yield
    if ADOPTING:
        left = processes.left_running()
        assert not left, f"the test left processes running (killed now): {left}"


@pytest.hookimpl(trylast=True)   # in a parallel run's controller: once its workers ended
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Whatever still runs when the suite ends (a module's or the session's fixture
    that never stopped its process) is killed and named. Each worker of a parallel run
    does this for what its tests started; the controller, the workers' subreaper, for
    what a worker that died left behind."""
    if not ADOPTING:
        return
    left = processes.left_running(grace=2.0)
    left += processes.stop_children()
    if left:
        print(f"\nprocesses left running by the suite: {left}")


# what makes a test slow without a mark of its own: a director process, a browser, a
# folder of whole rooms, releases and soaks, or a benchmark played as a test
SLOW_FIXTURES = {"director_factory", "browser"}
SLOW_FOLDERS = ("integration", "releases", "explore")
TESTS = Path(__file__).parent


def part_of(item: pytest.Item) -> str:
    """The folder of tests/ that holds the item's module, however deep in it
    ("integration" for tests/integration/mqtt/test_fuzz.py); "" for tests/ itself."""
    if not item.path.is_relative_to(TESTS):
        return ""
    parts = item.path.relative_to(TESTS).parts
    return parts[0] if len(parts) > 1 else ""


def slow_by_rule(item: pytest.Item) -> bool:
    return part_of(item) in SLOW_FOLDERS or item.path.stem.endswith("_bench") \
        or bool(SLOW_FIXTURES & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(tryfirst=True)   # before `-m` selects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests run longest first and the VMs' check last. A parallel run hands tests out
    in this order, a module to a worker (pyproject.toml: its fixtures are built once,
    and a module that fills a cache of the machine's never races itself): the long ones
    start at once on every worker and the short ones fill in behind them, and the VMs'
    check (`.ci/run` boots the VMs after the suite, the test waits for their figures)
    goes last.

    Tests marked `slow` by hand come first, then those slow by rule (SLOW_FIXTURES,
    SLOW_FOLDERS; marked `slow` here, so `-m "not slow"` is the quick loop), then the
    rest."""
    rank: dict[Path, int] = {}
    for item in items:
        by_hand = item.get_closest_marker("slow") is not None
        if not by_hand and slow_by_rule(item):
            item.add_marker(pytest.mark.slow)
        place = 0 if by_hand else 1 if item.get_closest_marker("slow") else 2
        rank[item.path] = min(rank.get(item.path, place), place)
    items.sort(key=lambda item: 3 if item.get_closest_marker("vm_boot") else rank[item.path])


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
    from harness.pg_admin import scratch_database
    with scratch_database() as dsn:
        yield dsn


@pytest.fixture(params=["sqlite", "postgresql"])
def log_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new room log on each backend: a SQLite file's path, or a scratch PostgreSQL
    database's DSN (the same tests run on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    return str(request.getfixturevalue("pg_dsn"))



@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """Debian's Chromium, launched once per test process (tests/browsers.py)."""
    shared = Chromium()
    yield shared
    shared.stop()


@pytest.fixture
def browser(chromium: Chromium) -> Iterator[Browser]:
    """The process's Chromium for this test: its contexts wait WAIT_MS, and close when
    the test ends (`browser.close()` or `with browser:` closes them sooner)."""
    with chromium.lend() as lent:
        yield lent
