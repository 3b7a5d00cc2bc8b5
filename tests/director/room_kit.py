"""A room of several events on one pool of tables, run by a director in process (its own
SQLite log, no broker): the room file, a dealer that plays hands at a table, registering
and bagging. The room, web, store and browser tests start from it."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from kiosk.config.room import load_director_config
from kiosk.core.calc import button as btn
from kiosk.core.model import commands
from kiosk.director.service import Director

ROOM = """
[room]
name = "casino"
title = "Casino Hall"
tables = 8

[director]
db = "room.db"

[[events]]
name = "daily"
title = "Daily 50"
structure = "turbo"
seed = 1
seats = 6
tables = 2

[[events]]
name = "sunday"
title = "Sunday Main"
structure = "turbo"
buy_in = 300
seed = 9
scheduled = true

[[events]]
name = "sat"
title = "Satellite to Sunday"
kind = "satellite"
target = "sunday"
structure = "turbo"
seed = 2
seats = 6
buy_in = 100
[events.money]
seat_value = 300
"""


class Dealer:
    """Sends one event's table reports to the director, as its inbox would route them."""

    ids = itertools.count(1)   # report ids are unique per table, whoever sends

    def __init__(self, d: Director, event: str) -> None:
        self.d, self.event = d, event

    def send(self, table: int, kind: str, **data: Any) -> None:
        self.n = next(self.ids)
        rep = {"v": 2, "table": table, "id": f"{self.event}-{self.n}", "seq": self.n,
               "ts": 0.0, "kind": kind, "data": data, "event": self.event}
        self.d.act(commands.decode({"kind": "report", "table": table, "report": rep}),
                   event=self.event)

    def play_down(self, left: int) -> None:
        """Hands in which the lowest seat busts to the next, until `left` remain."""
        while (tour := self.d.events[self.event].tour).alive > left \
                and tour.finished_at is None:
            tab = next(t for t in tour.active_tables() if t.count >= 2 and not tour.holding(t))
            pos = btn.first_hand(set(tab.seat_of), min(tab.seat_of), tab.seats)
            self.send(tab.id, "hand_started", hand=tab.hand + 1, button=pos.button,
                      sb=pos.sb, bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting))
            seats = sorted(tab.seat_of)
            self.send(tab.id, "bust", seat=seats[0], player=tab.seat_of[seats[0]],
                      eliminator=seats[1])
            if self.d.events[self.event].tour.finished_at is None:
                self.send(tab.id, "hand_ended", hand=tab.hand)
            tour = self.d.events[self.event].tour
            for pid in sorted(tour.moving):
                p = tour.players[pid]
                self.send(p.table or 0, "present", seat=p.seat)


def room(tmp_path: Path, text: str = ROOM, db: str = "room.db") -> Director:
    (tmp_path / "room.toml").write_text(text.replace('db = "room.db"', f'db = "{db}"'))
    return Director(load_director_config(tmp_path / "room.toml"), clock=lambda: 1000.0)


def register(d: Director, event: str, n: int, prefix: str = "P") -> None:
    for i in range(n):
        d.act(commands.Register(name=f"{prefix}{i}", card=f"{prefix.lower()}{i}"), event=event)


def bag(d: Director, event: str) -> None:
    d.act(commands.EndDay(), user="floor", event=event)
    tour = d.events[event].tour
    for tab in tour.active_tables():
        Dealer(d, event).send(tab.id, "chip_count", stacks={
            str(s): 5000 + 100 * s for s in sorted(tab.seat_of)})
    d.act(commands.Bag(accept_difference=True), user="floor", event=event)
