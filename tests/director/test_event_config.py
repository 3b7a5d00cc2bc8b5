"""event.toml and table.toml: one schema, clear errors, and an event's settings that
cannot silently change under it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk import configdoc
from kiosk.cli import main
from kiosk.config import load_event_config, load_table_config
from kiosk.director.service import Director
from kiosk.errors import ConfigError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "config.md"


def event_toml(folder: Path, event: str = "", director: str = "") -> Path:
    path = folder / "event.toml"
    path.write_text(f'[event]\nname = "cfg-test"\n{event}\n[director]\ndb = "event.db"\n'
                    f"{director}\n")
    return path


@pytest.mark.parametrize(("text", "key", "problem"), [
    ('[event]\nname = "x"\nseats = "9"\n', "event.seats", "expected an integer, got a string"),
    ('[event]\nname = "x"\nsets = 9\n', "event.sets", "unknown key (known: name, profile,"),
    ('[event]\nname = "x"\nseats = 11\n', "event.seats", "expected an integer <= 10"),
    ('[event]\nname = "x"\nseed = true\n', "event.seed", "expected an integer, got true/false"),
    ('[event]\nname = "x"\nprofile = "tda-2071"\n', "event.profile", "no such rule profile"),
    ('[event]\nseats = 9\n', "event.name", "missing (required)"),
    ('[event]\nname = "x"\n[director]\nhttp = "127.0.0.1:99999"\n', "director.http",
     "port up to 65535"),
    ('[event]\nname = "x"\n[director]\nhttp = "0.0.0.0:8080"\n', "director.http",
     "floor passwords across the room in clear"),
    ('[event]\nname = "x"\n[director]\nfloor_users = { floor = "floor" }\n',
     "director.floor_users", "pokerkiosk floor-user add NAME"),
    ('[event]\nname = "x"\n[broker]\nurl = "mqtt://h:99999"\n', "broker.url",
     "must look like mqtt://host:port"),
])
def test_event_file_errors_name_file_key_and_type(tmp_path: Path, text: str, key: str,
                                                  problem: str) -> None:
    path = tmp_path / "event.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_event_config(path)
    assert str(err.value).startswith(f"{path}: {key}: "), err.value
    assert problem in str(err.value)


def test_table_file_errors_name_file_key_and_type(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nnumber = 3\nevent = "x"\n[gpio]\nbounce = "fast"\n')
    with pytest.raises(ConfigError, match=r"table.toml: gpio.bounce: expected a number, "
                                          "got a string"):
        load_table_config(path)
    path.write_text('[table]\nnumber = 3\nevent = "x"\n[ui]\nsize = "big"\n')
    with pytest.raises(ConfigError, match=r"ui.size: expected a string matching"):
        load_table_config(path)
    path.write_text('[table]\nnumber = 3\nevent = "x"\nstate_dir = "s"\n')
    assert load_table_config(path).state_dir == str(tmp_path / "s")


def test_a_table_belongs_to_a_room_and_the_old_event_key_still_reads(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nnumber = 3\nroom = "main-room"\n')
    assert load_table_config(path).room == "main-room"
    assert not caplog.records
    path.write_text('[table]\nnumber = 3\nevent = "spring-open"\n')
    assert load_table_config(path).room == "spring-open"
    notice = [r.getMessage() for r in caplog.records]
    assert len(notice) == 1 and "read as room = 'spring-open'" in notice[0]
    for text, problem in (('room = "a"\nevent = "b"', "give only `room`"),
                          ("", "table.room: missing"),
                          ('room = "Main Room"', "room name 'Main Room' must be")):
        path.write_text(f"[table]\nnumber = 3\n{text}\n")
        with pytest.raises(ConfigError, match=problem):
            load_table_config(path)


def test_the_reference_is_generated_from_the_schema() -> None:
    assert DOCS.read_text() == configdoc.render(), \
        "docs/config.md is stale: python -m kiosk.configdoc > docs/config.md"


@pytest.mark.parametrize(("structure", "stack"), [("turbo", 10_000), ("standard", 20_000),
                                                  ("deep", 40_000)])
def test_the_start_stack_follows_the_structure(tmp_path: Path, structure: str,
                                               stack: int) -> None:
    d = Director(load_event_config(event_toml(tmp_path, f'structure = "{structure}"')))
    assert d.tour.config["start_stack"] == stack
    d.log.close()


def test_changed_settings_are_refused_until_a_new_event(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    path = event_toml(tmp_path, 'structure = "turbo"\nseed = 4')
    Director(load_event_config(path)).log.close()
    for change, key in (('structure = "deep"\nseed = 4', "event.structure"),
                        ('structure = "turbo"\nseed = 4\nprofile = "irish-open"',
                         "event.profile"),
                        ('structure = "turbo"\nseed = 4\nseats = 8', "event.seats"),
                        ('structure = "turbo"\nseed = 4\nstart_stack = 30000',
                         "event.start_stack")):
        event_toml(tmp_path, change)
        with pytest.raises(ConfigError) as err:
            Director(load_event_config(path))
        assert f"{path}: {key}: " in str(err.value)
        assert f"pokerkiosk new-event --config {path}" in str(err.value)
    # a typo in the profile is named too, before the log is even opened
    event_toml(tmp_path, 'structure = "turbo"\nseed = 4\nprofile = "tda2017"')
    with pytest.raises(ConfigError, match=r"event\.profile: tda2017: no such rule profile"):
        load_event_config(path)
    # the command the message names starts a new event and keeps the old log
    event_toml(tmp_path, 'structure = "deep"')
    assert main(["new-event", "--config", str(path)]) == 0
    assert "is kept as" in capsys.readouterr().out
    assert len(list(tmp_path.glob("event-*.db"))) == 1
    d = Director(load_event_config(path))
    assert d.tour.config["start_stack"] == 40_000
    d.log.close()
