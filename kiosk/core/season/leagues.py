"""A season's league: points per result by a formula, and the standings over the events
that count.

Pure: standings are computed from the events' recorded results (places, prizes,
bounties) each time they are asked for, so they are the same after a replay and follow a
corrected result. The formula is checked once, when the room's file is loaded
(kiosk/core/season/formulas.py).

A season of 500 events and 10,000 players is recomputed in well under 50 ms, so the table
is computed with numpy over every result at once: the points a column at a time, each
player's results put in order by one integer sort, the best N totalled in that order (the
same sums, to the bit, as adding them one by one in Python), the players ordered on the
tie rule with Python's sort only for those still tied on everything but the name. A
player's `Line` is made only when a page reads it (the top of the table, or all of it).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, chain, count
from typing import Any, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from kiosk.base.texts import M_
from kiosk.core.season.formulas import (
    VARS,
    Formula,
    FormulaError,
    FormulaKind,
    formula,
    sample_fields,
)

__all__ = ["TIE_RULE", "VARS", "EventResult", "Formula", "FormulaError", "FormulaKind",
           "LeagueSpec", "Line", "Result", "Standings", "Table", "event_result", "formula",
           "sample_fields"]

TIE_RULE = ("more points; then the better finishes (best place first, then the next "
            "best, ...); then more events counted; then the name")
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
PACKED_BITS = 62          # a sort key of several integer fields packed into one int64


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


class EventColumns(NamedTuple):
    """An event's results as columns. A player listed twice counts once, with his last
    row (`keep`: the rows that stand, None when every player is listed once)."""

    players: list[str]
    names: list[str]
    place: Floats
    prize: Floats
    bounties: Floats
    keep: Ints | None


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
    def columns(self) -> EventColumns:
        """The results as columns, read once per event (not per league or request)."""
        r = self.results
        players = [x.player for x in r]
        keep = None
        if len(set(players)) < len(players):
            last = {p: i for i, p in enumerate(players)}
            keep = np.array(sorted(last[p] for p in dict.fromkeys(players)), dtype=np.int64)
        return EventColumns(players, [x.name for x in r],
                            np.array([x.place for x in r], dtype=np.float64),
                            np.array([x.prize for x in r], dtype=np.float64),
                            np.array([x.bounties for x in r], dtype=np.float64), keep)


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

    __slots__ = ("counted", "name", "player", "points", "rank", "results")

    def __init__(self, player: str, name: str, results: list[tuple[float, int, str]],
                 counted: int, points: float, rank: int) -> None:
        self.player, self.name, self.rank = player, name, rank
        self.results, self.counted, self.points = results, counted, points

    @property
    def key(self) -> tuple[float, list[int], int, str, str]:
        """The table's order (TIE_RULE): lower first."""
        return (-self.points, sorted(r[1] for r in self.results[:self.counted]),
                -self.counted, self.name.casefold(), self.player)

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "name": self.name,
                "points": self.points, "events": len(self.results), "counted": self.counted,
                "places": [r[1] for r in self.results],
                "results": [{"event": e, "place": p, "points": round(-pts, 2),
                             "counted": i < self.counted}
                            for i, (pts, p, e) in enumerate(self.results)]}


class Roster:
    """One league's players as integers: a player's id is the row, among all the rows the
    league has read, where he was first listed, so his id and his name are read from that
    row only when a line shows him (his name as the room knows him, or as that row)."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self._ids: dict[str, int] = {}
        self._next = 0
        self._starts: list[int] = []      # each read's first id, its events, their first rows
        self._reads: list[tuple[list[EventColumns], list[int]]] = []

    def ids(self, cols: list[EventColumns]) -> Ints:
        """The players of these events' rows (all of them, a player listed twice too)."""
        start = self._next
        n = sum(len(c.players) for c in cols)
        self._next += n
        players = chain.from_iterable(c.players for c in cols)
        ids = np.fromiter(map(self._ids.setdefault, players, count(start)), np.int64, n)
        if np.any(ids >= start):
            self._starts.append(start)
            self._reads.append((cols, list(accumulate((len(c.players) for c in cols),
                                                      initial=0))))
        return ids

    @property
    def size(self) -> int:
        """One more than the largest id."""
        return self._next

    def player(self, pid: int) -> tuple[str, str]:
        """A player's id and name."""
        k = bisect_right(self._starts, pid) - 1
        cols, firsts = self._reads[k]
        row = pid - self._starts[k]
        e = bisect_right(firsts, row) - 1
        c, i = cols[e], row - firsts[e]
        return c.players[i], self.names.get(c.players[i], c.names[i])


class Rows(NamedTuple):
    """Results, one a row: the player, the place, the points (which are ints), the event
    (an index in Season.events)."""

    pid: Ints
    place: Ints
    points: Floats
    ints: Bools | None
    event: Ints

    def take(self, which: Any) -> Rows:
        return Rows(self.pid[which], self.place[which], self.points[which],
                    None if self.ints is None else self.ints[which], self.event[which])


