"""The money and chips of an event: pool and payouts, knockouts and bounties, add-ons,
chip counts and colour-ups, the end of a day (bag-and-tag and the redraw), deals.

Mixed into Tournament (kiosk/core/tournament.py), whose state these methods read and
whose `_emit` they call. Every amount is an integer; every decision is an event, so a
replay gives the same money to the unit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from kiosk.core import chips as chipmath
from kiosk.core.bounties import knockout
from kiosk.core.commands import HandForHand, PayoutRules
from kiosk.core.payouts import (
    MoneyView,
    Pool,
    PrizeRules,
    parse_shares_csv,
    payout_table,
    pool,
    seats_won,
    split_ties,
)
from kiosk.core.registration import late_reg_open
from kiosk.core.state import BUSTED, IN_PLAY, Event, Player, Table
from kiosk.errors import RuleError

if TYPE_CHECKING:
    import random

    from kiosk.core.places import Bust
    from kiosk.rules.profile import Profile
    from kiosk.rules.structure import Structure

MAX_STACK = chipmath.MAX_STACK


class Money:
    """Handlers for the money and chip commands, reports and events."""

    if TYPE_CHECKING:   # what Tournament provides (a cycle mypy cannot follow otherwise)
        players: dict[str, Player]
        tables: dict[int, Table]
        groups: dict[tuple, list[Bust]]
        profile: Profile
        structure: Structure
        entries: int
        alive: int
        chips: int
        seats: int
        start_stack: int
        started: bool
        finished_at: float | None
        h4h_on: bool
        schedule_dirty: bool

        def _emit(self, kind: str, t: float, **fields: Any) -> Event: ...
        def _touch(self, table: int | None, other: int | None = None) -> None: ...
        def _rng(self, *what: object) -> random.Random: ...
        def _player(self, pid: Any) -> Player: ...
        def _seat_player(self, tab: Table, seat: Any) -> Player: ...
        def _seat_new(self, pid: str, t: float, reason: str) -> None: ...
        def _do_h4h(self, cmd: Any, t: float) -> None: ...
        def places(self) -> dict[str, int]: ...
        def period(self, t: float) -> int: ...
        def active_tables(self) -> list[Table]: ...

    def _init_money(self, created: Event) -> None:
        rules = created.get("money")
        if rules is None:   # events created before prize rules: the plain percent table
            rules = {"buy_in": created.get("buy_in", 0), "table": "percent",
                     "percent_paid": created.get("payout_percent", 15.0)}
        self.prize = PrizeRules.from_dict(rules)
        # the denominations in play; without them the core cannot tell what leaves at a
        # break, and colour-ups are left to the floor
        self.chip_set: tuple[int, ...] = tuple(sorted(created.get("chip_set") or ()))
        self.h4h_at_bubble: bool = bool(created.get("h4h_at_bubble"))
        self.addons = 0
        self.addon_players: set[str] = set()
        self.locked: list[int] | None = None
        self.knocked: dict[tuple[str, int], Event] = {}   # (player, entry) -> knockout
        self.head_extra: dict[tuple[str, int], int] = {}   # PKO: bounty added to a head
        self.bounty_cash: dict[str, int] = {}
        self.eliminated_by: dict[str, list[str]] = {}
        self.count_round: Any = None             # the open count_opened event
        self.n_rounds = 0
        self.counts: dict[int, dict[int, int]] = {}        # table -> seat -> stack (round)
        self.last_count: dict[str, int] = {}               # player -> last counted stack
        self.colour_ups: dict[int, Event] = {}             # table -> this round's colour-up
        self.chips_removed = 0
        self.day = 1
        self.day_over = False
        self.bags: dict[int, dict[str, int]] = {}           # day -> player -> bagged stack
        self.deal: dict[str, int] | None = None
        self.audit: list[Event] = []

    # ------------------------------------------------------------ the pool
    def money_pool(self) -> Pool:
        return pool(self.prize, self.entries, self.addons)

    def current_payouts(self) -> list[int]:
        """The payouts now (locked, or for the entries so far); computed once per change
        of the field, since every plan and summary asks."""
        if self.locked is not None:
            return self.locked
        key = (self.entries, self.addons, self.prize)
        cached = getattr(self, "_payouts_for", None)
        if cached is None or cached[0] != key:
            cached = self._payouts_for = (
                key, payout_table(self.prize, self.money_pool().prize_pool, self.entries))
        return cached[1]

    def money_view(self) -> MoneyView:
        p = self.money_pool()
        paid = self.current_payouts()
        alive = self.alive if self.started else self.entries
        running = self.started and self.finished_at is None
        return MoneyView(prize_pool=sum(paid) if self.locked is not None else p.prize_pool,
                         payouts=paid, places_paid=len(paid),
                         bubble=running and alive == len(paid) + 1,
                         in_the_money=self.started and alive <= len(paid),
                         bounty_pool=p.bounty_pool, locked=self.locked is not None,
                         pool=p.to_dict())

    def head(self, pid: str) -> int:
        """The bounty on a player's current entry (0 once paid, or in events without)."""
        key = self._entry(self.players[pid])
        if not self.prize.bounty or key in self.knocked:
            return 0
        return self.prize.bounty + self.head_extra.get(key, 0)

    @staticmethod
    def _entry(p: Player) -> tuple[str, int]:
        return (p.id, p.entries + p.rebuys)

    def prizes(self) -> dict[str, int]:
        """Prize of every player placed so far (ties share; an agreed deal replaces the
        places it covers)."""
        places = self.places()
        paid = self.current_payouts()
        out = split_ties(paid, places)
        if self.deal:
            out.update(self.deal)
        return {pid: v for pid, v in out.items() if v}

    def prize_for_place(self, place: int, tied: int = 1) -> int:
        paid = self.current_payouts()
        return sum(paid[place - 1: place - 1 + tied]) // tied

    # ------------------------------------------------------------ busts
    def _bust_extras(self, p: Player, t: float, eliminators: Any, rebuy: bool) -> list[str]:
        """Check a bust's eliminators and rebuy before anything is recorded; the
        eliminators' player ids."""
        seats = eliminators if isinstance(eliminators, list) else \
            [eliminators] if eliminators is not None else []
        if p.seat in seats:
            raise RuleError(f"{p.name} cannot eliminate himself")
        by = [self._seat_player(self.tables[p.table or 0], s).id for s in seats]
        if rebuy:
            self._check_rebuy(t)
        return by

    def _after_bust(self, p: Player, t: float, by: list[str], rebuy: bool,
                    rid: str | None) -> None:
        """Record who won the pot (and pay the bounty), then a rebuy in the same seat."""
        if by:
            self._knockout(p, by, t, rid)
        if rebuy:
            self._rebuy_here(p, t, rid)

    def _knockout(self, p: Player, by: list[str], t: float, rid: str | None) -> None:
        if p.id in by:
            raise RuleError(f"{p.name} cannot eliminate himself")
        if len(set(by)) != len(by):
            raise RuleError("an eliminator is named twice")
        for pid in by:
            if self.players[pid].status not in IN_PLAY:
                raise RuleError(f"{self.players[pid].name} is not in play")
        key = self._entry(p)
        if key in self.knocked:
            raise RuleError(f"{p.name}'s bounty is already paid")
        head = self.prize.bounty + self.head_extra.get(key, 0) if self.prize.bounty else 0
        awards = knockout(head, by, self.prize.bounty_mode or "fixed", self.prize.pko_percent)
        self._emit("knockout", t, player=p.id, table=p.table, entry=key[1], bounty=head,
                   eliminators=by, entries=[self._entry(self.players[e])[1] for e in by],
                   cash=[a.cash for a in awards], head=[a.head for a in awards], report=rid)

    def _on_knockout(self, ev: Event) -> None:
        self.knocked[(ev["player"], ev["entry"])] = ev
        self.eliminated_by[ev["player"]] = list(ev["eliminators"])
        for pid, n, cash, head in zip(ev["eliminators"], ev["entries"], ev["cash"], ev["head"],
                                      strict=True):
            self.bounty_cash[pid] = self.bounty_cash.get(pid, 0) + cash
            if head:
                self.head_extra[(pid, n)] = self.head_extra.get((pid, n), 0) + head
            self._touch(self.players[pid].table)

    def _reverse_knockout(self, p: Player, t: float, rid: str | None) -> None:
        """An undone bust takes its bounty back, unless it has since been passed on."""
        ev = self.knocked.get(self._entry(p))
        if ev is None:
            return
        for pid, n, head in zip(ev["eliminators"], ev["entries"], ev["head"], strict=True):
            passed_on = self._entry(self.players[pid]) != (pid, n) or (pid, n) in self.knocked
            if head and passed_on:   # PKO: that part of the bounty went on with his head
                raise RuleError(f"{self.players[pid].name} has been knocked out since; "
                                "the bounty cannot be taken back")
        self._emit("knockout_reversed", t, player=p.id, entry=ev["entry"], report=rid)

    def _on_knockout_reversed(self, ev: Event) -> None:
        old = self.knocked.pop((ev["player"], ev["entry"]))
        self.eliminated_by.pop(ev["player"], None)
        for pid, n, cash, head in zip(old["eliminators"], old["entries"], old["cash"],
                                      old["head"], strict=True):
            self.bounty_cash[pid] -= cash
            if head:
                self.head_extra[(pid, n)] -= head

    def _do_set_eliminator(self, cmd: Any, t: float) -> None:
        """The floor names who won the pot when the dealer skipped it."""
        p = self._player(cmd.get("player"))
        if p.status != BUSTED:
            raise RuleError(f"{p.name} is not out")
        by = cmd.get("eliminators")
        if not isinstance(by, list) or not by or not all(isinstance(x, str) for x in by):
            raise RuleError("eliminators must be a list of player ids")
        for pid in by:
            self._player(pid)
        self._knockout(p, by, t, None)
        self._emit("audited", t, action="set_eliminator", player=p.id, before=None,
                   after=by, by=cmd.get("by"))

    # ------------------------------------------------------------ buying chips
    def _rebuy_period_open(self, t: float) -> bool:
        e = self.profile.entries
        return e.rebuy and self.period(t) <= self.structure.index_of_level(e.rebuy_levels)

    def _check_rebuy(self, t: float) -> None:
        if not self.profile.entries.rebuy:
            raise RuleError("this profile has no rebuys")
        if not self._rebuy_period_open(t):
            raise RuleError(f"the rebuy period ended after level "
                            f"{self.profile.entries.rebuy_levels}")

    def _rebuy_here(self, p: Player, t: float, rid: str | None) -> None:
        """A rebuy declared at the bust (playing behind, TDA 27): same table, same seat."""
        table, seat = p.table or 0, p.seat or 0   # a bust leaves both as they were
        self._emit("rebuy", t, player=p.id, stack=self.start_stack, report=rid)
        tab = self.tables[table]
        if not tab.broken and seat not in tab.seat_of:
            self._emit("seated", t, player=p.id, table=table, seat=seat, reason="rebuy",
                       report=rid)
        else:
            self._seat_new(p.id, t, "rebuy")

    def _addon_window(self) -> tuple[int, int]:
        """Home rules: the add-on is sold at the end of the rebuy period, i.e. after the
        last rebuy level, through the next level of play (periods, exclusive-inclusive)."""
        last = self.structure.index_of_level(self.profile.entries.rebuy_levels)
        nxt = next((i for i in range(last + 1, len(self.structure.periods))
                    if not self.structure.periods[i].is_break), last)
        return last, nxt

    def _addon_open(self, t: float) -> bool:
        if not self.profile.entries.addon:
            return False
        last, nxt = self._addon_window()
        return last < self.period(t) <= nxt

    def _addon(self, p: Player, t: float, rid: str | None) -> None:
        if not self.profile.entries.addon:
            raise RuleError("this profile has no add-on")
        if p.status not in IN_PLAY:
            raise RuleError(f"{p.name} is not in play")
        if p.id in self.addon_players:
            raise RuleError(f"{p.name} has already taken the add-on")
        if not self._addon_open(t):
            raise RuleError("the add-on is sold only at the end of the rebuy period")
        self._emit("addon", t, player=p.id, table=p.table,
                   stack=self.start_stack * self.profile.entries.addon_stacks, report=rid)

    def _do_addon(self, cmd: Any, t: float) -> None:
        self._addon(self._player(cmd.get("player")), t, None)

    def _report_addon(self, tab: Table, d: dict, t: float, rid: str) -> None:
        p = self._seat_player(tab, d["seat"])
        if p.id != d["player"]:
            raise RuleError(f"table {tab.id} seat {d['seat']} holds {p.id}, not {d['player']}")
        self._addon(p, t, rid)

    def _on_addon(self, ev: Event) -> None:
        p = self.players[ev["player"]]
        p.chips_bought += ev["stack"]
        self.chips += ev["stack"]
        self.addons += 1
        self.addon_players.add(p.id)
        self.schedule_dirty = True

    # ------------------------------------------------------------ payouts
    def _money_tick(self, t: float) -> None:
        """Lock the payouts once nobody can buy chips any more (late registration,
        rebuys and add-ons over); start hand-for-hand at the bubble when asked to."""
        if self.locked is None and self.started and not self._buying_open(t):
            self._emit("payouts_locked", t, payouts=self.current_payouts(),
                       prize_pool=self.money_pool().prize_pool, by=None)

    def _buying_open(self, t: float) -> bool:
        period = self.period(t)
        return (late_reg_open(self.profile.late_reg, self.structure, period, self.started)
                or self._rebuy_period_open(t)
                or (self.profile.entries.addon and period <= self._addon_window()[1]))

    def _on_payouts_locked(self, ev: Event) -> None:
        self.locked = list(ev["payouts"])
        self.schedule_dirty = True

    def _do_lock_payouts(self, cmd: Any, t: float) -> None:
        if self.locked is not None:
            raise RuleError("the payouts are already locked")
        self._emit("payouts_locked", t, payouts=self.current_payouts(),
                   prize_pool=self.money_pool().prize_pool, by=cmd.get("by"))

    def _do_payout_rules(self, cmd: Any, t: float) -> None:
        """Choose the payout table (standard, percent, wta, or shares / CSV) and rounding."""
        if self.locked is not None:
            raise RuleError("the payouts are locked: late registration has closed")
        assert isinstance(cmd, PayoutRules)
        changes = cmd.changes()
        if cmd.csv is not None:
            changes["shares"] = list(parse_shares_csv(cmd.csv))
            changes["table"] = "shares"
        new = PrizeRules.from_dict({**self.prize.to_dict(), **changes})
        self._emit("prize_rules_set", t, rules=new.to_dict(), before=self.prize.to_dict(),
                   by=cmd.get("by"))

    def _on_prize_rules_set(self, ev: Event) -> None:
        self.prize = PrizeRules.from_dict(ev["rules"])
        self.schedule_dirty = True

    def _bubble_check(self, t: float) -> None:
        """Hand-for-hand from the bubble until the money (TDA RP-8), when the event asks."""
        if not self.h4h_at_bubble or self.profile.hand_for_hand is None \
                or self.finished_at is not None:
            return
        paid = len(self.current_payouts())
        if not self.h4h_on and self.alive == paid + 1:
            self._do_h4h(HandForHand(on=True), t)
        elif self.h4h_on and self.alive <= paid:
            self._do_h4h(HandForHand(on=False), t)

    def _satellite_done(self) -> bool:
        """A satellite ends when every seat is won: the players left all take one."""
        seats = seats_won(self.prize, self.current_payouts())
        return bool(seats) and 1 < self.alive <= seats

    # ------------------------------------------------------------ chip counts
    def _do_count_chips(self, cmd: Any, t: float) -> None:
        """Ask every table for its stacks (end of a level, or of the day)."""
        if self.count_round is not None and not self._count_complete():
            raise RuleError(f"chip count {self.count_round['round']} is still open")
        label = str(cmd.get("label") or f"level {self.structure.level_number(self.period(t))}")
        self._open_count(t, label, "count", [], 0, cmd.get("by"))

    def _open_count(self, t: float, label: str, purpose: str, removed: list[int],
                    new_chip: int, by: Any) -> None:
        self._emit("count_opened", t, round=self.n_rounds + 1, label=label, purpose=purpose,
                   removed=removed, new_chip=new_chip,
                   tables=[x.id for x in self.active_tables()], by=by)

    def _on_count_opened(self, ev: Event) -> None:
        self.n_rounds = ev["round"]
        self.count_round = ev   # reads like a dict (r["round"])
        self.counts = {}
        self.colour_ups = {}
        for tid in ev["tables"]:
            self._touch(tid)

    def _count_complete(self) -> bool:
        return all(x.id in self.counts for x in self.active_tables())

    def _report_chip_count(self, tab: Table, d: dict, t: float, rid: str) -> None:
        r = self.count_round
        asked = d.get("round")
        if r is None or (asked is not None and asked != r["round"]):
            raise RuleError(f"no chip count {asked or ''} is open".replace("  ", " "))
        raw = d["stacks"]
        if not isinstance(raw, dict):
            raise RuleError("stacks must map seat numbers to chips")
        try:
            stacks = {int(s): v for s, v in raw.items()}
        except ValueError:
            raise RuleError("stacks must map seat numbers to chips") from None
        bad = chipmath.check_stacks(stacks, tab.seats)
        bad += [f"seat {s} is empty" for s in sorted(set(stacks) - set(tab.seat_of))]
        bad += [f"seat {s} has no count" for s in sorted(set(tab.seat_of) - set(stacks))]
        bad += [f"seat {s}: {v:,} is more than the {self.chips:,} chips in play"
                for s, v in sorted(stacks.items()) if isinstance(v, int) and v > self.chips]
        if bad:
            raise RuleError(f"table {tab.id} count refused: {'; '.join(bad)}")
        players = {str(s): tab.seat_of[s] for s in sorted(stacks)}
        self._emit("chips_counted", t, table=tab.id, round=r["round"],
                   stacks={str(s): v for s, v in sorted(stacks.items())}, players=players,
                   report=rid, by=d.get("by"))
        if r["purpose"] == "colour_up" and r["removed"]:
            res = chipmath.colour_up(stacks, r["removed"], r["new_chip"], self.profile.chip_race,
                            self._rng("race", r["round"], tab.id))
            self._emit("coloured_up", t, table=tab.id, round=r["round"],
                       before={str(s): v for s, v in res.before.items()},
                       after={str(s): v for s, v in res.after.items()},
                       cards={str(s): c for s, c in res.cards.items()},
                       won={str(s): n for s, n in res.won.items()}, rescued=res.rescued,
                       removed=res.removed, new_chip=r["new_chip"], players=players,
                       report=rid)

    def _on_chips_counted(self, ev: Event) -> None:
        self.counts[ev["table"]] = {int(s): v for s, v in ev["stacks"].items()}
        for s, pid in ev["players"].items():
            self.last_count[pid] = ev["stacks"][s]
        self._touch(ev["table"])

    def _on_coloured_up(self, ev: Event) -> None:
        self.colour_ups[ev["table"]] = ev
        self.counts[ev["table"]] = {int(s): v for s, v in ev["after"].items()}
        for s, pid in ev["players"].items():
            self.last_count[pid] = ev["after"][s]
        self.chips -= ev["removed"]
        self.chips_removed += ev["removed"]
        self._touch(ev["table"])

    def _colour_up_tick(self, t: float) -> None:
        """At a break where a denomination leaves play, every table races it off."""
        period = self.period(t)
        if not self.chip_set or not self.structure.periods[period].is_break:
            return
        removed, new_chip = chipmath.leaving_at(self.chip_set, self.structure, period)
        label = f"colour-up at break {period}"
        if removed and (self.count_round is None or self.count_round["label"] != label):
            self._open_count(t, label, "colour_up", removed, new_chip, None)

    def reconciliation(self) -> chipmath.Reconciliation:
        smallest = self.count_round["new_chip"] if self.count_round and \
            self.count_round["purpose"] == "colour_up" else 1
        seated = {x.id: set(x.seat_of) for x in self.active_tables()}
        return chipmath.reconcile(self.chips, self.counts, seated, smallest)

    # ------------------------------------------------------------ end of day
    def _do_end_day(self, cmd: Any, t: float) -> None:
        """Stop play after the current hands and ask every table to count for the bags."""
        if self.day_over:
            raise RuleError(f"day {self.day} is already over")
        if not self.started or self.finished_at is not None:
            raise RuleError("no day of play is running")
        self._emit("day_ended", t, day=self.day, by=cmd.get("by"))
        self._open_count(t, f"bags day {self.day}", "bag", [], 0, cmd.get("by"))

    def _on_day_ended(self, ev: Event) -> None:
        self.day_over = True
        self.schedule_dirty = True
        for x in self.active_tables():
            self._touch(x.id)

    def _do_bag(self, cmd: Any, t: float) -> None:
        """Bag-and-tag: each player's counted stack goes into his bag, on record."""
        r = self.count_round
        if not self.day_over or r is None or r["purpose"] != "bag":
            raise RuleError("bag at the end of a day, after its count")
        missing = [x.id for x in self.active_tables() if x.id not in self.counts]
        if missing:
            raise RuleError(f"tables {', '.join(map(str, missing))} have not counted")
        rec = self.reconciliation()
        if rec.difference and not cmd.get("accept_difference"):
            raise RuleError(f"the count is {rec.difference:+,} chips off; recount the flagged "
                            "tables or accept the difference")
        bags = {}
        for tab in self.active_tables():
            for seat, pid in sorted(tab.seat_of.items()):
                bags[pid] = self.counts[tab.id][seat]
        self._emit("bagged", t, day=self.day, bags=bags, difference=rec.difference,
                   by=cmd.get("by"))

    def _on_bagged(self, ev: Event) -> None:
        self.bags[ev["day"]] = dict(ev["bags"])
        self.chips += ev["difference"]   # the bags are the chips in play from now on

    def _do_redraw(self, cmd: Any, t: float) -> None:
        """Start the next day: every bagged player gets a new random seat."""
        if not self.day_over or self.day not in self.bags:
            raise RuleError("the redraw starts a new day, after the bags are recorded")
        active = self.active_tables()
        if any(x.in_hand for x in active):
            raise RuleError("a table is still playing a hand")
        players = sorted(self.bags[self.day], key=lambda pid: pid)
        n_tables = max(1, math.ceil(len(players) / self.seats))
        keep = sorted(x.id for x in active)[:n_tables]
        rng = self._rng("redraw", self.day)
        rng.shuffle(players)
        spots = []
        for i, tid in enumerate(keep):
            size = len(players) // n_tables + (1 if i < len(players) % n_tables else 0)
            spots += [(tid, s) for s in sorted(rng.sample(range(1, self.seats + 1), size))]
        for x in active:
            for dst in list(x.pending_out):
                self._emit("move_cancelled", t, table=x.id, to_table=dst)
        for pid in sorted(self.bags[self.day]):
            self._emit("unseated", t, player=pid)
        for x in active:
            if x.id not in keep:
                self._emit("table_broken", t, table=x.id)
        self._emit("redrawn", t, day=self.day + 1, tables=keep, by=cmd.get("by"))
        for pid, (tid, seat) in zip(players, spots, strict=True):
            self._emit("seated", t, player=pid, table=tid, seat=seat, reason="redraw")

    def _on_redrawn(self, ev: Event) -> None:
        self.day = ev["day"]
        self.day_over = False
        self.count_round = None
        self.counts = {}
        for tid in ev["tables"]:
            tab = self.tables[tid]
            tab.redraw_button, tab.positions = True, None
            self._touch(tid)
        self.schedule_dirty = True

    # ------------------------------------------------------------ deals
    def _do_deal(self, cmd: Any, t: float) -> None:
        """Record a deal the players left agreed: their prizes replace the payouts of the
        places still to be decided; the sum must equal what those places pay."""
        amounts = cmd.get("amounts")
        if not isinstance(amounts, dict) or not amounts:
            raise RuleError("a deal needs amounts by player")
        alive = {p.id for p in self.players.values() if p.status in IN_PLAY}
        if set(amounts) != alive:
            raise RuleError("a deal must give an amount to every player left, and only them")
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in amounts.values()):
            raise RuleError("deal amounts must be whole amounts >= 0")
        left = sum(self.current_payouts()[: len(alive)])
        if sum(amounts.values()) != left:
            raise RuleError(f"the deal shares out {sum(amounts.values()):,}; the places left "
                            f"pay {left:,}")
        before = {pid: self.prize_for_place(i + 1) for i, pid in enumerate(sorted(alive))}
        self._emit("deal_agreed", t, amounts=dict(amounts), method=str(cmd.get("method", "")),
                   before=before, by=cmd.get("by"))

    def _on_deal_agreed(self, ev: Event) -> None:
        self.deal = dict(ev["amounts"])
        self.schedule_dirty = True

    def _on_audited(self, ev: Event) -> None:
        pass  # the audit trail is the event itself

    def remember_audit(self, ev: Event) -> None:
        """Every floor action and manual change, for the audit page (who, when, what)."""
        if ev.get("by"):
            self.audit.append(ev)
