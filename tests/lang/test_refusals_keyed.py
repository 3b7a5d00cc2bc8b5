"""Every refusal a person reads is raised as a message key with its arguments, so each
screen renders it in its reader's language: an AST walk over the parts that refuse (the
core, the rules, the director's centre, services, adapters, table inbox and web) finds
any `raise SomeKioskError("...")` or `raise SomeKioskError(f"...")` still in English.

The error classes are found in the code itself: KioskError and every class deriving from
it (RuleError, ConfigError, CommandError, FormulaError, NoSuchCode...), and the web's
`Refused`. A refusal given as a variable, or by a function that returns a message key, is
the function's to type (mypy holds those to `Msg`)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
SCANNED = ("core", "rules", "director/centre", "director/services", "director/adapters",
           "director/mqtt", "director/web", "director/views")
# which argument holds the sentence, for the classes that take more than one
SENTENCE_ARG = {"ConfigError": 2, "Refused": 1}
# (file, class, the sentence's first words): raised, but never read by a person in the
# room, each with why
ALLOWED: dict[tuple[str, str, str], str] = {
    ("director/web/client.py", "KioskError", "refused ("): (
        "the command line's client of the director's web: the command line stays English, "
        "the reason inside rendered in English from the reply's message key"),
    ("director/web/client.py", "KioskError", "cannot reach the director"): (
        "the command line's client: a network error printed in the terminal, in English"),
    ("director/web/server.py", "KioskError", "cannot load the dashboard certificate"): (
        "the director does not start: printed on the command line and in the log"),
    ("director/web/server.py", "KioskError", "cannot serve the dashboard"): (
        "the director does not start: printed on the command line and in the log"),
    ("director/centre/event_aggregate.py", "ConfigError", ""): (
        "an event's settings changed against its log: the director does not start, and "
        "says why on the command line and in the log (twice: the settings, the shot clock)"),
    ("director/centre/transactions.py", "ConfigError", "event "): (
        "a house setting in the room's file cannot apply now: the director does not start, "
        "and says why on the command line and in the log"),
    ("director/views/from_log.py", "KioskError", ""): (
        "the results and league commands read a log file on the command line, which "
        "stays English (no event, no log, which --event)"),
}


def _kiosk_errors(trees: dict[Path, ast.Module]) -> set[str]:
    """KioskError and every class that derives from it, by name, across kiosk/."""
    bases: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else b.attr
                    for b in node.bases if isinstance(b, (ast.Name, ast.Attribute)))
    found = {"KioskError", "Refused"}
    grew = True
    while grew:
        more = {name for name, of in bases.items() if of & found} - found
        found |= more
        grew = bool(more)
    return found


def _plain(node: ast.expr) -> bool:
    """An English sentence written in place: a string, an f-string, a sum or `.format`
    of one, or a choice between such."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _plain(node.left) or _plain(node.right)
    if isinstance(node, ast.IfExp):
        return _plain(node.body) or _plain(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("format", "join", "replace") and _plain(node.func.value)
    return False


def _text(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _text(node.left)
    return ""


def _english_raises(trees: dict[Path, ast.Module], errors: set[str]
                    ) -> Iterator[tuple[str, int, str, str]]:
    for path, tree in trees.items():
        rel = path.relative_to(KIOSK).as_posix()
        if not rel.startswith(SCANNED):
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            if name not in errors:
                continue
            i = SENTENCE_ARG.get(name, 0)
            if len(node.exc.args) <= i or not _plain(node.exc.args[i]):
                continue
            yield rel, node.lineno, name, _text(node.exc.args[i])


def _allowed(rel: str, name: str, text: str) -> bool:
    return any(rel == f and name == c and text.startswith(w) for f, c, w in ALLOWED)


@functools.cache
def _trees() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8"), str(p))
            for p in sorted(KIOSK.rglob("*.py")) if "/lang/" not in p.as_posix()}


def test_every_refusal_a_person_reads_is_a_message_key() -> None:
    trees = _trees()
    errors = _kiosk_errors(trees)
    assert {"RuleError", "ConfigError", "CommandError", "NoSuchCode", "FormulaError",
            "NeedsTable", "Refused"} <= errors
    english = [f"kiosk/{rel}:{line}: {name}({text!r}...)"
               for rel, line, name, text in _english_raises(trees, errors)
               if not _allowed(rel, name, text)]
    assert english == [], "refusals still raised in English (give each a key: " \
        "M_(\"part.key\", \"English {arg}\", arg=...)):\n" + "\n".join(english)


def test_the_allow_list_names_only_raises_that_exist() -> None:
    """An entry whose raise is gone (or was given a key) is dropped from the list."""
    trees = _trees()
    found = {(rel, name, text) for rel, _, name, text in
             _english_raises(trees, _kiosk_errors(trees))}
    stale = [entry for entry in ALLOWED
             if not any(_allowed(rel, name, text) and (rel, name) == entry[:2]
                        and text.startswith(entry[2]) for rel, name, text in found)]
    assert stale == []


def test_the_walk_finds_an_english_refusal() -> None:
    """The check can fail: an f-string, a string, a choice of strings and a `.format`."""
    tree = ast.parse(
        "from kiosk.base.errors import RuleError\n"
        "def f(x):\n"
        "    if x == 1:\n"
        "        raise RuleError(f'seat {x} is taken')\n"
        "    if x == 2:\n"
        "        raise RuleError('late registration is closed')\n"
        "    if x == 3:\n"
        "        raise RuleError('on' if x else f'off {x}')\n"
        "    if x == 4:\n"
        "        raise RuleError('table {} is full'.format(x))\n"
        "    raise RuleError(M_('seat.taken', 'seat {seat} is taken', seat=x))\n")
    path = KIOSK / "core" / "example_for_the_test.py"
    found = list(_english_raises({path: tree}, {"RuleError"}))
    assert [line for _, line, _, _ in found] == [4, 6, 8, 10]
