"""A season's league: points per result by a formula, and the standings over the events
that count.

Pure: standings are computed from the events' recorded results (places, prizes,
bounties) each time they are asked for, so they are the same after a replay and follow a
corrected result. A formula is checked once, when the room's file is loaded: it must
parse into the whitelisted shapes below (numbers, the five names, + - * / // % **, and a
few functions), and evaluate on a grid of fields and places without dividing by zero or
leaving the real numbers. Nothing is ever handed to `eval`.

Points are evaluated a column at a time (every result of every event at once), so a full
recompute over a season of 500 events costs one pass per formula node.
"""

from __future__ import annotations

import ast
import math
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, repeat
from typing import Any, Literal

from kiosk.errors import RuleError

VARS = ("entrants", "place", "buy_in", "prize", "bounties")
MAX_EXPRESSION = 400
MAX_NODES = 80
MAX_POWER = 10
Column = list[float]
Value = Column | float
Node = Callable[[dict[str, Column]], Value]
FormulaKind = Literal["sqrt", "table", "expression"]
TIE_RULE = ("more points; then the better finishes (best place first, then the next "
            "best, ...); then more events counted; then the name")


class FormulaError(RuleError):
    """A formula that does not parse or does not evaluate; str(exc) says why."""


def _unary(fn: Callable[[float], float]) -> Callable[[Value], Value]:
    def apply(x: Value) -> Value:
        return list(map(fn, x)) if isinstance(x, list) else fn(x)
    return apply


def _binary(fn: Callable[[float, float], float]) -> Callable[[Value, Value], Value]:
    """`fn` over two columns, or a column and a number (broadcast), at C speed (map)."""
    def apply(a: Value, b: Value) -> Value:
        if isinstance(a, list):
            return list(map(fn, a, b if isinstance(b, list) else repeat(b, len(a))))
        return list(map(fn, repeat(a, len(b)), b)) if isinstance(b, list) else fn(a, b)
    return apply


def _pow(a: Value, b: Value) -> Value:
    exps = b if isinstance(b, list) else [b]
    if any(abs(e) > MAX_POWER for e in exps):
        raise FormulaError(f"a power is at most {MAX_POWER}")
    return _binary(operator.pow)(a, b)


_OPS: dict[type, Callable[[Value, Value], Value]] = {
    ast.Add: _binary(operator.add), ast.Sub: _binary(operator.sub),
    ast.Mult: _binary(operator.mul), ast.Div: _binary(operator.truediv),
    ast.FloorDiv: _binary(operator.floordiv), ast.Mod: _binary(operator.mod),
    ast.Pow: _pow}
_FUNCS: dict[str, tuple[int, Callable[..., Value]]] = {
    "sqrt": (1, _unary(math.sqrt)), "log": (1, _unary(math.log)),
    "log10": (1, _unary(math.log10)), "abs": (1, _unary(abs)),
    "floor": (1, _unary(math.floor)), "ceil": (1, _unary(math.ceil)),
    "round": (1, _unary(round)),
    "min": (2, _binary(min)), "max": (2, _binary(max))}


