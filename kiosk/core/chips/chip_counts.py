"""Chip counts, colour-ups and the end of a day (bag-and-tag and the redraw).

Owns the open count round, the counted stacks, colour-up races and the bags of each day;
the arithmetic is in kiosk.core.chips.chips.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_, Msg, in_turn
from kiosk.core.chips import chips as chipmath
from kiosk.core.chips import races
from kiosk.core.model import commands as cmd_
from kiosk.core.model import events as ev_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.state import Event, Table

if TYPE_CHECKING:
    from kiosk.core.model.host import (
        BalancingView,
        BustsView,
        LevelsView,
        RegistryView,
        SeatingView,
    )
    from kiosk.rules.profile import Profile


@dataclass(eq=False)
class ChipCounts(Component):
    """Counts of the stacks, colour-ups and the bags of each day."""

    # the denominations in play; without them the core cannot tell what leaves at a
    # break, and colour-ups are left to the floor
    chip_set: tuple[int, ...] = field(init=False)
    count_round: Any = None             # the open count_opened event
    n_rounds: int = 0
    counts: dict[int, dict[int, int]] = field(default_factory=dict)  # table -> seat -> stack
    n_counted: dict[int, int] = field(default_factory=dict)   # table -> counts taken this round
    last_count: dict[str, int] = field(default_factory=dict)  # player -> last counted stack
    colour_ups: dict[int, Event] = field(default_factory=dict)  # table -> round's colour-up
    # chip races (kiosk/core/chips/races.py): dealt by the dealer, or drawn here
    chip_race_mode: str = field(init=False)
    count_players: dict[int, dict[str, str]] = field(default_factory=dict)  # table -> seat -> pid
    chips_removed: int = 0
    colour_at: int = -1                 # the break of the last colour-up opened
    day: int = 1
    day_over: bool = False
    bags: dict[int, dict[str, int]] = field(default_factory=dict)  # day -> player -> bagged stack

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    levels: LevelsView = peer()
    busts: BustsView = peer()
    balancing: BalancingView = peer()

    def __post_init__(self) -> None:
        self.chip_set = tuple(sorted(self.t.config.get("chip_set") or ()))
        self.chip_race_mode = self.t.config.get("chip_race") or "draw"

    def _do_count_chips(self, cmd: cmd_.CountChips, t: float) -> None:
        """Ask every table for its stacks (end of a level, or of the day)."""
        if self.count_round is not None and not self._count_complete():
            raise RuleError(M_("count.still_open", "chip count {round} is still open",
                               round=self.count_round['round']))
        level = self.t.structure.level_number(self.levels.period(t))
        label = str(cmd.get("label") or f"level {level}")
        self._open_count(t, label, "count", [], 0, cmd.get("by"))

    def _open_count(self, t: float, label: str, purpose: str, removed: list[int],
                    new_chip: int, by: Any) -> None:
        self.t.emit("count_opened", t, round=self.n_rounds + 1, label=label, purpose=purpose,
                    removed=removed, new_chip=new_chip,
                    tables=[x.id for x in self.seating.active_tables()], by=by)

    def _on_count_opened(self, ev: ev_.CountOpened) -> None:
        if ev.purpose == "colour_up":   # folded in order: the clock reads as it did
            self.colour_at = self.levels.period(ev.t)
        self.n_rounds = ev["round"]
        self.count_round = ev   # reads like a dict (r["round"])
        self.counts = {}
        self.n_counted = {}
        self.colour_ups = {}
        self.changes.touch_all(ev["tables"])

    def _count_complete(self) -> bool:
        """Every table the round asked that still plays has counted; a table opened
        since was never asked (its plan shows no count) and must not hold it open."""
        asked = set(self.count_round["tables"])
        return all(x.id in self.counts for x in self.seating.active_tables()
                   if x.id in asked)

    def _report_chip_count(self, tab: Table, d: dict, t: float, rid: str) -> None:
        r = self.count_round
        asked = d.get("round")
        if r is None or (asked is not None and asked != r["round"]):
            raise RuleError(M_("count.round_not_open", "no chip count {round} is open",
                               round=asked) if asked else
                            M_("count.not_open", "no chip count is open"))
        stacks = _stacks(d["stacks"])
        bad = _count_problems(tab, stacks, self.registry.chips)
        if bad:
            raise RuleError(M_("count.refused", "table {table} count refused: {why}",
                               table=tab.id, why=in_turn(bad)))
        players = {str(s): tab.seat_of[s] for s in sorted(stacks)}
        self.t.emit("chips_counted", t, table=tab.id, round=r["round"],
                    stacks={str(s): v for s, v in sorted(stacks.items())}, players=players,
                    report=rid, by=d.get("by"))
        races.after_count(self, tab, stacks, players, t, rid)

    def _report_chip_race(self, tab: Table, d: Any, t: float, rid: str) -> None:
        """The dealer's race: the seats whose cards won (kiosk/core/chips/races.py)."""
        races.take_entry(self, tab, d, t, rid)

    # what the races read and call (races.RaceHost)
    @property
    def profile(self) -> Profile:
        return self.t.profile

    def emit(self, kind: str, t: float, **fields: Any) -> Event:
        return self.t.emit(kind, t, **fields)

    def rng(self, *what: object) -> random.Random:
        return self.t.rng(*what)

    def _on_chips_counted(self, ev: ev_.ChipsCounted) -> None:
        self.counts[ev["table"]] = {int(s): v for s, v in ev["stacks"].items()}
        self.n_counted[ev.table] = self.n_counted.get(ev.table, 0) + 1
        self.count_players[ev["table"]] = dict(ev["players"])
        for s, pid in ev["players"].items():
            self.last_count[pid] = ev["stacks"][s]
        self.changes.touch(ev["table"])

    def _on_coloured_up(self, ev: ev_.ColouredUp) -> None:
        self.colour_ups[ev["table"]] = ev
        self.counts[ev["table"]] = {int(s): v for s, v in ev["after"].items()}
        for s, pid in ev["players"].items():
            self.last_count[pid] = ev["after"][s]
        self.registry.chips_left_play(ev["removed"])
        self.chips_removed += ev["removed"]
        self.changes.touch(ev["table"])

    def _do_set_chip_race(self, cmd: cmd_.SetChipRace, t: float) -> None:
        """A house setting, changed between races: not while a colour-up still has a
        race to run (those tables would race one way, the rest the other)."""
        if cmd.chip_race == self.chip_race_mode:
            raise RuleError(M_("race.already_run_by", "the chip races are already run by the "
                               "{chip_race}", chip_race=cmd.chip_race))
        owing = self.unraced()
        if owing:
            raise RuleError(Mn_(
                "race.owing_mode", "the {count} still has races to run at table {tables}; "
                "change who runs them once those are in", "the {count} still has races to "
                "run at tables {tables}; change who runs them once those are in", len(owing),
                count=self._label(), tables=", ".join(map(str, owing))))
        self.t.emit("chip_race_set", t, chip_race=cmd.chip_race, before=self.chip_race_mode,
                    source=cmd.source)

    def _on_chip_race_set(self, ev: ev_.ChipRaceSet) -> None:
        self.chip_race_mode = ev.chip_race

    def _do_set_chip_set(self, cmd: cmd_.SetChipSet, t: float) -> None:
        """A house setting, changed between colour-ups: the chips on the tables stay what
        they are, so the new set must agree on the smallest of them (a denomination
        leaves play only by a race at a break, and none raced off comes back)."""
        new = tuple(sorted(set(cmd.chip_set)))
        if new == self.chip_set:
            raise RuleError(M_("chips.set_unchanged", "the chip set is already {chips}",
                               chips=list(new)))
        owing = self.unraced()
        if owing:
            raise RuleError(Mn_(
                "race.owing_chips", "the {count} still has races to run at table {tables}; "
                "change the chips once those are in", "the {count} still has races to run "
                "at tables {tables}; change the chips once those are in", len(owing),
                count=self._label(), tables=", ".join(map(str, owing))))
        if self.chip_set and new:
            now, then = (chipmath.smallest_in_play(c, self.t.structure, self.colour_at)
                         for c in (self.chip_set, new))
            if now != then:
                raise RuleError(M_(
                    "chips.smallest", "the smallest chip on the tables is {now:chips}; with "
                    "{chips} it would be {then:chips}, and chips change only in a colour-up "
                    "at a break", now=now, chips=list(new), then=then))
        self.t.emit("chip_set_set", t, chip_set=list(new), before=list(self.chip_set),
                    source=cmd.source)

    def _on_chip_set_set(self, ev: ev_.ChipSetSet) -> None:
        self.chip_set = tuple(ev.chip_set)

    def _label(self) -> Msg | str:
        """The open count's label as a reader reads it."""
        label = str((self.count_round or {}).get("label", ""))
        return count_label(label) or label

    def unraced(self) -> list[int]:
        """The tables in play whose race of the open colour-up has no outcome yet (counted
        or not)."""
        r = self.count_round
        if r is None or r["purpose"] != "colour_up" or not r["removed"]:
            return []
        return sorted(x.id for x in self.seating.active_tables()
                      if x.id in r["tables"] and x.id not in self.colour_ups)

    def colour_up_tick(self, t: float) -> None:
        """At a break where a denomination leaves play, every table races it off; not once
        the day is over (its tables count for the bags, and the colour-up comes with the
        next day's play)."""
        period = self.levels.period(t)
        if not self.chip_set or self.day_over or not self.t.structure.periods[period].is_break:
            return
        removed, new_chip = chipmath.leaving_at(self.chip_set, self.t.structure, period)
        label = f"colour-up at break {period}"
        if removed and (self.count_round is None or self.count_round["label"] != label):
            self._open_count(t, label, "colour_up", removed, new_chip, None)

    def reconciliation(self) -> chipmath.Reconciliation:
        smallest = self.count_round["new_chip"] if self.count_round and \
            self.count_round["purpose"] == "colour_up" else 1
        seated = {x.id: set(x.seat_of) for x in self.seating.active_tables()}
        racing = [n for n in self.counts if races.pending(self, n) is not None]
        return chipmath.reconcile(self.registry.chips, self.counts, seated, smallest,
                                  racing)

    def _do_end_day(self, cmd: cmd_.EndDay, t: float) -> None:
        """Stop play after the current hands and ask every table to count for the bags."""
        if self.day_over:
            raise RuleError(M_("day.already_over", "day {day} is already over", day=self.day))
        if not self.levels.started or self.busts.finished_at is not None:
            raise RuleError(M_("day.none_running", "no day of play is running"))
        self.t.emit("day_ended", t, day=self.day, by=cmd.get("by"))
        self._open_count(t, f"bags day {self.day}", "bag", [], 0, cmd.get("by"))

    def _on_day_ended(self, ev: ev_.DayEnded) -> None:
        self.day_over = True
        self.changes.schedule_changed()
        self.changes.touch_all(x.id for x in self.seating.active_tables())

    def _do_bag(self, cmd: cmd_.Bag, t: float) -> None:
        """Bag-and-tag: each player's counted stack goes into his bag, on record."""
        r = self.count_round
        if not self.day_over or r is None or r["purpose"] != "bag":
            raise RuleError(M_("bag.after_count", "bag at the end of a day, after its count"))
        missing = [x.id for x in self.seating.active_tables() if x.id not in self.counts]
        if missing:
            raise RuleError(Mn_("bag.not_counted", "table {tables} has not counted",
                                "tables {tables} have not counted", len(missing),
                                tables=", ".join(map(str, missing))))
        stale: list[Msg | str] = [
            M_("bag.stale_table", "table {table} (seats {seats})", table=x.id,
               seats=", ".join(map(str, seats)))
            for x in self.seating.active_tables() if (seats := self.changed_seats(x))]
        if stale:
            raise RuleError(M_("bag.seating_changed", "the seating changed after the count; "
                               "recount {tables}", tables=in_turn(stale)))
        rec = self.reconciliation()
        if rec.difference and not cmd.get("accept_difference"):
            raise RuleError(M_("bag.count_over", "the count is +{chips:chips} chips off; "
                               "recount the flagged tables or accept the difference",
                               chips=rec.difference) if rec.difference > 0 else
                            M_("bag.count_under", "the count is -{chips:chips} chips off; "
                               "recount the flagged tables or accept the difference",
                               chips=-rec.difference))
        bags = {}
        for tab in self.seating.active_tables():
            for seat, pid in sorted(tab.seat_of.items()):
                bags[pid] = self.counts[tab.id][seat]
        self.t.emit("bagged", t, day=self.day, bags=bags, difference=rec.difference,
                    by=cmd.get("by"))

    def changed_seats(self, tab: Table) -> list[int]:
        """Seats whose player is not the one the table's count names (a floor move or an
        undone bust since): that count cannot say what each player bags."""
        counted = self.count_players.get(tab.id, {})
        seats = set(tab.seat_of) | set(self.counts.get(tab.id, ()))
        return sorted(s for s in seats if tab.seat_of.get(s) != counted.get(str(s)))

    def _on_bagged(self, ev: ev_.Bagged) -> None:
        self.bags[ev["day"]] = dict(ev["bags"])
        self.registry.chips_recounted(ev["difference"])

    def _do_redraw(self, cmd: cmd_.Redraw, t: float) -> None:
        """Start the next day: every bagged player gets a new random seat."""
        if not self.day_over or self.day not in self.bags:
            raise RuleError(M_("redraw.after_bags", "the redraw starts a new day, after the bags "
                               "are recorded"))
        active = self.seating.active_tables()
        if any(x.in_hand for x in active):
            raise RuleError(M_("redraw.hand_on", "a table is still playing a hand"))
        players = sorted(self.bags[self.day], key=lambda pid: pid)
        n_tables = max(1, math.ceil(len(players) / self.t.seats))
        keep = sorted(x.id for x in active)[:n_tables]
        rng = self.t.rng("redraw", self.day)
        rng.shuffle(players)
        spots = []
        for i, tid in enumerate(keep):
            size = len(players) // n_tables + (1 if i < len(players) % n_tables else 0)
            spots += [(tid, s) for s in sorted(rng.sample(range(1, self.t.seats + 1), size))]
        self.balancing.cancel_orders(t, active)
        for pid in sorted(self.bags[self.day]):
            self.t.emit("unseated", t, player=pid)
        for x in active:
            if x.id not in keep:
                self.t.emit("table_broken", t, table=x.id)
        self.t.emit("redrawn", t, day=self.day + 1, tables=keep, by=cmd.get("by"))
        for pid, (tid, seat) in zip(players, spots, strict=True):
            self.t.emit("seated", t, player=pid, table=tid, seat=seat, reason="redraw")

    def _on_redrawn(self, ev: ev_.Redrawn) -> None:
        self.day = ev["day"]
        self.day_over = False
        self.count_round = None
        self.counts = {}
        self.balancing.redrawn()
        for tid in ev["tables"]:
            self.seating.seated_afresh(self.seating.tables[tid])
            self.changes.touch(tid)
        self.changes.schedule_changed()

    # the table reports this part decides (each handler takes the report's data)
    REPORTS: ClassVar[dict[type, Callable[..., None]]] = {
        cmd_.ChipCountReport: _report_chip_count,
        cmd_.ChipRaceReport: _report_chip_race,
    }


