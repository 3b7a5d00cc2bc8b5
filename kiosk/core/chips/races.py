"""The director's side of a colour-up race: settle it when a table has counted (by a
draw, or nothing to race), wait for the dealer's entry when the race is dealt with real
cards, take that entry (the `chip_race` report), and show the race in the table's plan.

Functions over the tournament's state rather than methods, so the money component
that holds chip counts only calls them; a pending race is not stored: it is the
table's counted stacks of an open colour-up with no outcome yet.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, in_turn
from kiosk.core.chips import chips as chipmath
from kiosk.core.model.state import Event, Table
from kiosk.rules.profile import Profile


class RaceHost(Protocol):
    """What the races read of the tournament and call on it."""

    @property
    def profile(self) -> Profile: ...

    count_round: Any                       # the open count_opened event, or None
    counts: dict[int, dict[int, int]]      # table -> seat -> counted stack
    count_players: dict[int, dict[str, str]]   # table -> seat -> player counted there
    colour_ups: dict[int, Event]
    chip_race_mode: str                    # "dealer" | "draw"

    def emit(self, kind: str, t: float, **fields: Any) -> Event: ...
    def rng(self, *what: object) -> random.Random: ...


def _race_of(host: RaceHost, stacks: Mapping[int, int]) -> chipmath.Race:
    r = host.count_round
    return chipmath.race(stacks, r["removed"], r["new_chip"], host.profile.chip_race)


def after_count(host: RaceHost, tab: Table, stacks: Mapping[int, int],
                players: dict[str, str], t: float, rid: str) -> None:
    """A table counted: in a colour-up, settle its race now (the director's draw, or a
    race with nothing for cards to decide), or leave it pending for the dealer."""
    r = host.count_round
    if r["purpose"] != "colour_up" or not r["removed"]:
        return
    race = _race_of(host, stacks)
    if host.chip_race_mode == "dealer" and race.needs_entry:
        return   # pending: the plan asks the dealer to deal and enter the winners
    cards, winners = chipmath.draw(race, host.rng("race", r["round"], tab.id))
    _record(host, tab, race, chipmath.settle(race, winners, cards), players, t, rid,
            host.chip_race_mode)


def pending(host: RaceHost, table: int) -> chipmath.Race | None:
    """The race `table` owes the director: counted in a colour-up, no outcome yet."""
    r = host.count_round
    if r is None or r["purpose"] != "colour_up" or not r["removed"] \
            or table not in host.counts or table in host.colour_ups:
        return None
    race = _race_of(host, host.counts[table])
    return race if race.needs_entry else None


def take_entry(host: RaceHost, tab: Table, d: Mapping[str, Any], t: float, rid: str) -> None:
    """The dealer's `chip_race` report: the winning seats, highest card first. Checked
    against the race; a wrong entry is refused with the reason and changes nothing."""
    r = host.count_round
    asked = d.get("round")
    if r is None or r["purpose"] != "colour_up" or asked != r["round"]:
        raise RuleError(M_("race.not_open", "table {table}: no colour-up race {round} is open",
                           table=tab.id, round=repr(asked)))
    if tab.id in host.colour_ups:
        raise RuleError(M_("race.settled", "table {table}: the race of round {round} is already "
                           "settled", table=tab.id, round=asked))
    race = pending(host, tab.id)
    if race is None:
        raise RuleError(M_("race.count_first", "table {table}: count the stacks before the race",
                           table=tab.id))
    winners = d.get("winners")
    bad = chipmath.check_winners(race, winners)
    if bad:
        raise RuleError(M_("race.refused", "table {table} race refused: {why}", table=tab.id,
                           why=in_turn(bad)))
    assert isinstance(winners, list)
    _record(host, tab, race, chipmath.settle(race, winners), host.count_players[tab.id],
            t, rid, "dealer")


def _record(host: RaceHost, tab: Table, race: chipmath.Race, res: chipmath.ColourUp,
            players: dict[str, str], t: float, rid: str, mode: str) -> None:
    r = host.count_round
    host.emit("coloured_up", t, table=tab.id, round=r["round"],
              before={str(s): v for s, v in res.before.items()},
              after={str(s): v for s, v in res.after.items()},
              cards={str(s): c for s, c in res.cards.items()},
              won={str(s): n for s, n in res.won.items()}, rescued=res.rescued,
              removed=res.removed, new_chip=race.new_chip, players=players,
              race=mode, winners=res.winners, report=rid)


def plan_view(host: RaceHost, table: int) -> dict[str, Any] | None:
    """The plan's `colour_up` (ColourUpPlan): the outcome once settled; while the
    dealer's race is pending, the cards to deal and the chips to give."""
    ev = host.colour_ups.get(table)
    if ev is not None:
        race = _race_of(host, {int(s): v for s, v in ev["before"].items()})
        out = {k: ev[k] for k in ("before", "after", "cards", "won", "rescued", "new_chip",
                                  "race", "winners")}
        return {**out, "pending": False, **_race_fields(race)}
    owed = pending(host, table)
    if owed is None:
        return None
    return {"before": {str(s): v for s, v in owed.stacks.items()}, "after": {}, "cards": {},
            "won": {}, "rescued": [], "new_chip": owed.new_chip, "race": "dealer",
            "winners": [], "pending": True, **_race_fields(owed)}


def _race_fields(race: chipmath.Race) -> dict[str, Any]:
    return {"deal_cards": {str(s): n for s, n in race.deal_cards.items()},
            "to_give": race.to_give, "max_each": race.max_each}
