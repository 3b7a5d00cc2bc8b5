"""No circle of modules in kiosk/core or kiosk/director, counting every import (those
under `if TYPE_CHECKING:` and inside functions too: a name a module must know is a
dependency its reader must follow), read from the source with `ast`. And the core's
parts own their state: none writes another's (docs/architecture.md, "The tournament's
parts").

import-linter's contracts leave TYPE_CHECKING imports out (one setting for all of
kiosk/), so this test is what proves the two packages have no circle."""

from __future__ import annotations

import ast
import dataclasses
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from import_graph import cycles

import kiosk
from kiosk.core.event.tournament import PARTS, Tournament
from kiosk.core.model.component import Component
from kiosk.core.model.state import Player, Table
from kiosk.rules.structure_files import load_structure

KIOSK = Path(kiosk.__file__).resolve().parent
CORE = KIOSK / "core"
MUTATORS = frozenset({"add", "append", "clear", "discard", "extend", "insert", "pop",
                      "popitem", "remove", "setdefault", "update"})


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module under `root`, by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that module `name` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for a in node.names:   # `from pkg import module` names the module itself
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in found if m in known and m != name}


def circles_in(root: Path, package: str) -> list[list[str]]:
    known = modules(root, package)
    return cycles({m: imports(m, p, known) for m, p in known.items()})


@pytest.mark.parametrize("package", ["core", "director"])
def test_no_circle_of_modules(package: str) -> None:
    found = circles_in(KIOSK / package, f"kiosk.{package}")
    assert not found, f"kiosk/{package} has circles of imports: {found}"


def test_a_circle_through_a_type_checking_import_is_found(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from .c import C\n")
    (pkg / "c.py").write_text("def f():\n    import pkg.a\n")
    (pkg / "d.py").write_text("from pkg.a import x\n")
    assert circles_in(pkg, "pkg") == [["pkg.a", "pkg.b", "pkg.c"]]


PART_MODULES = {part.__module__ for part in PARTS}


def test_no_part_imports_another_part_nor_the_tournament() -> None:
    """The parts meet only through kiosk.core.model.host's views, which the tournament hands
    them: none names another part's module."""
    known = modules(CORE, "kiosk.core")
    for name in sorted(PART_MODULES):
        wrong = imports(name, known[name], known) & (PART_MODULES | {Tournament.__module__})
        assert not wrong, f"{name} imports {sorted(wrong)}"


def test_the_independence_contract_names_every_part() -> None:
    """pyproject.toml's contract `core-parts` (lint-imports) keeps the parts apart too."""
    config = tomllib.loads((KIOSK.parent / "pyproject.toml").read_text())
    contract = next(c for c in config["tool"]["importlinter"]["contracts"]
                    if c["id"] == "core-parts")
    assert set(contract["modules"]) == PART_MODULES


def _chain(node: ast.AST) -> list[str]:
    """`self.a.b.c` as ["self", "a", "b", "c"] (a subscript stands for its container)."""
    out = []
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Attribute):
            out.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        out.append(node.id)
    return out[::-1]


def _writes(tree: ast.AST) -> Iterator[tuple[int, list[str], str]]:
    """Each place that changes what an attribute chain names: (line, chain, how)."""
    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                yield node.lineno, _chain(t), type(node).__name__
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MUTATORS:
            yield node.lineno, _chain(node.func.value), f".{node.func.attr}()"


def another_parts_state_written(path: Path, peers: set[str]) -> list[str]:
    """Lines of `path` that write a field of a peer (`self.registry.alive -= 1`), or
    anything through the host (`self.t.x = ...`)."""
    bad = []
    for line, chain, how in _writes(ast.parse(path.read_text(), str(path))):
        if chain[:1] == ["self"] and len(chain) >= 3 and (chain[1] in peers or chain[1] == "t"):
            bad.append(f"{path.name}:{line}: {'.'.join(chain)} ({how})")
    return sorted(bad)


def test_no_part_writes_another_parts_state() -> None:
    """A part changes another part's state only through an event that part folds, or a
    method of it that says what it does; the tournament routes and writes none either."""
    tour = Tournament.create(event="e", structure=load_structure("standard"))
    peers = {name for name, value in vars(tour).items() if type(value) in PARTS}
    assert {"registry", "seating", "balancing", "levels", "floor"} <= peers
    bad = []
    for path in sorted(CORE.rglob("*.py")):
        bad += another_parts_state_written(path, peers)
    assert not bad, "another part's state written:\n" + "\n".join(bad)


def test_the_check_sees_a_write_into_another_part(tmp_path: Path) -> None:
    part = tmp_path / "part.py"
    part.write_text("class P:\n    def f(self, ev):\n        self.registry.alive -= 1\n"
                    "        self.t.levels.h4h_waiting.discard(ev.table)\n"
                    "        self.seating.stats['x'] += 1\n        self.mine = 1\n"
                    "        self.registry.player(ev.player)\n")
    assert another_parts_state_written(part, {"registry", "seating"}) == [
        "part.py:3: self.registry.alive (AugAssign)",
        "part.py:4: self.t.levels.h4h_waiting (.discard())",
        "part.py:5: self.seating.stats (AugAssign)"]


# each column of the shared records and the part whose folds write it (kiosk/core/model/state.py)
COLUMNS = {
    **dict.fromkeys(("id", "name", "card", "country", "language", "status", "entries",
                     "rebuys", "chips_bought", "absent"), "registry"),
    **dict.fromkeys(("table", "seat", "from_table", "from_seat", "moves"), "seating"),
    **dict.fromkeys(("penalty_hands", "penalty_until", "penalty_text", "penalty_msg", "strikes",
                     "left_live_hand", "warnings"), "floor"),
    **dict.fromkeys(("bust_key", "bust_hand"), "busts"),
    **dict.fromkeys(("breaking", "pending_out", "pending_in"), "balancing"),
    **dict.fromkeys(("seats", "added", "seat_of", "hand", "in_hand", "positions", "broken",
                     "new_seats", "all_in", "redraw_button", "balance_out", "moved_weight",
                     "last_hand_at", "life"), "seating"),
}


def test_each_column_of_a_player_or_table_is_written_by_its_owner() -> None:
    assert set(COLUMNS) == {f.name for f in dataclasses.fields(Player)} | \
        {f.name for f in dataclasses.fields(Table)}
    bad = []
    for part in PARTS:
        path = Path(sys.modules[part.__module__].__file__ or "")
        for line, chain, how in _writes(ast.parse(path.read_text(), str(path))):
            if len(chain) >= 2 and chain[0] != "self" and chain[1] in COLUMNS \
                    and COLUMNS[chain[1]] != path.stem:
                bad.append(f"{path.name}:{line}: {'.'.join(chain)} ({how}) is "
                           f"{COLUMNS[chain[1]]}'s")
    assert not bad, "\n".join(bad)


def test_every_part_is_a_component_wired_with_the_peers_it_declares() -> None:
    tour = Tournament.create(event="e", structure=load_structure("standard"))
    for part in PARTS:
        assert issubclass(part, Component)
        obj = tour.parts[part]
        for name in part.peer_names():
            peer = getattr(obj, name)
            assert peer is (tour.changes if name == "changes" else getattr(tour, name))
