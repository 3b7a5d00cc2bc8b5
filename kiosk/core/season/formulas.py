"""A league's points formula: checked once, then evaluated a column at a time with numpy.

A formula must parse into the whitelisted shapes below (numbers, the five names,
+ - * / // % **, and a few functions) and evaluate on a grid of fields and places without
dividing by zero or leaving the real numbers. Nothing is ever handed to `eval`: the checked
tree is compiled into numpy operations over every result of a season at once.

Each operation gives, for each result, what Python's own arithmetic gives, so points do not
depend on how they were computed: + - * / // % sqrt abs min max are the same IEEE
operations in numpy; log, log10 and ** are Python's, one result at a time (numpy's may
differ in the last bit); floor, ceil and round give integers as Python's do (an integer's
points print as one), so a column carries which of its values are integers. A failing
result is handed to Python's own operation, which raises as it always did ("float division
by zero", "math domain error").
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_, Msg

VARS = ("entrants", "place", "buy_in", "prize", "bounties")
MAX_EXPRESSION = 400
MAX_NODES = 80
MAX_POWER = 10
FormulaKind = Literal["sqrt", "table", "expression"]
Array = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_] | bool
Columns = dict[str, Array]


class FormulaError(RuleError):
    """A formula that does not parse or does not evaluate; str(exc) says why."""


class Col(NamedTuple):
    """Values (a column, or one value for every result) and which of them are integers."""

    x: Array
    ints: Flags = False

    def flags(self) -> npt.NDArray[np.bool_]:
        return np.broadcast_to(np.asarray(self.ints, dtype=bool), self.x.shape)

    def python(self) -> list[Any]:
        """The values as Python numbers, ints where Python's would be."""
        values = self.x.reshape(-1).tolist()
        if self.ints is False:
            return values
        return [int(v) if i else v for v, i in zip(values, self.flags().reshape(-1).tolist(),
                                                    strict=True)]


Node = Callable[[Columns], Col]


def _flags(v: Any) -> Flags:
    return bool(v) if np.ndim(v) == 0 else v


def _exact(x: Array, ints: Flags) -> Array:
    """Integer values without a sign on zero (Python's int 0 has none)."""
    if ints is False:
        return x
    return x + 0.0 if ints is True else np.where(ints, x + 0.0, x)


def _fail(fn: Callable[..., Any], bad: Any, *args: Col) -> None:
    """Python's `fn` on the first result that is `bad`, which raises as Python does."""
    if np.any(bad):
        i = int(np.argmax(np.reshape(bad, -1)))
        fn(*(_scalar(a, i) for a in args))
        raise ArithmeticError(f"{fn.__name__} failed")   # pragma: no cover - fn raised


def _scalar(c: Col, i: int) -> Any:
    values = c.python()
    return values[min(i, len(values) - 1)]


def _each(fn: Callable[..., Any], *args: Col) -> Col:
    """Python's `fn` per result: its exact value and type (a complex number: TypeError)."""
    shape = np.broadcast_shapes(*(a.x.shape for a in args))
    cols = [Col(np.broadcast_to(a.x, shape), a.ints if np.ndim(a.ints) == 0 else
                np.broadcast_to(a.ints, shape)).python() for a in args]
    out = list(map(fn, *cols))
    ints = np.fromiter((type(v) is int for v in out), bool, len(out)).reshape(shape)
    return Col(np.array(out, dtype=np.float64).reshape(shape), _flags(ints.any() and ints))


def _arith(ufunc: Any, fn: Callable[[Any, Any], Any], by_zero: bool = False,
           keeps_ints: bool = True) -> Callable[[Col, Col], Col]:
    def apply(a: Col, b: Col) -> Col:
        if by_zero:
            _fail(fn, b.x == 0, a, b)
        ints = _flags(np.logical_and(a.ints, b.ints)) if keeps_ints else False
        return Col(_exact(ufunc(a.x, b.x), ints), ints)
    return apply


def _pow(a: Col, b: Col) -> Col:
    if np.any(np.abs(b.x) > MAX_POWER):
        raise FormulaError(M_("formula.power", "a power is at most {most}", most=MAX_POWER))
    return _each(operator.pow, a, b)


