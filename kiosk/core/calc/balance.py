"""Which table breaks, which gives a player and which receives one, in well under a
millisecond.

Tables are kept in buckets by player count. Inside a bucket two lazy heaps order the
tables by their place in the published order, so "the shortest table that breaks
first", "the long table that breaks soonest" and "the short table that breaks last"
are each a few heap peeks.

TDA 10C asks only that the table a player leaves be chosen by a predetermined
procedure. The default procedure breaks the table with the fewest players (ties by
the published order): every player at a breaking table moves, so breaking the
shortest moves the fewest. Balancing moves come from the table next to break whenever
it is long enough (an Irish added table, or any table under the published order): its
players would move when it breaks anyway, so those moves cost nothing extra. A table
breaks once its players fit at the others, but under the fewest-players order one
holding more than `seats - spread` waits a few busts for a shorter one (`break_now`).

A break order of sections (the far ballroom first) lowers the rank of each section's
tables by a band of SECTION_STEP: the published order runs section by section, and the
fewest-players order picks the shortest table of the first section still playing.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any

from kiosk.rules.profile import BalanceRules

ORIGINAL = 1_000_000   # added tables that break first rank below 0, the rest above
# open seats a fewest-players break may wait for, per playing table, beyond one table's
# worth: one in ten tables keeps a seat open (about 1 % more tables at 1,000 tables)
BREAK_SLACK = 0.1
SECTION_STEP = 20_000   # a band of ranks wider than any table number (MAX_TABLES)
MAX_ORDERED_SECTIONS = 40   # their bands stay above 0 (ORIGINAL), below the added tables


def section_bias(position: int, ordered: int) -> int:
    """How much sooner a table of the `position`-th section (0: first) of a break order
    of `ordered` sections breaks than a table of no ordered section."""
    return (ordered - position) * SECTION_STEP


def group(rank: int) -> int:
    """The band a rank lies in: added tables breaking first, then each ordered section,
    then every other table. Tables break band by band, whatever their counts."""
    return rank // SECTION_STEP


def break_rank(table: int, added: bool, added_first: bool) -> int:
    """A table's place in the published order (lower breaks sooner): highest number
    first; with `added_first` (Irish r.72) every added table before any original one. A
    rank needs no other table, so opening a table never re-ranks the rest."""
    return (0 if added_first and added else ORIGINAL) - table


def break_order(tables: Iterable[tuple[int, bool, int, int]], added_first: bool,
                fewest: bool) -> list[int]:
    """Tables (id, added, players, moved weight) in the order they break: with `fewest`
    the shortest first inside each group (added tables, then the rest), ties to the
    table whose players moved least; else the published order."""
    return break_order_ranked(((x[0], break_rank(x[0], x[1], added_first), x[2], x[3])
                               for x in tables), fewest)


def break_order_ranked(tables: Iterable[tuple[int, int, int, int]], fewest: bool) -> list[int]:
    """As break_order, from each table's rank (id, rank, players, moved weight)."""
    def key(x: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        rank = x[1]
        return (group(rank), x[2], x[3], rank) if fewest else (0, 0, 0, rank)
    return [x[0] for x in sorted(tables, key=key)]


class Balancer:
    """Counts of the tables that play on (not breaking), with fast extreme lookups."""

    def __init__(self) -> None:
        self.count: dict[int, int] = {}
        self.rank: dict[int, int] = {}   # lower = breaks sooner
        self._soonest: dict[int, list[tuple[int, int]]] = {}  # count -> heap (rank, t)
        self._latest: dict[int, list[tuple[int, int]]] = {}   # count -> heap (-rank, t)
        self._size = [0] * 12   # tables per count; counts run 0..10 (+ final-table headroom)
        self._lo = self._hi = 0  # the smallest and largest count held (0 with no table)
        self.any_added = False  # a table ranked in a band of its own (added, a section)
        self.weight: dict[int, int] = {}
        # count -> heap (band, weight, rank, t): the order tables break in
        self._breakq: dict[int, list[tuple[int, int, int, int]]] = {}
        self._heaps: dict[str, dict[int, list[Any]]] = {
            "soonest": self._soonest, "latest": self._latest, "break": self._breakq}
        self._queued: dict[tuple[str, int], dict[int, tuple]] = {}  # what each heap holds
        self._members: dict[int, set[int]] = {}   # count -> the tables holding it

    def __len__(self) -> int:
        return len(self.count)

    def __contains__(self, table: int) -> bool:
        return table in self.count

    def set_rank(self, table: int, rank: int) -> None:
        self.rank[table] = rank
        self.any_added = self.any_added or group(rank) != group(ORIGINAL - 1)

    def set(self, table: int, count: int, weight: int = 0) -> None:
        """`count` players (after ordered moves); `weight` says how much its players
        have moved already, the tie-break of the fewest-players breaking order."""
        old = self.count.get(table)
        r = self.rank.get(table, 0)
        if old == count:
            if self.weight.get(table) != weight:
                self.weight[table] = weight
                self._push("break", count, (group(r), weight, r, table))
            return
        if old is not None:
            self._leave(table, old)
        self.count[table] = count
        self._members.setdefault(count, set()).add(table)
        self.weight[table] = weight
        if count >= len(self._size):
            # players ordered in count before they arrive, so a table filled by a break
            # can briefly count more than its seats
            self._size.extend([0] * (count + 1 - len(self._size)))
        self._size[count] += 1
        if len(self.count) == 1:
            self._lo = self._hi = count
        elif count > self._hi:
            self._hi = count
        elif count < self._lo:
            self._lo = count
        self._push("soonest", count, (r, table))
        self._push("latest", count, (-r, table))
        self._push("break", count, (group(r), weight, r, table))

    def add(self, table: int, delta: int) -> None:
        self.set(table, self.count[table] + delta, self.weight.get(table, 0))

    def remove(self, table: int) -> None:
        old = self.count.pop(table, None)
        if old is not None:
            self._leave(table, old)

    def _leave(self, table: int, count: int) -> None:
        size = self._size
        size[count] -= 1
        self._members[count].discard(table)
        if not size[count]:   # every entry left in its heaps is stale
            for kind, heaps in self._heaps.items():
                heaps.pop(count, None)
                self._queued.pop((kind, count), None)
            if count == self._hi:
                self._hi = next((c for c in range(count - 1, -1, -1) if size[c]), 0)
            if count == self._lo:
                self._lo = next((c for c in range(count + 1, len(size)) if size[c]), 0)

    def _push(self, kind: str, count: int, item: tuple) -> None:
        """Push onto a lazy heap unless the same entry is still in it (a table back at
        a count it held before); once stale entries outnumber the tables, drop them, so
        no single lookup has to pop a whole tournament's worth of them."""
        queued = self._queued.setdefault((kind, count), {})
        table = item[-1]
        if queued.get(table) == item:
            return
        queued[table] = item
        heap = self._heaps[kind].setdefault(count, [])
        heapq.heappush(heap, item)
        if len(heap) > 4 * self._size[count] + 64:
            # rebuilt from the tables holding `count` now: O(tables in the bucket)
            heap[:] = [self._entry(kind, t) for t in self._members[count]]
            heapq.heapify(heap)
            queued.clear()
            queued.update((x[-1], x) for x in heap)

    def _entry(self, kind: str, table: int) -> tuple:
        r = self.rank.get(table, 0)
        if kind == "soonest":
            return (r, table)
        if kind == "latest":
            return (-r, table)
        return (group(r), self.weight[table], r, table)

    def _pop(self, kind: str, count: int) -> None:
        item = heapq.heappop(self._heaps[kind][count])
        queued = self._queued.get((kind, count))
        if queued is not None and queued.get(item[-1]) == item:
            del queued[item[-1]]

    def max(self) -> int:
        """The largest count held (0 with no table): asked twice a hand, so kept."""
        return self._hi

    def min(self) -> int:
        return self._lo

    def _top(self, kind: str, count: int, sign: int) -> int | None:
        heap = self._heaps[kind].get(count)
        while heap:
            key, table = heap[0]
            if self.count.get(table) == count and sign * key == self.rank.get(table, 0):
                return table
            self._pop(kind, count)
        return None

    def soonest_with(self, count: int) -> int | None:
        """Of the tables holding `count` players, the one that breaks soonest."""
        return self._top("soonest", count, 1)

    def latest_with(self, count: int) -> int | None:
        """Of the tables holding `count` players, the one that breaks last."""
        return self._top("latest", count, -1)

    def _first_to_break(self, count: int) -> int | None:
        heap = self._breakq.get(count)
        while heap:
            _, weight, rank, table = heap[0]
            if self.count.get(table) == count and self.weight.get(table) == weight \
                    and self.rank.get(table, 0) == rank:
                return table
            self._pop("break", count)
        return None

    def fewest_first(self) -> int | None:
        """The table with the fewest players; of several, the one whose players have
        moved least (each player's moves squared, so nobody is moved again and again),
        then by rank. An added table ranked ahead of the originals (Irish r.72), then a
        table of the first section of a break order, comes first however many it holds."""
        best: tuple[tuple[int, int], int] | None = None
        for c, n in enumerate(self._size):
            if not n:
                continue
            t = self._first_to_break(c)
            if t is None:
                continue
            key = (group(self.rank[t]), c)
            if best is None or key < best[0]:
                best = (key, t)
                if not self.any_added:
                    break
        return best[1] if best else None

    def candidates(self, count: int, limit: int) -> list[int]:
        """Up to `limit` tables holding `count` players, soonest to break first."""
        heap = self._soonest.get(count, [])
        out: list[tuple[int, int]] = []
        while heap and len(out) < limit:
            item = heap[0]
            self._pop("soonest", count)
            if self.count.get(item[1]) == count and item[0] == self.rank.get(item[1], 0) \
                    and item not in out:
                out.append(item)
        for item in out:
            self._push("soonest", count, item)
        return [t for _, t in out]


def break_now(b: Balancer, table: int, rules: BalanceRules, seats: int, alive: int) -> bool:
    """Whether `table`, next to break, should break now (its players fit elsewhere).

    Breaking the moment the field fits one table fewer leaves every other table full,
    so the next break nearly always finds a table of `seats - 1`. Under the fewest-players
    order (TDA mode) a table that fits waits while it holds more than `seats - spread`
    players, until the open seats beyond it reach BREAK_SLACK per playing table: busts
    meanwhile leave tables at `seats - spread`, which break with fewer players and,
    within the tolerance, need no balancing move. An added table that breaks first
    (Irish r.72), the published order and Sheridan's play-down break at once.
    """
    open_seats = seats * len(b) - alive
    if open_seats < seats:
        return False
    spread = rules.allowed_spread(len(b))
    if rules.mode != "tda" or rules.break_order != "fewest" or b.rank.get(table, 0) < 0 \
            or spread < 2 or b.count[table] <= seats - spread:
        return True
    return open_seats - seats >= BREAK_SLACK * len(b)


def choose_source(b: Balancer, next_to_break: int | None, min_count: int,
                  moves_of_due_player: Callable[[int], int]) -> int:
    """The table that gives a player.

    The table next in the breaking order, whenever it holds at least two more than the
    shortest; otherwise a longest table whose player due the big blind has moved the
    least (TDA 10C predetermined procedure; ties go to the table breaking soonest).
    """
    if next_to_break is not None and b.count.get(next_to_break, -1) >= min_count + 2:
        return next_to_break
    top = b.max()
    best: tuple[int, int] | None = None
    for t in b.candidates(top, 6):
        m = moves_of_due_player(t)
        if best is None or m < best[0]:
            best = (m, t)
        if m == 0:
            break
    assert best is not None
    return best[1]


def choose_target(b: Balancer) -> int:
    """The shortest table; of several, the one that breaks last (so nobody moves twice)."""
    t = b.latest_with(b.min())
    assert t is not None
    return t


def seat_card_target(b: Balancer, nxt: int | None, has_room: Callable[[int], bool],
                     rules: BalanceRules, seats: int, nxt_weight: int) -> int | None:
    """TDA 9: where the next seat card of a breaking table goes: the shortest table that
    breaks last, sparing `nxt`, the table next to break, unless it is far the shortest
    (its players would only move again). `has_room(table)` says whether a seat is left
    there once the cards already drawn are counted; `nxt_weight` is `nxt`'s moved
    weight, to put it back as it was."""
    tid = _preferred_target(b, nxt, rules, seats, nxt_weight)
    # the last seat cards: the tables kept for later are full, the next to break or
    # the shortest table has the seat (a heap peek, not a pass over every table)
    for choice in (tid, nxt, b.latest_with(b.min())):
        if choice is not None and has_room(choice):
            return choice
    best: tuple[int, int, int] | None = None
    for tid, c in b.count.items():
        if has_room(tid):
            key = (c, -b.rank.get(tid, 0), tid)
            if best is None or key < best:
                best = key
    return best[2] if best else None


def _preferred_target(b: Balancer, nxt: int | None, rules: BalanceRules, seats: int,
                      nxt_weight: int) -> int | None:
    """The table the seat card should go to, room or not (the next to break is left
    out of the choice, then put back as it was)."""
    spare = rules.allowed_spread(len(b))
    if nxt is not None:
        nxt_count = b.count[nxt]
        b.remove(nxt)
    try:
        lo = b.min()
        tid = _within_tolerance(b, b.latest_with(lo) if len(b) else None,
                                range(lo + 1, min(lo + spare, seats)),
                                rules.break_order == "fewest")
        if tid is not None and nxt is not None and nxt_count + spare <= b.count[tid]:
            tid = nxt
    finally:
        if nxt is not None:
            b.set(nxt, nxt_count, nxt_weight)
    return tid


def _within_tolerance(b: Balancer, tid: int | None, within: range, fewest: bool) -> int | None:
    """Among tables whose counts lie `within` the tolerance above the shortest (`tid`),
    the one that takes the seat card."""
    if fewest:
        # the longest table within the tolerance takes the seat card: the short
        # ones stay short, so the next break moves fewer players
        for c in reversed(within):
            other = b.latest_with(c)
            if other is not None:
                return other
        return tid
    # within the tolerance, the table that breaks last takes the seat card
    for c in within:
        other = b.latest_with(c)
        if other is not None and (tid is None or b.rank[other] > b.rank[tid]):
            tid = other
    return tid


def unbalanced(b: Balancer, rules: BalanceRules) -> bool:
    """The longest and shortest tables are further apart than the profile allows (in
    "minimum" mode: a table is below its minimum and another can spare a player)."""
    hi, lo = b.max(), b.min()
    if rules.mode == "minimum":
        return lo < rules.min_players and hi - lo >= 2
    return hi - lo > rules.allowed_spread(len(b))
