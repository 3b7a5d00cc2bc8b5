"""What the tests of the tools against stalling (TDA RP-19) share: a structure counted in
hands, and a real table kiosk at a director's table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from waiting import wait_for

from kiosk.config.files import TableConfig
from kiosk.table.service import TableService


def hands_toml(*hands: int, name: str = "By hands") -> str:
    """A structure whose levels last these hands each, the blinds doubling, no break."""
    levels = "".join(f"[[level]]\nsb = {50 * 2 ** i}\nbb = {100 * 2 ** i}\nhands = {n}\n"
                     for i, n in enumerate(hands))
    return f'name = "{name}"\nstart_stack = 20000\n{levels}'


def table_kiosk(tmp_path: Path, mosquitto: Any, director: Any, table: int, players: int,
                ready: Callable[[TableService], Any] = lambda svc: True) -> TableService:
    """A real kiosk (controller, outbox, MQTT link) at `table`, started, once its plan
    seats `players` and `ready(kiosk)` holds."""
    cfg = TableConfig(table=table, room=director.name, broker=mosquitto.config,
                      state_dir=str(tmp_path / f"table-{table}"), gpio=None)
    Path(cfg.state_dir).mkdir(exist_ok=True)
    svc = TableService(cfg, resend_s=1.0, reconnect=(1, 2), debounce_s=0.0)
    svc.start()
    wait_for(lambda: sum(1 for s in svc.view().seats if s.name) == players and ready(svc), 30)
    return svc
