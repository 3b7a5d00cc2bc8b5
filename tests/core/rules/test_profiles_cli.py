"""`pokerkiosk profiles`: what a tournament director sees when choosing or checking files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def pokerkiosk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", "profiles", *args],
                          capture_output=True, text=True, timeout=60)


def test_lists_every_profile_and_structure() -> None:
    out = pokerkiosk().stdout
    for name in ("tda-2017", "tda-2015", "irish-open", "sheridans", "home-roberts",
                 "turbo", "standard", "deep"):
        assert name in out
    assert "clock 25+5 s" in out and "moving button" in out


def test_a_bad_file_gives_one_line_and_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nstart_stack = 100\n[[level]]\nsb = 100\nbb = 200\n'
                   'minutes = 10\n[[level]]\nsb = 50\nbb = 100\nminutes = 10\n')
    r = pokerkiosk("--check", str(bad))
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr
    assert "level[2].bb: blinds decrease from 100/200 to 50/100" in r.stderr


def test_a_good_file_and_csv_export_round_trip(tmp_path: Path) -> None:
    csv = tmp_path / "turbo.csv"
    csv.write_text(pokerkiosk("--csv", "turbo").stdout)
    r = pokerkiosk("--check", str(csv))
    assert r.returncode == 0 and "levels" in r.stdout and "OK" in r.stdout


def test_every_built_in_structure_names_the_chips_that_leave_at_each_break() -> None:
    for name in ("deep", "standard", "turbo"):
        r = pokerkiosk("--check", name)
        assert r.returncode == 0, r.stderr
        assert "break texts follow the chips: OK" in r.stdout


SHORT = """name = "Short"
start_stack = 5000
chips = [25, 100, 500]

[[level]]
sb = 25
bb = 50
minutes = 20

[[level]]
break = 10
color_up = "{first}"

[[level]]
sb = 75
bb = 150
minutes = 20

[[level]]
break = 10
color_up = "{second}"

[[level]]
sb = 100
bb = 200
minutes = 20
"""


def test_a_break_that_races_off_chips_the_next_levels_need_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text(SHORT.format(first="Race off the 25 chips", second=""))
    r = pokerkiosk("--check", str(path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "level[2].color_up: every chip is still needed after this break, but the text " \
           "is 'Race off the 25 chips'" in r.stderr
    path.write_text(SHORT.format(first="", second=""))
    r = pokerkiosk("--check", str(path))
    assert r.returncode == 2
    assert "level[4].color_up: the 25 chips leave play here, but the text is ''" in r.stderr
    path.write_text(SHORT.format(first="", second="Race off the 25 chips"))
    r = pokerkiosk("--check", str(path))
    assert r.returncode == 0 and "break texts follow the chips: OK" in r.stdout


def test_a_structure_with_bad_chips_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text(SHORT.format(first="", second="").replace("[25, 100, 500]", "[25, -5]"))
    r = pokerkiosk("--check", str(path))
    assert r.returncode == 2 and "chips: expected whole positive denominations" in r.stderr


def test_the_default_for_new_events_is_marked() -> None:
    lines = pokerkiosk().stdout.splitlines()
    [marked] = [ln for ln in lines if "default for new events" in ln]
    assert marked.split()[0] == "tda-2024" and "TDA 2024" in marked
    assert any(ln.split()[:1] == ["tda-2017"] for ln in lines)   # the seeds' five stay


def test_a_structure_is_checked_against_a_profile(tmp_path: Path) -> None:
    """TDA 2024 RP-11: antes never go down; TDA 2017 takes the same file."""
    reduced = tmp_path / "reduced.csv"
    reduced.write_text("kind,sb,bb,ante,bb_ante,minutes,color_up\n"
                       "level,100,200,0,200,20,\nlevel,150,300,0,300,20,\n"
                       "level,200,400,0,200,20,\n")
    r = pokerkiosk("--check", str(reduced), "--profile", "tda-2024")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "level 3: the BB ante goes down from 300 to 200" in r.stderr
    assert "never reduces antes" in r.stderr and "RP-11" in r.stderr
    ok = pokerkiosk("--check", str(reduced), "--profile", "tda-2017")
    assert ok.returncode == 0 and "fits tda-2017: OK" in ok.stdout
    unknown = pokerkiosk("--check", str(reduced), "--profile", "tda-2099")
    assert unknown.returncode == 2 and "tda-2024" in unknown.stderr
