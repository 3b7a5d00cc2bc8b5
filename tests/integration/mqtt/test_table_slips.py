"""The table's printer settles a bust: with `[director] slips_at_table`, a player who busts in
the money at a table with a printer gets the payout slip there, from the plan the room's
director sends over a real Mosquitto; the desk prints its own copy all the same. The
table's printer is a pseudo-terminal, its bytes decoded back with kiosk.printer.escpos."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from director_process import DirectorProcess
from serial_printer import SerialPrinter
from waiting import wait_for

from kiosk.config.files import TableConfig
from kiosk.printer import escpos
from kiosk.printer.settings import PrinterConfig
from kiosk.table.service import TableService

COLUMNS = 32
ROOM = """
[room]
name = "casino"
tables = 2

[broker]
url = "mqtt://127.0.0.1:{port}"

[director]
db = "room.db"
{setting}
http = "127.0.0.1:{http}"

[printer]
port = "file:{desk}"
columns = {columns}

[[events]]
name = "daily"
title = "Daily 50"
structure = "turbo"
seats = 6
buy_in = 100
start_stack = 10000
payout_percent = 50
tables = 1

[events.money]
table = "percent"
"""


def texts(slip: list[Any]) -> list[str]:
    return [ln.text for ln in slip]


def payouts(data: bytes) -> list[list[str]]:
    """The payout slips among the whole jobs of `data`."""
    cut = data.rfind(escpos.CUT)
    if cut < 0:
        return []
    return [texts(s) for s in escpos.decode(data[:cut + len(escpos.CUT)], COLUMNS)
            if texts(s)[1:2] == ["PAYOUT"]]


def play_to_the_money(tmp_path: Path, mosquitto, director_factory, slips: bool
                      ) -> tuple[SerialPrinter, Path, dict[str, Any], TableService]:
    """Six players on one table, three paid; four busts at the table: the fourth finishes
    third, the first in the money. The table's printer, the desk's paper, that bust as
    the table's plan shows it, and the (running) table."""
    desk = tmp_path / "desk.bin"
    director: DirectorProcess = director_factory(players=6)
    director.config = tmp_path / "room.toml"
    director.config.write_text(ROOM.format(
        setting="slips_at_table = true" if slips else "", port=mosquitto.port,
        http=director.http_port, desk=desk, columns=COLUMNS))
    director.name = "daily"
    director.start()
    printer = SerialPrinter(tmp_path / "printer")
    cfg = TableConfig(table=1, room="casino", broker=mosquitto.config,
                      state_dir=str(tmp_path / "table-1"), gpio=None,
                      printer=PrinterConfig.of(f"serial:{tmp_path / 'printer'}?baud=19200",
                                               columns=COLUMNS, retry=0.3))
    Path(cfg.state_dir).mkdir()
    svc = TableService(cfg, resend_s=1.0, reconnect=(1, 2), debounce_s=0.0)
    svc.start()
    wait_for(lambda: sum(1 for s in svc.view().seats if s.name) == 6)
    for out in range(4):
        seat = next(s for s in svc.view().seats if s.occupied).seat
        for step in (("new_hand",), ("end_hand",), ("begin", "bust"),
                     ("choose_seat", seat, 5000)):
            assert not svc.act(*step).refused, step
        wait_for(lambda: svc.outbox.pending_count() == 0)
        wait_for(lambda place=6 - out: any(b.get("place") == place
                                           for b in svc.ctl.ctx.plan.get("busts") or []))
    bust = next(b for b in svc.ctl.ctx.plan["busts"] if b["place"] == 3)
    assert bust["prize"] > 0, "third of six is paid"
    return printer, desk, bust, svc


def test_a_bust_in_the_money_prints_its_payout_at_the_table_and_the_desk(
        tmp_path: Path, mosquitto, director_factory) -> None:
    printer, desk, bust, svc = play_to_the_money(tmp_path, mosquitto, director_factory,
                                                 slips=True)
    try:
        [slip] = payouts(printer.wait_for(1))
        assert bust["name"] in slip
        assert any(t.startswith("Place") and t.endswith("3rd") for t in slip)
        assert any(t.startswith("To pay") and t.endswith(f"{bust['prize']:,}") for t in slip)
        # the desk's copy: the same player, place and amount
        desk_slips = wait_for(lambda: payouts(desk.read_bytes()) if desk.exists() else [])
        [copy] = desk_slips
        assert [t for t in copy if t.startswith(("Place", "To pay"))] == \
            [t for t in slip if t.startswith(("Place", "To pay"))]
        assert bust["name"] in copy
    finally:
        svc.stop()
        printer.unplug()


def test_without_the_setting_nothing_prints_at_the_table(
        tmp_path: Path, mosquitto, director_factory) -> None:
    printer, desk, bust, svc = play_to_the_money(tmp_path, mosquitto, director_factory,
                                                 slips=False)
    try:
        [copy] = wait_for(lambda: payouts(desk.read_bytes()) if desk.exists() else [])
        assert bust["name"] in copy                  # the desk paid the player
        assert svc.printer is not None and svc.printer.spooler.wait_idle(30)
        assert svc.printer.spooler.status()["jobs"] == []
        assert escpos.CUT not in printer.received()
    finally:
        svc.stop()
        printer.unplug()


def test_the_setting_is_checked_at_load_in_a_room_and_a_one_event_file(tmp_path: Path) -> None:
    from kiosk.base.errors import ConfigError
    from kiosk.config.room import load_director_config

    for head in ('[room]\nname = "casino"\n', '[event]\nname = "daily"\n'):
        room = tmp_path / "room.toml"
        broker = '\n[broker]\nurl = "mqtt://127.0.0.1:1883"\n\n[director]\n'
        room.write_text(head + broker + 'slips_at_table = "yes"\n')
        try:
            load_director_config(room)
        except ConfigError as exc:
            assert str(exc) == (f"{room}: director.slips_at_table: expected true/false, "
                                "got a string")
        else:
            raise AssertionError("a string for a true/false setting was taken")
        room.write_text(head + broker + "slips_at_table = true\n")
        assert load_director_config(room).slips_at_table is True
        room.write_text(head + broker)
        assert load_director_config(room).slips_at_table is False
