"""Tables and seating: which tables are open, who sits where, who is walking between two.

Owns the tables (their records, kiosk.core.model.state.Table, but for the columns balancing
keeps: `breaking`, `pending_out`, `pending_in`), the players' seat columns (table, seat,
where a mover comes from, moves) and the players in transit. Where a newcomer sits is
decided by kiosk.core.tables.draws; this part folds the seats given.

An event of a room (`Created.pool`) numbers no tables of its own: it opens only tables the
room granted it (`TablesGranted`), lowest first, and gives idle ones back
(`TableReleased`). A broken table is idle: it may be given back, or opened again by this
event. When a decision needs more tables than are idle it raises `NeedsTable` with how
many, before anything is decided, so the director can grant them and decide again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import NeedsTable, RuleError
from kiosk.base.texts import M_, Msg
from kiosk.core.calc import button as btn
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model import registration
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import MOVING, SEATED, WAITING, Player, Table

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        BalancingView,
        BustsView,
        FloorView,
        LevelsView,
        PaceView,
        RegistryView,
    )


@dataclass(eq=False)
class Seating(Component):
    """The tables of one event and who sits at each."""

    tables: dict[int, Table] = field(default_factory=dict)
    # table -> players walking away from it
    movers_from: dict[int, set[str]] = field(default_factory=dict)
    moving: set[str] = field(default_factory=set)  # players between two tables
    granted: set[int] = field(default_factory=set)  # pool mode: the room's tables lent here
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("moves_balance", "moves_break", "moves_final", "moves_floor", "unavoidable"), 0))

    registry: RegistryView = peer()
    levels: LevelsView = peer()
    balancing: BalancingView = peer()
    floor: FloorView = peer()
    busts: BustsView = peer()
    pace: PaceView = peer()

    def table_in_play(self, tid: Any) -> Table:
        tab = self.tables.get(tid) if isinstance(tid, int) else None
        if tab is None or tab.broken:
            raise RuleError(M_("table.not_in_play", "table {table} is not in play",
                               table=repr(tid)))
        return tab

    def active_tables(self) -> list[Table]:
        return [t for t in self.tables.values() if not t.broken]

    def due_big_blind(self, tab: Table) -> int | None:
        """TDA 10A: the seat of the player due the big blind next (random before hand 1)."""
        if not tab.seat_of:
            return None
        if tab.positions is None:
            return self.t.rng("due", tab.id, tab.hand, tab.count).choice(sorted(tab.seat_of))
        return btn.next_big_blind(tab.positions, tab.seat_of, tab.seats)

    # ------------------------------------------------------ the tables lent by a room
    def idle_tables(self) -> list[int]:
        """Tables granted to this event that nobody plays at: never opened, or broken."""
        return sorted(n for n in self.granted
                      if n not in self.tables or self.tables[n].broken)

    def need_tables(self, n: int) -> None:
        """Refuse, before anything is decided, a decision that opens `n` tables when the
        room has not granted that many idle ones (pool mode; otherwise numbers are free)."""
        if self.t.pool and n > 0:
            short = n - len(self.idle_tables())
            if short > 0:
                raise NeedsTable(self.t.event, short)

    def next_table_id(self) -> int:
        """The number of the next table to open: the next after the highest, or in pool
        mode the lowest idle table the room granted (NeedsTable when there is none)."""
        if self.t.pool:
            idle = self.idle_tables()
            if not idle:
                raise NeedsTable(self.t.event, 1)
            return idle[0]
        return max(self.tables, default=0) + 1

    def _on_tables_granted(self, ev: ev_.TablesGranted) -> None:
        self.granted.update(ev.tables)
        self.changes.schedule_changed()

    def _on_table_released(self, ev: ev_.TableReleased) -> None:
        self.granted.discard(ev.table)
        self.changes.schedule_changed()

    def _do_grant_tables(self, cmd: cmd_.GrantTables, t: float) -> None:
        if not self.t.pool:
            raise RuleError(M_("pool.own_tables", "{event} numbers its own tables: it takes none "
                               "from a pool", event=self.t.event))
        again = sorted(set(cmd.tables) & self.granted)
        if again:
            raise RuleError(M_("pool.granted_already", "table {table} is already granted to "
                               "{event}", table=again[0], event=self.t.event))
        self.t.emit("tables_granted", t, tables=sorted(set(cmd.tables)))

    def _do_release_table(self, cmd: cmd_.ReleaseTable, t: float) -> None:
        n = cmd.table
        if n not in self.granted:
            raise RuleError(M_("pool.not_granted", "table {table} is not granted to {event}",
                               table=n, event=self.t.event))
        tab = self.tables.get(n)
        # once the event is over nobody plays on: its tables go back as they are
        if tab is not None and not tab.broken and self.busts.finished_at is None:
            if tab.count:
                who = "1 player sits" if tab.count == 1 else f"{tab.count} players sit"
                raise RuleError(M_("pool.players_there", "table {table} cannot go back to the "
                                   "pool: {who} there (break the table first)", table=n, who=who))
            if self.movers_from.get(n):
                raise RuleError(M_("pool.movers_there", "table {table} cannot go back to the "
                                   "pool: players moving from it have not arrived yet", table=n))
            self.t.emit("table_broken", t, table=n)
        self.t.emit("table_released", t, table=n)

    # ------------------------------------------------------------ tables open, break
    def _on_table_opened(self, ev: ev_.TableOpened) -> None:
        old = self.tables.get(ev.table)   # a broken table opened again (pool mode)
        tab = self.tables[ev.table] = Table(ev.table, ev.seats, ev.added,
                                            life=0 if old is None else old.life + 1)
        reopened = old is not None
        self.balancing.table_opened(tab, reopened)
        self.pace.table_opened(tab)

    def _on_table_broken(self, ev: ev_.TableBroken) -> None:
        tab = self.tables[ev.table]
        self.balancing.table_broken(tab)
        tab.broken = True
        self.changes.schedule_changed()
        self.levels.not_waiting_for(tab.id)
        self.pace.table_gone(tab)
        self.changes.touch(tab.id)
        # players moved off this table to balance would have moved now anyway
        self.stats["unavoidable"] += tab.balance_out

    def high_card_button(self, tab: Table) -> None:
        """The button is drawn for again (high card) before `tab`'s next hand."""
        tab.redraw_button = True

    def seated_afresh(self, tab: Table, seats: int | None = None) -> None:
        """Everyone at `tab` was seated by a new draw (the final table, the next day): the
        last hand's positions no longer say who is due a blind, and the button is drawn
        for again. The final table may seat fewer than the others (`seats`)."""
        if seats is not None:
            tab.seats = seats
        tab.redraw_button, tab.positions = True, None

    # ------------------------------------------------------------------ seats
    def _on_seated(self, ev: ev_.Seated) -> None:
        p = self.registry.players[ev.player]
        self.registry.set_status(p, SEATED)
        p.table, p.seat = ev.table, ev.seat
        p.from_table = p.from_seat = None
        tab = self.tables[ev.table]
        tab.seat_of[ev.seat] = p.id
        tab.moved_weight += p.moves * p.moves
        if not ev.same_seat:
            tab.new_seats.add(ev.seat)
        self.balancing.recount(tab)
        self.changes.touch(tab.id)
        self.changes.seating_changed()

    def unseat(self, p: Player) -> None:
        if p.from_table is not None:
            self.movers_from.get(p.from_table, set()).discard(p.id)
            self.moving.discard(p.id)
        if p.table is not None:
            tab = self.tables[p.table]
            if tab.seat_of.get(p.seat or 0) == p.id:
                del tab.seat_of[p.seat or 0]
                tab.moved_weight -= p.moves * p.moves
                tab.new_seats.discard(p.seat or 0)
            self.balancing.recount(tab)
            self.changes.touch(tab.id, p.from_table)
        self.changes.seating_changed()

    def forget_seat(self, p: Player) -> None:
        """A bust taken back: the seat the player went out from is no longer theirs."""
        p.table = p.seat = None

    def _on_moved(self, ev: ev_.Moved) -> None:
        p = self.registry.players[ev.player]
        src, dst = self.tables[ev.table], self.tables[ev.to_table]
        if ev.ordered:
            self.balancing.order_done(src, dst)
        self.unseat(p)
        p.from_table, p.from_seat = src.id, ev.seat
        self.movers_from.setdefault(src.id, set()).add(p.id)
        self.moving.add(p.id)
        self.registry.set_status(p, MOVING)
        p.table, p.seat = dst.id, ev.to_seat
        p.moves += 1
        dst.seat_of[ev.to_seat] = p.id
        dst.moved_weight += p.moves * p.moves
        dst.new_seats.add(ev.to_seat)
        if ev.redraw_button:
            dst.redraw_button = True
        self.balancing.recount(dst)
        self.changes.touch(dst.id, src.id)
        self.stats["moves_" + ev.reason] += 1
        if ev.reason in ("break", "final"):
            self.stats["unavoidable"] += 1
        elif ev.reason == "balance":
            src.balance_out += 1

    def _on_arrived(self, ev: ev_.Arrived) -> None:
        p = self.registry.players[ev.player]
        prev = p.from_table
        if prev is not None:
            self.movers_from.get(prev, set()).discard(p.id)
        self.moving.discard(p.id)
        self.registry.set_status(p, SEATED)
        p.from_table = p.from_seat = None
        self.changes.touch(p.table, prev)

    def _on_unseated(self, ev: ev_.Unseated) -> None:
        p = self.registry.players[ev.player]
        self.unseat(p)
        self.registry.set_status(p, WAITING)
        p.table, p.seat = None, None

    def _do_arrived(self, cmd: cmd_.Arrived, t: float) -> None:
        p = self.registry.player(cmd.get("player"))
        if p.status != MOVING:
            raise RuleError(M_("player.not_moving", "{name} is not moving", name=p.name))
        self.t.emit("arrived", t, player=p.id, table=p.table, seat=p.seat)

    # ------------------------------------------------------------------ hands
    def _on_hand_started(self, ev: ev_.HandStarted) -> None:
        tab = self.tables[ev.table]
        tab.hand, tab.in_hand, tab.last_hand_at = ev.hand, True, ev.t
        tab.positions = btn.Positions(ev.button, ev.sb, ev.bb, tuple(ev.dealt), tuple(ev.waiting))
        tab.new_seats.clear()
        tab.all_in.clear()
        tab.redraw_button = False
        if self.floor.on_penalty:
            self.floor.hand_dealt(tab, ev.dealt)
        self.pace.hand_dealt(tab)
        self.changes.touch(tab.id)

    def _on_hand_ended(self, ev: ev_.HandEnded) -> None:
        tab = self.tables[ev.table]
        tab.in_hand = False
        tab.all_in.clear()
        tab.last_hand_at = ev.t
        if tab.id in self.levels.h4h_waiting:
            self.levels.not_waiting_for(tab.id)
        self.changes.touch(tab.id)

    def _on_all_in(self, ev: ev_.AllIn) -> None:
        self.tables[ev.table].all_in.add(ev.seat)
        self.changes.touch(ev.table)

    def _on_all_in_undone(self, ev: ev_.AllInUndone) -> None:
        self.tables[ev.table].all_in.discard(ev.seat)
        self.changes.touch(ev.table)


def start_refusal(seating: Seating) -> Msg | None:
    """Why the event cannot start now, or None when it can: `start` refuses with this,
    and the room page offers Start only when it is None."""
    registry = seating.registry
    return registration.start_refusal(seating.levels.started,
                                      (p.status for p in registry.players.values()),
                                      registry.alive)
