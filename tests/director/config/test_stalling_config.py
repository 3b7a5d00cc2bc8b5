"""The tools against stalling (TDA RP-19) in an event's config: a shot clock and its time
banks, levels counted in hands. What a profile or structure cannot take is refused at
load with the key and the reason, and an existing event refuses a change, running on as
it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from stalling_kit import hands_toml

from kiosk.base.errors import ConfigError
from kiosk.config.files import load_event_config
from kiosk.config.room import load_director_config
from kiosk.director.log.store import EventLog
from kiosk.director.service import Director
from kiosk.rules.structure_files import load_structure_file

HANDS = hands_toml(12, 10)


def event_toml(folder: Path, event: str = "", shot: str = "") -> Path:
    path = folder / "event.toml"
    path.write_text(f'[event]\nname = "stall"\nstructure = "turbo"\nseed = 4\n{event}\n'
                    f'[director]\ndb = "event.db"\n[shot_clock]\n{shot}\n')
    return path


def test_a_shot_clock_with_time_banks_reads_into_the_events_first_event(
        tmp_path: Path) -> None:
    path = event_toml(tmp_path, shot="seconds = 30\nbank_cards = 2\nbank_seconds = 45\n"
                                     "bank_levels = [12, 6]\napplies = \"final\"")
    cfg = load_event_config(path)
    assert cfg.shot_clock == {"seconds": 30, "applies": "final", "from_level": 1,
                              "bank_cards": 2, "bank_seconds": 45, "bank_levels": [6, 12],
                              "bank_days": []}
    d = Director(cfg)
    spec = d.tour.config.shot_clock
    assert spec is not None and (spec.seconds, spec.bank_levels) == (30, [6, 12])
    assert d.tour.shot_clock.applies == "final"
    d.log.close()
    assert load_event_config(event_toml(tmp_path)).shot_clock is None   # none by default


@pytest.mark.parametrize(("event", "shot", "key", "problem"), [
    ("", "bank_cards = 2", "shot_clock.bank_cards", "a time-bank card extends the shot "
     "clock"),
    ("", "seconds = 30\nbank_cards = 1\nbank_levels = [40]", "shot_clock.bank_levels",
     "level 40 is not in Turbo (levels 1 to 35)"),
    ("", "seconds = 30\napplies = \"level\"\nfrom_level = 99", "shot_clock.from_level",
     "level 99 is not in Turbo"),
    ("", "seconds = 3000", "shot_clock.seconds", "<= 600"),
    ("", "seconds = 30\napplies = \"table\"", "shot_clock.applies", "'event', 'level', "
     "'final'"),
    ("", "seconds = 30\nbank_days = [1]", "shot_clock.bank_days.0", ">= 2"),
])
def test_a_shot_clock_that_cannot_run_is_refused_at_load(
        tmp_path: Path, event: str, shot: str, key: str, problem: str) -> None:
    path = event_toml(tmp_path, event, shot)
    with pytest.raises(ConfigError) as err:
        load_event_config(path)
    assert str(err.value).startswith(f"{path}: {key}: "), err.value
    assert problem in str(err.value)


def test_a_profile_that_refuses_a_shot_clock_is_named(tmp_path: Path) -> None:
    tda = Path(__file__).resolve().parents[3] / "kiosk" / "rules" / "profiles" / "tda-2017.toml"
    house = tmp_path / "house.toml"
    house.write_text(tda.read_text().replace('id = "tda-2017"', 'id = "house"')
                     .replace('name = "TDA 2017"', 'name = "House"')
                     + '\n[stalling]\nshot_clock = false\nrule = "H4"\n')
    path = event_toml(tmp_path, f'profile = "{house}"', "seconds = 30")
    with pytest.raises(ConfigError, match=r"shot_clock.seconds: House has no shot clock "
                                          r"\(rule H4\)"):
        load_event_config(path)


def test_levels_in_hands_under_a_time_only_procedure_are_refused(tmp_path: Path) -> None:
    hands = tmp_path / "hands.toml"
    hands.write_text(HANDS)
    path = event_toml(tmp_path, f'structure = "{hands}"\nprofile = "tda-2017"')
    path.write_text(path.read_text().replace('structure = "turbo"\n', ""))
    with pytest.raises(ConfigError, match=r"event.structure: By hands counts its levels in "
                                          r"hands, but TDA 2017 runs 120 s off the clock"):
        load_event_config(path)
    path.write_text(path.read_text().replace('"tda-2017"', '"tda-2015"'))
    assert load_event_config(path).structure == str(hands)
    timed_break = tmp_path / "break.toml"
    timed_break.write_text(HANDS + "[[level]]\nbreak = 10\n")
    with pytest.raises(ConfigError, match=r"level\[3\].break: a break is timed"):
        load_structure_file(timed_break)


def test_a_room_event_takes_its_shot_clock_and_names_its_key(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text('[room]\nname = "r"\n[[events]]\nname = "a"\nstructure = "turbo"\n'
                    "[events.shot_clock]\nseconds = 25\n"
                    '[[events]]\nname = "b"\nstructure = "turbo"\n'
                    "[events.shot_clock]\nseconds = 25\nbank_levels = [50]\nbank_cards = 1\n")
    with pytest.raises(ConfigError, match=r"events.1.shot_clock.bank_levels: level 50"):
        load_director_config(path)
    path.write_text(path.read_text().replace("bank_levels = [50]", "bank_levels = [5]"))
    room = load_director_config(path)
    assert [e.config.shot_clock["seconds"] for e in room.events
            if e.config.shot_clock] == [25, 25]


def test_a_shot_clock_changed_mid_event_is_refused_and_the_event_runs_on_as_it_was(
        tmp_path: Path) -> None:
    path = event_toml(tmp_path, shot="seconds = 30\nbank_cards = 2")
    d = Director(load_event_config(path))
    d.log.close()
    before = list(EventLog(str(tmp_path / "event.db")).read())
    for change in ("seconds = 20\nbank_cards = 2", "seconds = 30\nbank_cards = 3", ""):
        event_toml(tmp_path, shot=change)
        with pytest.raises(ConfigError) as err:
            Director(load_event_config(path))
        assert f"{path}: shot_clock: " in str(err.value)
        assert "an existing event keeps its shot clock" in str(err.value)
    assert list(EventLog(str(tmp_path / "event.db")).read()) == before
    event_toml(tmp_path, shot="seconds = 30\nbank_cards = 2")
    d = Director(load_event_config(path))
    spec = d.tour.config.shot_clock
    assert spec is not None and (spec.seconds, spec.bank_cards) == (30, 2)
    d.log.close()
