"""The shot clock (TDA RP-19): where it runs, and each player's time bank.

Owns where the floor applies the shot clock and the time-bank cards each player has
handed in. The countdown itself runs at the tables, which know whose turn it is; the
director keeps what outlives a hand. A player's bank is the player's, kept by player and
entry, so it moves with the player when balancing or a break moves them, and a re-entry
holds what a fresh entrant holds. Cards are given event-wide: `bank_cards` to start
with, as many more at the start of each level of `bank_levels` the event reaches and of
each day of `bank_days` (derived from the clock and the day, so a replay gives the same
banks); each card handed in is a table's report, logged once (report ids de-duplicate a
re-send, after an outage or a director restart).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Msg
from kiosk.core.model import commands as cmd_
from kiosk.core.model import stall_events as st_
from kiosk.core.model.component import Component, peer
from kiosk.core.model.report_data import ShotClockOutData, TimeBankData
from kiosk.core.model.state import Player, Table
from kiosk.rules.structure import Structure

if TYPE_CHECKING:
    from kiosk.core.model.host import ChipCountsView, LevelsView, RegistryView, SeatingView


def event_level(structure: Structure, period: int) -> int:
    """The level number of `period`, or of the last level before it in a break."""
    for i in range(period, -1, -1):
        n = structure.level_number(i)
        if n is not None:
            return n
    return 1


@dataclass(eq=False)
class ShotClock(Component):
    """Where the shot clock runs, and the time-bank cards each player handed in."""

    applies: st_.Applies = "off"
    from_level: int = 1
    used: dict[str, tuple[int, int]] = field(default_factory=dict)  # player -> (entry, cards)

    registry: RegistryView = peer()
    seating: SeatingView = peer()
    levels: LevelsView = peer()
    chipcount: ChipCountsView = peer()

    def __post_init__(self) -> None:
        spec = self.t.config.shot_clock
        if spec is not None:
            self.applies, self.from_level = spec.applies, spec.from_level

    @property
    def spec(self) -> st_.ShotClockSpec | None:
        """The event's shot clock as its config set it (None: the event has none)."""
        return self.t.config.shot_clock

    # ---------------------------------------------------------------- read
    def level(self) -> int:
        """The event's level: the clock's (a structure counted in hands keeps it at the
        lowest level any table plays)."""
        return event_level(self.t.structure, self.levels.clock.period)

    def granted(self) -> int:
        """Cards each entry has been given so far."""
        spec = self.spec
        if spec is None or not spec.bank_cards:
            return 0
        level, day = self.level(), self.chipcount.day
        grants = 1 + sum(1 for n in spec.bank_levels if n <= level) \
            + sum(1 for d in spec.bank_days if d <= day)
        return spec.bank_cards * grants

    def cards_used(self, p: Player) -> int:
        """Cards `p` handed in since this entry began."""
        entry, n = self.used.get(p.id, (p.entries, 0))
        return n if entry == p.entries else 0

    def cards_left(self, p: Player) -> int:
        return max(0, self.granted() - self.cards_used(p))

    def applies_at(self, tab: Table, period: int, final_table: int | None) -> bool:
        """Whether the shot clock runs at `tab` when it deals at `period`."""
        if self.spec is None or tab.broken:
            return False
        if self.applies == "event":
            return True
        if self.applies == "final":
            return final_table == tab.id
        return self.applies == "level" and \
            event_level(self.t.structure, period) >= self.from_level

    # ---------------------------------------------------------------- the floor
    def _do_shot_clock(self, cmd: cmd_.SetShotClock, t: float) -> None:
        if self.spec is None:
            raise RuleError(M_("shot.none_set", "{event} has no shot clock: set [shot_clock] "
                               "seconds in its config before it is created", event=self.t.event))
        levels = sum(1 for p in self.t.structure.periods if not p.is_break)
        if cmd.applies == "level" and cmd.from_level > levels:
            raise RuleError(M_("shot.no_level", "level {level} is not in {structure} (levels 1 to "
                               "{levels})", level=cmd.from_level, structure=self.t.structure.name,
                               levels=levels))
        from_level = cmd.from_level if cmd.applies == "level" else self.from_level
        if (cmd.applies, from_level) == (self.applies, self.from_level):
            raise RuleError(M_("shot.already_runs", "the shot clock already runs {where}",
                               where=_where(cmd.applies, from_level)))
        self.t.emit("shot_clock_set", t, applies=cmd.applies, from_level=from_level,
                    by=cmd.get("by"))

    def _on_shot_clock_set(self, ev: st_.ShotClockSet) -> None:
        self.applies, self.from_level = ev.applies, ev.from_level
        self.changes.schedule_changed()
        self.changes.touch_all(tab.id for tab in self.seating.active_tables())

    # ---------------------------------------------------------------- the tables
    def _player_here(self, tab: Table, pid: str) -> Player:
        """The player a report names, who sits at (or is walking from) `tab`."""
        p = self.registry.players.get(pid)
        if p is None or tab.id not in (p.table, p.from_table):
            raise RuleError(M_("shot.not_at_table", "{player} is not at table {table}", player=pid,
                               table=tab.id))
        return p

    def _report_time_bank(self, tab: Table, d: TimeBankData, t: float, rid: str) -> None:
        spec = self.spec
        if spec is None or not spec.bank_cards:
            raise RuleError(M_("shot.no_bank", "{event} has no time bank", event=self.t.event))
        p = self._player_here(tab, d.player)
        if not self.cards_left(p):
            raise RuleError(M_("shot.bank_empty", "{name} has no time-bank card left", name=p.name))
        self.t.emit("time_bank_used", t, player=p.id, table=tab.id, seat=d.seat, hand=d.hand,
                    seconds=spec.bank_seconds, report=rid)

    def _on_time_bank_used(self, ev: st_.TimeBankUsed) -> None:
        p = self.registry.players[ev.player]
        self.used[p.id] = (p.entries, self.cards_used(p) + 1)
        self.changes.touch(ev.table, p.table)
        self.changes.schedule_changed()

    def _report_shot_clock_out(self, tab: Table, d: ShotClockOutData, t: float,
                               rid: str) -> None:
        if self.spec is None:
            raise RuleError(M_("shot.none", "{event} has no shot clock", event=self.t.event))
        p = self._player_here(tab, d.player)
        self.t.emit("shot_clock_out", t, player=p.id, table=tab.id, seat=d.seat, hand=d.hand,
                    outcome=d.outcome, report=rid)

    def _on_shot_clock_out(self, ev: st_.ShotClockOut) -> None:
        pass   # kept in the log: the ruling the dealer gave when time ran out

    REPORTS: ClassVar[dict[type, Callable[..., None]]] = {
        cmd_.TimeBankReport: _report_time_bank,
        cmd_.ShotClockOutReport: _report_shot_clock_out,
    }


def _where(applies: str, from_level: int) -> Msg:
    """Where a shot clock runs, as a refusal says it."""
    if applies == "event":
        return M_("shot.where_event", "for the whole event")
    if applies == "final":
        return M_("shot.where_final", "at the final table only")
    if applies == "off":
        return M_("shot.where_off", "nowhere (off)")
    return M_("shot.where_from", "from level {level} on", level=from_level)