def _pick(takes_b: Any) -> Callable[[Col, Col], Col]:
    """min (b < a) or max (b > a): the first of two equal, as Python's min and max."""
    def apply(a: Col, b: Col) -> Col:
        sel = takes_b(b.x, a.x)
        ints = False if a.ints is False and b.ints is False else \
            _flags(np.where(sel, b.ints, a.ints))
        return Col(np.where(sel, b.x, a.x), ints)
    return apply


def _sqrt(a: Col) -> Col:
    _fail(math.sqrt, a.x < 0, a)
    return Col(np.sqrt(a.x))


def _integer(ufunc: Any, fn: Callable[[float], int]) -> Callable[[Col], Col]:
    def apply(a: Col) -> Col:
        _fail(fn, ~np.isfinite(a.x), a)
        return Col(ufunc(a.x) + 0.0, True)
    return apply


_OPS: dict[type, Callable[[Col, Col], Col]] = {
    ast.Add: _arith(np.add, operator.add), ast.Sub: _arith(np.subtract, operator.sub),
    ast.Mult: _arith(np.multiply, operator.mul),
    ast.Div: _arith(np.true_divide, operator.truediv, by_zero=True, keeps_ints=False),
    ast.FloorDiv: _arith(np.floor_divide, operator.floordiv, by_zero=True),
    ast.Mod: _arith(np.mod, operator.mod, by_zero=True), ast.Pow: _pow}
_FUNCS: dict[str, tuple[int, Callable[..., Col]]] = {
    "sqrt": (1, _sqrt), "log": (1, lambda a: _each(math.log, a)),
    "log10": (1, lambda a: _each(math.log10, a)),
    "abs": (1, lambda a: Col(np.abs(a.x), a.ints)),
    "floor": (1, _integer(np.floor, math.floor)), "ceil": (1, _integer(np.ceil, math.ceil)),
    "round": (1, _integer(np.rint, round)),
    "min": (2, _pick(np.less)), "max": (2, _pick(np.greater))}


def _compile(node: ast.AST) -> Node:
    """The column evaluator of one whitelisted node; FormulaError for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
            and not isinstance(node.value, bool):
        value = Col(np.array(float(node.value)))
        return lambda cols: value
    if isinstance(node, ast.Name):
        if node.id not in VARS:
            raise FormulaError(M_("formula.unknown_name", "unknown name '{name}' (known: {known})",
                                  name=node.id, known=', '.join(VARS)))
        name = node.id
        return lambda cols: Col(cols[name])
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        op, left, right = _OPS[type(node.op)], _compile(node.left), _compile(node.right)
        return lambda cols: op(left(cols), right(cols))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _compile(node.operand)
        sign = np.array(-1.0 if isinstance(node.op, ast.USub) else 1.0)
        return lambda cols: Col(inner(cols).x * sign)     # x * -1.0: a float, as in Python
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        return _call(node)
    raise FormulaError(M_("formula.not_allowed", "{what} is not allowed in a formula (numbers, "
                          "{names}, + - * / // % **, and {functions})", what=_shape(node),
                          names=', '.join(VARS), functions=', '.join(_FUNCS)))


def _call(node: ast.Call) -> Node:
    name = node.func.id if isinstance(node.func, ast.Name) else "?"
    if name not in _FUNCS:
        raise FormulaError(M_("formula.unknown_function", "unknown function '{name}' (known: "
                              "{known})", name=name, known=', '.join(_FUNCS)))
    arity, fn = _FUNCS[name]
    if len(node.args) != arity:
        raise FormulaError(Mn_("formula.arity", "{name}() takes {n} argument",
                               "{name}() takes {n} arguments", arity, name=name))
    args = [_compile(a) for a in node.args]
    return lambda cols: fn(*(a(cols) for a in args))


def _shape(node: ast.AST) -> str:
    try:
        return repr(ast.unparse(node))
    except Exception:   # pragma: no cover - unparse handles every parsed node
        return type(node).__name__


def _by_place(table: tuple[float, ...]) -> Node:
    """Points by place from a table (1st, 2nd, ...), 0 for any other place."""
    points = np.array([0.0, *table])

    def node(cols: Columns) -> Col:
        place = cols["place"]
        listed = (place >= 1) & (place <= len(table)) & (place == np.floor(place))
        return Col(points[np.where(listed, place, 0).astype(np.intp)])
    return node


@dataclass(frozen=True)
class Formula:
    """Points for a result: `columns` maps the five columns to a column of points."""

    kind: FormulaKind
    text: str
    node: Node = field(repr=False, compare=False)
    table: tuple[float, ...] = ()

    def columns(self, cols: Columns) -> Col:
        """Every result's points (one per value of cols["place"])."""
        with np.errstate(all="ignore"):     # Python gives inf too; its errors are raised
            out = self.node(cols)
        if out.x.ndim == 0:
            return Col(np.full(len(cols["place"]), float(out.x)))
        return out

    def points(self, **values: float) -> float:
        """One result's points (the check and the tests)."""
        out: float = self.columns({k: np.array([float(values[k])]) for k in VARS}).python()[0]
        return out


