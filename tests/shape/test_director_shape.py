"""The director's shape: the room's service at the centre, adapters around it, one
composition root, and no circle of modules.

Read from the source with `ast`, every import counts: at the top of a module, inside a
function, and under `if TYPE_CHECKING:` (a name a module must know is a dependency a
reader must follow). The director's import-linter contracts are also run with those
imports counted, which the session's `exclude_type_checking_imports` leaves out.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from import_graph import cycles as circles

import kiosk

ROOT = Path(kiosk.__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")
COMPOSITION_ROOT = "kiosk.director.service"
MAX_METHODS = 30
DIRECTOR_CONTRACTS = ("director", "director-centre", "director-centre-pure", "director-log",
                      "director-web", "director-web-routes")


def modules(package: Path, root: Path) -> dict[str, Path]:
    """Every module of the package folder, by its dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imported(module: str, path: Path) -> set[str]:
    """Every module name `module` imports, wherever the import statement is."""
    names: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def graph(package: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (a name resolves to the
    longest module it starts with; the package's own __init__ is left out)."""
    mods = modules(package, root)
    top = ".".join(package.relative_to(root).parts)
    out: dict[str, set[str]] = {}
    for name, path in mods.items():
        deps = set()
        for target in imported(name, path):
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if target and target not in (name, top):
                deps.add(target)
        out[name] = deps
    return out


def names_director(node: ast.AST | None) -> bool:
    """Whether an annotation names the `Director` class (also as a string)."""
    for sub in ast.walk(node) if node is not None else ():
        if isinstance(sub, ast.Name) and sub.id == "Director":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "Director":
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) \
                and re.search(r"\bDirector\b", sub.value):
            return True
    return False


def director_annotations(package: Path, root: Path = ROOT) -> list[str]:
    """`module:line` of every annotation outside the composition root naming Director."""
    found = []
    for name, path in modules(package, root).items():
        if name == COMPOSITION_ROOT:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            hints: list[ast.AST | None] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                hints += [x.annotation for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                hints += [a.vararg.annotation if a.vararg else None,
                          a.kwarg.annotation if a.kwarg else None, node.returns]
            elif isinstance(node, ast.AnnAssign):
                hints.append(node.annotation)
            if any(names_director(h) for h in hints):
                found.append(f"{name}:{node.lineno}")
    return found


def methods(path: Path) -> dict[str, int]:
    """Class name -> how many functions its body defines (properties included)."""
    return {node.name: sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef)
                           for b in node.body)
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ClassDef)}


def lint_counting_type_checking(root: Path, scratch: Path) -> subprocess.CompletedProcess[str]:
    """The director's contracts (pyproject.toml), run by import-linter on the code under
    `root` with the imports under `if TYPE_CHECKING:` counted (their config in `scratch`)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    chosen = [c for c in data["tool"]["importlinter"]["contracts"]
              if c["id"] in DIRECTOR_CONTRACTS]
    assert [c["id"] for c in chosen] == list(DIRECTOR_CONTRACTS)
    lines = ['[tool.importlinter]', 'root_package = "kiosk"',
             "exclude_type_checking_imports = false"]
    for c in chosen:
        lines.append("\n[[tool.importlinter.contracts]]")
        lines += [f"{k} = {_toml(v)}" for k, v in c.items()]
    config = scratch / "director-contracts.toml"
    config.write_text("\n".join(lines) + "\n")
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT), "--no-cache", str(config)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


# ------------------------------------------------------------------------------ tests
def test_no_circle_of_modules_in_the_director_counting_every_import() -> None:
    assert circles(graph(ROOT / "kiosk" / "director")) == []


def test_a_circle_closed_under_type_checking_is_found(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "kiosk" / "director", tmp_path / "kiosk" / "director",
                    ignore=shutil.ignore_patterns("__pycache__", "static"))
    publisher = tmp_path / "kiosk" / "director" / "mqtt" / "publisher.py"
    publisher.write_text(publisher.read_text() + "\nfrom typing import TYPE_CHECKING\n"
                         "if TYPE_CHECKING:\n"
                         "    from kiosk.director.service import Director  # noqa\n")
    found = circles(graph(tmp_path / "kiosk" / "director", tmp_path))
    assert len(found) == 1
    assert {"kiosk.director.mqtt.publisher", "kiosk.director.service"} <= set(found[0])


def test_only_the_composition_root_is_annotated_with_the_director() -> None:
    assert director_annotations(ROOT / "kiosk" / "director") == []
    importers = [name for name, deps in graph(ROOT / "kiosk" / "director").items()
                 if COMPOSITION_ROOT in deps]
    assert importers == ["kiosk.director.running"], "only the entry point builds the director"


def test_a_function_taking_the_whole_director_is_found(tmp_path: Path) -> None:
    folder = tmp_path / "kiosk" / "director"
    for sub in ("mqtt", "views"):
        (folder / sub).mkdir(parents=True)
    (folder / "mqtt" / "inbox.py").write_text('def take(d: "Director", topic: str) -> None: ...\n')
    (folder / "views" / "hub.py").write_text("class Hub:\n    owner: Director | None = None\n")
    found = sorted(f.split(":")[0] for f in director_annotations(folder, tmp_path))
    assert found == ["kiosk.director.mqtt.inbox", "kiosk.director.views.hub"]


def test_the_director_contracts_hold_with_type_checking_imports_counted(tmp_path: Path
                                                                       ) -> None:
    r = lint_counting_type_checking(ROOT, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{len(DIRECTOR_CONTRACTS)} kept, 0 broken" in r.stdout


def test_the_contracts_catch_the_centre_importing_an_adapter(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "kiosk", tmp_path / "kiosk",
                    ignore=shutil.ignore_patterns("__pycache__", "static"))
    service = tmp_path / "kiosk" / "director" / "centre" / "room_service.py"
    service.write_text(service.read_text() + "\nfrom typing import TYPE_CHECKING\n"
                       "if TYPE_CHECKING:\n"
                       "    from kiosk.director.mqtt.publisher import Publishing  # noqa\n")
    r = lint_counting_type_checking(tmp_path, tmp_path)
    assert r.returncode == 1
    assert "kiosk.director.centre.room_service -> kiosk.director.mqtt.publisher" in r.stdout


def test_no_class_of_the_director_or_the_table_has_more_than_30_methods() -> None:
    over = {f"{path.relative_to(ROOT)}:{cls}": n
            for folder in ("director", "table")
            for path in sorted((ROOT / "kiosk" / folder).rglob("*.py"))
            for cls, n in methods(path).items() if n > MAX_METHODS}
    assert over == {}


def test_the_director_and_the_table_controller_are_well_under_the_limit() -> None:
    """Split by responsibility, not squeezed to the limit: no read-through descriptor
    standing in for methods, and room to grow."""
    director = methods(ROOT / "kiosk" / "director" / "service.py")["Director"]
    controller = methods(ROOT / "kiosk" / "table" / "controller.py")["TableController"]
    assert director <= 24 and controller <= 24, (director, controller)
    for folder in ("director", "table"):
        for path in (ROOT / "kiosk" / folder).rglob("*.py"):
            assert "def __get__" not in path.read_text(), f"a descriptor in {path}"
