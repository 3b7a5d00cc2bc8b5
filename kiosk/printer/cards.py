"""The slips a card room hands out, built from plain facts (names, numbers, amounts).

Kept free of the tournament's types so the director and a table kiosk build the very same
seat card: the director from its events, the table from its plan's `moves_in`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.printer.slip import Line, Slip, money, pair, rule, text


@dataclass(frozen=True)
class Heading:
    """Who prints: the room (or event) title on top of every slip, the event's name,
    its player page for the QR code, and the paper width."""

    event: str
    title: str
    columns: int = 42
    url: str = ""


def _stamp(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def _head(h: Heading, label: str) -> list[Line]:
    return [*text(h.title, h.columns, "bold", "center"),
            *text(label, h.columns, "normal", "center"), rule()]


def _foot(h: Heading, t: float, qr: str = "") -> list[Line]:
    """The rule, a QR code to the player page captioned `qr` (when there is a page), the
    time printed."""
    lines = [rule()]
    if qr and h.url:
        lines += [*text(qr, h.columns, align="center"), Line(qr=h.url)]
    return [*lines, *text(_stamp(t), h.columns, align="center")]


def seat_card(h: Heading, name: str, table: int, seat: int, t: float,
              why: str = "registration") -> Slip:
    """Where to sit: table and seat big enough to read at arm's length, the player's
    name, why this card (registration, re-entry, a move from T3 S5) and the QR code."""
    c = h.columns
    lines = [*_head(h, "SEAT CARD"), *text(name, c, "bold", "center"),
             Line(text=f"TABLE {table}", style="big", align="center"),
             Line(text=f"SEAT {seat}", style="big", align="center"),
             *text(why, c, align="center"),
             *_foot(h, t, "Your table, the clock and the prizes:")]
    return Slip("seat", f"Seat card: {name} (T{table} S{seat})", lines, h.event)


def receipt(h: Heading, name: str, what: str, split: Sequence[tuple[str, int]],
            t: float, entry: int = 1) -> Slip:
    """A buy-in (re-entry, rebuy, add-on) receipt: what was paid and where it goes."""
    c = h.columns
    total = sum(amount for _label, amount in split)
    lines = [*_head(h, "RECEIPT"), *text(name, c, "bold"),
             *pair(what, f"entry {entry}", c), rule()]
    for label, amount in split:
        if amount:
            lines += pair(label, money(amount), c)
    lines += [*pair("Paid", money(total), c, "bold"), *_foot(h, t)]
    return Slip("receipt", f"Receipt: {name}, {what.lower()} {money(total)}", lines, h.event)


def payout(h: Heading, name: str, t: float, place: int | None, prize: int,
           bounties: int = 0, deal: bool = False) -> Slip:
    """What the desk pays a player: place, prize, bounties won, and a line to sign."""
    c = h.columns
    lines = [*_head(h, "PAYOUT"), *text(name, c, "bold")]
    if place is not None:
        lines += pair("Place", _ordinal(place), c)
    if deal:
        lines += text("By the deal agreed at the final table", c)
    lines += pair("Prize", money(prize), c)
    if bounties:
        lines += pair("Bounties", money(bounties), c)
    lines += [*pair("To pay", money(prize + bounties), c, "bold"), Line(),
              Line(text="Signed: " + "_" * (c - 8)), *_foot(h, t)]
    label = f"place {place}" if place is not None else "deal"
    return Slip("payout", f"Payout: {name}, {label}, {money(prize + bounties)}", lines,
                h.event)


def results(h: Heading, rows: Sequence[tuple[int, str, int]], t: float,
            prize_pool: int, entries: int) -> Slip:
    """The results sheet: every placed player with the prize, winner first."""
    c = h.columns
    lines = [*_head(h, "RESULTS"), *pair("Entries", str(entries), c),
             *pair("Prize pool", money(prize_pool), c), rule()]
    for place, name, prize in rows:
        lines += pair(f"{place:>3}. {name}", money(prize) if prize else "", c)
    if not rows:
        lines += text("No places yet", c, align="center")
    lines += _foot(h, t, "Live results and prizes:")
    return Slip("results", f"Results: {len(rows)} places", lines, h.event)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
