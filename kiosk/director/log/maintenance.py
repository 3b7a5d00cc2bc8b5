"""A room's log as a whole: what it holds, a copy into another store, a file set aside.

`pokerkiosk db` and `pokerkiosk new-event` call these. A copy keeps every row's global
seq, stream and schema version, so it replays to the same room; snapshots come along.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

from kiosk.base.errors import KioskError
from kiosk.config.database import is_dsn
from kiosk.director.log.logstore import LogStore
from kiosk.director.log.store import open_store


def existing(db: str) -> LogStore:
    """A log that must already exist (a missing file is not silently created)."""
    if not is_dsn(db) and not Path(db).is_file():
        raise KioskError(f"{db}: no such event log")
    return open_store(db)


def summary(store: LogStore) -> str:
    streams = store.streams()
    counts = ", ".join(f"{s} {store.count_of(s)}" for s in streams)
    return (f"{store.path} ({store.backend}): {store.last_seq} events in {len(streams)} "
            f"streams ({counts or 'none'}), {len(store.snapshots())} snapshots")


def copy(source: str, target: str) -> str:
    """Copy every row and snapshot of `source` into the empty log `target`, in one
    transaction: a copy that fails leaves `target` as it was."""
    src = existing(source)
    try:
        dst = open_store(target)
    except BaseException:
        src.close()
        raise
    try:
        if dst.last_seq:
            raise KioskError(f"{dst.path} already holds {dst.last_seq} events: copy into "
                             "an empty log (a new file, or a new database)")
        dst.put_rows(itertools.chain.from_iterable(src.all_rows()))
        dst.put_snapshots(src.snapshots())
        for stream in src.streams():
            if (src.count_of(stream), src.last_of(stream)) != \
                    (dst.count_of(stream), dst.last_of(stream)):
                raise KioskError(f"copy of stream {stream} into {dst.path} differs from "
                                 f"{src.path}")
        return f"copied {src.last_seq} events of {len(src.streams())} streams " \
               f"from {src.path} to {dst.path}"
    finally:
        src.close()
        dst.close()


def set_aside(db: Path) -> Path | None:
    """Move an event log (and its WAL files) to a dated name, never deleting it, so last
    week's results stay readable; None if there was none."""
    if not db.exists():
        return None
    kept = db.with_name(f"{db.stem}-{time.strftime('%Y%m%d-%H%M%S')}{db.suffix}")
    try:
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{db}{suffix}")
            if part.exists():
                part.rename(f"{kept}{suffix}")
    except OSError as exc:
        raise KioskError(f"cannot move {db} aside: {exc.strerror}") from None
    return kept
