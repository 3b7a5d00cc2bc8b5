"""PostgreSQL servers for tests, benchmarks and rehearsals: a scratch database on a running
server, or a private cluster of our own (initdb/pg_ctl) that can be stopped and restarted
without touching the machine's server."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg

from kiosk.config.database import connect

LOCAL_SERVER = os.environ.get("POKERKIOSK_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BIN = Path(os.environ.get("POKERKIOSK_PG_BIN", "/usr/lib/postgresql/15/bin"))


def with_database(dsn: str, name: str) -> str:
    """`dsn` pointing at database `name` instead."""
    info = psycopg.conninfo.conninfo_to_dict(dsn)
    info["dbname"] = name
    user = info.get("user", "postgres")
    port = info.get("port", 5432)
    return f"postgresql://{user}@{info.get('host', '127.0.0.1')}:{port}/{name}"


@contextlib.contextmanager
def scratch_database(server: str = LOCAL_SERVER, prefix: str = "pk") -> Iterator[str]:
    """A new, empty database on `server` for the block; dropped after (with its clients)."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with connect(server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')   # type: ignore[arg-type]
    try:
        yield with_database(server, name)
    finally:
        with connect(server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


class PrivateCluster:
    """A PostgreSQL cluster of our own in a temp folder, run as the `postgres` user when
    we are root (initdb refuses root), on a free port; `restart` is a real server restart."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.dir = Path(tempfile.mkdtemp(prefix="pk-pg-"))
        self.data = self.dir / "data"
        self.dsn = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self._as = as_user
        if as_user:
            shutil.chown(self.dir, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self._as, str(PG_BIN / tool), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories="
                f"{self.dir} -c fsync=on")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"),
                  "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def wait_ready(self, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                connect(self.dsn).close()
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
