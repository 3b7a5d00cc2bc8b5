"""The layer contracts in pyproject.toml: complete (every part of kiosk/ is named, so a new
module is covered), kept by today's code, and able to catch a wrong import or a cycle."""

from __future__ import annotations

import ast
import os
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import kiosk
import kiosk.appliance
import kiosk.core
import kiosk.director

ROOT = Path(kiosk.__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")
HELPERS = {"passwords", "sdnotify", "tls"}


def contracts() -> dict[str, dict]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["id"]: c for c in data["tool"]["importlinter"]["contracts"]}


def parts(package) -> set[str]:
    return {f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)}


def folders(package) -> set[str]:
    """The sub-packages of a package: the layers its contract must name."""
    return {m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg}


def layer_names(contract: dict) -> set[str]:
    return {name.strip() for layer in contract["layers"] for name in layer.split("|")}


def lint(root: Path, *ids: str) -> subprocess.CompletedProcess[str]:
    args = [str(LINT), "--no-cache", str(root / "pyproject.toml")]
    for i in ids:
        args += ["--contract", i]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_layers_name_every_folder() -> None:
    """A new folder of kiosk/, kiosk/core or kiosk/director must take its place in a layer."""
    c = contracts()
    assert layer_names(c["kiosk"]) == folders(kiosk)
    assert layer_names(c["core"]) == folders(kiosk.core)
    assert layer_names(c["director"]) == folders(kiosk.director) | {"running", "service"}
    helpers = {f"kiosk.appliance.{h}" for h in HELPERS}
    assert set(c["appliance-helpers"]["source_modules"]) == helpers
    assert set(c["appliance-helpers"]["forbidden_modules"]) >= parts(kiosk.appliance) - helpers


def test_no_folder_holds_more_than_20_modules() -> None:
    crowded = {}
    for init in (ROOT / "kiosk").rglob("__init__.py"):
        n = sum(1 for p in init.parent.glob("*.py") if p.name != "__init__.py")
        if n > 20:
            crowded[str(init.parent.relative_to(ROOT))] = n
    assert crowded == {}


def test_each_folder_says_what_it_holds_and_may_import() -> None:
    for init in (ROOT / "kiosk").rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert len(doc) > 40, f"{init.relative_to(ROOT)}: no docstring"
        assert "import" in doc.lower(), f"{init.relative_to(ROOT)}: does not say what it may import"


def test_the_layers_hold_on_this_code() -> None:
    r = lint(ROOT, "kiosk", "core", "core-pure", "appliance-helpers")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "4 kept, 0 broken" in r.stdout


def test_a_wrong_import_and_a_cycle_are_reported(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "kiosk", tmp_path / "kiosk",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    clock = tmp_path / "kiosk" / "core" / "calc" / "clock.py"
    clock.write_text(clock.read_text() + "\nimport kiosk.director.log.store  # noqa\n")
    money = tmp_path / "kiosk" / "core" / "money" / "money.py"
    money.write_text(money.read_text() + "\nimport kiosk.core.event.plans  # noqa\n")
    structure = tmp_path / "kiosk" / "rules" / "structure.py"
    structure.write_text(structure.read_text() + "\nimport kiosk.rules.structure_files  # noqa\n")
    r = lint(tmp_path, "kiosk", "core", "acyclic")
    assert r.returncode == 1
    assert "kiosk.core.calc.clock -> kiosk.director.log.store" in r.stdout
    assert "kiosk.core.money.money -> kiosk.core.event.plans" in r.stdout
    assert "No cycles are allowed in kiosk.rules." in r.stdout
