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
from kiosk.base.texts import M_, Msg
from kiosk.core.dealers.queries import RoadmapQueries, relief_due
from kiosk.core.dealers.state import Dealer, Table
from kiosk.core.model import dealer_events as de
from kiosk.core.model.event_base import Event


class Emitter(Protocol):
    """The room holding the roadmap (kiosk.core.room.room.Room): it folds and hands out
    what the roadmap decides with the rest of its command."""

    def emit(self, ev: Event) -> None: ...


STAGGER = 240.0        # the pushes along a string, this far apart: the walk and a hand


@dataclass
class Roadmap(RoadmapQueries):
    """The roadmap with its decisions: each returns the events it emitted (applied);
    what it answers without deciding is RoadmapQueries'."""

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

    # ------------------------------------------------------------------ decisions
    def clock_in(self, dealer: str, t: float, by: str | None = None,
                 at: int | None = None) -> list[Event]:
        """`at`: the table the dealer badged in at, taken when it has no dealer."""
        d = self.dealers.get(dealer)
        if d is not None and d.status != "out":
            raise RuleError(M_("dealer.already_in", "{dealer} is already in ({status})",
                               dealer=dealer, status=_STATUS.get(d.status, d.status)))
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
            raise RuleError(M_("dealer.deals_push_first", "{dealer} deals at table {table}: push "
                               "the table first", dealer=dealer, table=d.table))
        out = self._deciding()
        self._emit(de.DealerClockedOut(t=t, dealer=dealer, why=why, by=by))
        self._settle(t)
        return out

    def sign_early_out(self, dealer: str, t: float) -> list[Event]:
        self._in(dealer)
        if dealer in self.eo:
            raise RuleError(M_("dealer.eo_already", "{dealer} is already on the EO list ({place} "
                               "of {of})", dealer=dealer, place=self.eo.index(dealer) + 1,
                               of=len(self.eo)))
        out = self._deciding()
        self._emit(de.EarlyOutSigned(t=t, dealer=dealer))
        return out

    def release(self, dealer: str, t: float, by: str | None = None) -> list[Event]:
        """The floor confirms the early out offered: home now, or at the next push."""
        offered = self.offer()
        if dealer != offered:
            raise RuleError(M_("dealer.eo_other", "{dealer} is not the early out offered "
                               "({offered} is, first on the EO list)", dealer=dealer,
                               offered=offered) if offered else
                            M_("dealer.eo_none", "{dealer} is not the early out offered: "
                               "nobody is, the room needs its dealers", dealer=dealer))
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
            raise RuleError(M_("roadmap.has_table", "table {table} is already in the roadmap "
                               "({event})", table=table, event=self.tables[table].event))
        out = self._deciding()
        self._emit(de.DealTableOpened(t=t, table=table, event=event, final=final))
        self._reform(t)
        return out

    def mark_final(self, table: int, final: bool, t: float) -> list[Event]:
        """The table became its event's final table: its next downs are the final's."""
        tb = self.tables.get(table)
        if tb is None:
            raise RuleError(M_("roadmap.no_table", "table {table} is not in the roadmap",
                               table=table))
        if tb.final == final:
            return []
        out = self._deciding()
        self._emit(de.DealTableFinal(t=t, table=table, final=final))
        return out

    def close_table(self, table: int, t: float) -> list[Event]:
        """The table's dealer is free: on break if the break is due, else a relief or
        waiting."""
        if table not in self.tables:
            raise RuleError(M_("roadmap.no_table", "table {table} is not in the roadmap",
                               table=table))
        out = self._deciding()
        dealer = self.tables[table].dealer
        tired = dealer is not None and \
            self.dealers[dealer].downs >= self.rotation.downs_between_breaks
        self._emit(de.DealTableClosed(t=t, table=table,
                                      until=t + self.rotation.brk if tired else 0.0))
        self._reform(t)
        return out

    def hold_pushes(self, event: str, start: float, until: float, t: float) -> list[Event]:
        """No push at `event`'s tables from `start` to `until`, its next level change or
        break (RP-7); the same window again decides nothing."""
        if until < start:
            raise RuleError(M_("push.hold_backwards", "a push hold ends before it starts ({until} "
                               "< {start})", until=until, start=start))
        if self.push_holds.get(event) == (start, until):
            return []
        out = self._deciding()
        self._emit(de.PushesHeld(t=t, event=event, start=start, until=until))
        return out

    def hold(self, event: str, held: bool, t: float) -> list[Event]:
        """An event's break starts (held) or ends: its tables' push clocks wait."""
        if (event in self.held) == held:
            return []
        out = self._deciding()
        self._emit(de.ClockHeld(t=t, event=event, held=held))
        return out

    def push(self, table: int, incoming: str, t: float, hands: int = 0,
             in_hand: bool = False, hand: int | None = None,
             period: int | None = None) -> list[Event]:
        """The incoming dealer takes `table` at a hand's end (never mid-hand, never in the
        hold before its event's level change: RP-7). `hand`: the table's hand count now,
        from which the hands of the down closing are counted; `period`: the event's clock
        period when the push fell due, logged for the first hand after it (TDA 2024
        r.23)."""
        tb = self.tables.get(table)
        if tb is None:
            raise RuleError(M_("roadmap.no_table", "table {table} is not in the roadmap",
                               table=table))
        self._check_incoming(tb, incoming, t)
        if in_hand:
            raise RuleError(M_("push.hand_on", "table {table}: the hand is still on; the push "
                               "waits for its end", table=table))
        until = self.held_until(table, t)
        if until is not None and tb.dealer is not None:
            raise RuleError(M_("push.held", "table {table}: no push before the level change; "
                               "the push waits until {until:time}", table=table, until=until))
        out = self._deciding()
        if hand is not None and table in self.open_downs:
            hands = max(0, hand - self.downs[self.open_downs[table]].hand0)
        if tb.dealer is None:
            self._emit(de.DealerSeated(t=t, table=table, dealer=incoming,
                                       push_at=t + self.down_of(tb), hand=hand or 0))
        else:
            self._emit(self._push_event(tb, incoming, t, hands, hand or 0, period))
        self._settle(t)
        return out

    def back(self, dealer: str, t: float) -> list[Event]:
        d = self._in(dealer)
        if d.status != "break":
            raise RuleError(M_("dealer.not_on_break", "{dealer} is not on break", dealer=dealer))
        if t < d.until:
            raise RuleError(M_("dealer.on_break", "{dealer} is on break until {until:time}",
                               dealer=dealer, until=d.until))
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
            raise RuleError(M_("dealer.no_wrong_pin", "{dealer} has no wrong PIN to clear",
                               dealer=dealer))
        out = self._deciding()
        self._emit(de.PinCleared(t=t, dealer=dealer, by=by))
        return out

    # ------------------------------------------------------------------ deciding helpers
    def _in(self, dealer: str) -> Dealer:
        d = self.dealers.get(dealer)
        if d is None or d.status == "out":
            raise RuleError(M_("dealer.not_clocked_in", "{dealer} is not clocked in",
                               dealer=dealer))
        return d

    def _check_incoming(self, tb: Table, incoming: str, t: float) -> None:
        d = self._in(incoming)
        if tb.dealer == incoming:
            raise RuleError(M_("dealer.already_deals", "{dealer} already deals table {table}",
                               dealer=incoming, table=tb.table))
        if d.status == "break":
            raise RuleError(M_("dealer.on_break", "{dealer} is on break until {until:time}",
                               dealer=incoming, until=d.until))
        if tb.dealer is None and d.status == "waiting":
            return
        if incoming not in (self.incoming(tb.table, t), relief_due(self, tb.table)):
            raise RuleError(_not_due(incoming, tb.table, self.due_at(incoming), tb.dealer))

    def after_push(self, table: int, incoming: str | None, t: float
                   ) -> tuple[de.Next, int, float]:
        """Where the dealer of `table` goes when `incoming` pushes it at `t`: on to the
        string's next table as its relief (the table), on break (until when), home
        (released early), or waiting (a dealer waiting covered the push)."""
        tb = self.tables[table]
        assert tb.dealer is not None
        gone = self.dealers[tb.dealer]
        others = [(self.tables[n].push_at or math.inf, n)
                  for n in self.strings[tb.string] if n != tb.table] if tb.string >= 0 else []
        due_next, to = min(others) if others else (math.inf, 0)
        last = due_next > t + self.down_of(tb) / 2   # the string's next push: next round's
        if gone.leaving:
            return "home", 0, 0.0
        if last or gone.downs >= self.rotation.downs_between_breaks:
            return "break", 0, t + self.rotation.brk
        if self.reliefs.get(tb.string) != incoming:    # a dealer waiting covered it
            return "waiting", 0, 0.0
        return "relief", to, 0.0

    def _push_event(self, tb: Table, incoming: str, t: float, hands: int,
                    hand: int, period: int | None = None) -> de.PushDone:
        assert tb.dealer is not None
        nxt, to, until = self.after_push(tb.table, incoming, t)
        # the string keeps its cadence: the next push is a down after this one was due,
        # so a late push makes no later roadmap (never less than half a down, though)
        down = self.down_of(tb)
        due = tb.push_at if tb.push_at is not None else t
        push_at = max(due + down, t + down / 2)
        return de.PushDone(t=t, table=tb.table, incoming=incoming, outgoing=tb.dealer,
                           hands=hands, push_at=push_at, next=nxt,
                           to=to, until=until, hand=hand, period=period)

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