def _compile(node: ast.AST) -> Node:
    """The column evaluator of one whitelisted node; FormulaError for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
            and not isinstance(node.value, bool):
        value = float(node.value)
        return lambda cols: value
    if isinstance(node, ast.Name):
        if node.id not in VARS:
            raise FormulaError(f"unknown name {node.id!r} (known: {', '.join(VARS)})")
        name = node.id
        return lambda cols: cols[name]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        op, left, right = _OPS[type(node.op)], _compile(node.left), _compile(node.right)
        return lambda cols: op(left(cols), right(cols))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner, sign = _compile(node.operand), -1.0 if isinstance(node.op, ast.USub) else 1.0
        mul = _OPS[ast.Mult]
        return lambda cols: mul(inner(cols), sign)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id not in _FUNCS:
            raise FormulaError(f"unknown function {node.func.id!r} (known: "
                               f"{', '.join(_FUNCS)})")
        arity, fn = _FUNCS[node.func.id]
        if len(node.args) != arity:
            raise FormulaError(f"{node.func.id}() takes {arity} argument"
                               f"{'s' * (arity > 1)}")
        args = [_compile(a) for a in node.args]
        return lambda cols: fn(*(a(cols) for a in args))
    raise FormulaError(f"{_shape(node)} is not allowed in a formula (numbers, "
                       f"{', '.join(VARS)}, + - * / // % **, and {', '.join(_FUNCS)})")


def _shape(node: ast.AST) -> str:
    try:
        return repr(ast.unparse(node))
    except Exception:   # pragma: no cover - unparse handles every parsed node
        return type(node).__name__


@dataclass(frozen=True)
class Formula:
    """Points for a result: `columns` maps the five columns to a column of points."""

    kind: FormulaKind
    text: str
    node: Node = field(repr=False, compare=False)
    table: tuple[float, ...] = ()

    def columns(self, cols: dict[str, Column]) -> Column:
        if self.kind == "table":
            by_place = {float(i): p for i, p in enumerate(self.table, 1)}
            return list(map(by_place.get, cols["place"], repeat(0.0)))
        out = self.node(cols)
        if not isinstance(out, list):
            return [float(out)] * len(cols["place"])
        return out

    def points(self, **values: float) -> float:
        """One result's points (the check and the tests)."""
        return self.columns({k: [float(values[k])] for k in VARS})[0]


