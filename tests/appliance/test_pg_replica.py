"""docs/ha.md's recipe run for real: two private PostgreSQL clusters on free ports, a
primary and its hot standby; a row crosses, the primary dies, the standby is promoted
and takes the next write. The machine's own server (5432) is never touched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import wait_for

from kiosk.appliance.pg_replica import OS_USER, Server, find_bindir, hba_line
from kiosk.base.errors import KioskError
from kiosk.commands.main import build
from kiosk.commands.main import main as pokerkiosk
from kiosk.mqtt.broker import free_port


class Cluster:
    """A throwaway cluster: initdb, pg_ctl start/stop, on loopback and a private socket."""

    def __init__(self, root: Path, name: str) -> None:
        self.data, self.port = root / name, free_port()
        self.sockets, self.log = root / f"{name}-sock", root / f"{name}.log"
        self.server = Server(port=self.port, host=str(self.sockets), bindir=find_bindir())

    def initdb(self) -> Cluster:
        run(self.server.tool("initdb", "-D", str(self.data), "-U", "postgres", "-E", "UTF8",
                             "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"))
        return self

    def start(self) -> Cluster:
        mkdir(self.sockets)
        opts = f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
        try:
            run(self.server.tool("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o",
                                 opts, "-w", "-t", "30", "start"))
        except subprocess.CalledProcessError:
            raise AssertionError(self.log.read_text()[-2000:]) from None
        return self

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            run(self.server.tool("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop"))


def run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)


def mkdir(path: Path) -> None:
    path.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(path, OS_USER, OS_USER)


@pytest.fixture
def pg_root() -> Iterator[Path]:
    """A folder the `postgres` user owns (pytest's tmp_path is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="pk-replica-"))
    mkdir(root)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def replica(*args: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert pokerkiosk(["replica", *args]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_primary_standby_check_and_promote(pg_root: Path, capsys) -> None:
    started = time.monotonic()
    primary = Cluster(pg_root, "primary").initdb().start()
    standby = Cluster(pg_root, "standby")
    secret = pg_root / "replication"
    where = ["--host", str(primary.sockets), "--port", str(primary.port)]
    try:
        said = replica("primary", "--standby", "127.0.0.1", "--password-file", str(secret),
                       *where, capsys=capsys)
        assert "role replicator: created" in said and hba_line("127.0.0.1") in said
        assert secret.stat().st_mode & 0o777 == 0o600
        again = replica("primary", "--standby", "127.0.0.1", "--password-file", str(secret),
                        *where, capsys=capsys)
        assert "created" not in again and "pg_hba" not in again   # repeatable, once each
        primary.server.sql("CREATE TABLE log (n int PRIMARY KEY, what text)")
        primary.server.sql("INSERT INTO log VALUES (1, 'registered')")

        assert pokerkiosk(["replica", "sync", *where]) == 2     # nobody to wait for yet
        assert "no standby is streaming" in capsys.readouterr().err
        said = replica("standby", "--primary", f"127.0.0.1:{primary.port}", "--pgdata",
                       str(standby.data), "--password-file", str(secret), capsys=capsys)
        assert "a standby of it" in said
        standby.start()
        pg = standby.server
        assert pg.one("SELECT what FROM log WHERE n = 1") == "registered"   # hot: readable
        primary.server.sql("INSERT INTO log VALUES (2, 'busted')")
        wait_for(lambda: pg.one("SELECT count(*) FROM log") == "2", timeout=10)

        assert "commits wait" in replica("sync", *where, capsys=capsys)
        wait_for(lambda: ", synchronous," in replica("status", *where, capsys=capsys))
        primary.server.sql("INSERT INTO log VALUES (3, 'acknowledged')")   # on both now
        st = json.loads(replica("status", "--json", *where, capsys=capsys))
        assert st["role"] == "primary"
        assert [(s["state"], s["sync"]) for s in st["standbys"]] == [("streaming", True)]
        st = json.loads(replica("status", "--json", "--host", str(standby.sockets), "--port",
                                str(standby.port), capsys=capsys))
        assert st["role"] == "standby" and st["receiver"] == "streaming"
        with pytest.raises(KioskError, match="cannot execute INSERT in a read-only"):
            pg.sql("INSERT INTO log VALUES (4, 'refused')")

        primary.stop("immediate")                       # the database machine dies
        said = replica("promote", "--host", str(standby.sockets), "--port",
                       str(standby.port), capsys=capsys)
        assert "promoted" in said
        pg.sql("INSERT INTO log VALUES (4, 'after the promotion')")
        assert pg.sql("SELECT n, what FROM log ORDER BY n") == [
            ["1", "registered"], ["2", "busted"], ["3", "acknowledged"],
            ["4", "after the promotion"]]
        assert pokerkiosk(["replica", "promote", "--host", str(standby.sockets), "--port",
                           str(standby.port)]) == 2
        assert "already a primary" in capsys.readouterr().err
    finally:
        standby.stop("immediate")
        primary.stop("immediate")
    assert time.monotonic() - started < 30


def test_a_standby_is_never_cloned_over_data(pg_root: Path, capsys) -> None:
    data = pg_root / "standby"
    mkdir(data)
    (data / "PG_VERSION").write_text("15\n")
    secret = pg_root / "replication"
    secret.write_text("x\n")
    assert pokerkiosk(["replica", "standby", "--primary", "127.0.0.1:1", "--pgdata",
                       str(data), "--password-file", str(secret)]) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and len(err.strip().splitlines()) == 1
    assert os.listdir(data) == ["PG_VERSION"]


def test_the_recipe_in_docs_ha_uses_these_steps() -> None:
    """Each `pokerkiosk replica` line of docs/ha.md parses as the command the test runs."""
    doc = (Path(__file__).parents[2] / "docs" / "ha.md").read_text()
    block = doc.split("<!-- replica:start -->")[1].split("<!-- replica:end -->")[0]
    lines = [ln.split() for ln in block.splitlines() if ln.startswith("pokerkiosk replica")]
    steps = [build(ln[1:]).parse_args(ln[1:]).step for ln in lines]
    assert steps == ["primary", "standby", "status", "sync", "status"]
