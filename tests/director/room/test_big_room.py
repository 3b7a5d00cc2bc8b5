"""A room of up to 2,000 tables: the director runs one that size, and a room file asking
for more is refused with the reason, naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.config.room import MAX_ROOM_TABLES, load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director

ROOM = """
[room]
name = "festival"
tables = {tables}

[director]
db = "{db}"

[[events]]
name = "day1d"
structure = "turbo"
seed = 3
"""


def write(tmp_path: Path, tables: int) -> Path:
    path = tmp_path / "room.toml"
    path.write_text(ROOM.format(tables=tables, db=tmp_path / "room.db"))
    return path


def test_a_room_of_2000_tables_runs_an_event_from_its_pool(tmp_path: Path) -> None:
    assert MAX_ROOM_TABLES == 2000
    d = Director(load_director_config(write(tmp_path, 2000)), clock=lambda: 1000.0)
    assert len(d.room.free_tables()) == 2000 and d.room.free_tables()[-1] == 2000
    for i in range(30):
        d.act(commands.Register(name=f"P{i}", card=f"p{i}"), event="day1d")
    d.act(commands.Start(), event="day1d")
    held = d.room.tables_of("day1d")
    assert len(held) == 4, "30 players at 9 a table need four tables of the pool"
    assert len(d.room.free_tables()) == 2000 - len(held)
    seated = sum(t.count for t in d.events["day1d"].tour.active_tables())
    assert seated == 30


def test_a_room_past_2000_tables_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_director_config(write(tmp_path, 2001))
    msg = str(err.value)
    assert err.value.key == "room.tables" and "2001 tables" in msg
    assert "at most 2,000" in msg and "two rooms" in msg and "\n" not in msg