def formula(kind: FormulaKind, expression: str = "", scale: float = 10.0,
            table: Sequence[float] = ()) -> Formula:
    """A league's formula, checked; FormulaError saying why it is refused.

    sqrt: `scale * sqrt(entrants / place)`; table: points by place (1st, 2nd, ...; 0
    after); expression: a custom expression over entrants, place, buy_in, prize and
    bounties."""
    if kind == "table":
        if not table or any(not math.isfinite(p) or p < 0 for p in table):
            raise FormulaError("a points table lists the points of 1st, 2nd, ... place, "
                               "each 0 or more")
        return Formula("table", ", ".join(f"{p:g}" for p in table), lambda c: 0.0,
                       tuple(float(p) for p in table))
    text = f"{scale!r} * sqrt(entrants / place)" if kind == "sqrt" else expression.strip()
    if not text:
        raise FormulaError("the expression is empty")
    if len(text) > MAX_EXPRESSION:
        raise FormulaError(f"the expression is longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"it does not parse: {exc.msg} at column {exc.offset}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise FormulaError(f"the expression has more than {MAX_NODES} parts")
    f = Formula(kind, text, _compile(tree.body))
    _try(f)
    return f


def sample_fields() -> dict[str, Column]:
    """The fields and results a formula must evaluate on: fields of 1 to 1000 with every
    place, freerolls and paid events, results with and without prizes and bounties."""
    cols: dict[str, Column] = {k: [] for k in VARS}
    for entrants in (1, 2, 3, 7, 10, 45, 100, 1000):
        for place in sorted({*range(1, min(entrants, 12) + 1), entrants}):
            for buy_in, prize, bounties in ((0, 0, 0), (100, 0, 0), (100, 450, 50),
                                            (1, 1, 0)):
                for k, v in zip(VARS, (entrants, place, buy_in, prize, bounties),
                                strict=True):
                    cols[k].append(float(v))
    return cols


def _try(f: Formula) -> None:
    cols = sample_fields()
    try:
        out = f.columns(cols)
    except ZeroDivisionError:
        raise FormulaError(f"{f.text} divides by zero for some results "
                           f"({_where(f, cols)})") from None
    except (ValueError, OverflowError, TypeError) as exc:
        raise FormulaError(f"{f.text} cannot be computed for some results: {exc} "
                           f"({_where(f, cols)})") from None
    bad = next((i for i, v in enumerate(out) if not math.isfinite(v)), None)
    if bad is not None:
        raise FormulaError(f"{f.text} is not a number for " + _row(cols, bad))


def _where(f: Formula, cols: dict[str, Column]) -> str:
    """The first sample result the formula fails on, as a person reads it."""
    for i in range(len(cols["place"])):
        try:
            f.columns({k: [v[i]] for k, v in cols.items()})
        except Exception:
            return "e.g. " + _row(cols, i)
    return "?"   # pragma: no cover - only called after a failure


def _row(cols: dict[str, Column], i: int) -> str:
    return ", ".join(f"{k} = {cols[k][i]:g}" for k in VARS)


# ---------------------------------------------------------------- the league
@dataclass(frozen=True)
class LeagueSpec:
    """What a room's `[[leagues]]` declares."""

    name: str
    title: str
    formula: Formula
    events: tuple[str, ...] = ()       # by name
    kinds: tuple[str, ...] = ()        # by kind (event, satellite, flight, day2)
    since: float | None = None         # every finished event from this time on
    best: int = 0                      # the best N results count (0: all)

    def counts(self, ev: EventResult) -> bool:
        """Whether a finished event counts: named, of a kind named, or finished since the
        date; with nothing named, every finished event."""
        if not (self.events or self.kinds or self.since is not None):
            return True
        return ev.name in self.events or ev.kind in self.kinds or \
            (self.since is not None and ev.finished_at >= self.since)


@dataclass(frozen=True)
class Result:
    player: str
    name: str
    place: int
    prize: int = 0
    bounties: int = 0


@dataclass(frozen=True)
class EventResult:
    """One finished event's recorded results, as a league reads them (read once per
    change of the event; its columns are built once)."""

    name: str
    title: str
    kind: str
    finished_at: float
    buy_in: int
    entrants: int
    results: tuple[Result, ...]

    @cached_property
    def columns(self) -> tuple[list[str], list[float], list[float], list[float], list[int]]:
        """players, places, prizes, bounties (as numbers), places (as read)."""
        r = self.results
        return ([x.player for x in r], [float(x.place) for x in r],
                [float(x.prize) for x in r], [float(x.bounties) for x in r],
                [x.place for x in r])


def event_result(name: str, title: str, kind: str, tour: Any) -> EventResult | None:
    """A finished event's places, prizes and bounties from its tournament (None: not
    finished, so it counts for nothing yet)."""
    if tour.finished_at is None:
        return None
    places, prizes = tour.places(), tour.prizes()
    rows = tuple(Result(pid, tour.players[pid].name, place, prizes.get(pid, 0),
                        tour.bounty_cash.get(pid, 0)) for pid, place in places.items())
    return EventResult(name, title, kind, tour.finished_at, tour.buy_in,
                       len(tour.players), rows)


class Line:
    """A player's line: his results as (-points, place, event), best first, his total."""

    __slots__ = ("counted", "key", "name", "player", "points", "rank", "results")

    def __init__(self, player: str, name: str, results: list[tuple[float, int, str]],
                 best: int) -> None:
        self.player, self.name, self.rank = player, name, 0
        results.sort()
        self.results = results
        n = len(results)
        self.counted = min(best, n) if best else n
        counted = results[:self.counted] if self.counted < n else results
        self.points = round(-sum(r[0] for r in counted), 2)
        self.key = (-self.points, sorted(r[1] for r in counted), -self.counted,
                    name.casefold(), player)

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "name": self.name,
                "points": self.points, "events": len(self.results), "counted": self.counted,
                "places": [r[1] for r in self.results],
                "results": [{"event": e, "place": p, "points": round(-pts, 2),
                             "counted": i < self.counted}
                            for i, (pts, p, e) in enumerate(self.results)]}


_KEY = operator.attrgetter("key")
Rows = dict[str, tuple[float, int, str]]      # player -> (-points, place, event) in one event


