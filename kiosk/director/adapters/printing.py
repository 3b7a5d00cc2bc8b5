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

from kiosk.base.texts import Mn_, Msg
from kiosk.config.room import RoomConfig
from kiosk.core.event.results import results
from kiosk.core.model import events as ev_
from kiosk.core.model.events import Event
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.changed import Changed
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.centre.repository import Repository
from kiosk.lang.active import N_
from kiosk.printer import cards
from kiosk.printer.settings import PrinterConfig
from kiosk.printer.slip import Slip
from kiosk.printer.spooler import Spooler

log = logging.getLogger("kiosk.printer")
QUEUE_FILE = "printer-queue.db"
# why a seat card prints, and what a receipt is for: said in each player's language
WHY = {"draw": N_("registration"), "late": N_("registration"), "reentry": N_("re-entry"),
       "rebuy": N_("rebuy"), "alternate": N_("alternate"),
       "redraw": N_("redraw for the day"), "final": N_("final table"),
       "unbust": N_("seat given back by the floor")}
ENTRY = {"registered": N_("Buy-in"), "reentered": N_("Re-entry"), "rebuy": N_("Rebuy")}
SPLIT = (N_("Prize pool"), N_("Bounty"), N_("Fee"), N_("Staff"))


def make_printer(config: RoomConfig, repo: Repository,
                 health: dict[str, Msg | str]) -> DeskPrinter | None:
    """The room's printer, its queue beside the log; None without `[printer]`."""
    printer: PrinterConfig | None = getattr(config, "printer", None)
    if printer is None:
        return None
    db = config.db
    queue = ":memory:" if db == ":memory:" else Path(db).parent / QUEUE_FILE
    return DeskPrinter(repo, Spooler(printer, queue), health)


class DeskPrinter:
    """Slips for the room's events; `results` prints an event's sheet on demand."""

    def __init__(self, repo: Repository, spooler: Spooler, health: dict[str, Msg | str]) -> None:
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
            self.health_lines["printer"] = Mn_(
                "health.not_printing", "not printing ({error}); {n} slip waits at /printer",
                "not printing ({error}); {n} slips wait at /printer", s.jobs.waiting(),
                error=s.error or "")
        else:
            self.health_lines.pop("printer", None)

    def opened(self, desk: EventAggregate) -> None:
        """A desk held: nothing to print until its events are written."""

    def committed(self, batch: Batch, changed: Changed) -> None:
        """The slips of every event the batch wrote, queued."""
        for name, events in batch.events.items():
            desk = self.repo.events.get(name)
            if desk is None:
                continue
            for ev in events:
                try:
                    for slip in self.slips(desk, ev):
                        self.spooler.submit(slip)
                except Exception:   # a slip must never cost the room its commit
                    log.exception("%s: no slip for %s", name, ev.kind)
        if self.spooler.online is False:
            self.health()            # the waiting count the dashboard shows, kept current

    def heading(self, desk: EventAggregate) -> cards.Heading:
        """The desk's slips: the room's default language (a player's own where
        registration kept one), its time zone and currency."""
        c, room = self.spooler.config, self.repo.config
        return cards.Heading(event=desk.name, title=desk.title, columns=c.columns,
                             url=c.url_for(desk.name),
                             language=str(getattr(room, "language", "") or ""),
                             timezone=str(getattr(room, "timezone", "") or ""),
                             currency=str(getattr(room, "currency", "") or ""))

    def slips(self, desk: EventAggregate, ev: Event) -> Iterator[Slip]:
        """The slips one event of `desk` asks for (most ask for none), each in the
        language of the player it is for."""
        tour, h = desk.tour, self.heading(desk)
        if isinstance(ev, ev_.Seated) and not ev.same_seat:
            p = tour.players[ev.player]
            yield cards.seat_card(h, p.name, ev.table, ev.seat, ev.t,
                                  WHY.get(ev.reason, ev.reason), p.language)
        elif isinstance(ev, ev_.Moved):
            p = tour.players[ev.player]
            yield cards.seat_card(h, p.name, ev.to_table, ev.to_seat, ev.t,
                                  cards.moved_from(ev.table, ev.seat), p.language)
        elif isinstance(ev, ev_.Registered | ev_.Reentered | ev_.Rebuy | ev_.Addon):
            yield self.receipt(desk, ev)
        elif isinstance(ev, ev_.Busted) and not (tour.deal and ev.player in tour.deal):
            yield from self.payout(desk, ev.player, ev.t)
        elif isinstance(ev, ev_.Finished) and not (tour.deal and ev.winner in tour.deal):
            yield from self.payout(desk, ev.winner, ev.t)
        elif isinstance(ev, ev_.DealAgreed):
            for pid, amount in sorted(ev.amounts.items(), key=lambda kv: -kv[1]):
                p = tour.players[pid]
                yield cards.payout(h, p.name, ev.t, None, amount,
                                   tour.bounty_cash.get(pid, 0), deal=True,
                                   language=p.language)

    def receipt(self, desk: EventAggregate,
                ev: ev_.Registered | ev_.Reentered | ev_.Rebuy | ev_.Addon) -> Slip:
        tour, rules = desk.tour, desk.tour.prize
        p = tour.players[ev.player]
        if isinstance(ev, ev_.Addon):
            return cards.receipt(self.heading(desk), p.name, N_("Add-on"),
                                 [(SPLIT[0], rules.addon_prize)], ev.t, p.entries, p.language)
        split = list(zip(SPLIT, (rules.buy_in, rules.bounty, rules.fee, rules.staff),
                         strict=True))
        return cards.receipt(self.heading(desk), p.name, ENTRY[ev.kind], split, ev.t,
                             p.entries, p.language)

    def payout(self, desk: EventAggregate, pid: str, t: float) -> Iterator[Slip]:
        """A payout slip when the player leaves with money: a prize or bounties won."""
        tour = desk.tour
        prize = tour.prizes().get(pid, 0)
        bounties = tour.bounty_cash.get(pid, 0)
        if prize or bounties:
            p = tour.players[pid]
            yield cards.payout(self.heading(desk), p.name, t, tour.places().get(pid), prize,
                               bounties, language=p.language)

    def results(self, event: str | None = None) -> int:
        """Print the results sheet of `event` (the room's only one by default); job id."""
        desk = self.repo.event(event)
        tour = desk.tour
        rows = [(r["place"], r["name"], r["prize"]) for r in results(tour) if r["place"]]
        pool = tour.money_pool().prize_pool if tour.locked is None else sum(tour.locked)
        return self.spooler.submit(cards.results(self.heading(desk), rows,
                                                 self.repo.clock(), pool, tour.entries))

    def close(self) -> None:
        self.spooler.close()
