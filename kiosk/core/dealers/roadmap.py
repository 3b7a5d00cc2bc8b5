"""The roadmap: the room's dealers folded from the `dealers` stream, and its decisions.

Strings: the tables in play, in table order, cut into strings of `string_size` (or one
round robin). Each string has a relief; at a table's push the relief takes the table at a
hand's end, and the dealer pushed off walks on to the string's next table as its relief;
off the string's last table, or once a dealer has dealt `downs_between_breaks` downs, the
dealer goes on break (the break queue), and the first dealer free (back from break, or
waiting) becomes the string's relief. Tables with no dealer are served first, then strings
with no relief; the rest wait, and when someone waits the first on the EO list is offered
to the floor. An event's break holds the push clock of its tables.

Like the room, each decision checks everything first and raises RuleError with nothing
changed, then emits events that carry their outcome; `apply` folds one event and is all a
replay needs. Time is always an argument.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

from kiosk.base.errors import RuleError
from kiosk.core.dealers.state import PIN_TRIES, Dealer, RoadmapState, Table
from kiosk.core.model import dealer_events as de
from kiosk.core.model.event_base import Event


class Emitter(Protocol):
    """The room holding the roadmap (kiosk.core.room.room.Room): it folds and hands out
    what the roadmap decides with the rest of its command."""

    def emit(self, ev: Event) -> None: ...


STAGGER = 240.0        # the pushes along a string, this far apart: the walk and a hand
NO_SHOW = 600.0        # a relief this late at a due push: a dealer waiting may take it


@dataclass
class Roadmap(RoadmapState):
    """The roadmap with its decisions: each returns the events it emitted (applied)."""

    host: Emitter | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._out: list[Event] | None = None

    def _emit(self, ev: Event) -> None:
        """Fold an event decided here: through the room that holds the roadmap, if any."""
        if self.host is not None:
            self.host.emit(ev)
        else:
            self.apply(ev)
        if self._out is not None:
            self._out.append(ev)

    def _deciding(self) -> list[Event]:
        self._out = []
        return self._out

    # ------------------------------------------------------------------ queries
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
        relief = _relief_due(self, table)
        if t is None or (relief is not None and (tb.push_at or t) + NO_SHOW > t):
            return relief
        return self.covers(t).get(table) or relief

    def covers(self, t: float) -> dict[int, str]:
        """Tables due at `t` whose string's relief is busy (or missing, or `NO_SHOW`
        late), first due first, each with a dealer of the pool, who waited longest
        first. A relief who never comes holds up neither the table nor the string."""
        due = set(self.due(t))
        busy = sorted((tb.push_at or 0.0, n) for n, tb in self.tables.items()
                      if n in due and (_relief_due(self, n) is None
                                       or (tb.push_at or t) + NO_SHOW <= t))
        return {n: name for (_, n), name in zip(busy, self.pool(), strict=False)}

    def due(self, t: float) -> list[int]:
        """Tables whose push is due at `t` (the clock of a held event waits)."""
        return sorted(n for n, tb in self.tables.items()
                      if tb.dealer and tb.push_at is not None and tb.push_at <= t)

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

    # ------------------------------------------------------------------ decisions
    def clock_in(self, dealer: str, t: float, by: str | None = None,
                 at: int | None = None) -> list[Event]:
        """`at`: the table the dealer badged in at, taken when it has no dealer."""
        d = self.dealers.get(dealer)
        if d is not None and d.status != "out":
            raise RuleError(f"{dealer} is already in ({d.status})")
        out = self._deciding()
        self._emit(de.DealerClockedIn(t=t, dealer=dealer, by=by))
        tb = self.tables.get(at or 0)
        if tb is not None and tb.dealer is None:
            self._emit(de.DealerSeated(t=t, table=tb.table, dealer=dealer,
                                       push_at=self._first_push(tb.table, t)))
        self._settle(t)
        return out

    def clock_out(self, dealer: str, t: float, why: str = "", by: str | None = None
                  ) -> list[Event]:
        d = self._in(dealer)
        if d.status == "dealing":
            raise RuleError(f"{dealer} deals at table {d.table}: push the table first")
        out = self._deciding()
        self._emit(de.DealerClockedOut(t=t, dealer=dealer, why=why, by=by))
        self._settle(t)
        return out

    def sign_early_out(self, dealer: str, t: float) -> list[Event]:
        self._in(dealer)
        if dealer in self.eo:
            raise RuleError(f"{dealer} is already on the EO list "
                            f"({self.eo.index(dealer) + 1} of {len(self.eo)})")
        out = self._deciding()
        self._emit(de.EarlyOutSigned(t=t, dealer=dealer))
        return out

    def release(self, dealer: str, t: float, by: str | None = None) -> list[Event]:
        """The floor confirms the early out offered: home now, or at the next push."""
        offered = self.offer()
        if dealer != offered:
            raise RuleError(f"{dealer} is not the early out offered"
                            + (f" ({offered} is, first on the EO list)" if offered else
                               ": nobody is, the room needs its dealers"))
        d = self.dealers[dealer]
        out = self._deciding()
        self._emit(de.DealerClockedOut(t=t, dealer=dealer, why="early out", by=by)
                   if d.status != "dealing" else
                   de.EarlyOutReleased(t=t, dealer=dealer, by=by))
        self._settle(t)
        return out

    def open_table(self, table: int, event: str, t: float, final: bool = False
                   ) -> list[Event]:
        if table in self.tables:
            raise RuleError(f"table {table} is already in the roadmap "
                            f"({self.tables[table].event})")
        out = self._deciding()
        self._emit(de.DealTableOpened(t=t, table=table, event=event, final=final))
        self._reform(t)
        return out

    def mark_final(self, table: int, final: bool, t: float) -> list[Event]:
        """The table became its event's final table: its next downs are the final's."""
        tb = self.tables.get(table)
        if tb is None:
            raise RuleError(f"table {table} is not in the roadmap")
        if tb.final == final:
            return []
        out = self._deciding()
        self._emit(de.DealTableFinal(t=t, table=table, final=final))
        return out

    def close_table(self, table: int, t: float) -> list[Event]:
        """The table's dealer is free: on break if the break is due, else a relief or
        waiting."""
        if table not in self.tables:
            raise RuleError(f"table {table} is not in the roadmap")
        out = self._deciding()
        dealer = self.tables[table].dealer
        tired = dealer is not None and \
            self.dealers[dealer].downs >= self.rotation.downs_between_breaks
        self._emit(de.DealTableClosed(t=t, table=table,
                                      until=t + self.rotation.brk if tired else 0.0))
        self._reform(t)
        return out

    def hold(self, event: str, held: bool, t: float) -> list[Event]:
        """An event's break starts (held) or ends: its tables' push clocks wait."""
        if (event in self.held) == held:
            return []
        out = self._deciding()
        self._emit(de.ClockHeld(t=t, event=event, held=held))
        return out

    def push(self, table: int, incoming: str, t: float, hands: int = 0,
             in_hand: bool = False, hand: int | None = None) -> list[Event]:
        """The incoming dealer takes `table` at a hand's end (never mid-hand). `hand`: the
        table's hand count now, from which the hands of the down closing are counted."""
        tb = self.tables.get(table)
        if tb is None:
            raise RuleError(f"table {table} is not in the roadmap")
        self._check_incoming(tb, incoming, t)
        if in_hand:
            raise RuleError(f"table {table}: the hand is still on; the push waits for "
                            "its end")
        out = self._deciding()
        if hand is not None and table in self.open_downs:
            hands = max(0, hand - self.downs[self.open_downs[table]].hand0)
        if tb.dealer is None:
            self._emit(de.DealerSeated(t=t, table=table, dealer=incoming,
                                       push_at=t + self.down_of(tb), hand=hand or 0))
        else:
            self._emit(self._push_event(tb, incoming, t, hands, hand or 0))
        self._settle(t)
        return out

    def back(self, dealer: str, t: float) -> list[Event]:
        d = self._in(dealer)
        if d.status != "break":
            raise RuleError(f"{dealer} is not on break")
        if t < d.until:
            raise RuleError(f"{dealer} is on break until {_clock(d.until)}")
        out = self._deciding()
        self._emit(de.BreakEnded(t=t, dealer=dealer))
        self._settle(t)
        return out

    def pin_failed(self, dealer: str, table: int, t: float) -> list[Event]:
        self._in(dealer)
        out = self._deciding()
        self._emit(de.PinFailed(t=t, dealer=dealer, table=table))
        return out

    def pin_clear(self, dealer: str, t: float, by: str | None = None) -> list[Event]:
        d = self._in(dealer)
        if not d.pin_fails:
            raise RuleError(f"{dealer} has no wrong PIN to clear")
        out = self._deciding()
        self._emit(de.PinCleared(t=t, dealer=dealer, by=by))
        return out

    def locked(self, dealer: str) -> bool:
        d = self.dealers.get(dealer)
        return d is not None and d.pin_fails >= PIN_TRIES

    # ------------------------------------------------------------------ deciding helpers
    def _in(self, dealer: str) -> Dealer:
        d = self.dealers.get(dealer)
        if d is None or d.status == "out":
            raise RuleError(f"{dealer} is not clocked in")
        return d

    def _check_incoming(self, tb: Table, incoming: str, t: float) -> None:
        d = self._in(incoming)
        if tb.dealer == incoming:
            raise RuleError(f"{incoming} already deals table {tb.table}")
        if d.status == "break":
            raise RuleError(f"{incoming} is on break until {_clock(d.until)}")
        if tb.dealer is None and d.status == "waiting":
            return
        if incoming not in (self.incoming(tb.table, t), _relief_due(self, tb.table)):
            where = self.due_at(incoming)
            raise RuleError(f"{incoming} is not due at table {tb.table}"
                            + (f": due at table {where}" if where else "")
                            + (f"; {tb.dealer} deals it" if tb.dealer else ""))

    def _push_event(self, tb: Table, incoming: str, t: float, hands: int,
                    hand: int) -> de.PushDone:
        assert tb.dealer is not None
        gone = self.dealers[tb.dealer]
        down = self.down_of(tb)
        others = [(self.tables[n].push_at or math.inf, n)
                  for n in self.strings[tb.string] if n != tb.table]
        due_next, to = min(others) if others else (math.inf, 0)
        last = due_next > t + down / 2      # the string's next push is the next round's
        tired = gone.downs >= self.rotation.downs_between_breaks
        nxt: de.Next = "relief"
        until = 0.0
        if self.reliefs.get(tb.string) != incoming:    # a dealer waiting covered it
            nxt, to = "waiting", 0
        if gone.leaving:
            nxt, to = "home", 0
        elif last or tired:
            nxt, to, until = "break", 0, t + self.rotation.brk
        # the string keeps its cadence: the next push is a down after this one was due,
        # so a late push makes no later roadmap (never less than half a down, though)
        due = tb.push_at if tb.push_at is not None else t
        push_at = max(due + down, t + down / 2)
        return de.PushDone(t=t, table=tb.table, incoming=incoming, outgoing=gone.name,
                           hands=hands, push_at=push_at, next=nxt,
                           to=to, until=until, hand=hand)

    def _reform(self, t: float) -> None:
        wanted = self.wanted_strings()
        if wanted != self.strings:
            self._emit(de.StringsFormed(t=t, strings=wanted))
        self._settle(t)

    def _settle(self, t: float) -> None:
        """Free dealers to tables without one, then to strings without a relief."""
        pool = self.pool()
        for n in sorted(n for n, tb in self.tables.items() if tb.dealer is None):
            if not pool:
                return
            self._emit(de.DealerSeated(t=t, table=n, dealer=pool.pop(0),
                                       push_at=self._first_push(n, t)))
        for i in sorted(range(len(self.strings)), key=lambda i: _next_due(self, i)):
            if i not in self.reliefs and pool:
                self._emit(de.ReliefSet(t=t, string=i, dealer=pool.pop(0)))

    def _first_push(self, table: int, t: float) -> float:
        """A new table's first push, staggered along its string so the relief can walk
        from one to the next (never later than a whole down). Tables open one at a time,
        so the place is the one the table has once its string is full (strings are cut in
        table order), not its place in a string still short: else a whole string, or a new
        event's tables, would fall due at once."""
        tb = self.tables[table]
        string = self.strings[tb.string] if tb.string >= 0 else [table]
        size = self.rotation.string_size
        if size:
            behind = size - 1 - sorted(self.tables).index(table) % size
        else:
            behind = len(string) - 1 - string.index(table)
        down = self.down_of(tb)
        return t + max(down - behind * STAGGER, down / 2)


def _relief_due(roadmap: Roadmap, table: int) -> str | None:
    """The string's relief, if `table` is the one it goes to next."""
    tb = roadmap.tables[table]
    return roadmap.reliefs.get(tb.string) if roadmap.nexts.get(tb.string) == table else None


def _next_due(roadmap: Roadmap, string: int) -> tuple[float, int]:
    """When the string's next push is due: the string due first gets a relief first."""
    tb = roadmap.tables.get(roadmap.nexts.get(string, 0))
    due = tb.push_at if tb is not None and tb.push_at is not None else math.inf
    return due, string


def _clock(t: float) -> str:
    """A wall-clock time as the floor reads it (UTC hours and minutes)."""
    s = int(t) % 86400
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}"
