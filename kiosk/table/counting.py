"""The table's chip count and colour-up, mixed into the controller: when the plan opens a
count, the dealer types every seated stack on the bust panel's keypad between hands;
when the director has worked out the colour-up race, the screen walks the dealer through
it. Pure like the controller: time is passed in, reports come back in a `Result`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.table.money_entry import ChipCountEntry, colour_up_rows
from kiosk.table.result import Result
from kiosk.table.view import BustPanel

if TYPE_CHECKING:
    from kiosk.table.controller import _Local

COUNT_PROMPT = "CHIP COUNT{label}: tap a seat, type its stack, then SEND"


class Counting:
    """Chip count and colour-up state; `TableController` supplies plan, hand and reports."""

    plan: dict[str, Any]
    schedule: dict[str, Any] | None
    local: _Local
    pending: str | None

    if TYPE_CHECKING:
        def _occupied(self) -> set[int]: ...
        def _plan_seats(self) -> dict[int, dict[str, Any]]: ...
        def _refuse(self, t: float, message: str) -> Result: ...
        def chip_count(self, t: float, stacks: dict[int, int],
                       round_no: int | None = None) -> Result: ...

    def _init_counting(self) -> None:
        self.count: ChipCountEntry | None = None
        self.count_error = ""
        self.counts_sent: set[int] = set()        # rounds this table has sent
        self.colour_ups_seen: set[int] = set()    # rounds whose race the dealer finished

    def _between_hands(self) -> bool:
        return not self.local.in_hand and self.pending is None

    def counting(self) -> ChipCountEntry | None:
        """The keypad for an open count this table has not sent, once no hand runs."""
        req = self.plan.get("chip_count")
        if not req or req.get("done") or int(req["round"]) in self.counts_sent:
            self.count = None
            return None
        seats = sorted(self._occupied())
        if not self._between_hands() or not seats:
            return None
        entry = self.count
        if entry is None or entry.round_no != req["round"] or entry.seats != seats:
            names = {s: str(self._plan_seats()[s].get("name", "")) for s in seats}
            typed = {s: v for s, v in (entry.values if entry else {}).items() if s in seats}
            self.count = entry = ChipCountEntry(seats, names, 0, int(req["round"]), typed)
        return entry

    def count_key(self, t: float, key: str) -> Result:
        """A keypad key into the focused seat's stack."""
        entry = self.counting()
        if entry is None:
            return self._refuse(t, "No chip count is open")
        entry.press(key)
        self.count_error = ""
        return Result()

    def count_seat(self, t: float, seat: int) -> Result:
        """A seat tap on the count: typing goes to that seat now."""
        entry = self.counting()
        if entry is None or seat not in entry.seats:
            return self._refuse(t, f"Seat {seat} is not in the count")
        entry.at = entry.seats.index(seat)
        return Result()

    def count_send(self, t: float) -> Result:
        """SEND: the count goes to the director only when every stack is plausible."""
        entry = self.counting()
        if entry is None:
            return self._refuse(t, "No chip count is open")
        problems = entry.problems() + self._beyond_the_room(entry.stacks())
        if problems:
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            self.count_error = problems[0] + more
            return self._refuse(t, self.count_error)
        res = self.chip_count(t, entry.stacks(), entry.round_no)
        assert entry.round_no is not None
        self.counts_sent.add(entry.round_no)
        self.count, self.count_error = None, ""
        return res

    def _beyond_the_room(self, stacks: dict[int, int]) -> list[str]:
        """Stacks no table can hold: more than all the chips in play (from the schedule's
        field and average; the average is rounded, so one chip a player of slack)."""
        sched = self.schedule or {}
        left, avg = int(sched.get("players_left") or 0), int(sched.get("average_stack") or 0)
        room = left * avg + left
        if not room:
            return []
        out = [f"Seat {s}: {v:,} is more than all chips in play ({left * avg:,})"
               for s, v in sorted(stacks.items()) if v > room]
        if not out and sum(stacks.values()) > room:
            out.append(f"Table total {sum(stacks.values()):,} is more than all chips in play")
        return out

    def count_panel(self) -> BustPanel | None:
        """The count on the bust panel's seats and keypad."""
        entry = self.counting()
        if entry is None:
            return None
        label = str((self.plan.get("chip_count") or {}).get("label") or "")
        prompt = self.count_error or COUNT_PROMPT.format(label=f" ({label})" if label else "")
        return BustPanel(tuple((s, entry.names.get(s, "")) for s in entry.seats),
                         tuple((s, entry.values.get(s, "")) for s in entry.seats),
                         entry.seat, False, True, prompt, mode="count", ok_text="SEND",
                         error=bool(self.count_error))

    def colour_up(self) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        """(title, rows) of the race to walk through, or ("", ()) when there is none."""
        cu, req = self.plan.get("colour_up"), self.plan.get("chip_count") or {}
        if not cu or not req or int(req["round"]) in self.colour_ups_seen \
                or not self._between_hands():
            return "", ()
        gone = ", ".join(f"{int(c):,}" for c in req.get("removed") or ())
        chip = int(cu.get("new_chip") or 0)
        title = "COLOUR-UP" + (f": {gone} off" if gone else "") + \
            (f", race for {chip:,}" if chip else "")
        return title, tuple(colour_up_rows(cu))

    def colour_up_done(self, t: float) -> Result:
        """DONE on the walk-through: back to the table."""
        req = self.plan.get("chip_count") or {}
        if not self.plan.get("colour_up") or not req:
            return self._refuse(t, "No colour-up to finish")
        self.colour_ups_seen.add(int(req["round"]))
        return Result(message="Colour-up done")

    def counting_state(self) -> dict[str, Any]:
        return {"counts_sent": sorted(self.counts_sent),
                "colour_ups_seen": sorted(self.colour_ups_seen)}

    def restore_counting(self, d: dict[str, Any]) -> None:
        self.counts_sent = {int(r) for r in d.get("counts_sent", ())}
        self.colour_ups_seen = {int(r) for r in d.get("colour_ups_seen", ())}
