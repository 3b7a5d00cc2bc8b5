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
import kiosk.core
import kiosk.director
import kiosk.director.web
import kiosk.director.web.routes
import kiosk.table

ROOT = Path(kiosk.__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")


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
    """A new folder of kiosk/, kiosk/core, kiosk/director or module of kiosk/table, of the
    director's web or of its routes must take its place in a layer; every pure part of the
    table is held to touch no device."""
    c = contracts()
    assert layer_names(c["kiosk"]) == folders(kiosk)
    assert layer_names(c["core"]) == folders(kiosk.core)
    assert layer_names(c["director"]) == folders(kiosk.director) | {"running", "service"}
    web = {p.rsplit(".", 1)[1] for p in parts(kiosk.director.web)}
    assert layer_names(c["director-web"]) == web
    routes = {p.rsplit(".", 1)[1] for p in parts(kiosk.director.web.routes)}
    assert layer_names(c["director-web-routes"]) == routes
    table = {p.rsplit(".", 1)[1] for p in parts(kiosk.table)}
    assert layer_names(c["table"]) == table
    pure = set(c["table-pure"]["source_modules"])
    assert pure | set(c["table-pure"]["forbidden_modules"]) >= parts(kiosk.table)


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
    r = lint(ROOT, "kiosk", "core", "core-pure", "table", "table-pure")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "5 kept, 0 broken" in r.stdout


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
    flow = tmp_path / "kiosk" / "table" / "flows" / "bust.py"
    flow.write_text(flow.read_text() + "\nimport kiosk.table.link  # noqa\n")
    levels = tmp_path / "kiosk" / "core" / "play" / "levels.py"
    levels.write_text(levels.read_text() + "\nimport socket  # noqa\n")
    r = lint(tmp_path, "kiosk", "core", "core-pure", "acyclic", "table", "table-pure")
    assert r.returncode == 1
    assert "kiosk.core.calc.clock -> kiosk.director.log.store" in r.stdout
    assert "kiosk.core.money.money -> kiosk.core.event.plans" in r.stdout
    assert "No cycles are allowed in kiosk.rules." in r.stdout
    assert "kiosk.table.flows.bust -> kiosk.table.link" in r.stdout
    assert "kiosk.core.play.levels -> socket" in r.stdout
