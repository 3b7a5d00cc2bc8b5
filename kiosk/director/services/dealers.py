"""The dealers' rotation as the director runs it: the roadmap (kiosk.core.dealers) told what
only the director sees, and the badge and PIN checked here, never at a table.

- Every write: the tables the room assigned or freed in the batch open or close in the
  roadmap in the same transaction, so the strings re-form as tables break and open.
- `tick`: an event's break holds the push clock of its tables, and its end lets it go;
  under a profile that holds pushes before a level change (RP-7) each level's last
  moments are logged as a hold, during which no push is taken at its tables.
- `badge` and `pin`: a dealer at a table. The badge is looked up by its salted hash and the
  PIN checked against the dealer's argon2 hash; neither is ever logged, published or kept.
  Five wrong PINs lock the dealer out until the floor clears it. A badge or PIN at the
  wrong table is refused with the table the dealer is due at; at the right one the push
  waits for the hand's end, then the down closes and the next opens.

Every answer is a message key (kiosk.base.texts), rendered by the kiosk in its reader's
language; beside it the answer keeps `text` in the room's default language, for a table
still on the previous release.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_, Msg, as_msg
from kiosk.config import dealer_roster
from kiosk.config import dealers as dc
from kiosk.config.room import load_director_config
from kiosk.core.calc.clock import level_ends_at
from kiosk.core.dealers import board
from kiosk.core.dealers import commands as dd
from kiosk.core.dealers.roadmap import Roadmap
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as rev
from kiosk.director.centre.batch import Batch
from kiosk.director.centre.room_aggregate import ROOM_STREAM
from kiosk.director.centre.room_service import RoomService

log = logging.getLogger("kiosk.director")
EARLY = 120.0     # a badge this long before the push is taken; earlier, the dealer waits


@dataclass
class Answer:
    """What the table's screen says after a badge or a PIN: a message key (or, for a
    refusal the roadmap gave in words, those words)."""

    ok: bool
    msg: Msg | str
    dealer: str = ""
    where: dict[str, Any] | None = None    # the outgoing dealer's next: board.where

    @property
    def text(self) -> str:
        """The answer in English (the log's, and the tests')."""
        return str(self.msg)


def where_msg(where: dict[str, Any]) -> Msg:
    """Where a dealer goes next (board.where) as a message key, for the kiosk's reader."""
    status, table = where.get("status"), where.get("table")
    if status in ("dealing", "relief") and table is not None:
        return M_("dealer.to_table", "Table {table}", table=table)
    if status == "break":
        return M_("dealer.break_until", "Break until {until:time}", until=where["until"])
    if status == "out":
        return M_("dealer.not_in", "Not clocked in")
    return M_("dealer.wait_floor", "Wait for the floor")


def refused(exc: RuleError) -> Msg | str:
    """A roadmap's refusal: its key when it has one, else its words."""
    return as_msg(getattr(exc, "msg", None)) or str(exc)


