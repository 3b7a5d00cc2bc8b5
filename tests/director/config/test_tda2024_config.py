"""The profile of an event: TDA 2024 for a new event whose file names none, the profile
it was created with for an event already logged (a file that names none keeps it, one
that names another is refused), and bad rules refused at load with the reason, before
any log is opened."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.config.files import load_event_config
from kiosk.core.event.tournament import Tournament
from kiosk.director.centre.event_aggregate import check_unchanged
from kiosk.director.log.store import EventLog
from kiosk.director.service import Director
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import structure_to_csv

FIXTURES = Path(__file__).parents[2] / "fixtures"


def _toml(folder: Path, event: str, name: str = "cfg") -> Path:
    path = folder / "event.toml"
    path.write_text(f'[event]\nname = "{name}"\n{event}\n[director]\ndb = "event.db"\n')
    return path


def test_a_new_event_whose_file_names_no_profile_plays_tda_2024(tmp_path: Path) -> None:
    path = _toml(tmp_path, 'structure = "turbo"\nseed = 3')
    assert load_event_config(path).profile is None
    d = Director(load_event_config(path))
    assert d.tour.profile.id == "tda-2024" and d.tour.config["profile"] == "tda-2024"
    assert d.out.schedule_msg()["profile"] == "tda-2024"
    d.log.close()


def test_an_event_created_under_tda_2017_keeps_it(tmp_path: Path) -> None:
    path = _toml(tmp_path, 'structure = "turbo"\nseed = 3\nprofile = "tda-2017"')
    d = Director(load_event_config(path))
    for i in range(12):
        d.act({"kind": "register", "name": f"P{i}"})
    d.act({"kind": "start"})
    d.log.close()
    # the file no longer names it (as files written before TDA 2024 was the default)
    _toml(tmp_path, 'structure = "turbo"\nseed = 3')
    d = Director(load_event_config(path))
    assert d.tour.profile.id == "tda-2017" and d.tour.alive == 12
    assert d.out.schedule_msg()["profile"] == "tda-2017"
    d.log.close()
    # naming another profile for it is refused, the log untouched
    _toml(tmp_path, 'structure = "turbo"\nseed = 3\nprofile = "tda-2024"')
    with pytest.raises(ConfigError) as info:
        Director(load_event_config(path))
    assert info.value.key == "event.profile" and "'tda-2017'" in info.value.problem


def test_a_log_written_before_tda_2024_existed_replays_under_tda_2017(tmp_path: Path) -> None:
    """The committed v1 log (written by code from before events were declared, under the
    default of its day) with a file that names no profile."""
    shutil.copy(FIXTURES / "event-log-v1.db", tmp_path / "event.db")
    expected = json.loads((FIXTURES / "event-log-v1.json").read_text())
    log = EventLog(tmp_path / "event.db")
    evs = list(log.read())
    # the structure it was created with (the shipped one has changed since), as a file
    structure = Structure.from_dict(evs[0].structure)
    (tmp_path / f"{structure.name}.csv").write_text(structure_to_csv(structure))
    path = _toml(tmp_path, f'structure = "{tmp_path / structure.name}.csv"\nseed = 5\n'
                           "buy_in = 0", name="sim")
    check_unchanged(load_event_config(path), evs[0], log)   # the file fits the log
    tour = Tournament.replay(evs)
    assert tour.profile.id == "tda-2017" and tour.places() == expected["places"]


def test_an_unknown_profile_is_named_with_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_event_config(_toml(tmp_path, 'profile = "tda-2025"'))
    assert info.value.key == "event.profile"
    assert "tda-2017" in info.value.problem and "tda-2024" in info.value.problem
    assert not (tmp_path / "event.db").exists()


def test_a_structure_that_reduces_antes_is_refused_under_tda_2024(tmp_path: Path) -> None:
    csv = tmp_path / "reduced.csv"
    csv.write_text("kind,sb,bb,ante,bb_ante,minutes,color_up\n"
                   "level,100,200,0,200,20,\nlevel,150,300,0,300,20,\n"
                   "level,200,400,0,200,20,\n")
    with pytest.raises(ConfigError) as info:
        load_event_config(_toml(tmp_path, f'structure = "{csv}"'))
    assert info.value.key == "event.structure"
    assert "level 3: the BB ante goes down from 300 to 200" in info.value.problem
    assert "RP-11" in info.value.problem
    assert not (tmp_path / "event.db").exists()
    # TDA 2017 takes it as it always did
    d = Director(load_event_config(_toml(tmp_path, f'structure = "{csv}"\n'
                                                   'profile = "tda-2017"')))
    assert d.tour.profile.id == "tda-2017"
    d.log.close()
