"""`[dealers]` of room.toml and `pokerkiosk dealer`: the rotation checked at load, the
roster edited without touching the rest of the file, badges and PINs only as hashes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.commands.main import main
from kiosk.config import dealers as dc
from kiosk.config.room import load_director_config

HEAD = '# our room\n[room]\nname = "casino"\ntables = 6\n'


def load(tmp_path: Path, text: str):
    path = tmp_path / "room.toml"
    path.write_text(text)
    return load_director_config(path)


def test_the_rotation_settings_load_in_seconds(tmp_path: Path) -> None:
    cfg = load(tmp_path, HEAD + '[dealers]\ndown_minutes = 20\nbreak_minutes = 10\n'
               'downs_between_breaks = 3\nstrings = "round_robin"\n'
               'final_table_down_minutes = 40\n')
    rot = cfg.dealers.settings
    assert (rot.down, rot.brk, rot.downs_between_breaks, rot.string_size,
            rot.final_table_down) == (1200, 600, 3, 0, 2400)
    assert load(tmp_path, HEAD).dealers.settings.down == 1800


@pytest.mark.parametrize(("body", "key", "why"), [
    ("[dealers]\ndown_minutes = 5\n", "dealers.down_minutes", ">= 10"),
    ('[dealers]\nstrings = "pairs"\n', "dealers.strings", "'size', 'round_robin'"),
    ("[dealers]\nstring_size = 1\n", "dealers.string_size", ">= 2"),
    ("[dealers]\nfinal_table_down_minutes = 20\n", "dealers.final_table_down_minutes",
     "keeps its dealers longer"),
    ('[[dealers.roster]]\nname = "Ann"\n[[dealers.roster]]\nname = "ann"\n',
     "dealers.roster.1.name", "two dealers are named"),
    ('[[dealers.roster]]\nname = "Ann"\nbadge = "04A1B2"\n', "dealers.roster.0.badge",
     "only as its hash"),
    ('[[dealers.roster]]\nname = "Ann"\npin = "1234"\n', "dealers.roster.0.pin",
     "only as its hash"),
    ('[dealers]\nbreaks = 3\n', "dealers.breaks", "unknown"),
])
def test_a_bad_dealers_section_is_one_line_naming_the_key(tmp_path: Path, body: str,
                                                          key: str, why: str) -> None:
    with pytest.raises(ConfigError) as err:
        load(tmp_path, HEAD + body)
    assert err.value.key == key and why in str(err.value)
    assert "\n" not in str(err.value)


def test_dealer_add_list_remove_keeps_the_file_and_writes_only_hashes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "room.toml"
    path.write_text(HEAD + "[dealers]\ndown_minutes = 25\n")
    conf = ["--config", str(path)]
    assert main(["dealer", "add", "Ann", *conf, "--badge", "04A1B2C3"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("4321\n"))
    assert main(["dealer", "add", "Bob", *conf, "--pin"]) == 0
    text = path.read_text()
    assert "04A1B2C3" not in text and "4321" not in text
    assert text.startswith("# our room") and "down_minutes = 25" in text
    cfg = load_director_config(path).dealers
    ann = cfg.find_badge("04A1B2C3")
    assert ann is not None and ann.name == "Ann"
    assert cfg.find_badge("04A1B2C4") is None
    bob = cfg.dealer("Bob")
    assert bob is not None and dc.pin_ok(bob.pin, "4321") and not dc.pin_ok(bob.pin, "1234")
    capsys.readouterr()
    assert main(["dealer", "list", *conf]) == 0
    assert capsys.readouterr().out.split("\n")[:2] == ["Ann · badge", "Bob · PIN"]
    assert main(["dealer", "remove", "Ann", *conf]) == 0
    cfg = load_director_config(path).dealers
    assert [d.name for d in cfg.roster] == ["Bob"] and cfg.settings.down == 1500
    assert main(["dealer", "remove", "Ann", *conf]) != 0
    assert "no dealer Ann" in capsys.readouterr().err


def test_a_pin_that_is_not_digits_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "room.toml"
    path.write_text(HEAD)
    monkeypatch.setattr("sys.stdin", io.StringIO("abcd\n"))
    assert main(["dealer", "add", "Cy", "--config", str(path), "--pin"]) != 0
    assert "4 to 8 digits" in capsys.readouterr().err
    assert path.read_text() == HEAD


def test_the_rooms_time_zone_is_checked_when_the_file_loads(tmp_path: Path) -> None:
    """The dealers' pages read times in the room's zone: one unknown stops the load."""
    assert load(tmp_path, HEAD + 'timezone = "Europe/Vienna"\n').timezone == "Europe/Vienna"
    assert load(tmp_path, HEAD).timezone == ""
    with pytest.raises(ConfigError) as err:
        load(tmp_path, HEAD + 'timezone = "Mars/Olympus"\n')
    assert err.value.key == "room.timezone" and "no time zone" in str(err.value)
