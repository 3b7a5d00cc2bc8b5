"""What the roadmap answers without deciding: who is free, who is due where, which
tables are due, who covers a table whose relief is busy, the break queue and the strings
the tables in play make. Read from the folded state (kiosk.core.dealers.state) alone, so
the decisions (kiosk.core.dealers.roadmap), the board and the pages ask the same thing
the same way."""

from __future__ import annotations

import math

from kiosk.core.dealers.state import PIN_TRIES, RoadmapState

NO_SHOW = 600.0        # a relief this late at a due push: a dealer waiting may take it


class RoadmapQueries(RoadmapState):
    """The roadmap's answers over its state."""

    def pool(self) -> list[str]:
        """Dealers free to take a table or a string, who waited longest first."""
        free = [d for d in self.dealers.values() if d.status == "waiting"]
        return [d.name for d in sorted(free, key=lambda d: (d.free_since, d.seq))]

    def due_at(self, dealer: str) -> int | None:
        """The table `dealer` is due at next: the table dealt, or a relief's next push."""
        d = self.dealers.get(dealer)
        if d is None:
            return None
        if d.status == "dealing":
            return d.table
        if d.status == "relief":
            return self.nexts.get(d.string)
        return None

    def incoming(self, table: int, t: float | None = None) -> str | None:
        """Who pushes `table` next: its string's relief, when the table is due next; at
        `t`, a dealer waiting covers a table due whose relief is busy at another, or
        whose relief has not come `NO_SHOW` after the push was due."""
        tb = self.tables.get(table)
        if tb is None or tb.string < 0:
            return None
        relief = relief_due(self, table)
        if t is None or (relief is not None and (tb.push_at or t) + NO_SHOW > t):
            return relief
        return self.covers(t).get(table) or relief

    def covers(self, t: float) -> dict[int, str]:
        """Tables due at `t` whose string's relief is busy (or missing, or `NO_SHOW`
        late), first due first, each with a dealer of the pool, who waited longest
        first. A relief who never comes holds up neither the table nor the string."""
        due = set(self.due(t))
        busy = sorted((tb.push_at or 0.0, n) for n, tb in self.tables.items()
                      if n in due and (relief_due(self, n) is None
                                       or (tb.push_at or t) + NO_SHOW <= t))
        return {n: name for (_, n), name in zip(busy, self.pool(), strict=False)}

    def due(self, t: float) -> list[int]:
        """Tables whose push is due at `t` (the clock of a held event waits, and so does a
        push in the last moments before its event's level change: RP-7)."""
        return sorted(n for n, tb in self.tables.items()
                      if tb.dealer and tb.push_at is not None and tb.push_at <= t
                      and self.held_until(n, t) is None)

    def offer(self) -> str | None:
        """The dealer offered to the floor for an early out: the first to sign the EO
        list, when the room has more dealers than it needs (someone waits)."""
        if not self.eo or not self.pool():
            return None
        first = next((n for n in self.eo if not self.dealers[n].leaving), None)
        return first

    def breaks(self) -> list[tuple[str, float]]:
        """The break queue: who is on break and due back when, first back first."""
        out = [(d.name, d.until) for d in self.dealers.values() if d.status == "break"]
        return sorted(out, key=lambda x: (x[1], x[0]))

    def wanted_strings(self) -> list[list[int]]:
        """The tables in play cut into strings; a short last string joins the one before."""
        tables = sorted(self.tables)
        if not tables:
            return []
        size = self.rotation.string_size or len(tables)
        out = [tables[i:i + size] for i in range(0, len(tables), size)]
        if len(out) > 1 and len(out[-1]) < max(2, math.ceil(size / 2)):
            out[-2].extend(out.pop())
        return out

    def locked(self, dealer: str) -> bool:
        """Whether `dealer`'s PIN is locked (PIN_TRIES wrong in a row) until the floor
        clears it."""
        d = self.dealers.get(dealer)
        return d is not None and d.pin_fails >= PIN_TRIES


def relief_due(roadmap: RoadmapState, table: int) -> str | None:
    """The string's relief, if `table` is the one it goes to next."""
    tb = roadmap.tables[table]
    return roadmap.reliefs.get(tb.string) if roadmap.nexts.get(tb.string) == table else None
