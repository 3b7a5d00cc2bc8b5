"""A floor call: the dealer raises it, the director acknowledges and resolves it, and
the banner clears a few seconds after."""

from __future__ import annotations

from typing import Any

from kiosk.lang.active import N_, _
from kiosk.table.calls import FloorCall
from kiosk.table.context import TableContext
from kiosk.table.result import Result

RESOLVED_S = 8.0       # how long "floor: resolved" stays before the banner clears
TEXTS = {"open": N_("Floor called"), "acked": N_("Floor on the way"),
         "resolved": N_("Floor: resolved")}


class FloorFlow:
    """At most one floor call at a time; `call` is None when none is shown."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.call: FloorCall | None = None

    def press_floor(self, t: float, seat: int | None = None) -> Result:
        ctx = self.ctx
        if r := ctx.debounced("floor_button", t):
            return r
        if self.call is not None and self.call.state != "resolved":
            return ctx.refuse(t, _("Floor already called"))
        data = {} if seat is None else {"seat": seat}
        res = ctx.emit(t, "floor_call", data, _(TEXTS["open"]), None, _("floor"))
        assert res.report is not None
        self.call = FloorCall(res.report["id"], t, seat)
        return res

    def hold_floor(self, t: float) -> Result:
        """A held FLOOR press cancels the open call instead of raising one."""
        call = self.call
        if call is None or call.state == "resolved":
            return self.ctx.refuse(t, _("No floor call to cancel"))
        self.call = None
        self.ctx.closed_calls |= call.ids
        return self.ctx.emit(t, "floor_cancel", {"call": call.id}, _("Floor call cancelled"))

    def undone(self, rid: str) -> None:
        """UNDO took back report `rid`: if it raised this call, the call is gone."""
        if self.call is not None and self.call.id == rid:
            self.ctx.closed_calls |= self.call.ids
            self.call = None

    def expire(self, t: float) -> None:
        fc = self.call
        if fc and fc.state == "resolved" and t - (fc.resolved_at or t) > RESOLVED_S:
            self.call = None

    def text(self) -> str:
        """The banner: who is on the way when the floor said so, for the players too."""
        fc = self.call
        if fc is None:
            return ""
        if fc.state == "acked" and fc.by:
            return _("Floor on the way: {name}").format(name=fc.by)
        return _(TEXTS[fc.state]) if fc.state in TEXTS else ""

    def live(self) -> dict[str, Any] | None:
        fc = self.call
        return None if fc is None else {"id": fc.id, "state": fc.state, "since": fc.raised_at,
                                        "seat": fc.seat}

    def reconcile(self, calls: dict[str, Any], t: float) -> None:
        """Follow the director's view of our call, or show the one it holds for us."""
        live = [k for k, e in calls.items()
                if isinstance(e, dict) and k not in self.ctx.closed_calls]
        for key, entry in calls.items():
            if not isinstance(entry, dict):
                continue
            if self.call is not None and self._ours(key, entry, live, calls):
                self._follow(key, entry, t)
            elif self.call is None and entry.get("state") in ("open", "acked") \
                    and key not in self.ctx.closed_calls:
                self.call = FloorCall(key, float(entry.get("since") or t), entry.get("seat"),
                                      entry["state"], by=str(entry.get("by") or ""))

    def _ours(self, key: str, entry: dict[str, Any], live: list[str],
              calls: dict[str, Any]) -> bool:
        # the director may key calls by our report id, name it in "report", or use its
        # own id; with its own id, the one call it holds for this table is ours
        fc = self.call
        assert fc is not None
        return key == fc.id or entry.get("report") == fc.id or (
            live == [key] and fc.id not in calls)

    def _follow(self, key: str, entry: dict[str, Any], t: float) -> None:
        fc = self.call
        assert fc is not None
        fc.plan_key = key
        if entry.get("by"):
            fc.by = str(entry["by"])
        state = entry.get("state")
        if state in ("acked", "resolved") and state != fc.state:
            fc.state, fc.note = state, str(entry.get("note", ""))
            if state == "resolved":
                fc.resolved_at = t
                self.ctx.closed_calls |= fc.ids
