"""A table's own receipt printer: the seat card of every player the plan moves here.

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
        """Print the seat cards of the moves in `msg` not printed yet; their job ids."""
        event = msg.get("event")
        if not event:
            return []
        done: list[str] = list(self.store.get(PRINTED) or [])
        jobs = []
        assert self.cfg.printer is not None
        head = cards.Heading(event=event, title=msg.get("title") or event,
                             columns=self.cfg.printer.columns,
                             url=self.cfg.printer.url_for(event))
        for m in msg.get("moves_in") or []:
            key = (f"{event}:{m.get('player')}:{self.cfg.table}:{m.get('seat')}:"
                   f"{m.get('from_table')}:{m.get('from_seat')}")
            if key in done:
                continue
            why = f"moved from table {m.get('from_table')}" + (
                f" seat {m['from_seat']}" if m.get("from_seat") else "")
            jobs.append(self.spooler.submit(cards.seat_card(
                head, str(m.get("name") or m.get("player")), self.cfg.table,
                int(m.get("seat") or 0), now, why)))
            done.append(key)
        if jobs:
            self.store.put(PRINTED, done[-REMEMBER:])
        return jobs

    def close(self) -> None:
        self.spooler.close()
