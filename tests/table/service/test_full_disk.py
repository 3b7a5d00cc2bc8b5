"""A full disk under the table's state folder: the kiosk says so on its screen, refuses
what it cannot keep, and loses none of the reports it already holds.

The state folder is a real 512 KiB tmpfs filled to the last byte (mounting needs root,
as the appliance tests do); the kiosk is `pokerkiosk table --headless` on a real
Mosquitto, stopped while the reports queue."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from powercut_kit import TOPICS, offline_kiosk, queued
from waiting import wait_for


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB filesystem of its own for the state folder."""
    assert os.geteuid() == 0, "mounting the small tmpfs needs root (run as the CI does)"
    where = tmp_path / "state"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(where)],
                   check=True)
    yield where
    subprocess.run(["umount", "-l", str(where)], check=True)


def fill(folder: Path) -> Path:
    """Write until the filesystem says it is full."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def test_full_disk_refuses_new_entries_and_keeps_the_queued_ones(
        broker, observer, small_disk: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kiosk = offline_kiosk(broker, observer, tmp_path, small_disk)
    try:
        kept = [kiosk.send(c) for c in ("new", "allin 3")]
        assert all(r["ok"] for r in kept), kept
        ids = [r["report"] for r in kept]
        filler = fill(small_disk)

        refused = kiosk.send("end")                       # the disk cannot keep it
        assert not refused["ok"] and refused["message"].startswith("NOT SAVED: DISK FULL")
        view = kiosk.send("view")
        assert view["storage"].startswith("DISK FULL") and view["storage"].endswith("(2 kept)")
        assert view["in_hand"], "the refused END HAND is undone: the hand is still on"
        assert queued(small_disk / "table-3.db") == ids   # what was queued is all there

        filler.unlink()                                   # the floor frees space
        again = kiosk.send("end")
        assert again["ok"], again
        assert kiosk.send("view")["storage"] == ""
        ids.append(again["report"])
        assert queued(small_disk / "table-3.db") == ids

        broker.start()
        sub = observer(TOPICS.report(3))
        sub.ack_reports(TOPICS.ack(3))
        wait_for(lambda: set(ids) <= set(sub.count(TOPICS.report(3))), timeout=30)
        wait_for(lambda: queued(small_disk / "table-3.db") == [], timeout=15)
        assert all(sub.count(TOPICS.report(3))[i] == 1 for i in ids)
    finally:
        kiosk.proc.terminate()
        kiosk.proc.wait(10)
