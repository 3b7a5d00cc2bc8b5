"""A table's own receipt printer: the seat card of every player the plan moves here, and,
when the room asks for it (the plan's `slips`), the payout slip of a player who busts
here with money to collect, so the dealer hands it over and the player goes to the desk.

The plan lists the players on their way to this table (`moves_in`) until they arrive, and
it is published again at every change, so each move is printed once: the moves already
printed are remembered in the table's state store and survive a restart. Printing goes
through the same on-disk queue as the desk's, so a printer that is off or out of paper
never holds up the dealer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.config.files import TableConfig
from kiosk.printer import cards
from kiosk.printer.spooler import Spooler
from kiosk.table.outbox import Outbox

PRINTED = "printed_moves"
PAID = "printed_payouts"
REMEMBER = 200           # moves remembered (far more than a plan ever lists)


class TablePrinter:
    def __init__(self, cfg: TableConfig, spooler: Spooler, store: Outbox) -> None:
        self.cfg = cfg
        self.spooler = spooler
        self.store = store

    @classmethod
    def of(cls, cfg: TableConfig, store: Outbox) -> TablePrinter | None:
        """The table's printer, or None without `[printer]` in table.toml."""
        if cfg.printer is None:
            return None
        queue = Path(cfg.state_dir) / f"table-{cfg.table}-printer.db"
        return cls(cfg, Spooler(cfg.printer, queue), store)

    def plan(self, msg: dict[str, Any], now: float) -> list[int]:
        """Print the seat cards and payout slips of `msg` not printed yet; their job ids."""
        event = msg.get("event")
        if not event:
            return []
        assert self.cfg.printer is not None
        head = cards.Heading(event=event, title=msg.get("title") or event,
                             columns=self.cfg.printer.columns,
                             url=self.cfg.printer.url_for(event),
                             language=str(msg.get("language") or ""))   # the table's
        jobs = self._seat_cards(head, msg, now)
        if msg.get("slips"):
            jobs += self._payouts(head, msg, now)
        return jobs

    def _payouts(self, head: cards.Heading, msg: dict[str, Any], now: float) -> list[int]:
        """The payout slip of each player out here on this hand with a prize or bounties
        won, once (the desk prints its own copy from the event log)."""
        done: list[str] = list(self.store.get(PAID) or [])
        jobs = []
        for b in msg.get("busts") or []:
            prize, bounties = int(b.get("prize") or 0), int(b.get("bounty_won") or 0)
            key = f"{head.event}:{b.get('player')}:{msg.get('hand')}"
            if not (prize or bounties) or key in done:
                continue
            jobs.append(self.spooler.submit(cards.payout(
                head, str(b.get("name") or b.get("player")), now, b.get("place"), prize,
                bounties, language=str(b.get("language") or ""))))
            done.append(key)
        if jobs:
            self.store.put(PAID, done[-REMEMBER:])
        return jobs

    def _seat_cards(self, head: cards.Heading, msg: dict[str, Any], now: float) -> list[int]:
        event = head.event
        done: list[str] = list(self.store.get(PRINTED) or [])
        jobs = []
        for m in msg.get("moves_in") or []:
            key = (f"{event}:{m.get('player')}:{self.cfg.table}:{m.get('seat')}:"
                   f"{m.get('from_table')}:{m.get('from_seat')}")
            if key in done:
                continue
            jobs.append(self.spooler.submit(cards.seat_card(
                head, str(m.get("name") or m.get("player")), self.cfg.table,
                int(m.get("seat") or 0), now, cards.moved_from(m.get("from_table"),
                                                               m.get("from_seat")),
                str(m.get("language") or ""))))
            done.append(key)
        if jobs:
            self.store.put(PRINTED, done[-REMEMBER:])
        return jobs

    def close(self) -> None:
        self.spooler.close()