def formula(kind: FormulaKind, expression: str = "", scale: float = 10.0,
            table: Sequence[float] = ()) -> Formula:
    """A league's formula, checked; FormulaError saying why it is refused.

    sqrt: `scale * sqrt(entrants / place)`; table: points by place (1st, 2nd, ...; 0
    after); expression: a custom expression over entrants, place, buy_in, prize and
    bounties."""
    if kind == "table":
        if not table or any(not math.isfinite(p) or p < 0 for p in table):
            raise FormulaError(M_("formula.points_table", "a points table lists the points of "
                                  "1st, 2nd, ... place, each 0 or more"))
        points = tuple(float(p) for p in table)
        return Formula("table", ", ".join(f"{p:g}" for p in table), _by_place(points), points)
    text = f"{scale!r} * sqrt(entrants / place)" if kind == "sqrt" else expression.strip()
    if not text:
        raise FormulaError(M_("formula.empty", "the expression is empty"))
    if len(text) > MAX_EXPRESSION:
        raise FormulaError(M_("formula.too_long", "the expression is longer than {most} characters",
                              most=MAX_EXPRESSION))
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(M_("formula.parse", "it does not parse: {msg} at column {offset}",
                              msg=exc.msg, offset=exc.offset)) from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise FormulaError(M_("formula.too_big", "the expression has more than {most} parts",
                              most=MAX_NODES))
    f = Formula(kind, text, _compile(tree.body))
    _try(f)
    return f


def sample_fields() -> Columns:
    """The fields and results a formula must evaluate on: fields of 1 to 1000 with every
    place, freerolls and paid events, results with and without prizes and bounties."""
    rows = [(entrants, place, buy_in, prize, bounties)
            for entrants in (1, 2, 3, 7, 10, 45, 100, 1000)
            for place in sorted({*range(1, min(entrants, 12) + 1), entrants})
            for buy_in, prize, bounties in ((0, 0, 0), (100, 0, 0), (100, 450, 50), (1, 1, 0))]
    table = np.array(rows, dtype=np.float64)
    return {k: np.ascontiguousarray(table[:, i]) for i, k in enumerate(VARS)}


def _try(f: Formula) -> None:
    cols = sample_fields()
    try:
        out = f.columns(cols).x
    except ZeroDivisionError:
        raise FormulaError(M_("formula.divides_by_zero", "{formula} divides by zero for some "
                              "results ({where})", formula=f.text, where=_where(f, cols))) from None
    except (ValueError, OverflowError, TypeError) as exc:
        raise FormulaError(M_("formula.cannot_compute", "{formula} cannot be computed for some "
                              "results: {why} ({where})", formula=f.text, why=exc,
                              where=_where(f, cols))) from None
    bad = np.flatnonzero(~np.isfinite(out))
    if bad.size:
        raise FormulaError(M_("formula.not_a_number", "{formula} is not a number for {row}",
                              formula=f.text, row=_row(cols, int(bad[0]))))


def _where(f: Formula, cols: Columns) -> Msg | str:
    """The first sample result the formula fails on, as a person reads it."""
    for i in range(len(cols["place"])):
        try:
            f.columns({k: v[i:i + 1] for k, v in cols.items()})
        except Exception:
            return M_("formula.for_example", "e.g. {row}", row=_row(cols, i))
    return "?"   # pragma: no cover - only called after a failure


def _row(cols: Columns, i: int) -> str:
    return ", ".join(f"{k} = {cols[k][i]:g}" for k in VARS)
