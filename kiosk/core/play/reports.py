"""What a table's reports mean: each kind checked and turned into events.

Owns which report ids each table has had applied (re-sends are ignored), the events each
undoable report made, and which were taken back; report kinds that belong to another part
(chip counts, add-ons) are routed there by the host (`Host.decide_report`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_, Msg
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.report_data import (
    AllInData,
    BustData,
    CallData,
    CheckinData,
    ClockDoneData,
    FloorCallData,
    HandEndedData,
    HandStartedData,
    SeatData,
    UndoData,
)
from kiosk.core.model.state import BUSTED, IN_PLAY, MOVING, Event, Player, Table

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        BalancingView,
        BustsView,
        FloorView,
        MoneyView,
        PaceView,
        RegistryView,
        SeatingView,
    )


def dealing_problem(tab: Table, d: HandStartedData) -> Msg | None:
    """Why a hand cannot be one of `tab`'s, or None: it must deal two players or more,
    each in a seat somebody holds, the big blind among them (the button and the small
    blind may be dead)."""
    if len(d.dealt) < 2:
        return M_("deal.no_one", "deals no one") if not d.dealt else \
            M_("deal.one_player", "deals one player: a hand needs two")
    empty = sorted(set(d.dealt) - tab.seat_of.keys())
    if empty:
        return Mn_("deal.empty_seats", "seat {seats} is empty", "seats {seats} are empty",
                   len(empty), seats=", ".join(map(str, empty)))
    if d.bb not in d.dealt:
        return M_("deal.bb_not_dealt", "the big blind (seat {seat}) is not dealt in",
                  seat=d.bb)
    return None


@dataclass(eq=False)
class TableReports(Component):
    """Handlers for the table reports, one per report kind."""

    seen_reports: set[tuple[int, str]] = field(default_factory=set)  # (table, report id) applied
    undone: set[tuple[int, str]] = field(default_factory=set)  # (table, report id) taken back
    # undoable events, by report
    report_events: dict[tuple[int, str], list[Any]] = field(default_factory=dict)

    seating: SeatingView = peer()
    registry: RegistryView = peer()
    balancing: BalancingView = peer()
    busts: BustsView = peer()
    floor: FloorView = peer()
    money: MoneyView = peer()
    pace: PaceView = peer()

    def applied(self, ev: Event, table: int, undoable: bool) -> None:
        """`ev` came of a report of `table`: the report is applied (a re-send is ignored
        from now on), and an UNDO of it takes back `ev` when `undoable`."""
        key = (table, ev.report or "")   # ids are per table
        self.seen_reports.add(key)
        if undoable:
            self.report_events.setdefault(key, []).append(ev)

    def _do_report(self, cmd: cmd_.Report, t: float) -> None:
        rep = cmd.report
        table = rep.table if cmd.table is None else cmd.table
        if rep.table != table:
            raise RuleError(M_("report.wrong_table",
                               "report {report} names table {named} but came from table "
                               "{table}", report=rep.id, named=rep.table, table=table))
        rid = rep.id
        tab = None
        if type(table) is int:
            if (table, rid) in self.seen_reports:
                # a re-send of a report applied once (say after a director restart):
                # applied it is, even if its table has broken since
                return
            tab = self.seating.tables.get(table)
        if tab is None or tab.broken:   # once per report: the call only for its error
            tab = self.seating.table_in_play(table)
        self.t.decide_report(tab, rep, t, rid)

    def seat_player(self, tab: Table, seat: Any) -> Player:
        pid = tab.seat_of.get(seat) if isinstance(seat, int) else None
        if pid is None:
            raise RuleError(M_("seat.empty", "table {table} seat {seat} is empty",
                               table=tab.id, seat=seat))
        return self.registry.players[pid]

    def _report_hand_started(self, tab: Table, d: HandStartedData, t: float,
                             rid: str) -> None:
        if d.hand <= tab.hand:
            raise RuleError(M_("hand.not_after", "table {table} hand {hand} is not after hand "
                               "{last}", table=tab.id, hand=d.hand, last=tab.hand))
        if tab.in_hand:
            raise RuleError(M_("hand.not_ended", "table {table} hand {hand} has not ended",
                               table=tab.id, hand=tab.hand))
        if self.balancing.holding(tab):
            why = self.balancing.hold_reason(tab) or ""
            raise RuleError(M_("hand.holding", "table {table} must not deal now: {why}",
                               table=tab.id, why=why))
        wrong = dealing_problem(tab, d)
        if wrong:
            raise RuleError(M_("hand.refused", "table {table} hand {hand} refused: {why}",
                               table=tab.id, hand=d.hand, why=wrong))
        self.t.add(ev_.HandStarted(t=t, table=tab.id, hand=d.hand, button=d.button, sb=d.sb,
                                   bb=d.bb, dealt=list(d.dealt), waiting=list(d.waiting),
                                   report=rid))
        self.pace.hand_started(tab, t)

    def _report_hand_ended(self, tab: Table, d: HandEndedData, t: float, rid: str) -> None:
        if not tab.in_hand or d.hand != tab.hand:
            raise RuleError(M_("hand.not_playing", "table {table} is not playing hand {hand}",
                               table=tab.id, hand=d.hand))
        self.t.add(ev_.HandEnded(t=t, table=tab.id, hand=d.hand, report=rid))
        if self.money.prize.seat_value and self.busts.finish_if_over(t):
            return   # a satellite ends with the hand that decided its last seats
        self.balancing.between_hands(tab, t)
        self.pace.hand_over(tab, t)

    def _report_all_in(self, tab: Table, d: AllInData, t: float, rid: str) -> None:
        self.seat_player(tab, d.seat)
        if d.seat in tab.all_in:
            raise RuleError(M_("allin.already", "table {table} seat {seat} is already all-in",
                               table=tab.id, seat=d.seat))
        self.t.add(ev_.AllIn(t=t, table=tab.id, seat=d.seat, hand=tab.hand, report=rid))

    def _report_bust(self, tab: Table, d: BustData, t: float, rid: str) -> None:
        p = self.seat_player(tab, d.seat)
        if p.id != d.player:
            raise RuleError(M_("bust.other_player", "table {table} seat {seat} holds "
                               "{holds}, not {player}", table=tab.id, seat=d.seat,
                               holds=p.id, player=d.player))
        self.busts.bust(p, t, d.stack, rid, d.eliminator, d.rebuy)

    def _report_clock_call(self, tab: Table, d: SeatData, t: float, rid: str) -> None:
        self.seat_player(tab, d.seat)
        rules = self.t.profile.clock_call
        self.t.emit("clock_call", t, call=f"c{len(self.floor.clock_calls) + 1}", table=tab.id,
                    seat=d.seat, seconds=rules.seconds, countdown=rules.countdown,
                    approved=not rules.needs_approval, report=rid)

    def _report_clock_done(self, tab: Table, d: ClockDoneData, t: float, rid: str) -> None:
        c = self.floor.clock_calls.get(d.call)
        if c is None or c.table != tab.id:
            raise RuleError(M_("clock.no_call", "no clock call {call} at table {table}",
                               call=d.call, table=tab.id))
        if c.state == "done":
            raise RuleError(M_("clock.done", "clock call {call} is already done", call=c.id))
        self.t.emit("clock_done", t, call=c.id, table=tab.id, outcome=d.outcome, report=rid)

    def _report_floor_call(self, tab: Table, d: FloorCallData, t: float, rid: str) -> None:
        open_here = [c for c in self.floor.floor_calls.values()
                     if c.table == tab.id and c.state in ("open", "acked")]
        if open_here:
            raise RuleError(M_("floor.open_already", "table {table} already has floor call "
                               "{call} open", table=tab.id, call=open_here[0].id))
        self.t.emit("floor_call", t, call=f"f{len(self.floor.floor_calls) + 1}", table=tab.id,
                    seat=d.seat, report=rid)

    def _report_floor_cancel(self, tab: Table, d: CallData, t: float, rid: str) -> None:
        c = self.floor.floor_calls.get(d.call)
        if c is None or c.table != tab.id or c.state not in ("open", "acked"):
            raise RuleError(M_("floor.no_call", "no open floor call {call} at table {table}",
                               call=d.call, table=tab.id))
        self.t.emit("floor_resolved", t, call=c.id, table=tab.id, state="cancelled",
                    note="cancelled at the table", report=rid)

    def _report_checkin(self, tab: Table, d: CheckinData, t: float, rid: str) -> None:
        pid = self.registry.by_card.get(d.card)
        if pid is None:
            raise RuleError(M_("card.unknown", "unknown card '{card}' at table {table}",
                               card=d.card, table=tab.id))
        p = self.registry.players[pid]
        right = p.table == tab.id and p.status in IN_PLAY
        if right and p.status == MOVING:
            self.t.emit("arrived", t, player=pid, table=tab.id, seat=p.seat, report=rid)
        else:
            self.t.emit("checked_in", t, player=pid, table=tab.id, seat=d.seat,
                        right_table=right, report=rid)

    def _report_absent(self, tab: Table, d: SeatData, t: float, rid: str) -> None:
        p = self.seat_player(tab, d.seat)
        self.t.emit("absent", t, player=p.id, table=tab.id, seat=d.seat, absent=True,
                    report=rid)

    def _report_present(self, tab: Table, d: SeatData, t: float, rid: str) -> None:
        p = self.seat_player(tab, d.seat)
        if p.status == MOVING:
            self.t.add(ev_.Arrived(t=t, player=p.id, table=tab.id, seat=p.seat, report=rid))
        else:
            self.t.emit("absent", t, player=p.id, table=tab.id, seat=d.seat, absent=False,
                        report=rid)

    def _report_undo(self, tab: Table, d: UndoData, t: float, rid: str) -> None:
        target = d.report
        evs = self.report_events.get((tab.id, target))
        if not evs:
            raise RuleError(M_("undo.no_report", "table {table} has no report '{report}' to "
                               "undo", table=tab.id, report=target))
        if (tab.id, target) in self.undone:
            raise RuleError(M_("undo.already", "report {report} is already undone",
                               report=target))
        for ev in evs:
            k = ev.kind
            if k == "all_in":
                self.t.emit("all_in_undone", t, table=tab.id, seat=ev.seat, report=rid)
            elif k == "busted":
                p = self.registry.players[ev.player]
                if p.status != BUSTED:
                    raise RuleError(M_("undo.not_out", "{name} is no longer out; nothing to "
                                       "undo", name=p.name))
                self.busts.unbust(p, t, rid, prefer=(ev.table, ev.seat))
            elif k == "absent":
                self.t.emit("absent", t, player=ev.player, table=tab.id, seat=ev.seat,
                            absent=not ev.absent, report=rid)
            elif k == "floor_call" and self.floor.floor_calls[ev.call].state != "resolved":
                self.t.emit("floor_resolved", t, call=ev.call, table=tab.id,
                            state="cancelled", note="undone at the table", report=rid)
            elif k == "clock_call" and self.floor.clock_calls[ev.call].state != "done":
                self.t.emit("clock_done", t, call=ev.call, table=tab.id, outcome="cancelled",
                            report=rid)
            else:
                raise RuleError(M_("undo.not_from_table", "a {what} cannot be undone from "
                                   "the table", what=k.replace("_", " ")))
        self.t.emit("undone", t, table=tab.id, target=target, report=rid)

    def _on_undone(self, ev: ev_.Undone) -> None:
        self.undone.add((ev.table, ev.target))

    def _on_checked_in(self, ev: ev_.CheckedIn) -> None:
        pass  # kept in the log for the audit trail only

    # the table reports this part decides (each handler takes the report's data)
    REPORTS: ClassVar[dict[type, Callable[..., None]]] = {
        cmd_.HandStartedReport: _report_hand_started,
        cmd_.HandEndedReport: _report_hand_ended,
        cmd_.AllInReport: _report_all_in,
        cmd_.BustReport: _report_bust,
        cmd_.ClockCallReport: _report_clock_call,
        cmd_.ClockDoneReport: _report_clock_done,
        cmd_.FloorCallReport: _report_floor_call,
        cmd_.FloorCancelReport: _report_floor_cancel,
        cmd_.CheckinReport: _report_checkin,
        cmd_.AbsentReport: _report_absent,
        cmd_.PresentReport: _report_present,
        cmd_.UndoReport: _report_undo,
    }