def _join(parts: list[Rows]) -> Rows:
    ints = None if all(p.ints is None for p in parts) else np.concatenate(
        [np.zeros(len(p.pid), bool) if p.ints is None else p.ints for p in parts])
    return Rows(np.concatenate([p.pid for p in parts]),
                np.concatenate([p.place for p in parts]),
                np.concatenate([p.points for p in parts]), ints,
                np.concatenate([p.event for p in parts]))


class Scored(NamedTuple):
    """One event's results as the table reads them: player ids, places and points (and
    which points are integers; None: none)."""

    pid: Ints
    place: Ints
    points: Floats
    ints: Bools | None


@dataclass
class Season:
    """Every result, ordered by player and then best first (the order of a Line's
    results); the players' totals; the table's order of the players."""

    roster: Roster
    rows: Rows
    events: list[str]
    start: Ints                  # by player (a group of rows): his first row
    size: Ints
    counted: Ints
    totals: Floats               # rounded to 2 decimals
    whole: Bools | None          # the totals of ints only (an int, as Python's sum gives)
    order: Ints                  # the players in the table's order


class Table(Sequence[Line]):
    """The standings in order; a player's Line is made when it is read."""

    def __init__(self, season: Season | None = None) -> None:
        self.season = season
        self._lines: dict[int, Line] = {}

    def __len__(self) -> int:
        return 0 if self.season is None else len(self.season.order)

    @overload
    def __getitem__(self, i: int) -> Line: ...

    @overload
    def __getitem__(self, i: slice) -> list[Line]: ...

    def __getitem__(self, i: int | slice) -> Line | list[Line]:
        if isinstance(i, slice):
            return [self._line(k) for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError("standings index out of range")
        return self._line(i % len(self))

    def __iter__(self) -> Iterator[Line]:
        return (self._line(k) for k in range(len(self)))

    def _line(self, rank0: int) -> Line:
        line = self._lines.get(rank0)
        if line is None:
            assert self.season is not None
            line = self._lines[rank0] = _line(self.season, rank0)
        return line


def _line(s: Season, rank0: int) -> Line:
    g = int(s.order[rank0])
    lo = int(s.start[g])
    rows = s.rows.take(slice(lo, lo + int(s.size[g])))
    points: list[Any] = rows.points.tolist()
    if rows.ints is not None:
        points = [int(p) if i else p for p, i in zip(points, rows.ints.tolist(), strict=True)]
    events = s.events
    results = [(-p, place, events[e]) for p, place, e in
               zip(points, rows.place.tolist(), rows.event.tolist(), strict=True)]
    total = s.totals[g].item()
    if s.whole is not None and s.whole[g]:
        total = int(total)
    player, name = s.roster.player(int(s.rows.pid[lo]))
    return Line(player, name, results, int(s.counted[g]), total, rank0 + 1)


class Standings:
    """A league's table, rebuilt in full (`recompute`) or after one event's change
    (`update`, which scores only that event again). A result's points are kept exact; a
    total is rounded to 2 decimals."""

    def __init__(self, spec: LeagueSpec, names: dict[str, str] | None = None) -> None:
        self.spec = spec
        self.names = names or {}        # the room's name of each player, when it knows him
        self.events: dict[str, EventResult] = {}
        self.scored: dict[str, Scored] = {}
        self.table = Table()
        self.roster = Roster(self.names)

    def recompute(self, events: Iterable[EventResult]) -> Table:
        self.events = {e.name: e for e in events if self.spec.counts(e)}
        self.scored = dict(zip(self.events, self._score(list(self.events.values())),
                               strict=True))
        return self._rank()

    def update(self, ev: EventResult | None, name: str) -> Table:
        """Event `name` finished, changed or went away (`ev` None)."""
        season = self.table.season
        self.scored.pop(name, None)
        self.events.pop(name, None)
        new = None
        if ev is not None and self.spec.counts(ev):
            self.events[name] = ev
            try:
                new = self.scored[name] = self._score([ev])[0]
            except FormulaError:
                self.events.pop(name)
                self._rank()
                raise
        if season is None:
            return self._rank()
        self.table = Table(_revise(season, name, new, self.spec.best, self.roster))
        return self.table

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """The standings as the public pages, the TV and the terminal give them."""
        spec = self.spec
        return {"league": spec.name, "title": spec.title, "formula": spec.formula.kind,
                "points": spec.formula.text, "best": spec.best, "tie_rule": TIE_RULE,
                "events": [{"event": e.name, "title": e.title, "entrants": e.entrants}
                           for e in self.events.values()],
                "standings": [line.to_dict() for line in self.table[:top]]}

    def _score(self, events: list[EventResult]) -> list[Scored]:
        """Every result's points, the events' columns at once."""
        cols = [e.columns for e in events]
        sizes = [len(c.players) for c in cols]
        if not sum(sizes):
            return [_no_results() for _ in events]
        data = {"place": np.concatenate([c.place for c in cols]),
                "prize": np.concatenate([c.prize for c in cols]),
                "bounties": np.concatenate([c.bounties for c in cols]),
                "entrants": np.repeat([float(e.entrants) for e in events], sizes),
                "buy_in": np.repeat([float(e.buy_in) for e in events], sizes)}
        try:
            pts = self.spec.formula.columns(data)
        except (ArithmeticError, ValueError, TypeError) as exc:
            raise FormulaError(M_("league.formula", "league {name}: {why}", name=self.spec.name,
                                  why=exc)) from None
        flags = pts.flags()
        ints = flags if flags.any() else None
        pid = self.roster.ids(cols)
        place = data["place"].astype(np.int64)
        out, i = [], 0
        for c, n in zip(cols, sizes, strict=True):
            rows = slice(i, i + n) if c.keep is None else c.keep + i
            out.append(Scored(pid[rows], place[rows], pts.x[rows],
                              None if ints is None else ints[rows]))
            i += n
        return out

    def _rank(self) -> Table:
        self.table = Table(_season(list(self.scored.items()), self.spec.best, self.roster)
                           if self.scored else None)
        return self.table


def _no_results() -> Scored:
    return Scored(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), None)


