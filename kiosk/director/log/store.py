"""The room's log: one store of many streams, on SQLite (a file) or PostgreSQL (a DSN).

Every row belongs to a stream (one per event, and `room` for the room itself) and carries a
global `seq`, so a command that touches several events (a ticket into a target, Day 2 from
its flights, a table moving) is one transaction over several streams, and the log replays
in the order it was decided. An event is durable before anything derived from it is
published, so a director killed at any instant restarts from the log and publishes the
same state. The interface is kiosk.director.log.logstore.LogStore; `open_store` picks the
backend from `[director] db`.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.config.database import is_dsn
from kiosk.director.log.logstore import ROOM_STREAM, LogStore, Row, StreamLog
from kiosk.director.log.pg_store import PgStore
from kiosk.director.log.sqlite_store import SNAPSHOTS_SCHEMA, SqliteStore

__all__ = ["ROOM_STREAM", "SNAPSHOTS_SCHEMA", "EventLog", "LogStore", "Row", "Store",
           "StreamLog", "open_store"]

Store = SqliteStore   # a log file by its path (the default backend)


def open_store(db: str | Path) -> LogStore:
    """The store `[director] db` names: a postgresql:// DSN, or a SQLite file's path."""
    if isinstance(db, str) and is_dsn(db):
        return PgStore(db)
    return SqliteStore(db)


class EventLog(StreamLog):
    """One stream of a log opened by its path or DSN (or of an open store).

    `EventLog(path)` opens a store of its own and the stream `""`, "the only event" (see
    StreamLog). Several events in one log are read through `open_store(db).stream(name)`."""

    def __init__(self, path: str | Path | LogStore, stream: str = "") -> None:
        owned = not isinstance(path, LogStore)
        store = open_store(path) if not isinstance(path, LogStore) else path
        super().__init__(store, stream, owned)