class Dealers:
    """The director's side of the roadmap: every change goes through the room's service."""

    def __init__(self, service: RoomService) -> None:
        self.service = service
        self.repo = service.repo
        cfg = service.config.dealers
        self.config = cfg if cfg is not None else dc.DealersConfig(dc.Rotation())

    def edit_roster(self, action: str, name: str, badge: str | None = None,
                    pin: str | None = None) -> Msg:
        """Add or remove a dealer in the room's file (hashes only), then read the roster
        again; what was done, in words. KioskError when refused (nothing changed)."""
        source = getattr(self.service.config, "source", None)
        if not source:
            raise RuleError(M_("roster.no_file", "this room has no room.toml to keep its "
                               "dealers in"))
        path = Path(source)
        if badge is not None and action != "remove":
            self._badge_free(badge)
        if action == "remove":
            done = M_("roster.removed", "removed {name}", name=dealer_roster.remove(path, name))
        elif dealer_roster.add(path, name, badge, pin):
            done = M_("roster.changed", "changed {name}", name=name)
        else:
            done = M_("roster.added", "added {name}", name=name)
        cfg = load_director_config(path).dealers
        if cfg is not None:
            self.config = cfg
        return done

    def hook(self) -> None:
        """Mirror the room's tables in every write (when the room has dealers), and
        refuse a player's card that is a dealer's badge."""
        self.service.before_write.append(self.settle)
        self.service.card_checks.append(self.refuse_badge)

    def refuse_badge(self, card: str) -> None:
        """A player's card that is a dealer's badge is refused: the table would take the
        player for the dealer. Compared by its salted hash (badges are kept only so)."""
        if any(d.badge for d in self.config.roster) and self.config.find_badge(card):
            raise RuleError(M_("card.is_badge", "this card is a dealer's badge: give the "
                               "player another card"))

    def _badge_free(self, badge: str) -> None:
        """A badge that is a player's card (the room's or an event's) is refused."""
        card = badge.strip()
        holders = [self.repo.room.people.by_card] + \
            [desk.tour.by_card for desk in self.repo.events.values()]
        for cards in holders:
            owner = next((pid for c, pid in cards.items() if c.strip() == card), None)
            if owner is not None:
                raise RuleError(M_("badge.is_card", "this badge is player {player}'s card: "
                                   "give the dealer another badge", player=owner))

    @property
    def road(self) -> Roadmap:
        return self.repo.room.roadmap

    @property
    def on(self) -> bool:
        """The room runs a rotation: it has a roster, or someone clocked in."""
        return bool(self.config.roster) or bool(self.road.dealers)

    # ---------------------------------------------------------------- in every write
    def settle(self, batch: Batch) -> None:
        if not self.on or not self.service.config.pool:
            return
        room = self.repo.room
        for n, tb in sorted(self.road.tables.items()):   # a final table keeps its dealers
            if n in room.assigned and self._final(tb.event, n) != tb.final:
                self._room(batch, dd.MarkFinal(table=n, final=not tb.final))
        touched = any(isinstance(ev, rev.TableAssigned | rev.TableFreed)
                      for ev in batch.pending(ROOM_STREAM))
        if not touched and set(room.assigned) == set(self.road.tables):
            return
        for n in sorted(set(self.road.tables) - set(room.assigned)):
            self._room(batch, dd.CloseDealTable(table=n))
        for n in sorted(set(room.assigned) - set(self.road.tables)):
            event = room.assigned[n]
            self._room(batch, dd.OpenDealTable(table=n, event=event,
                                               final=self._final(event, n)))

    def _final(self, event: str, table: int) -> bool:
        desk = self.repo.events.get(event)
        return desk is not None and desk.tour.final.table == table

    def _room(self, batch: Batch, cmd: rc.RoomCommand) -> None:
        """One mirroring step in the batch; a refusal is a bug logged, never the batch's."""
        try:
            self.service.tx.room_only(cmd, batch)
        except RuleError as exc:
            log.error("dealers: %s refused while mirroring the room: %s", cmd.kind, exc)

    # ---------------------------------------------------------------- the clock's beat
    def tick(self) -> None:
        """Hold or let go the push clock of each event as its break starts or ends (a
        failure is counted, never the clock's beat stopped)."""
        if not self.on:
            return
        try:
            self._hold_breaks()
        except Exception as exc:
            self.service.tx.internal("the dealers' push clock", exc)

    def _hold_breaks(self) -> None:
        t = self.service.now()
        for event in sorted({tb.event for tb in self.road.tables.values()}):
            desk = self.repo.events.get(event)
            if desk is None or not desk.tour.started:
                continue
            tour = desk.tour
            reading = tour.clock.read(tour.structure, t)
            held = reading.paused or tour.levels.in_break(t)
            if held != (event in self.road.held):
                self.act(dd.HoldClock(event=event, held=held))
            hold = tour.profile.dealing.push_hold_seconds
            ends = level_ends_at(tour.clock, tour.structure, t) if hold else None
            if ends is not None and self.road.push_holds.get(event) != (ends - hold, ends):
                self.act(dd.HoldPushes(event=event, start=ends - hold, until=ends))

    def act(self, cmd: rc.RoomCommand, user: str | None = None) -> list[Any]:
        """A dealers' command (kiosk.core.dealers.commands), declared, through the room; a
        push carries the table's hand count and the period of its event's clock when the
        push began (when it fell due, the kiosk calling it then), as the director has
        them, whatever the sender said of the period."""
        if isinstance(cmd, dd.Push):
            cmd = self._with_table_state(cmd)
        return self.service.room_act(cmd, user)

    def _with_table_state(self, cmd: dd.Push) -> dd.Push:
        event = self.repo.table_event(cmd.table)
        desk = self.repo.events.get(event) if event is not None else None
        state = desk.tour.seating.tables.get(cmd.table) if desk is not None else None
        if desk is None or state is None or not desk.tour.started:
            return msgspec.structs.replace(cmd, period=None)
        now = self.service.now()
        tb = self.road.tables.get(cmd.table)
        began = min(now, tb.push_at) if tb is not None and tb.push_at is not None else now
        return msgspec.structs.replace(cmd, hand=state.hand if cmd.hand is None else cmd.hand,
                                       period=desk.tour.levels.period(began))

    # ---------------------------------------------------------------- at a table
    def badge(self, table: int, badge: str) -> Answer:
        """A dealer's badge read at `table`; never a player's card (the roster's hashes
        are the only badges, and the room refuses a player card that is one)."""
        spec = self.config.find_badge(badge)
        if spec is None:
            return Answer(False, self._player_seat(table, badge)
                          or M_("dealer.unknown_card", "Unknown card — ask the floor"))
        return self._arrive(table, spec.name)

    def _player_seat(self, table: int, card: str) -> Msg | None:
        """Where the player holding `card` sits now: a card the table's seating directory
        did not know (it lags the plans in a big room; kiosk.director.mqtt.publisher)."""
        want = card.strip().upper()
        for desk in self.repo.events.values():
            pid = next((p for c, p in desk.tour.by_card.items()
                        if c.strip().upper() == want), None)
            p = desk.tour.players.get(pid) if pid is not None else None
            if p is not None and p.table is not None and p.status in ("seated", "moving"):
                here = self.repo.table_event(table) == desk.name
                if here and p.table == table:   # this table's plan is on its way to it
                    return M_("card.seat_here", "{name}: seat {seat} here — scan the card "
                              "again", name=p.name, seat=p.seat)
                if here:
                    return M_("card.wrong_seat", "Wrong seat — table {table} seat {seat} "
                              "({name})", table=p.table, seat=p.seat, name=p.name)
                return M_("card.wrong_event", "Wrong seat — {event} table {table} seat "
                          "{seat} ({name})", event=desk.title, table=p.table, seat=p.seat,
                          name=p.name)
        return None

    def pin(self, table: int, dealer: str, pin: str) -> Answer:
        """A dealer typed a PIN at `table`: checked against the dealer's hash only."""
        spec = self.config.dealer(dealer)
        if spec is None or not spec.pin:
            return Answer(False, M_("pin.none", "{dealer} has no PIN: badge in, or ask the "
                                    "floor", dealer=dealer))
        if self.road.locked(dealer):
            return Answer(False, M_("pin.locked", "{dealer} is locked out after five wrong "
                                    "PINs: the floor clears it", dealer=dealer))
        if not dc.pin_ok(spec.pin, pin):
            if dealer in self.road.dealers and self.road.dealers[dealer].status != "out":
                self.act(dd.PinFailure(dealer=dealer, table=table))
            left = 5 - (self.road.dealers[dealer].pin_fails if dealer in self.road.dealers
                        else 0)
            return Answer(False, Mn_("pin.wrong", "Wrong PIN: {n} try left",
                                     "Wrong PIN: {n} tries left", left) if left > 0 else
                          M_("pin.wrong_locked", "Wrong PIN: locked out, the floor clears it"))
        return self._arrive(table, dealer)

    def _arrive(self, table: int, name: str) -> Answer:
        """A dealer proven at `table`: clocked in, back from break, or the push."""
        road = self.road
        d = road.dealers.get(name)
        try:
            arrived = d is None or d.status == "out" or (
                d.status == "break" and self.service.now() >= d.until)
            if d is None or d.status == "out":
                self.act(dd.ClockIn(dealer=name, at=table, by=f"table {table}"))
            elif arrived:
                self.act(dd.BackFromBreak(dealer=name))
            return self._take(table, name, arrived)
        except RuleError as exc:
            return Answer(False, refused(exc), name)

    def _take(self, table: int, name: str, arrived: bool) -> Answer:
        """At the table the dealer is due at, the push; a dealer just in and due at
        another table is told where to go."""
        road = self.road
        tb = road.tables.get(table)
        due = road.incoming(table, self.service.now()) == name or \
            (tb is not None and tb.dealer is None)
        if tb is None or (arrived and not due and tb.dealer != name):
            next_stop = board.where(road, name)
            return Answer(True, M_("dealer.is_in", "{dealer} is in: {where}", dealer=name,
                                   where=where_msg(next_stop)), name, next_stop)
        if tb.dealer == name:
            return Answer(True, M_("dealer.deals", "{dealer} deals table {table}",
                                   dealer=name, table=table), name)
        gone = tb.dealer
        now = self.service.now()
        if gone and due and tb.push_at is not None and now < tb.push_at - EARLY:
            return Answer(arrived, M_("dealer.too_early", "{dealer}: table {table}'s push is "
                                      "at {at:time}; badge again then", dealer=name,
                                      table=table, at=tb.push_at), name)
        event = self.repo.events.get(tb.event)
        state = event.tour.seating.tables.get(table) if event is not None else None
        self.act(dd.Push(table=table, dealer=name, in_hand=bool(state and state.in_hand)))
        where = board.where(road, gone) if gone else None
        return Answer(True, M_("dealer.takes", "{dealer} takes table {table}", dealer=name,
                               table=table), name, where)

    # ---------------------------------------------------------------- reading
    def board(self, hand_s: float = 150.0) -> dict[str, Any]:
        """The floor's board, with the roster and where each dealer is (names only)."""
        out = board.board(self.road, self.service.now(), hand_s)
        out["roster"] = [d.name for d in self.config.roster]
        out["dealers"] = {n: d.status for n, d in sorted(self.road.dealers.items())}
        out["tz"] = self.tz
        return out

    def public(self) -> dict[str, Any]:
        return {**board.public(self.road, self.service.now()), "tz": self.tz}

    @property
    def tz(self) -> str:
        """The time zone the pages show times of day in (the room's, else UTC)."""
        return getattr(self.service.config, "timezone", "") or "UTC"

    def where(self, dealer: str) -> dict[str, Any]:
        """A dealer's phone page: where they go next; a name neither on the roster nor
        clocked in is no dealer of this room."""
        known = [d.name for d in self.config.roster] + list(self.road.dealers)
        name = next((n for n in known if n.casefold() == dealer.strip().casefold()), None)
        if name is None:
            return {"dealer": dealer, "status": "unknown", "text": "No such dealer"}
        return board.where(self.road, name, t=self.service.now())
