"""`[printer]` in room.toml, event.toml and table.toml: the ports it takes, and a clear
error naming the key for one it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.config.files import load_table_config
from kiosk.config.room import load_director_config
from kiosk.printer.ports import parse_port

ROOM = '[room]\nname = "casino"\n\n[director]\ndb = "room.db"\n\n'


def test_ports_parse() -> None:
    assert parse_port("serial:/dev/ttyUSB0?baud=38400").baud == 38400
    assert parse_port("serial:/dev/ttyUSB0").baud == 19200
    assert parse_port("usb:04B8:0202").target == "04b8:0202"
    assert parse_port("tcp:192.168.1.50:9100").target == "192.168.1.50:9100"
    assert parse_port("file:slips.bin").kind == "file"
    for bad in ("lpt1", "usb:4b8:202", "tcp:printer", "serial:/dev/x?baud=fast", "file:"):
        with pytest.raises(ValueError):
            parse_port(bad)


def test_a_room_and_a_table_with_printers(tmp_path: Path) -> None:
    room = tmp_path / "room.toml"
    room.write_text(ROOM + '[printer]\nport = "file:paper/desk.bin"\ncolumns = 48\n'
                    'player_url = "https://poker.example/p/{event}"\n')
    cfg = load_director_config(room)
    assert cfg.printer.port.target == str(tmp_path / "paper" / "desk.bin")
    assert cfg.printer.columns == 48 and cfg.printer.url_for("sunday") == \
        "https://poker.example/p/sunday"
    table = tmp_path / "table.toml"
    table.write_text('[table]\nnumber = 3\nroom = "casino"\n\n[gpio]\nenabled = false\n\n'
                     '[printer]\nport = "serial:/dev/ttyUSB0?baud=9600"\nstatus = false\n'
                     'paper = 58\ncolumns = 32\ncode_pages = { cp437 = 0, cp852 = 18 }\n')
    t = load_table_config(table)
    assert t.printer is not None and t.printer.port.baud == 9600 and not t.printer.status
    assert t.printer.dots == 384 and t.printer.pages == {"cp437": 0, "cp852": 18}
    assert cfg.printer.dots == 576 and cfg.printer.pages["cp858"] == 19   # the defaults
    table.write_text('[table]\nnumber = 3\nroom = "casino"\n')
    assert load_table_config(table).printer is None


@pytest.mark.parametrize(("section", "key", "words"), [
    ('port = "lpt1"', "printer.port", "expected serial:"),
    ('port = "file:x"\ncolumns = 10', "printer.columns", ">= 24"),
    ('port = "file:x"\nplayer_url = "poker/p"', "printer.player_url", "http"),
    ('port = "file:x"\npaper = "a4"', "printer.paper", "expected an integer"),
    ('port = "file:x"\npaper = 70', "printer.paper", "58, 80"),
    ('port = "file:x"\ncode_pages = { cp999 = 3 }', "printer.code_pages", "cp852"),
    ('port = "file:x"\ncode_pages = { cp852 = 300 }', "printer.code_pages", "0 to 255"),
    ('port = "file:x"\nwidth = 80', "printer.width", "unknown key"),
])
def test_a_wrong_printer_setting_is_named(tmp_path: Path, section: str, key: str,
                                          words: str) -> None:
    room = tmp_path / "room.toml"
    room.write_text(ROOM + f"[printer]\n{section}\n")
    with pytest.raises(ConfigError) as err:
        load_director_config(room)
    assert err.value.key == key and words in str(err.value)