class Standings:
    """A league's table, rebuilt in full (`recompute`) or for one event's change
    (`update`): the players that event touches are re-totalled, then the table sorted.
    A result's points are kept exact; a total is rounded to 2 decimals."""

    def __init__(self, spec: LeagueSpec, names: dict[str, str] | None = None) -> None:
        self.spec = spec
        self.names = names or {}        # the room's name of each player, when it knows him
        self.events: dict[str, EventResult] = {}
        self.by_event: dict[str, Rows] = {}
        self.lines: dict[str, Line] = {}
        self.table: list[Line] = []
        self._named: set[str] = set()    # the events whose players' names were taken

    def recompute(self, events: Iterable[EventResult]) -> list[Line]:
        self.events = {e.name: e for e in events if self.spec.counts(e)}
        self.by_event = self._points(list(self.events.values()))
        results: defaultdict[str, list[tuple[float, int, str]]] = defaultdict(list)
        for rows in self.by_event.values():
            for player, row in rows.items():
                results[player].append(row)
        best, name = self.spec.best, self._name
        self.lines = {p: Line(p, name(p), r, best) for p, r in results.items()}
        return self._sort()

    def update(self, ev: EventResult | None, name: str) -> list[Line]:
        """Event `name` finished, changed or went away (`ev` None)."""
        old = self.by_event.pop(name, {})
        self.events.pop(name, None)
        new: Rows = {}
        if ev is not None and self.spec.counts(ev):
            self.events[name] = ev
            new = self.by_event[name] = self._points([ev])[name]
        for player in old.keys() | new.keys():
            line = self.lines.get(player)
            results = [r for r in line.results if r[2] != name] if line else []
            if player in new:
                results.append(new[player])
            if results:
                self.lines[player] = Line(player, self._name(player), results,
                                          self.spec.best)
            else:
                self.lines.pop(player, None)
        return self._sort()

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """The standings as the public pages, the TV and the terminal give them."""
        spec = self.spec
        return {"league": spec.name, "title": spec.title, "formula": spec.formula.kind,
                "points": spec.formula.text, "best": spec.best, "tie_rule": TIE_RULE,
                "events": [{"event": e.name, "title": e.title, "entrants": e.entrants}
                           for e in self.events.values()],
                "standings": [line.to_dict() for line in self.table[:top]]}

    def _points(self, events: list[EventResult]) -> dict[str, Rows]:
        """Every result's points, the whole season's columns at once."""
        cols = {"place": list(chain.from_iterable(e.columns[1] for e in events)),
                "prize": list(chain.from_iterable(e.columns[2] for e in events)),
                "bounties": list(chain.from_iterable(e.columns[3] for e in events)),
                "entrants": list(chain.from_iterable(repeat(float(e.entrants), len(e.results))
                                                     for e in events)),
                "buy_in": list(chain.from_iterable(repeat(float(e.buy_in), len(e.results))
                                                   for e in events))}
        try:
            pts = self.spec.formula.columns(cols)
        except (ArithmeticError, ValueError) as exc:
            raise FormulaError(f"league {self.spec.name}: {exc}") from None
        out, i = {}, 0
        names = self.names
        for ev in events:
            players, places = ev.columns[0], ev.columns[4]
            n = len(players)
            out[ev.name] = dict(zip(players, zip(map(operator.neg, pts[i:i + n]), places,
                                                 repeat(ev.name, n), strict=True), strict=True))
            i += n
            if ev.name not in self._named:
                self._named.add(ev.name)
                for r in ev.results:
                    names.setdefault(r.player, r.name)
        return out

    def _name(self, player: str) -> str:
        return self.names.get(player, player)

    def _sort(self) -> list[Line]:
        self.table = sorted(self.lines.values(), key=_KEY)
        for i, line in enumerate(self.table, 1):
            line.rank = i
        return self.table
