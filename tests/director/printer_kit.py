"""A director in process with a desk printer on a port (`file:` in the tests) and the
slip's width in columns."""

from __future__ import annotations

from pathlib import Path

from money_helpers import HASH, MONEY

from kiosk.config.files import EventConfig
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.printer.settings import PrinterConfig

COLUMNS = 42


def director(tmp_path: Path, port: str, players: int = 12) -> Director:
    printer = PrinterConfig.of(port, columns=COLUMNS, retry=0.2,
                               player_url="https://poker.example/p/{event}")
    cfg = EventConfig(name="sunday", structure="turbo", seed=5, db=str(tmp_path / "e.db"),
                      money=MONEY, start_stack=10000, printer=printer,
                      floor_users={"floor": HASH})
    d = Director(cfg)
    for i in range(players):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    return d