def _season(scored: list[tuple[str, Scored]], best: int, roster: Roster) -> Season | None:
    """The table over the scored events: each player's results best first, the best
    `best` (0: all) totalled, the players ordered on the tie rule."""
    parts = [s for _, s in scored]
    if not sum(len(s.pid) for s in parts):
        return None
    events = [e for e, _ in scored]
    rows = _join([Rows(s.pid, s.place, s.points, s.ints, np.full(len(s.pid), i))
                  for i, s in enumerate(parts)])
    return _tabulate(_best_first(rows, events), events, best, roster)


def _revise(s: Season, name: str, new: Scored | None, best: int,
            roster: Roster) -> Season | None:
    """The table after event `name` changed (`new` None: it went away): only the rows of
    the players it touches are sorted again."""
    events = s.events if name in s.events else [*s.events, name]
    e = events.index(name)
    rows = s.rows
    touched = np.zeros(roster.size, bool)
    touched[rows.pid[rows.event == e]] = True
    if new is not None:
        touched[new.pid] = True
    moved = touched[rows.pid]
    parts = [rows.take(moved & (rows.event != e))]
    if new is not None:
        parts.append(Rows(new.pid, new.place, new.points, new.ints, np.full(len(new.pid), e)))
    rows = _join([rows.take(~moved), _best_first(_join(parts), events)])
    return _tabulate(rows, events, best, roster) if len(rows.pid) else None


def _best_first(rows: Rows, events: list[str]) -> Rows:
    """Rows by player, then more points first, then the better place, then the event's
    name (a Line's order)."""
    by_name = np.empty(len(events), np.int64)
    by_name[sorted(range(len(events)), key=events.__getitem__)] = np.arange(len(events))
    rank = np.unique(-rows.points, return_inverse=True)[1].reshape(-1)
    return rows.take(_sort_rows([by_name[rows.event], rows.place, rank, rows.pid]))


def _tabulate(rows: Rows, events: list[str], best: int, roster: Roster) -> Season:
    """Each player's best `best` (0: all) totalled, the players ordered on the tie rule;
    `rows` are grouped by player, best first."""
    pid = rows.pid
    first = np.flatnonzero(np.r_[True, pid[1:] != pid[:-1]])
    size = np.diff(np.r_[first, len(pid)])
    group = np.repeat(np.arange(len(first)), size)
    counted_rows = np.arange(len(pid)) - first[group] < best if best else \
        np.ones(len(pid), bool)
    counted = np.minimum(size, best) if best else size
    totals, whole = _totals(group[counted_rows], rows.points[counted_rows],
                            None if rows.ints is None else rows.ints[counted_rows],
                            len(first))
    players = pid[first]
    order = _table_order(totals, counted, (group[counted_rows], rows.place[counted_rows]),
                         lambda g: roster.player(int(players[g])))
    return Season(roster, rows, events, first, size, counted, totals, whole, order)


