"""The slips a card room hands out, built from plain facts (names, numbers, amounts), in
the language of the player each is for.

Kept free of the tournament's types so the director and a table kiosk build the very same
seat card: the director from its events, the table from its plan's `moves_in`. Every
label goes through the reader's catalogue (kiosk.printer.words); amounts, places and the
time printed are written as that reader's locale writes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.base.texts import M_, Msg
from kiosk.lang.active import N_
from kiosk.printer.raster import cells
from kiosk.printer.slip import Line, Slip, money, pair, rule, text
from kiosk.printer.words import Reader

REGISTRATION = N_("registration")


@dataclass(frozen=True)
class Heading:
    """Who prints: the room (or event) title on top of every slip, the event's name,
    its player page for the QR code, the paper width, and the default reader's
    language (the room's, or the table's), the room's time zone and currency."""

    event: str
    title: str
    columns: int = 42
    url: str = ""
    language: str = ""
    timezone: str = ""
    currency: str = ""

    def reader(self, language: str = "") -> Reader:
        """The reader of a slip: the player's own language, else this default."""
        return Reader(language or self.language, self.timezone, self.currency)


def moved_from(table: object, seat: object = None) -> Msg:
    """Why a seat card prints after a move, as each reader says it."""
    if seat:
        return M_("slip.moved_seat", "moved from table {table} seat {seat}", table=table,
                  seat=seat)
    return M_("slip.moved", "moved from table {table}", table=table)


def _head(h: Heading, r: Reader, label: str) -> list[Line]:
    return [*text(h.title, h.columns, "bold", "center"),
            *text(label, h.columns, "normal", "center"), rule()]


def _foot(h: Heading, r: Reader, t: float, qr: str = "") -> list[Line]:
    """The rule, a QR code to the player page captioned `qr` (when there is a page), the
    time printed."""
    lines = [rule()]
    if qr and h.url:
        lines += [*text(qr, h.columns, align="center"), Line(qr=h.url)]
    return [*lines, *text(r.fmt.stamp(t), h.columns, align="center")]


def seat_card(h: Heading, name: str, table: int, seat: int, t: float,
              why: Msg | str = REGISTRATION, language: str = "") -> Slip:
    """Where to sit: table and seat big enough to read at arm's length, the player's
    name, why this card (registration, re-entry, a move from T3 S5) and the QR code."""
    c, r = h.columns, h.reader(language)
    lines = [*_head(h, r, r._("SEAT CARD")), *text(name, c, "bold", "center"),
             *text(r._("TABLE {table}").format(table=table), c, "big", "center"),
             *text(r._("SEAT {seat}").format(seat=seat), c, "big", "center"),
             *text(r.render(why), c, align="center"),
             *_foot(h, r, t, r._("Your table, the clock and the prizes:"))]
    return Slip("seat", f"Seat card: {name} (T{table} S{seat})", lines, h.event, r.code)


def receipt(h: Heading, name: str, what: str, split: Sequence[tuple[str, int]],
            t: float, entry: int = 1, language: str = "") -> Slip:
    """A buy-in (re-entry, rebuy, add-on) receipt: what was paid and where it goes; `what`
    and the split's labels are English sources, said in the reader's language."""
    c, r = h.columns, h.reader(language)
    total = sum(amount for _label, amount in split)
    lines = [*_head(h, r, r._("RECEIPT")), *text(name, c, "bold"),
             *pair(r._(what), r._("entry {n}").format(n=entry), c), rule()]
    for label, amount in split:
        if amount:
            lines += pair(r._(label), r.fmt.money(amount), c)
    lines += [*pair(r._("Paid"), r.fmt.money(total), c, "bold"), *_foot(h, r, t)]
    return Slip("receipt", f"Receipt: {name}, {what.lower()} {money(total)}", lines, h.event,
                r.code)


def payout(h: Heading, name: str, t: float, place: int | None, prize: int,
           bounties: int = 0, deal: bool = False, language: str = "") -> Slip:
    """What the desk pays a player: place, prize, bounties won, and a line to sign."""
    c, r = h.columns, h.reader(language)
    lines = [*_head(h, r, r._("PAYOUT")), *text(name, c, "bold")]
    if place is not None:
        lines += pair(r._("Place"), r.fmt.ordinal(place), c)
    if deal:
        lines += text(r._("By the deal agreed at the final table"), c)
    lines += pair(r._("Prize"), r.fmt.money(prize), c)
    if bounties:
        lines += pair(r._("Bounties"), r.fmt.money(bounties), c)
    signed = r._("Signed:") + " "
    lines += [*pair(r._("To pay"), r.fmt.money(prize + bounties), c, "bold"), Line(),
              Line(text=signed + "_" * max(4, c - cells(signed))), *_foot(h, r, t)]
    label = f"place {place}" if place is not None else "deal"
    return Slip("payout", f"Payout: {name}, {label}, {money(prize + bounties)}", lines,
                h.event, r.code)


def results(h: Heading, rows: Sequence[tuple[int, str, int]], t: float,
            prize_pool: int, entries: int) -> Slip:
    """The results sheet (in the room's language): every placed player with the prize,
    winner first."""
    c, r = h.columns, h.reader()
    lines = [*_head(h, r, r._("RESULTS")), *pair(r._("Entries"), r.fmt.num(entries), c),
             *pair(r._("Prize pool"), r.fmt.money(prize_pool), c), rule()]
    for place, name, prize in rows:
        lines += pair(f"{place:>3}. {name}", r.fmt.money(prize) if prize else "", c)
    if not rows:
        lines += text(r._("No places yet"), c, align="center")
    lines += _foot(h, r, t, r._("Live results and prizes:"))
    return Slip("results", f"Results: {len(rows)} places", lines, h.event, r.code)
