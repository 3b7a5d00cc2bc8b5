"""A chip count: when the plan opens one, the dealer types every seated stack on the
panel's keypad between hands and sends them only when each is plausible. When the bag
refuses a count it took (a player moved since, a stack it flags), the plan asks again and
the keypad comes back, saying why."""

from __future__ import annotations

from typing import Any

from kiosk.lang.active import N_, _, fmt, ngettext, render
from kiosk.table.context import TableContext
from kiosk.table.money_entry import ChipCountEntry
from kiosk.table.result import Result
from kiosk.table.view import BustPanel

COUNT_PROMPT = N_("CHIP COUNT{label}: tap a seat, type its stack, then SEND")
RECOUNT_PROMPT = N_("RECOUNT: {why}")
NOT_OPEN = N_("No chip count is open")


def asked(req: dict[str, Any]) -> tuple[int, int]:
    """Which count the plan asks for: its round, and how many of this table's counts the
    director had taken when it asked (a recount asks again with a higher number)."""
    return int(req["round"]), int(req.get("counted") or 0)


class CountFlow:
    """The keypad entry of an open count, and the counts this table has sent: each as
    the plan asked for it, so a recount the director asks for later is not one of them."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.entry: ChipCountEntry | None = None
        self.error = ""
        self.sent: set[tuple[int, int]] = set()

    def counting(self) -> ChipCountEntry | None:
        """The keypad for an open count this table has not sent, once no hand runs."""
        ctx = self.ctx
        req = ctx.plan.get("chip_count")
        if not req or req.get("done") or asked(req) in self.sent:
            self.entry = None
            return None
        seats = sorted(ctx.occupied())
        if not ctx.between_hands() or not seats:
            return None
        entry = self.entry
        if entry is None or entry.round_no != req["round"] or entry.seats != seats:
            names = {s: str(ctx.plan_seats()[s].get("name", "")) for s in seats}
            typed = {s: v for s, v in (entry.values if entry else {}).items() if s in seats}
            self.entry = entry = ChipCountEntry(seats, names, 0, int(req["round"]), typed)
        return entry

    def key(self, t: float, key: str) -> Result:
        """A keypad key into the focused seat's stack."""
        entry = self.counting()
        if entry is None:
            return self.ctx.refuse(t, _(NOT_OPEN))
        entry.press(key)
        self.error = ""
        return Result()

    def seat(self, t: float, seat: int) -> Result:
        """A seat tap on the count: typing goes to that seat now."""
        entry = self.counting()
        if entry is None or seat not in entry.seats:
            return self.ctx.refuse(t, _("Seat {seat} is not in the count").format(seat=seat))
        entry.at = entry.seats.index(seat)
        return Result()

    def send(self, t: float) -> Result:
        """SEND: the count goes to the director only when every stack is plausible."""
        entry = self.counting()
        if entry is None:
            return self.ctx.refuse(t, _(NOT_OPEN))
        problems = entry.problems() + self._beyond_the_room(entry.stacks())
        if problems:
            more = " " + _("(+{n} more)").format(n=len(problems) - 1) if len(problems) > 1 \
                else ""
            self.error = problems[0] + more
            return self.ctx.refuse(t, self.error)
        res = self.chip_count(t, entry.stacks(), entry.round_no)
        self.sent.add(asked(self.ctx.plan["chip_count"]))
        self.entry, self.error = None, ""
        return res

    def chip_count(self, t: float, stacks: dict[int, int], round_no: int | None = None
                   ) -> Result:
        """Send the stacks the dealer entered for an open chip count."""
        data: dict[str, Any] = {"stacks": {str(s): int(v) for s, v in sorted(stacks.items())}}
        if round_no is not None:
            data["round"] = round_no
        return self.ctx.emit(t, "chip_count", data, ngettext(
            "Chip count sent ({n} seat)", "Chip count sent ({n} seats)", len(stacks)).format(
                n=len(stacks)))

    def _beyond_the_room(self, stacks: dict[int, int]) -> list[str]:
        """Stacks no table can hold: more than all the chips in play (from the schedule's
        field and average; the average is rounded, so one chip a player of slack)."""
        sched = self.ctx.schedule or {}
        left, avg = int(sched.get("players_left") or 0), int(sched.get("average_stack") or 0)
        room = left * avg + left
        if not room:
            return []
        f = fmt()
        out = [_("Seat {seat}: {stack} is more than all chips in play ({total})").format(
            seat=s, stack=f.chips(v), total=f.chips(left * avg))
            for s, v in sorted(stacks.items()) if v > room]
        if not out and sum(stacks.values()) > room:
            out.append(_("Table total {stack} is more than all chips in play").format(
                stack=f.chips(sum(stacks.values()))))
        return out

    def panel(self) -> BustPanel | None:
        """The count on the bust panel's seats and keypad."""
        entry = self.counting()
        if entry is None:
            return None
        req = self.ctx.plan.get("chip_count") or {}
        label = render(req.get("label_msg"), str(req.get("label") or ""))
        label = f" ({label})" if label else ""
        recount = render(req.get("recount_msg"), str(req.get("recount") or ""))
        why = [w for w in recount.split("; ") if w]
        more = " " + _("(+{n} more)").format(n=len(why) - 1) if len(why) > 1 else ""
        prompt = self.error or (_(RECOUNT_PROMPT).format(why=why[0] + more) if why else
                                _(COUNT_PROMPT).format(label=label))
        return BustPanel(tuple((s, entry.names.get(s, "")) for s in entry.seats),
                         tuple((s, entry.values.get(s, "")) for s in entry.seats),
                         entry.seat, False, True, prompt, mode="count", ok_text=N_("SEND"),
                         error=bool(self.error))

    def to_dict(self) -> dict[str, Any]:
        return {"counts_sent": [list(k) for k in sorted(self.sent)]}

    def restore(self, d: dict[str, Any]) -> None:
        """The counts sent, as kept (a state from before recounts kept rounds alone)."""
        self.sent = {(int(k), 0) if isinstance(k, int) else (int(k[0]), int(k[1]))
                     for k in d.get("counts_sent", ())}
