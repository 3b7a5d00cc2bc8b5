"""Moves and arrivals: a breaking table's list, the final table's arrivals, card
check-ins (TDA 6: a player at the wrong seat is told), and a tap for a player without
a card."""

from __future__ import annotations

from typing import Any

from kiosk.base.texts import Msg
from kiosk.lang.active import N_, _, render
from kiosk.table.context import TableContext
from kiosk.table.result import Result
from kiosk.table.view import MoverView

MOVERS_PER_PAGE = 10   # a whole table (the most a plan lists) on one page at 800x480
MESSAGE_S = 6.0        # how long a check-in result stays on screen
ASKING_BADGE = N_("Badge: asking the director…")
ASKING_PIN = N_("PIN: asking the director…")


class MovesFlow:
    """The mover list's page and visibility, and the last check-in's text."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self.page = 0
        self.per_page = MOVERS_PER_PAGE
        self.hidden = False
        self.checkin_text = ""
        self.checkin_at = 0.0

    def confirm_arrival(self, t: float, seat: int) -> Result:
        """A moved player without a card sits down: the dealer taps the arriving seat."""
        ctx = self.ctx
        who = ctx.plan_seats().get(seat, {})
        if not self.arriving(seat):
            return ctx.refuse(t, _("Seat {seat} is not waiting for a player").format(seat=seat))
        ctx.local.checked_in[seat] = str(who.get("player", ""))
        name = str(who.get("name", "")) or _("player")
        return ctx.emit(t, "present", {"seat": seat},
                        _("Seat {seat}: {name} arrived").format(seat=seat, name=name))

    def arriving(self, seat: int) -> bool:
        return (self.ctx.plan_seats().get(seat, {}).get("status") == "arriving"
                and seat not in self.ctx.occupied())

    def card(self, t: float, card: str) -> Result:
        """A check-in card read at this table."""
        ctx = self.ctx
        card = card.strip().upper()
        if r := ctx.debounced(f"card:{card}", t, window=3.0):
            return r
        for seat, who in ctx.plan_seats().items():
            if str(who.get("card", "")).upper() == card:
                return self._checkin(t, card, seat, str(who.get("name", "")))
        found = ctx.find_card(card)
        if not found:   # no player's card: the director says whether it is a dealer's badge
            self.checkin_text, self.checkin_at = _(ASKING_BADGE), t
            return Result(message=self.checkin_text, dealer={"badge": card})
        event, (table, seat, name) = found
        where = {"event": ctx.event_title(event or ""), "table": table, "seat": seat,
                 "name": name}
        if event != ctx.event:     # another event's player (or this table is free)
            text = (_("{name}: {event} table {table} seat {seat}") if name else
                    _("{event} table {table} seat {seat}")).format(**where)
            return self._check_text(t, text if ctx.free else
                                    _("Other event — {where}").format(where=text),
                                    error=not ctx.free)
        if int(table) != ctx.table:
            return self._check_text(t, (_("Wrong seat — table {table} seat {seat} ({name})")
                                        if name else
                                        _("Wrong seat — table {table} seat {seat}"))
                                    .format(**where), error=True)
        # the directory says here, the plan (sent at once with every move, where the
        # directory may lag in a big room) seats nobody with that card: moved or out
        return self._check_text(t, (_("{name}: not seated here now — ask the floor") if name
                                    else _("This card: not seated here now — ask the floor"))
                                .format(name=name), error=True)

    def _checkin(self, t: float, card: str, seat: int, name: str) -> Result:
        who = self.ctx.plan_seats().get(seat, {})
        if who.get("status") == "arriving" and who.get("player"):
            self.ctx.local.checked_in[seat] = str(who["player"])
        self.checkin_text = (_("Seat {seat}: welcome {name}") if name else
                             _("Seat {seat}: welcome")).format(seat=seat, name=name)
        self.checkin_at = t
        return self.ctx.emit(t, "checkin", {"card": card, "seat": seat}, self.checkin_text)

    def _check_text(self, t: float, text: str, error: bool) -> Result:
        self.checkin_text, self.checkin_at = text, t
        return self.ctx.refuse(t, text) if error else Result(message=text)

    def dealer_pin(self, t: float, dealer: str, pin: str) -> Result:
        """A dealer typed a name and PIN: for the director to check, never kept here."""
        if not (pin.isdigit() and 4 <= len(pin) <= 8) or not dealer.strip():
            return self._check_text(t, _("A PIN is 4 to 8 digits"), error=True)
        self.checkin_text, self.checkin_at = _(ASKING_PIN), t
        return Result(message=self.checkin_text, dealer={"dealer": dealer.strip(), "pin": pin})

    def dealer_answer(self, t: float, text: str, ok: bool,
                      msg: Msg | dict[str, Any] | None = None,
                      language: str | None = None) -> Result:
        """The director's answer to a badge or a PIN, shown like a check-in: its message
        key in the language of the dealer who badged (the roster's), else this kiosk's;
        without a key, the director's words (an older director's, in the room's
        language)."""
        return self._check_text(t, render(msg, text, language) if msg else text,
                                error=not ok)

    def checkin(self, t: float) -> str:
        """The last check-in result while it is fresh."""
        return self.checkin_text if t - self.checkin_at < MESSAGE_S else ""

    def page_step(self, t: float, step: int) -> Result:
        """PREV / NEXT on a mover list longer than one page."""
        self.page = max(0, self.page + step)
        return Result()

    def hide(self, t: float) -> Result:
        """The final table's dealer goes back to the table; arrivals stay as seat marks."""
        self.hidden = True
        return Result()

    # ---------------------------------------------------------------- what is shown
    def moving_out(self) -> bool:
        plan = self.ctx.plan
        return bool(plan.get("moves_out")) and bool(
            plan.get("broken") or plan.get("breaking") or plan.get("final_pending"))

    def movers(self) -> tuple[str, tuple[MoverView, ...]]:
        """The full-screen list: everyone leaving a breaking table, or the final table's
        arrivals. Ordinary balancing moves stay a banner."""
        plan = self.ctx.plan
        if plan.get("moves_out") and (plan.get("broken") or plan.get("breaking")):
            return self._leaving(plan["moves_out"])
        ins = plan.get("moves_in") or []
        if plan.get("final_table") and ins and not self.hidden:
            rows = self._arriving(ins)
            if not all(r.arrived for r in rows):
                return _("FINAL TABLE: tap arrivals"), rows
        return "", ()

    def _leaving(self, out: list[dict[str, Any]]) -> tuple[str, tuple[MoverView, ...]]:
        final_table = (self.ctx.schedule or {}).get("final_table")
        final = final_table and all(m.get("to_table") == final_table for m in out)
        title = (_("FINAL TABLE: go to table {table}").format(table=out[0].get("to_table"))
                 if final else _("TABLE BREAKING: players move"))
        return title, tuple(
            MoverView(_name(m), _("seat {seat}").format(seat=m.get("seat")),
                      _("TABLE {table}  SEAT {seat}").format(table=m.get("to_table"),
                                                            seat=m.get("to_seat")))
            for m in sorted(out, key=_seat))

    def _arriving(self, ins: list[dict[str, Any]]) -> tuple[MoverView, ...]:
        occupied = self.ctx.occupied()
        return tuple(
            MoverView(_name(m), _("T{table} s{seat}").format(table=m.get("from_table"),
                                                             seat=m.get("from_seat")),
                      _("SEAT {seat}").format(seat=m.get("seat")), _seat(m),
                      m.get("seat") in occupied)
            for m in sorted(ins, key=_seat))

    def page_of(self, movers: tuple[MoverView, ...]) -> tuple[tuple[MoverView, ...], int, int]:
        """(rows on the shown page, page, pages)."""
        per = self.per_page
        pages = max(1, -(-len(movers) // per))
        page = min(self.page, pages - 1)
        return movers[page * per:(page + 1) * per], page, pages

    def moves(self) -> tuple[str, ...]:
        return tuple(_("Seat {seat}: go to table {table} seat {to_seat}").format(
            seat=m.get("seat"), table=m.get("to_table"), to_seat=m.get("to_seat"))
            for m in self.ctx.plan.get("moves_out", []))

    def arrivals(self) -> tuple[str, ...]:
        occupied = self.ctx.occupied()
        return tuple(_("Seat {seat}: arriving from T{table}").format(
            seat=m.get("seat"), table=m.get("from_table"))
            for m in self.ctx.plan.get("moves_in", []) if m.get("seat") not in occupied)


def _name(m: dict[str, Any]) -> str:
    return str(m.get("name") or m.get("player", ""))


def _seat(m: dict[str, Any]) -> int:
    return int(m.get("seat") or 0)
