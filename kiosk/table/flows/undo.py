"""UNDO: the dealer's last action taken back, here and at the director."""

from __future__ import annotations

from kiosk.lang.active import _
from kiosk.table.context import TableContext
from kiosk.table.flows.clock import ClockFlow
from kiosk.table.flows.floor import FloorFlow
from kiosk.table.result import Result


class UndoFlow:
    """The context's UNDO stack: each entry is a report id, its label and the local
    state before it."""

    def __init__(self, ctx: TableContext, clock: ClockFlow, floor: FloorFlow) -> None:
        self.ctx = ctx
        self.clock = clock
        self.floor = floor

    def undo(self, t: float) -> Result:
        """Take back the last dealer action: local state returns, the director is told."""
        ctx = self.ctx
        if r := ctx.debounced("undo", t):
            return r
        if not ctx.undo_stack:
            return ctx.refuse(t, _("Nothing to undo"))
        rid, label, before = ctx.undo_stack.pop()
        if before is not None:
            ctx.local = before
        self.clock.undone(rid)
        self.floor.undone(rid)
        return ctx.emit(t, "undo", {"report": rid}, _("Undone: {action}").format(action=label))

    def label(self) -> str:
        """What UNDO would take back ("bust 4"), or "" when there is nothing."""
        return self.ctx.undo_stack[-1][1] if self.ctx.undo_stack else ""
