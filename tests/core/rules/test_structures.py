"""Blind structures: shipped files load, bad files give one line naming file and key,
and a structure survives a CSV export and import unchanged."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.rules.structure import Period, Structure
from kiosk.rules.structure_files import (
    load_structure,
    load_structure_csv,
    load_structure_file,
    structure_ids,
    structure_to_csv,
)

GOOD = """name = "Mini"
start_stack = 5000

[[level]]
sb = 25
bb = 50
minutes = 15

[[level]]
break = 10
color_up = "Race off the 25s"

[[level]]
sb = 50
bb = 100
ante = 10
minutes = 15
"""


@pytest.mark.parametrize("sid", ["deep", "standard", "turbo"])
def test_shipped_structures_load_with_rising_blinds(sid: str) -> None:
    s = load_structure(sid)
    levels = [p for p in s.periods if not p.is_break]
    assert levels and s.start_stack > 0
    assert all((b.sb, b.bb) >= (a.sb, a.bb) for a, b in itertools.pairwise(levels))
    assert sid in structure_ids()


def test_level_numbers_skip_breaks(tmp_path: Path) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(GOOD)
    s = load_structure_file(path)
    assert [s.level_number(i) for i in range(3)] == [1, None, 2]
    assert s.index_of_level(2) == 2
    assert s.periods[1].color_up == "Race off the 25s"
    assert s.periods[2].blinds_text() == "50/100 ante 10"


def _toml_error(tmp_path: Path, text: str) -> ConfigError:
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_structure_file(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)
    return info.value


def test_blinds_that_decrease_are_rejected(tmp_path: Path) -> None:
    err = _toml_error(tmp_path, GOOD.replace("sb = 50\nbb = 100", "sb = 20\nbb = 40"))
    assert err.key == "level[3].bb" and "decrease" in err.problem


def test_zero_minutes_is_rejected(tmp_path: Path) -> None:
    err = _toml_error(tmp_path, GOOD.replace("minutes = 15", "minutes = 0", 1))
    assert err.key == "level[1].minutes" and "positive" in err.problem


def test_small_blind_above_big_blind_is_rejected(tmp_path: Path) -> None:
    err = _toml_error(tmp_path, GOOD.replace("sb = 25", "sb = 75"))
    assert err.key == "level[1].sb"


def test_unknown_level_key_is_rejected(tmp_path: Path) -> None:
    err = _toml_error(tmp_path, GOOD.replace("ante = 10", "antee = 10"))
    assert err.key == "level[3].antee" and "unknown key" in err.problem


def test_missing_big_blind_is_rejected(tmp_path: Path) -> None:
    err = _toml_error(tmp_path, GOOD.replace("bb = 50\n", ""))
    assert err.key == "level[1].bb" and "missing" in err.problem


def test_unknown_structure_name_lists_known_ones() -> None:
    with pytest.raises(ConfigError, match="standard"):
        load_structure("glacial")


# ---------------------------------------------------------------- CSV

CSV_GOOD = ("kind,sb,bb,ante,bb_ante,minutes,color_up\n"
            "level,25,50,0,0,20,\n"
            "break,,,,,10,Race off the 25s\n"
            "level,50,100,0,100,20,\n")


def _csv_error(tmp_path: Path, text: str) -> ConfigError:
    path = tmp_path / "s.csv"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_structure_file(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)
    return info.value


def test_csv_loads_levels_and_breaks(tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    path.write_text(CSV_GOOD)
    s = load_structure_csv(path, start_stack=7500)
    assert s.start_stack == 7500 and s.name == "club"
    assert s.periods == (Period(20, 25, 50), Period(10, is_break=True,
                                                    color_up="Race off the 25s"),
                         Period(20, 50, 100, bb_ante=100))


def test_csv_bad_header(tmp_path: Path) -> None:
    err = _csv_error(tmp_path, CSV_GOOD.replace("kind,sb", "type,sb"))
    assert err.key == "line 1" and "kind,sb,bb" in err.problem


def test_csv_bad_number_names_line_and_column(tmp_path: Path) -> None:
    err = _csv_error(tmp_path, CSV_GOOD.replace("level,50,100", "level,50,1OO"))
    assert err.key == "line 4, bb" and "'1OO'" in err.problem


def test_csv_negative_number(tmp_path: Path) -> None:
    err = _csv_error(tmp_path, CSV_GOOD.replace("level,25,50,0", "level,25,50,-5"))
    assert err.key == "line 2, ante"


def test_csv_bad_kind(tmp_path: Path) -> None:
    err = _csv_error(tmp_path, CSV_GOOD.replace("break,,", "pause,,"))
    assert err.key == "line 3, kind" and "'pause'" in err.problem


def test_csv_decreasing_blinds(tmp_path: Path) -> None:
    err = _csv_error(tmp_path, CSV_GOOD.replace("level,50,100,0,100", "level,10,20,0,0"))
    assert err.key == "period 3, bb" and "decrease" in err.problem


@pytest.mark.parametrize("sid", ["deep", "standard", "turbo"])
def test_csv_round_trip(tmp_path: Path, sid: str) -> None:
    original = load_structure(sid)
    path = tmp_path / f"{original.name}.csv"
    path.write_text(structure_to_csv(original))
    back = load_structure_csv(path, start_stack=original.start_stack)
    assert back == original


def test_csv_round_trip_keeps_fractional_minutes(tmp_path: Path) -> None:
    s = Structure("odd", 3000, (Period(7.5, 10, 20, ante=5), Period(2.5, is_break=True,
                                                                      color_up="x, y")))
    path = tmp_path / "odd.csv"
    path.write_text(structure_to_csv(s))
    assert load_structure_csv(path, start_stack=3000) == s


def test_structure_dict_round_trip() -> None:
    s = load_structure("turbo")
    assert Structure.from_dict(s.to_dict()) == s


def test_csv_export_writes_a_break_text_as_text_and_reads_it_back(tmp_path: Path) -> None:
    s = Structure("odd", 3000, (Period(10, 10, 20), Period(5, is_break=True,
                                                           color_up="=HYPERLINK(\"x\")")))
    text = structure_to_csv(s)
    assert text.splitlines()[2] == "break,,,,,5,\"'=HYPERLINK(\"\"x\"\")\""
    path = tmp_path / "odd.csv"
    path.write_text(text)
    assert load_structure_csv(path, start_stack=3000) == s
