"""The director's receipt printer: an observer of every commit that turns the events just
written into slips (seat cards, buy-in receipts, payout slips) and hands them to the
spooler's queue.

It runs after the events are on disk and never raises into the director: a printer that
is off, out of paper or unplugged costs a queued job, never a registration. An adapter of
the room's service: one of its outboxes (kiosk.director.centre.ports:Outbox).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

from kiosk.config.room import RoomConfig
from kiosk.core.event.results import results
from kiosk.core.model import events as ev_
from kiosk.core.model.events import Event
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.desk import Desk
from kiosk.director.centre.repository import Repository
from kiosk.printer import cards
from kiosk.printer.settings import PrinterConfig
from kiosk.printer.slip import Slip
from kiosk.printer.spooler import Spooler

log = logging.getLogger("kiosk.printer")
QUEUE_FILE = "printer-queue.db"
WHY = {"draw": "registration", "late": "registration", "reentry": "re-entry",
       "rebuy": "rebuy", "alternate": "alternate", "redraw": "redraw for the day",
       "final": "final table", "unbust": "seat given back by the floor"}
ENTRY = {"registered": "Buy-in", "reentered": "Re-entry", "rebuy": "Rebuy"}


def make_printer(config: RoomConfig, repo: Repository,
                 health: dict[str, str]) -> DeskPrinter | None:
    """The room's printer, its queue beside the log; None without `[printer]`."""
    printer: PrinterConfig | None = getattr(config, "printer", None)
    if printer is None:
        return None
    db = config.db
    queue = ":memory:" if db == ":memory:" else Path(db).parent / QUEUE_FILE
    return DeskPrinter(repo, Spooler(printer, queue), health)


class DeskPrinter:
    """Slips for the room's events; `results` prints an event's sheet on demand."""

    def __init__(self, repo: Repository, spooler: Spooler, health: dict[str, str]) -> None:
        self.repo = repo
        self.spooler = spooler
        self.health_lines = health           # the dashboard's, read on the loop thread
        self.loop: asyncio.AbstractEventLoop | None = None   # that loop, once it runs
        spooler.on_change = self._changed

    def _changed(self) -> None:
        """From the printing thread: the dashboard's health line says when the printer is
        not printing (set on the loop thread, where the dashboard reads it)."""
        loop = self.loop
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(self.health)
        else:
            self.health()

    def health(self) -> None:
        s = self.spooler
        if s.online is False:
            self.health_lines["printer"] = (f"not printing ({s.error}); "
                                            f"{s.jobs.waiting()} slips wait at /printer")
        else:
            self.health_lines.pop("printer", None)

    def opened(self, desk: Desk) -> None:
        """A desk held: nothing to print until its events are written."""

    def committed(self, batch: Batch) -> None:
        """The slips of every event the batch wrote, queued."""
        for name, events in batch.events.items():
            desk = self.repo.desks.get(name)
            if desk is None:
                continue
            for ev in events:
                try:
                    for slip in self.slips(desk, ev):
                        self.spooler.submit(slip)
                except Exception:   # a slip must never cost the room its commit
                    log.exception("%s: no slip for %s", name, ev.kind)

    def heading(self, desk: Desk) -> cards.Heading:
        c = self.spooler.config
        return cards.Heading(event=desk.name, title=desk.title, columns=c.columns,
                             url=c.url_for(desk.name))

    def slips(self, desk: Desk, ev: Event) -> Iterator[Slip]:
        """The slips one event of `desk` asks for (most ask for none)."""
        tour, h = desk.tour, self.heading(desk)
        if isinstance(ev, ev_.Seated) and not ev.same_seat:
            yield cards.seat_card(h, tour.players[ev.player].name, ev.table, ev.seat, ev.t,
                                  WHY.get(ev.reason, ev.reason))
        elif isinstance(ev, ev_.Moved):
            yield cards.seat_card(h, tour.players[ev.player].name, ev.to_table, ev.to_seat,
                                  ev.t, f"moved from table {ev.table}"
                                  + (f" seat {ev.seat}" if ev.seat else ""))
        elif isinstance(ev, ev_.Registered | ev_.Reentered | ev_.Rebuy | ev_.Addon):
            yield self.receipt(desk, ev)
        elif isinstance(ev, ev_.Busted) and not (tour.deal and ev.player in tour.deal):
            yield from self.payout(desk, ev.player, ev.t)
        elif isinstance(ev, ev_.Finished) and not (tour.deal and ev.winner in tour.deal):
            yield from self.payout(desk, ev.winner, ev.t)
        elif isinstance(ev, ev_.DealAgreed):
            for pid, amount in sorted(ev.amounts.items(), key=lambda kv: -kv[1]):
                yield cards.payout(h, tour.players[pid].name, ev.t, None, amount,
                                   tour.bounty_cash.get(pid, 0), deal=True)

    def receipt(self, desk: Desk, ev: ev_.Registered | ev_.Reentered | ev_.Rebuy | ev_.Addon
                ) -> Slip:
        tour, rules = desk.tour, desk.tour.prize
        p = tour.players[ev.player]
        if isinstance(ev, ev_.Addon):
            return cards.receipt(self.heading(desk), p.name, "Add-on",
                                 [("Prize pool", rules.addon_prize)], ev.t, p.entries)
        split = [("Prize pool", rules.buy_in), ("Bounty", rules.bounty), ("Fee", rules.fee),
                 ("Staff", rules.staff)]
        return cards.receipt(self.heading(desk), p.name, ENTRY[ev.kind], split, ev.t,
                             p.entries)

    def payout(self, desk: Desk, pid: str, t: float) -> Iterator[Slip]:
        """A payout slip when the player leaves with money: a prize or bounties won."""
        tour = desk.tour
        prize = tour.prizes().get(pid, 0)
        bounties = tour.bounty_cash.get(pid, 0)
        if prize or bounties:
            yield cards.payout(self.heading(desk), tour.players[pid].name, t,
                               tour.places().get(pid), prize, bounties)

    def results(self, event: str | None = None) -> int:
        """Print the results sheet of `event` (the room's only one by default); job id."""
        desk = self.repo.desk(event)
        tour = desk.tour
        rows = [(r["place"], r["name"], r["prize"]) for r in results(tour) if r["place"]]
        pool = tour.money_pool().prize_pool if tour.locked is None else sum(tour.locked)
        return self.spooler.submit(cards.results(self.heading(desk), rows,
                                                 self.repo.clock(), pool, tour.entries))

    def close(self) -> None:
        self.spooler.close()
