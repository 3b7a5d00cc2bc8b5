"""Controllers for the flow tests: one on a sample plan, one on a real event's table."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from table_helpers import T0, Event18, plan, schedule

from kiosk.protocol import messages
from kiosk.table.controller import TableController


def make(profile: str = "tda-2017", seats: list[int] | None = None, *, start: str | None = None,
         seed: int = 7, **plan_kw: object) -> TableController:
    """A table on the sample plan, with the real debounce and a fixed button draw."""
    c = TableController(3, rng=random.Random(seed), boot="b0")
    assert c.directions.apply_schedule(schedule(profile))
    assert c.apply_plan(plan(seats, **plan_kw), T0)
    if start:
        c.ctx.profile = replace(c.ctx.profile, button=replace(c.ctx.profile.button, start=start))
    return c


def quick(**plan_kw: object) -> TableController:
    """A table on the sample plan that takes every tap (no debounce)."""
    c = TableController(3, rng=random.Random(1), boot="m", debounce_s=0)
    assert c.directions.apply_schedule(schedule())
    assert c.apply_plan(plan(**plan_kw), T0)
    return c


def table_for(event: Event18, table: int, rev: int = 1) -> TableController:
    """One of a real event's tables, as its kiosk sees it."""
    c = TableController(table, rng=random.Random(table), boot="mm", debounce_s=0)
    assert c.directions.apply_schedule(schedule())
    assert c.apply_plan(event.plan(table, rev), T0)
    return c


ORDER = "A high, 2 low\nequal ranks: spades,\nhearts, diamonds, clubs"


def raced(event: Event18, c: TableController) -> dict[str, Any]:
    """Round 1's count is in: the core's colour-up plan for table 1."""
    stacks = event.colour_up_break(1)
    event.send(c.chip_count(T0, stacks, 1).report)
    return event.plan(1, 2)


def as_dealer(p: dict[str, Any], rev: int, max_each: int | None = 1,
              **cu: Any) -> dict[str, Any]:
    """The plan with the race left to the dealer, checked against the schema."""
    core = p["colour_up"]
    odd = {s: (v % 100) // 25 for s, v in core["before"].items() if v % 100}
    body = {**p, "rev": rev, "colour_up": {
        **core, "race": "dealer", "pending": True, "deal_cards": odd, "to_give": 4,
        "max_each": max_each, "after": {}, "won": {}, "cards": {}, "winners": [], **cu}}
    return messages.check("plan", body)


def answered(p: dict[str, Any], rev: int, winners: list[int]) -> dict[str, Any]:
    """The director's answer: the dealer's winners applied."""
    cu = p["colour_up"]
    won = {s: winners.count(s) for s in set(winners)}
    after = {s: v - v % 100 + 100 * won.get(s, 0) for s, v in cu["before"].items()}
    return messages.check("plan", {**p, "rev": rev, "colour_up": {
        **cu, "pending": False, "after": after, "won": won, "winners": winners}})


def stacks(event: Event18, table: int) -> dict[int, int]:
    """Every chip in play: table 1's seat 2 won the pot of the bust at seat 1."""
    return {s: 40000 if (table, s) == (1, 2) else 20000
            for s in sorted(event.tour.tables[table].seat_of)}
