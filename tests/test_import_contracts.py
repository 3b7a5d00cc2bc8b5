"""The layer contracts in pyproject.toml: complete (every part of kiosk/ is named, so a new
module is covered), kept by today's code, and able to catch a wrong import or a cycle."""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import kiosk
import kiosk.appliance

ROOT = Path(kiosk.__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")
HELPERS = {"files", "passwords", "sdnotify", "tls", "tomlwrite"}


def contracts() -> dict[str, dict]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["id"]: c for c in data["tool"]["importlinter"]["contracts"]}


def parts(package) -> set[str]:
    return {f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)}


def lint(root: Path, *ids: str) -> subprocess.CompletedProcess[str]:
    args = [str(LINT), "--no-cache", str(root / "pyproject.toml")]
    for i in ids:
        args += ["--contract", i]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_forbidden_lists_name_every_other_part_of_kiosk() -> None:
    c = contracts()
    top = parts(kiosk)
    assert set(c["core"]["forbidden_modules"]) == \
        top - {"kiosk.core", "kiosk.rules", "kiosk.errors", "kiosk.csvcells"}
    helpers = {f"kiosk.appliance.{h}" for h in HELPERS}
    assert set(c["appliance-helpers"]["source_modules"]) == helpers
    assert set(c["appliance-helpers"]["forbidden_modules"]) == \
        (top - {"kiosk.appliance", "kiosk.errors"}) | (parts(kiosk.appliance) - helpers)


def test_the_layers_hold_on_this_code() -> None:
    r = lint(ROOT, "core", "protocol", "table", "appliance-helpers")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "4 kept, 0 broken" in r.stdout


def test_a_wrong_import_and_a_cycle_are_reported(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "kiosk", tmp_path / "kiosk",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    clock = tmp_path / "kiosk" / "core" / "clock.py"
    clock.write_text(clock.read_text() + "\nimport kiosk.director.store  # noqa\n")
    structure = tmp_path / "kiosk" / "rules" / "structure.py"
    structure.write_text(structure.read_text() + "\nimport kiosk.rules.structure_files  # noqa\n")
    r = lint(tmp_path, "core", "acyclic")
    assert r.returncode == 1
    assert "kiosk.core.clock -> kiosk.director.store" in r.stdout
    assert "No cycles are allowed in kiosk.rules." in r.stdout
