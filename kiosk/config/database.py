"""Which database `[director] db` names, and how to reach a PostgreSQL one.

Shared by the director's store (kiosk.director.log.pg_store) and `pokerkiosk doctor`, so both
name a database the same way (never with its password) and agree on the schema version.
psycopg is imported only when a PostgreSQL database is used: a table never needs it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import KioskError

if TYPE_CHECKING:
    import psycopg

STORE_SCHEMA = 1            # the shape of the database (tables, columns), not of the events


def is_dsn(db: str) -> bool:
    """Whether `[director] db` names a PostgreSQL database rather than a SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def shown(dsn: str) -> str:
    """The DSN for messages and logs: its password replaced."""
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", dsn)


def one_line(exc: BaseException) -> str:
    """A driver's (often multi-line) message as one line."""
    text = " ".join(str(exc).split())
    return text.removeprefix("connection failed: ") or type(exc).__name__


def connect(dsn: str, timeout: float = 3, **kwargs: Any) -> psycopg.Connection[Any]:
    """An autocommit connection, or a one-line KioskError naming the database and why."""
    import psycopg

    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=max(1, round(timeout)),
                               **kwargs)
    except (psycopg.Error, ValueError) as exc:
        raise KioskError(f"event log {shown(dsn)}: cannot connect: {one_line(exc)}") from None


def schema_version(conn: psycopg.Connection[Any]) -> int:
    """The schema version a database holds (0: none of ours yet)."""
    row = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return 0
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def schema_error(where: str, found: int) -> KioskError:
    """A database of another shape: refused whole, never half-read or half-migrated."""
    newer = "newer" if found > STORE_SCHEMA else "older"
    return KioskError(f"event log {where}: schema version {found} ({newer}); this director "
                      f"reads version {STORE_SCHEMA}: use the matching pokerkiosk release")


def replication(conn: psycopg.Connection[Any]) -> str:
    """A database's place in replication, in words (doctor, dashboard)."""
    row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
    if row and row[0]:
        return "a hot standby (read-only): no director can write here until it is promoted"
    rows = conn.execute("SELECT COALESCE(application_name, ''), state, sync_state, "
                        "EXTRACT(EPOCH FROM replay_lag) FROM pg_stat_replication").fetchall()
    if not rows:
        return ("a primary with no streaming standby: the database's machine is a single "
                "point of failure")
    parts = [f"{name or '?'} {state} ({sync}, replay lag {float(lag or 0):.1f} s)"
             for name, state, sync, lag in rows]
    return f"a primary streaming to {len(rows)} standby: " + "; ".join(parts)