def _stacks(raw: Any) -> dict[int, Any]:
    """A count's stacks by seat number; RuleError when they are not a seat -> chips map."""
    if not isinstance(raw, dict):
        raise RuleError(M_("count.stacks_shape", "stacks must map seat numbers to chips"))
    try:
        return {int(s): v for s, v in raw.items()}
    except ValueError:
        raise RuleError(M_("count.stacks_shape", "stacks must map seat numbers to chips")) from None


def _count_problems(tab: Table, stacks: dict[int, Any], in_play: int) -> list[Msg | str]:
    """Why a table's count cannot be right: empty seats counted, seats missing, stacks
    larger than every chip in play."""
    bad: list[Msg | str] = list(chipmath.check_stacks(stacks, tab.seats))
    bad += [M_("count.counted_empty", "seat {seat} is empty", seat=s)
            for s in sorted(set(stacks) - set(tab.seat_of))]
    bad += [M_("count.no_count", "seat {seat} has no count", seat=s)
            for s in sorted(set(tab.seat_of) - set(stacks))]
    bad += [M_("count.over_play", "seat {seat}: {stack:chips} is more than the "
               "{in_play:chips} chips in play", seat=s, stack=v, in_play=in_play)
            for s, v in sorted(stacks.items()) if isinstance(v, int) and v > in_play]
    return bad


_LEVEL = re.compile(r"^level (\d{1,3})$")
_BAGS = re.compile(r"^bags day (\d{1,3})$")
_COLOUR = re.compile(r"^colour-up at break (\d{1,3})$")


def count_label(label: str) -> Msg | None:
    """The label of a count the director named itself, as a message key (a label the
    floor typed is a person's words: shown as written)."""
    if found := _LEVEL.match(label):
        return M_("count.label_level", "level {level}", level=int(found.group(1)))
    if found := _BAGS.match(label):
        return M_("count.label_bags", "bags day {day}", day=int(found.group(1)))
    if found := _COLOUR.match(label):
        return M_("count.label_colour_up", "colour-up at break {period}",
                  period=int(found.group(1)))
    return None
