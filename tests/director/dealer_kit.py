"""The dealers' rotation in a room director in process: a room with a roster, a clock the
test moves, and the table reports that start the event and its hands."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from kiosk.config import dealers as dc
from kiosk.config.room import load_director_config
from kiosk.core.calc import button as btn
from kiosk.core.model import commands
from kiosk.director.service import Director

SALT = "00112233445566778899aabbccddeeff"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
ROOM = """
[room]
name = "casino"
tables = 6

[director]
db = "room.db"

[[events]]
name = "daily"
structure = "turbo"
seed = 1
seats = 6
tables = 4
[events.money]
staff = 301

[dealers]
down_minutes = 30
break_minutes = 15
string_size = 4
salt = "{salt}"
"""
ids = itertools.count(1)


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def roster() -> str:
    out = []
    for i, name in enumerate(NAMES):
        out.append(f'[[dealers.roster]]\nname = "{name}"\n'
                   f'badge = "{dc.badge_hash(f"BADGE-{i}", SALT)}"\n'
                   + (f'pin = "{dc.pin_hash("2468")}"\n' if name == "Bob" else ""))
    return "\n".join(out)


def director(tmp_path: Path, clock: Clock) -> Director:
    path = tmp_path / "room.toml"
    if not path.exists():
        path.write_text(ROOM.format(salt=SALT) + roster())
    return Director(load_director_config(path), clock=clock)


def report(d: Director, table: int, kind: str, **data: Any) -> None:
    n = next(ids)
    rep = {"v": 2, "table": table, "id": f"daily-{n}", "seq": n, "ts": 0.0, "kind": kind,
           "data": data, "event": "daily"}
    d.act(commands.decode({"kind": "report", "table": table, "report": rep}), event="daily")


def start(d: Director) -> None:
    for i in range(20):
        d.act(commands.Register(name=f"P{i}", card=f"p{i}"), event="daily")
    d.act(commands.Start(), event="daily")


def hand_start(d: Director, table: int) -> None:
    tab = d.events["daily"].tour.tables[table]
    pos = btn.first_hand(set(tab.seat_of), min(tab.seat_of), tab.seats)
    report(d, table, "hand_started", hand=tab.hand + 1, button=pos.button, sb=pos.sb,
           bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting))
