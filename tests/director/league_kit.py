"""Three events of a room played to their ends under a room director in process, and the
leagues that count them: the league and reservations tests read their standings."""

from __future__ import annotations

from pathlib import Path

from room_kit import Dealer

from kiosk.config.room import load_director_config
from kiosk.core.calc import button as btn
from kiosk.core.model import commands
from kiosk.director.service import Director

EVENTS = """
[room]
name = "casino"
tables = 6

[director]
db = "room.db"

[[events]]
name = "e1"
structure = "turbo"
seats = 6
seed = 1
buy_in = 100

[[events]]
name = "e2"
structure = "turbo"
seats = 6
seed = 2
buy_in = 200

[[events]]
name = "e3"
structure = "turbo"
seats = 6
seed = 3
buy_in = 50
"""
LEAGUES = """
[[leagues]]
name = "season"
title = "Season points"
formula = "sqrt"
scale = 10

[[leagues]]
name = "table"
formula = "table"
points = [25, 18, 15, 12]
best = 2

[[leagues]]
name = "custom"
formula = "expression"
expression = "100 * (entrants - place + 1) / entrants + buy_in / 100"
events = ["e1", "e3"]

[[leagues]]
name = "flat"
formula = "table"
points = [10, 10, 10, 10, 10]
"""
# who plays each event, and the order they bust (the last one named wins)
PLAYS = {"e1": ["D", "C", "B", "A"], "e2": ["A", "E", "D", "C", "B"], "e3": ["E", "C", "D"]}


def played(tmp_path: Path) -> Director:
    (tmp_path / "room.toml").write_text(EVENTS + LEAGUES)
    d = Director(load_director_config(tmp_path / "room.toml"), clock=lambda: 5000.0)
    for event, order in PLAYS.items():
        for name in sorted(order):
            d.act(commands.Register(name=name, card=name.lower()), event=event)
        d.act(commands.Start(), event=event)
        tour = d.events[event].tour
        dealer = Dealer(d, event)
        for name in order[:-1]:     # each in a hand of his own: places of their own
            p = next(p for p in tour.players.values() if p.name == name)
            tab = tour.tables[p.table]
            pos = btn.first_hand(set(tab.seat_of), min(tab.seat_of), tab.seats)
            dealer.send(tab.id, "hand_started", hand=tab.hand + 1, button=pos.button,
                        sb=pos.sb, bb=pos.bb, dealt=list(pos.dealt),
                        waiting=list(pos.waiting))
            other = next(s for s in sorted(tab.seat_of) if s != p.seat)
            dealer.send(tab.id, "bust", seat=p.seat, player=p.id, eliminator=other)
            if tour.finished_at is None:
                dealer.send(tab.id, "hand_ended", hand=tab.hand)
        assert tour.finished_at is not None
    return d
