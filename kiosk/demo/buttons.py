"""The demo's tables press their buttons: ALL-IN, CLOCK and FLOOR now and then.

Without this a newcomer watching `pokerkiosk demo` never sees an all-in light up, a
clock call wait for approval or a floor call escalate on the dashboard. The presses
use their own random generator, so the hands the simulator deals stay the same.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from kiosk.core.model.commands import (
    AllInReport,
    AnyTableReport,
    ClockCallReport,
    ClockDoneReport,
    FloorCallReport,
    FloorCancelReport,
)
from kiosk.core.model.report_data import AllInData, CallData, ClockDoneData, FloorCallData, SeatData

ALL_IN_P = 0.12      # per hand: a player moves all-in while the hand runs
CLOCK_P = 0.06       # per hand: someone calls the clock
FLOOR_P = 0.04       # per hand: the dealer calls the floor
FLOOR_GIVE_UP = 8    # hands after which an unanswered floor call is cancelled


class ReportSink(Protocol):
    plans: dict[int, dict[str, Any]]

    def report(self, rep: AnyTableReport, t: float) -> bool | None: ...


class ButtonPresser:
    """Hooks for the simulator: `hand_started` may press, `hand_ending` closes clocks."""

    def __init__(self, field: ReportSink, seed: int = 0) -> None:
        self.field = field
        self.rng = random.Random(f"buttons:{seed}")
        self.n = 0
        self.clock_reports: dict[int, str] = {}      # table -> our clock_call report id
        self.floor_since: dict[int, int] = {}        # table -> hands since our floor call
        self.all_in: dict[int, int] = {}             # table -> seat pressed this hand

    def _id(self, table: int) -> str:
        self.n += 1
        return f"b{table}-{self.n}"

    def _send(self, rep: AnyTableReport, t: float) -> str:
        self.field.report(rep, t)
        return rep.id

    def hand_started(self, table: int, t: float, dealt: list[int], hand: int) -> None:
        rng = self.rng
        if len(dealt) < 2:
            return
        if rng.random() < ALL_IN_P:
            self.all_in[table] = seat = rng.choice(dealt)
            self._send(AllInReport(table=table, id=self._id(table),
                                   data=AllInData(seat=seat, hand=hand)), t)
        if table not in self.clock_reports and rng.random() < CLOCK_P:
            self.clock_reports[table] = self._send(ClockCallReport(
                table=table, id=self._id(table), data=SeatData(seat=rng.choice(dealt))), t)
        open_calls = [k for k, c in (self.field.plans.get(table, {}).get("floor_calls") or {})
                      .items() if c.get("state") in ("open", "acked")]
        if open_calls:
            self.floor_since[table] = self.floor_since.get(table, 0) + 1
            if self.floor_since[table] >= FLOOR_GIVE_UP:
                self._send(FloorCancelReport(table=table, id=self._id(table),
                                             data=CallData(call=open_calls[0])), t)
                self.floor_since.pop(table)
        elif rng.random() < FLOOR_P:
            self._send(FloorCallReport(table=table, id=self._id(table),
                                       data=FloorCallData(seat=rng.choice(dealt))), t)
            self.floor_since[table] = 0

    def hand_ending(self, table: int, t: float) -> int | None:
        """Close this table's clock call (the player acted); returns the seat pressed
        all-in this hand, which the simulator must not report twice."""
        rid = self.clock_reports.pop(table, None)
        if rid is not None:
            calls = self.field.plans.get(table, {}).get("clock_calls") or {}
            call = next((k for k, c in calls.items() if c.get("report") == rid
                         and c.get("state") != "done"), None)
            if call is not None:
                self._send(ClockDoneReport(table=table, id=self._id(table),
                                           data=ClockDoneData(call=call, outcome="acted")), t)
        return self.all_in.pop(table, None)
