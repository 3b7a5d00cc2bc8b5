"""A colour-up and its chip race (TDA 2017 r.24 / 2015 r.23): the chips race off at the
table from seat 1, with real cards dealt face up, one per odd chip. By default the dealer
runs it: the kiosk says how many cards each seat gets and the order of the cards, the
dealer taps the seats in card order, and the director applies what the dealer entered.
A plan whose race is "draw" carries the director's own cards. Either way the outcome is
walked through until DONE."""

from __future__ import annotations

from typing import Any

from kiosk.lang.active import N_, _, fmt, ngettext
from kiosk.table.context import TableContext
from kiosk.table.money_entry import colour_up_rows
from kiosk.table.result import Result
from kiosk.table.view import BustPanel

CARD_ORDER = N_("A high, 2 low\nequal ranks: spades,\nhearts, diamonds, clubs")
RACE_PROMPT = N_("CHIP RACE: {left} x {chip}: tap the highest card's seat")
RACE_NEXT = N_("CHIP RACE: {left} more x {chip}: tap the next card's seat")
RACE_FULL = N_("CHIP RACE: all {n} given - SEND")
RACE_WAIT = N_("Chip race sent: waiting for the director")
NO_RACE = N_("No chip race to enter")


class ColourUpFlow:
    """The dealer's race entry, then the walk-through; rounds done are remembered."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.taps: list[int] = []          # seats in the order of their cards
        self.taps_round: int | None = None  # the round those taps belong to
        self.races_sent: set[int] = set()
        self.seen: set[int] = set()        # rounds whose colour-up the dealer finished

    def _round(self) -> int | None:
        req = self.ctx.plan.get("chip_count") or {}
        return int(req["round"]) if req else None

    def _plan(self) -> dict[str, Any] | None:
        """The plan's colour-up while this table has one to show."""
        cu, rnd = self.ctx.plan.get("colour_up"), self._round()
        if not cu or rnd is None or rnd in self.seen or not self.ctx.between_hands():
            return None
        return cu

    # ---------------------------------------------------------------- the dealer's race
    def racing(self) -> dict[str, Any] | None:
        """The colour-up whose race waits for this dealer's entry, else None."""
        cu, rnd = self._plan(), self._round()
        if cu is None or not cu.get("pending") or cu.get("race", "draw") != "dealer" \
                or rnd in self.races_sent:
            return None
        if self.taps_round != rnd:      # a new race: taps of an earlier one do not count
            self.taps, self.taps_round = [], rnd
        return cu

    def waiting(self) -> bool:
        """The race went out and the director has not answered yet."""
        cu = self._plan()
        return bool(cu and cu.get("pending") and self._round() in self.races_sent)

    def race_tap(self, t: float, seat: int) -> Result:
        """The seat holding the next-highest card wins the next chip."""
        cu = self.racing()
        if cu is None:
            return self.ctx.refuse(t, _(NO_RACE))
        cards = _seat_map(cu.get("deal_cards"))
        if not cards.get(seat):
            return self.ctx.refuse(t, _("Seat {seat} has no race cards").format(seat=seat))
        if len(self.taps) >= int(cu.get("to_give") or 0):
            return self.ctx.refuse(t, _(RACE_FULL).format(n=len(self.taps)))
        limit = cu.get("max_each")
        if limit is not None and self.taps.count(seat) >= int(limit):
            return self.ctx.refuse(t, ngettext("Seat {seat} already has {n} chip",
                                               "Seat {seat} already has {n} chips",
                                               int(limit)).format(seat=seat, n=int(limit)))
        self.taps = [*self.taps, seat]
        return Result(message=_("Seat {seat}: chip {n}").format(seat=seat, n=len(self.taps)))

    def race_undo(self, t: float) -> Result:
        """UNDO on the race: the last tap comes off."""
        if self.racing() is None or not self.taps:
            return self.ctx.refuse(t, _("No race tap to undo"))
        seat, self.taps = self.taps[-1], self.taps[:-1]
        return Result(message=_("Seat {seat}: chip taken back").format(seat=seat))

    def race_send(self, t: float) -> Result:
        """SEND once exactly the race's chips are given."""
        cu, rnd = self.racing(), self._round()
        if cu is None or rnd is None:
            return self.ctx.refuse(t, _("No chip race to send"))
        need = int(cu.get("to_give") or 0)
        if len(self.taps) != need:
            left = need - len(self.taps)
            return self.ctx.refuse(t, ngettext("Tap {n} more seat first",
                                               "Tap {n} more seats first", left).format(n=left))
        res = self.ctx.emit(t, "chip_race", {"round": rnd, "winners": list(self.taps)},
                            _("Chip race sent"))
        self.races_sent.add(rnd)
        self.taps = []
        return res

    def panel(self) -> BustPanel | None:
        """The race on the panel: seats with their cards, chips given in card order."""
        cu = self.racing()
        if cu is None:
            return None
        seats = self.ctx.plan_seats()
        cards = _seat_map(cu.get("deal_cards"))
        dealt = tuple((s, str(seats.get(s, {}).get("name", ""))) for s in sorted(cards)
                      if cards[s])
        order = tuple((s, " ".join(str(i + 1) for i, x in enumerate(self.taps) if x == s))
                      for s in dict.fromkeys(self.taps))
        need, chip = int(cu.get("to_give") or 0), int(cu.get("new_chip") or 0)
        prompt = (_(RACE_FULL).format(n=need) if len(self.taps) >= need else
                  _(RACE_NEXT if self.taps else RACE_PROMPT).format(
                      left=need - len(self.taps), chip=fmt().chips(chip)))
        limit = cu.get("max_each")
        full = {s for s in cards if limit is not None and self.taps.count(s) >= int(limit)}
        return BustPanel(dealt, order, None, False, len(self.taps) == need, prompt,
                         mode="race", ok_text=N_("SEND"), note=_(CARD_ORDER),
                         cards=tuple(sorted(cards.items())), blocked=tuple(sorted(full)),
                         can_undo=bool(self.taps))

    # ---------------------------------------------------------------- the walk-through
    def walk(self) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        """(title, rows) of the outcome to walk through, or ("", ()) when there is none."""
        cu, req = self._plan(), self.ctx.plan.get("chip_count") or {}
        if cu is None or cu.get("pending"):
            return "", ()
        gone = ", ".join(fmt().chips(int(c)) for c in req.get("removed") or ())
        chip = fmt().chips(int(cu.get("new_chip") or 0))
        title = ((_("COLOUR-UP: {chips} off, race for {chip}") if cu.get("new_chip") else
                  _("COLOUR-UP: {chips} off")) if gone else
                 _("COLOUR-UP: race for {chip}") if cu.get("new_chip") else
                 _("COLOUR-UP")).format(chips=gone, chip=chip)
        return title, tuple(colour_up_rows(cu))

    def done(self, t: float) -> Result:
        """DONE on the walk-through: back to the table."""
        rnd = self._round()
        if not self.ctx.plan.get("colour_up") or rnd is None:
            return self.ctx.refuse(t, _("No colour-up to finish"))
        self.seen.add(rnd)
        return Result(message=_("Colour-up done"))

    def to_dict(self) -> dict[str, Any]:
        return {"colour_ups_seen": sorted(self.seen), "races_sent": sorted(self.races_sent),
                "race_taps": list(self.taps), "race_round": self.taps_round}

    def restore(self, d: dict[str, Any]) -> None:
        self.seen = {int(r) for r in d.get("colour_ups_seen", ())}
        self.races_sent = {int(r) for r in d.get("races_sent", ())}
        self.taps = [int(s) for s in d.get("race_taps", ())]
        self.taps_round = d.get("race_round")


def _seat_map(d: Any) -> dict[int, int]:
    return {int(s): int(n) for s, n in (d or {}).items()}
