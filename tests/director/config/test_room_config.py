"""room.toml: one schema, one-line errors naming file and key; an event.toml is a room of
one with a notice."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.config.room import load_director_config

HEAD = '[room]\nname = "casino"\ntables = 6\n'


def load(tmp_path: Path, text: str):
    path = tmp_path / "room.toml"
    path.write_text(text)
    return load_director_config(path)


def test_a_room_lists_its_events_targets_first(tmp_path: Path) -> None:
    cfg = load(tmp_path, HEAD + '''
[[events]]
name = "sat"
kind = "satellite"
target = "main"
[events.money]
seat_value = 500
satellite_leftover = "split"

[[events]]
name = "main"
buy_in = 500
scheduled = true
''')
    assert (cfg.name, cfg.tables, cfg.pool, cfg.legacy) == ("casino", 6, True, False)
    assert [e.name for e in cfg.events] == ["main", "sat"], "a target opens before its feeder"
    sat = cfg.events[1]
    assert sat.config.money["seat_value"] == 500 and sat.config.satellite_leftover == "split"
    assert cfg.events[0].scheduled and cfg.db == str(tmp_path / "room.db")


@pytest.mark.parametrize(("body", "key", "why"), [
    ('[[events]]\nname = "a"\n[[events]]\nname = "a"\n', "events", "two events are named"),
    ('[[events]]\nname = "s"\nkind = "satellite"\n', "events.0.target", "satellite names"),
    ('[[events]]\nname = "d"\nkind = "day2"\n', "events.0.flights", "Day 2 names"),
    ('[[events]]\nname = "room"\n', "events.0.name", "the room's own stream"),
    ('[[events]]\nname = "x"\nkind = "league"\n', "events.0.kind",
     "expected one of: 'event', 'satellite'"),
    ('[[events]]\nname = "x"\nseats = 1\n', "events.0.seats", ">= 2"),
    ('[[events]]\nname = "x"\nprofile = "nope"\n', "events.0.profile", "nope"),
])
def test_a_bad_room_file_is_one_line_naming_the_key(tmp_path: Path, body: str, key: str,
                                                    why: str) -> None:
    with pytest.raises(ConfigError) as err:
        load(tmp_path, HEAD + body)
    assert err.value.key == key and why in str(err.value)
    assert "\n" not in str(err.value)


def test_an_event_toml_is_read_as_a_room_of_one(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "event.toml"
    path.write_text('[event]\nname = "friday"\nstructure = "turbo"\n')
    with caplog.at_level(logging.INFO):
        cfg = load_director_config(path)
    assert cfg.legacy and not cfg.pool and cfg.name == "friday"
    assert [e.name for e in cfg.events] == ["friday"]
    notice = [r.message for r in caplog.records if "room of one" in r.message]
    assert len(notice) == 1 and "docs/room.md" in notice[0]