def _sort_rows(keys: list[Ints]) -> Ints:
    """The order of the rows by the last key, then the one before, ...: one sort of the
    keys packed into an int64 when they fit (np.lexsort's passes are several times
    slower), np.lexsort otherwise."""
    if not len(keys[0]):
        return np.zeros(0, np.int64)
    lows = [int(k.min()) for k in keys]
    bits = [max(1, int(int(k.max()) - lo).bit_length()) for k, lo in zip(keys, lows,
                                                                          strict=True)]
    if sum(bits) > PACKED_BITS:
        return np.lexsort(keys).astype(np.int64)
    packed = np.zeros(len(keys[0]), np.int64)
    shift = 0
    for k, lo, b in zip(keys, lows, bits, strict=True):
        packed |= (k.astype(np.int64) - lo) << shift
        shift += b
    return np.argsort(packed).astype(np.int64)


def _totals(group: Ints, points: Floats, ints: Bools | None,
            players: int) -> tuple[Floats, Bools | None]:
    """Each player's counted points added best first (np.bincount adds in the rows'
    order, as Python's sum does) and rounded to 2 decimals as Python's round does; which
    totals are of ints only. A float total of 0 is -0.0, as `round(-sum(-p ...), 2)`
    gives it."""
    sums = np.bincount(group, weights=points, minlength=players)
    whole = None if ints is None else \
        np.bincount(group, weights=~ints, minlength=players) == 0
    zero = (sums == 0) if whole is None else (sums == 0) & ~whole
    return _round2(np.where(zero, -0.0, sums)), whole


def _round2(x: Floats) -> Floats:
    """Python's round(v, 2) of each value. numpy's rint(v * 100) / 100 is the same number
    unless v * 100 lies within its rounding error of a half (or is huge): those few are
    handed to Python's round, which rounds the exact decimal value."""
    scaled = x * 100
    out = np.rint(scaled) / 100
    with np.errstate(invalid="ignore"):         # inf and nan: Python's round for them
        half = np.abs(np.abs(scaled - np.floor(scaled)) - 0.5)
        close = ~(half > np.abs(scaled) * 2.0 ** -50 + 2.0 ** -60) | ~(np.abs(x) < 1e13)
    for i in np.flatnonzero(close).tolist():
        out[i] = round(float(x[i]), 2)
    return out


def _table_order(points: Floats, counted: Ints, counted_rows: tuple[Ints, Ints],
                 who: Callable[[int], tuple[str, str]]) -> Ints:
    """The players in TIE_RULE's order: points; for those tied on points, the counted
    places compared as lists, then the events counted, then the name and the player."""
    order = np.argsort(-points, kind="stable")
    ranked = points[order]
    tie = ranked[1:] == ranked[:-1]
    if not tie.any():
        return order.astype(np.int64)
    at = np.flatnonzero(np.r_[tie, False] | np.r_[False, tie])    # runs of equal points
    tied = order[at]
    places = _places_keys(tied, len(points), *counted_rows)
    by = np.lexsort((-counted[tied], places, -points[tied]))
    tied, places = tied[by], places[by]
    same = (points[tied[1:]] == points[tied[:-1]]) & (places[1:] == places[:-1]) & \
        (counted[tied[1:]] == counted[tied[:-1]])
    if same.any():
        _by_name(tied, same, who)
    order[at] = tied
    return order.astype(np.int64)


def _places_keys(tied: Ints, players: int, group: Ints,
                 place: Ints) -> npt.NDArray[np.bytes_]:
    """For each of the `tied` players, a byte string that compares as the list of his
    counted places, sorted (a shorter list first when it begins the longer one, as
    Python compares lists)."""
    local = np.full(players, -1, np.int64)
    local[tied] = np.arange(len(tied))
    group = local[group]
    keep = group >= 0
    group, place = group[keep], place[keep]
    if np.any((group[1:] == group[:-1]) & (place[1:] < place[:-1])):   # best first
        order = _sort_rows([place, group])                              # is often by place
        group, place = group[order], place[order]
    first = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    at = np.arange(len(group)) - np.repeat(first, np.diff(np.r_[first, len(group)]))
    value = place - place.min() + 1                 # 1 and up: no byte of a place is 0
    digits = max(1, -(-int(value.max()).bit_length() // 7))
    width = (int(at.max()) + 1) * digits
    rows = np.zeros((len(tied), width), np.uint8)
    for d in range(digits):
        rows[group, at * digits + digits - 1 - d] = ((value >> (7 * d)) & 127) + 1
    return rows.view(f"S{width}").reshape(-1)


def _by_name(order: Ints, same: Bools, who: Callable[[int], tuple[str, str]]) -> None:
    """Each run of players tied on all but the name, put in order of name and player."""
    edges = np.flatnonzero(np.diff(np.r_[0, same.astype(np.int8), 0]))
    for lo, hi in zip(edges[::2].tolist(), (edges[1::2] + 1).tolist(), strict=True):
        keyed = []
        for g in order[lo:hi].tolist():
            player, name = who(g)
            keyed.append((name.casefold(), player, g))
        keyed.sort()
        order[lo:hi] = [g for _, _, g in keyed]