def _next_due(roadmap: Roadmap, string: int) -> tuple[float, int]:
    """When the string's next push is due: the string due first gets a relief first."""
    tb = roadmap.tables.get(roadmap.nexts.get(string, 0))
    due = tb.push_at if tb is not None and tb.push_at is not None else math.inf
    return due, string


# a dealer's status, as a refusal names it
_STATUS = {"waiting": M_("dealer.status_waiting", "waiting"),
           "dealing": M_("dealer.status_dealing", "dealing"),
           "relief": M_("dealer.status_relief", "relief"),
           "break": M_("dealer.status_break", "break")}


def _not_due(dealer: str, table: int, where: int | None, dealing: str | None) -> Msg:
    """Why `dealer` may not take `table`: where the dealer is due, and who deals it."""
    if where and dealing:
        return M_("dealer.not_due_at_deals", "{dealer} is not due at table {table}: due at "
                  "table {where}; {dealing} deals it", dealer=dealer, table=table,
                  where=where, dealing=dealing)
    if where:
        return M_("dealer.not_due_at", "{dealer} is not due at table {table}: due at table "
                  "{where}", dealer=dealer, table=table, where=where)
    if dealing:
        return M_("dealer.not_due_deals", "{dealer} is not due at table {table}; {dealing} "
                  "deals it", dealer=dealer, table=table, dealing=dealing)
    return M_("dealer.not_due", "{dealer} is not due at table {table}", dealer=dealer,
              table=table)
