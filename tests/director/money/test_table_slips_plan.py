"""`[director] slips_at_table` reaches the tables as the plan's `slips`, checked as a table
reads it; once a deal is agreed the desk prints the deal's slips and the tables none (the
plan's prizes no longer say what a player is paid)."""

from __future__ import annotations

from pathlib import Path

from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.protocol.messages import check

ROOM = """[room]
name = "casino"
tables = 2

[broker]
url = "mqtt://127.0.0.1:1883"

[director]
db = "room.db"
{setting}

[[events]]
name = "daily"
structure = "turbo"
seats = 6
buy_in = 100
payout_percent = 50
tables = 1

[events.money]
table = "percent"
"""


def director(tmp_path: Path, setting: str) -> Director:
    (tmp_path / "room.toml").write_text(ROOM.format(setting=setting))
    d = Director(load_director_config(tmp_path / "room.toml"), clock=lambda: 1000.0)
    d.import_csv("name\n" + "".join(f"Player {i}\n" for i in range(6)))
    d.act(commands.Start())
    return d


def test_the_plan_asks_the_table_for_slips_until_a_deal(tmp_path: Path) -> None:
    d = director(tmp_path, "slips_at_table = true")
    assert check("plan", d.out.plan_msg(1))["slips"] is True
    for _ in range(3):
        d.act(commands.Bust(player=next(p.id for p in d.tour.players.values()
                                        if p.status == "seated")), "floor")
    left = [p.id for p in d.tour.players.values() if p.status == "seated"]
    d.act(commands.Deal(amounts=dict(zip(left, d.tour.current_payouts()[:3],
                                         strict=True))), "floor")
    assert check("plan", d.out.plan_msg(1))["slips"] is False


def test_without_the_setting_the_plan_asks_for_none(tmp_path: Path) -> None:
    d = director(tmp_path, "")
    assert check("plan", d.out.plan_msg(1))["slips"] is False
