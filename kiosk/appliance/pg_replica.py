"""`pokerkiosk replica`: PostgreSQL's own streaming replication for the event log.

A hot standby of the database machine, set up, watched and promoted with PostgreSQL's
tools (psql, pg_basebackup, pg_promote): nothing of ours is in the replication path.
The steps are code rather than a page of shell so the recipe in docs/ha.md is the
one the test suite runs against two real clusters. Run as root (the PostgreSQL tools
then run as the `postgres` user) or as `postgres`.

    primary   let a standby in: role, slot, pg_hba line (on the primary)
    standby   clone the primary into an empty data directory (on the standby)
    sync      commits wait for the standby: an acknowledged report is on both machines
    async     commits no longer wait (the standby is gone for long)
    status    which role this server has and how far behind the standby is
    promote   make the standby the primary (the primary's machine is gone)
"""

from __future__ import annotations

import ipaddress
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.base import files
from kiosk.base.errors import KioskError
from kiosk.system.passwords import new_password

ROLE = "replicator"              # the login the standby streams with
SLOT = "pokerkiosk_standby"      # the primary keeps the WAL this standby still needs
OS_USER = "postgres"


def find_bindir() -> Path:
    """The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_basebackup"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                   else 0)
    if not found:
        raise KioskError("PostgreSQL is not installed (apt-get install postgresql)")
    return found[-1].parent


@dataclass(frozen=True)
class Server:
    """One PostgreSQL server, reached with psql as the `postgres` superuser."""

    port: int = 5432
    host: str | None = None          # None: the local socket
    bindir: Path | None = None

    def tool(self, name: str, *args: str) -> list[str]:
        """A PostgreSQL program's command line, as `postgres` when we are root."""
        exe = str((self.bindir or find_bindir()) / name)
        as_user = ["runuser", "-u", OS_USER, "--"] if os.geteuid() == 0 else []
        return [*as_user, exe, *args]

    def where(self) -> list[str]:
        return [*(["-h", self.host] if self.host else []), "-p", str(self.port)]

    def sql(self, query: str, **params: str) -> list[list[str]]:
        """Rows of `query`; `:'name'` in it is `params[name]`, quoted by psql."""
        args = ["-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", *self.where(),
                "-U", "postgres", "-d", "postgres", "-f", "-"]
        for k, v in params.items():
            args += ["-v", f"{k}={v}"]
        out = call(self.tool("psql", *args), stdin=query)
        return [line.split("\t") for line in out.splitlines() if line]

    def one(self, query: str, **params: str) -> str:
        rows = self.sql(query, **params)
        return rows[0][0] if rows and rows[0] else ""

    def in_recovery(self) -> bool:
        return self.one("SELECT pg_is_in_recovery()") == "t"


