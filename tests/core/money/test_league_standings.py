"""League standings against a straightforward reference: each result's points by a plain
Python function, each player's results sorted and the best N added one by one, the table
sorted on the tie rule's key. Random seasons with ties (flat points tables, names that
differ only in case, the same name twice), integer points (floor, round), a player listed
twice in an event and a place too large for the packed sort; compared as JSON text, so an
int for a float or a -0.0 for a 0.0 fails too. And a formula that divides by zero on a real
result refused with Python's own words."""

from __future__ import annotations

import json
import math
import operator
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kiosk.core.season.leagues import (
    EventResult,
    FormulaError,
    LeagueSpec,
    Result,
    Standings,
    _round2,
    formula,
)

Points = Callable[[float, float, float, float, float], float]
TABLE = [25, 18, 15, 12]
FORMULAS: list[tuple[str, dict[str, Any], Points]] = [
    ("sqrt", {"scale": 10}, lambda e, p, b, z, k: 10.0 * math.sqrt(e / p)),
    ("table", {"table": TABLE},
     lambda e, p, b, z, k: float(TABLE[int(p) - 1]) if 1 <= p <= len(TABLE) else 0.0),
    ("table", {"table": [10] * 5}, lambda e, p, b, z, k: 10.0 if 1 <= p <= 5 else 0.0),
    ("expression", {"expression": "floor(entrants / place)"},
     lambda e, p, b, z, k: math.floor(e / p)),
    ("expression", {"expression": "max(round(10 / place), 0.5) + min(floor(prize / 7), 2)"},
     lambda e, p, b, z, k: max(round(10.0 / p), 0.5) + min(math.floor(z / 7.0), 2.0)),
    ("expression", {"expression": "100 * (entrants - place + 1) / entrants + buy_in / 100"},
     lambda e, p, b, z, k: 100.0 * (e - p + 1.0) / e + b / 100.0),
    ("expression", {"expression": "log(entrants) * 3 - log10(place) + place ** 2 / 1000 "
                                  "+ (entrants // place) % 7 - -bounties / 3"},
     lambda e, p, b, z, k: math.log(e) * 3.0 - math.log10(p) + p ** 2.0 / 1000.0
     + (e // p) % 7.0 - (k * -1.0) / 3.0),
    ("expression", {"expression": "abs(3 - place) * 0.1 + prize / max(buy_in, 1)"},
     lambda e, p, b, z, k: abs(3.0 - p) * 0.1 + z / max(b, 1.0)),
    ("expression", {"expression": "place / 200 + -floor(-entrants / place)"},   # halves
     lambda e, p, b, z, k: p / 200.0 + math.floor(-e / p) * -1.0),
]


def season(seed: int, players: int = 120, events: int = 30) -> list[EventResult]:
    rng = random.Random(seed)
    names = {f"p{i}": rng.choice(["Ann", "ann", "Bob", "Cy", "Dee", f"P{i}"])
             for i in range(players)}
    out = []
    for e in range(events):
        field = rng.sample(sorted(names), rng.randint(1, 25))
        buy_in = rng.choice([0, 50, 100])
        rows = [Result(p, names[p], i + 1, rng.choice([0, 0, 7, 100, 150]),
                       rng.choice([0, 0, 25])) for i, p in enumerate(field)]
        if e == 3:                       # listed twice: the last row stands
            rows.append(Result(field[0], "Renamed", len(rows) + 1))
        if e == 5:                       # a place too large to pack into one sort key
            rows.append(Result("far", "Far", 2 ** 40))
        out.append(EventResult(f"e{rng.randrange(1000):03d}-{e}", "", "event", float(e),
                               buy_in, len(rows) + rng.randint(0, 5), tuple(rows)))
    return out


def reference(events: list[EventResult], points: Points, best: int) -> list[dict[str, Any]]:
    """The standings worked out one result at a time."""
    named: dict[str, str] = {}
    results: defaultdict[str, list[tuple[float, int, str]]] = defaultdict(list)
    for ev in events:
        rows = {}
        for r in ev.results:
            named.setdefault(r.player, r.name)
            rows[r.player] = (points(float(ev.entrants), float(r.place), float(ev.buy_in),
                                     float(r.prize), float(r.bounties)), r.place)
        for player, (pts, place) in rows.items():
            results[player].append((-pts, place, ev.name))
    lines = []
    for player, res in results.items():
        res.sort()
        counted = min(best, len(res)) if best else len(res)
        total = round(-sum(r[0] for r in res[:counted]), 2)
        key = (-total, sorted(r[1] for r in res[:counted]), -counted,
               named[player].casefold(), player)
        lines.append((key, {
            "player": player, "name": named[player], "points": total, "events": len(res),
            "counted": counted, "places": [r[1] for r in res],
            "results": [{"event": e, "place": p, "points": round(-pts, 2),
                         "counted": i < counted} for i, (pts, p, e) in enumerate(res)]}))
    lines.sort(key=operator.itemgetter(0))
    return [{"rank": i, **line} for i, (_, line) in enumerate(lines, 1)]


def text(rows: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(r) for r in rows]


@pytest.mark.parametrize(("kind", "args", "points"), FORMULAS,
                         ids=[f"{k}:{a}" for k, a, _ in FORMULAS])
@pytest.mark.parametrize("best", [0, 1, 3])
def test_the_standings_are_the_reference_computation(kind: str, args: dict[str, Any],
                                                     points: Points, best: int) -> None:
    events = season(11)
    spec = LeagueSpec("s", "S", formula(kind, **args), best=best)  # type: ignore[arg-type]
    st = Standings(spec)
    st.recompute(events)
    assert text(st.to_json()["standings"]) == text(reference(events, points, best))
    assert [line.to_dict() for line in st.table] == st.to_json()["standings"]
    assert [line.key for line in st.table] == sorted(line.key for line in st.table)
    assert text(st.to_json(top=5)["standings"]) == text(reference(events, points, best)[:5])


@pytest.mark.parametrize(("kind", "args", "points"), FORMULAS[1:5],
                         ids=[f"{k}:{a}" for k, a, _ in FORMULAS[1:5]])
def test_updates_give_the_reference_of_the_events_left(kind: str, args: dict[str, Any],
                                                       points: Points) -> None:
    events = season(12)
    spec = LeagueSpec("s", "S", formula(kind, **args), best=3)  # type: ignore[arg-type]
    live = Standings(spec)
    live.recompute(events[:-2])
    rng = random.Random(3)
    current = {e.name: e for e in events[:-2]}
    for step in range(12):
        ev = events[rng.randrange(len(events))]
        if step % 4 == 3:
            live.update(None, ev.name)
            current.pop(ev.name, None)
            continue
        rows = list(ev.results)
        rng.shuffle(rows)
        changed = EventResult(ev.name, ev.title, ev.kind, ev.finished_at, ev.buy_in,
                              ev.entrants, tuple(Result(r.player, r.name, i + 1, r.prize,
                                                        r.bounties)
                                                 for i, r in enumerate(rows)))
        live.update(changed, ev.name)
        current.pop(ev.name, None)
        current[ev.name] = changed
        assert text(live.to_json()["standings"]) == \
            text(reference(list(current.values()), points, 3))
    full = Standings(spec)
    full.recompute(current.values())
    assert text(live.to_json()["standings"]) == text(full.to_json()["standings"])
    assert live.to_json()["events"] == full.to_json()["events"]


EXACT: list[tuple[str, dict[str, Any], Points]] = [
    ("expression", {"expression": "log(bounties / 500 + 1)"},
     lambda e, p, b, z, k: math.log(k / 500.0 + 1.0)),
    ("expression", {"expression": "log10(prize / 7 + 1) + (prize / 1000) ** (place / 400)"},
     lambda e, p, b, z, k: math.log10(z / 7.0 + 1.0) + (z / 1000.0) ** (p / 400.0)),
    ("expression", {"expression": "max(-floor(-entrants / place), floor(place / 3))"},
     lambda e, p, b, z, k: max(math.floor(-e / p) * -1.0, math.floor(p / 3.0))),
    ("expression", {"expression": "ceil(-place / 5000) * 1.5"},       # 0 has no sign
     lambda e, p, b, z, k: math.ceil(-p / 5000.0) * 1.5),
    ("expression", {"expression": "floor(-place / 5000) * floor(place / 5000) * 1.5"},
     lambda e, p, b, z, k: math.floor(-p / 5000.0) * math.floor(p / 5000.0) * 1.5),
    ("expression", {"expression": "min(floor(place), place)"},     # the first of two equal
     lambda e, p, b, z, k: min(math.floor(p), p)),
]


@pytest.mark.parametrize(("kind", "args", "points"), FORMULAS + EXACT,   # ids alike in
                         ids=[f"{k}:{a}" for k, a, _ in FORMULAS + EXACT])  # every worker
def test_each_result_s_points_are_python_s_to_the_bit(kind: str, args: dict[str, Any],
                                                      points: Points) -> None:
    rng = random.Random(5)
    rows = []
    for _ in range(50_000):
        entrants = rng.randint(1, 3000)
        rows.append((float(entrants), float(rng.randint(1, entrants)),
                     rng.choice([0.0, 50.0, 100.0]), rng.uniform(0, 1e5), rng.uniform(0, 500)))
    cols = {k: np.array(c) for k, c in zip(("entrants", "place", "buy_in", "prize",
                                            "bounties"), zip(*rows, strict=True), strict=True)}
    got = formula(kind, **args).columns(cols).python()  # type: ignore[arg-type]
    assert [repr(v) for v in got] == [repr(points(*r)) for r in rows]


def test_the_table_is_read_lazily_and_in_order() -> None:
    st = Standings(LeagueSpec("s", "S", formula("sqrt"), best=2), {"p1": "Room name"})
    assert len(st.recompute(season(13))) == len({r.player for e in season(13)
                                                 for r in e.results})
    table = st.table
    assert [ln.rank for ln in table[:4]] == [1, 2, 3, 4]
    assert table[-1].rank == len(table) and table[0] is table[:1][0]
    assert next(ln for ln in table if ln.player == "p1").name == "Room name"
    with pytest.raises(IndexError):
        table[len(table)]
    assert list(Standings(LeagueSpec("s", "S", formula("sqrt"))).recompute([])) == []


def test_an_empty_event_and_a_league_of_no_results() -> None:
    empty = EventResult("e0", "", "event", 0.0, 0, 0, ())
    st = Standings(LeagueSpec("s", "S", formula("sqrt")))
    assert len(st.recompute([empty])) == 0
    assert st.to_json()["events"] == [{"event": "e0", "title": "", "entrants": 0}]
    ev = season(14, events=1)[0]
    assert len(st.update(ev, ev.name)) == len(ev.results)
    assert len(st.update(None, ev.name)) == 0


@pytest.mark.parametrize(("expression", "python"), [
    ("100 / (prize - 7)", lambda: 100.0 / 0.0), ("place // (prize - 7)", lambda: 5.0 // 0.0),
    ("place % (prize - 7)", lambda: 5.0 % 0.0),
    ("floor(place) // floor(prize - 7)", lambda: 5 // 0)])
def test_a_formula_dividing_by_zero_on_a_real_result_is_refused(
        expression: str, python: Callable[[], float]) -> None:
    st = Standings(LeagueSpec("s", "S", formula("expression", expression)))
    events = season(15, events=4)
    ok = [EventResult(e.name, "", "event", 0.0, 0, 9, tuple(r for r in e.results
                                                             if r.prize != 7))
          for e in events]
    st.recompute(ok)
    with pytest.raises(ZeroDivisionError) as words:
        python()
    with pytest.raises(FormulaError, match=f"^league s: {words.value}$"):
        st.recompute([*ok, EventResult("x", "", "event", 0.0, 0, 9,
                                       (Result("a", "A", 5, prize=7),))])


def test_a_formula_leaving_the_real_numbers_is_refused_when_checked() -> None:
    with pytest.raises(FormulaError, match="cannot be computed"):
        formula("expression", "(place - 2) ** 0.5")
    with pytest.raises(FormulaError, match="math domain error"):
        formula("expression", "sqrt(place - 2)")
    with pytest.raises(FormulaError, match="is not a number"):
        formula("expression", "1e308 * entrants - 1e308 * entrants")


def test_totals_round_as_pythons_round() -> None:
    rng = random.Random(4)
    values = [k / 1000 for k in range(-3000, 3000)] + \
        [rng.uniform(-1e6, 1e6) for _ in range(5000)] + \
        [2.675, 1.005, 0.125, -0.0, 1e15 + 0.5, math.inf, 123456.785]
    out = _round2(np.array(values)).tolist()
    expected = [round(v, 2) for v in values]
    assert [json.dumps(v) for v in out] == [json.dumps(v) for v in expected]
