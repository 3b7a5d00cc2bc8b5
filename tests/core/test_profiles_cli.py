"""`pokerkiosk profiles`: what a tournament director sees when choosing or checking files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def pokerkiosk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", "profiles", *args],
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