def call(cmd: list[str], stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    """Run a PostgreSQL tool; its error becomes one line."""
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    if proc.returncode != 0:
        err = (proc.stderr or proc.stdout).strip().splitlines()
        exe = Path(cmd[4] if cmd[0] == "runuser" else cmd[0]).name
        raise KioskError(f"{exe}: {err[-1] if err else f'exit {proc.returncode}'}")
    return proc.stdout


def password(path: Path, *, create: bool) -> str:
    """The replication password from its 0600 file; `primary` makes one when missing."""
    if path.exists():
        return path.read_text().strip()
    if not create:
        raise KioskError(f"{path}: no such file (copy it from the primary)")
    secret = new_password()
    files.write(path, secret + "\n", files.SECRET)
    return secret


# ------------------------------------------------------------------ the primary
def hba_line(standby: str) -> str:
    """The pg_hba.conf line that lets the standby stream, and nobody else."""
    try:
        ip = ipaddress.ip_address(standby)
        standby = f"{ip}/{ip.max_prefixlen}"
    except ValueError:
        pass    # a host name: PostgreSQL resolves it
    return f"host replication {ROLE} {standby} scram-sha-256"


def setup_primary(pg: Server, standby: str, secret: str) -> list[str]:
    """Role, slot and pg_hba line on the primary; repeatable, each step once."""
    if pg.in_recovery():
        raise KioskError("this server is a standby; run `replica primary` on the primary")
    said = []
    level = pg.one("SHOW wal_level")
    if level not in ("replica", "logical"):
        pg.sql("ALTER SYSTEM SET wal_level = replica")
        said.append(f"wal_level was {level}: set to replica; RESTART PostgreSQL now")
    exists = pg.one("SELECT count(*) FROM pg_roles WHERE rolname = :'r'", r=ROLE) == "1"
    pg.sql(f"{'ALTER' if exists else 'CREATE'} ROLE {ROLE} WITH REPLICATION LOGIN "
           "PASSWORD :'pw'", pw=secret)
    said.append(f"role {ROLE}: {'password set' if exists else 'created'}")
    if pg.one("SELECT count(*) FROM pg_replication_slots WHERE slot_name = :'s'",
              s=SLOT) == "0":
        pg.sql("SELECT pg_create_physical_replication_slot(:'s')", s=SLOT)
        said.append(f"replication slot {SLOT}: created")
    hba, line = Path(pg.one("SHOW hba_file")), hba_line(standby)
    if line not in hba.read_text().splitlines():
        with hba.open("a") as f:
            f.write(f"# pokerkiosk hot standby\n{line}\n")
        said.append(f"{hba}: {line}")
    pg.sql("SELECT pg_reload_conf()")
    return said


# ------------------------------------------------------------------ the standby
def clone_standby(pg: Server, primary: str, pgdata: Path, secret: str) -> list[str]:
    """pg_basebackup of the primary into `pgdata`, written as a standby of it (-R)."""
    if pgdata.exists() and any(pgdata.iterdir()):
        raise KioskError(f"{pgdata} is not empty: stop this server and move its data "
                         "directory aside first (the clone replaces it whole)")
    if pgdata.exists():
        pgdata.chmod(0o700)     # PostgreSQL will not start on a group- or world-readable one
    host, _, port = primary.rpartition(":") if ":" in primary else (primary, "", "5432")
    call(pg.tool("pg_basebackup", "-d", f"application_name={SLOT}", "-h", host, "-p", port,
                 "-U", ROLE, "-D", str(pgdata), "-R", "-X", "stream", "-S", SLOT, "-c", "fast",
                 "-w"),
        env={"PGPASSWORD": secret})
    return [f"{pgdata}: cloned from {host}:{port}, a standby of it (standby.signal); "
            "start PostgreSQL here"]


# ------------------------------------------------------------ sync, async
def synchronous(pg: Server, on: bool) -> list[str]:
    """Commits wait for the standby's disk (on) or not (off), on the primary.

    Waiting means a report the director acknowledged is on both machines, so promoting
    the standby loses none; it also means no commit at all while the standby is away,
    hence `async` for a standby that is gone for long."""
    if pg.in_recovery():
        raise KioskError("this server is a standby; run this on the primary")
    if on and pg.one("SELECT count(*) FROM pg_stat_replication WHERE application_name = "
                     ":'s' AND state = 'streaming'", s=SLOT) == "0":
        raise KioskError("no standby is streaming from this server: waiting for one would "
                         "stop every write (see `pokerkiosk replica status`)")
    if on:
        pg.sql("ALTER SYSTEM SET synchronous_standby_names = :'s'", s=SLOT)
    else:
        pg.sql("ALTER SYSTEM RESET synchronous_standby_names")
    pg.sql("SELECT pg_reload_conf()")
    return ["commits wait for the standby" if on else "commits no longer wait for a standby"]


# ------------------------------------------------------------ status, promote
def status(pg: Server) -> dict[str, Any]:
    """The server's role and, for the pair, how far behind the standby is."""
    if pg.in_recovery():
        row = pg.sql(
            "SELECT coalesce((SELECT status FROM pg_stat_wal_receiver), 'not streaming'), "
            "coalesce((SELECT sender_host || ':' || sender_port FROM pg_stat_wal_receiver),"
            " ''), coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), "
            "pg_last_wal_replay_lsn()), 0)::bigint, coalesce(extract(epoch FROM now() - "
            "pg_last_xact_replay_timestamp()), -1)::float")[0]
        return {"role": "standby", "receiver": row[0], "primary": row[1],
                "replay_behind_bytes": int(row[2]), "last_replayed_s_ago": float(row[3])}
    rows = pg.sql("SELECT coalesce(client_addr::text, 'local'), state, sync_state, "
                  "coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), -1)::bigint,"
                  " coalesce(extract(epoch FROM replay_lag), 0)::float "
                  "FROM pg_stat_replication ORDER BY 1")
    return {"role": "primary", "standbys": [
        {"address": r[0], "state": r[1], "sync": r[2] == "sync", "behind_bytes": int(r[3]),
         "replay_lag_s": float(r[4])} for r in rows]}


def describe(st: dict[str, Any]) -> list[str]:
    if st["role"] == "standby":
        return [f"standby of {st['primary'] or '?'}: {st['receiver']}, "
                f"{st['replay_behind_bytes']} bytes to replay, last transaction replayed "
                f"{st['last_replayed_s_ago']:.1f} s ago"]
    if not st["standbys"]:
        return ["primary, NO standby connected"]
    return [f"primary; standby {s['address']}: {s['state']}, "
            f"{'synchronous' if s['sync'] else 'asynchronous'}, {s['behind_bytes']} bytes "
            f"behind, replay lag {s['replay_lag_s']:.2f} s" for s in st["standbys"]]


def promote(pg: Server, wait_s: int = 60) -> list[str]:
    """Make this standby the primary; refused on a primary (nothing is changed)."""
    if not pg.in_recovery():
        raise KioskError("this server is already a primary: nothing to promote")
    if pg.one("SELECT pg_promote(true, :'w')", w=str(wait_s)) != "t":
        raise KioskError(f"not promoted within {wait_s} s: see the PostgreSQL log")
    return ["promoted: this server is the primary and takes writes; point every "
            "director's [director] db at it and restart them"]
