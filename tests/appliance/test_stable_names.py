"""The card reader and the printer by a name that stays from boot to boot: provision
writes a /dev/serial/by-id/ reader as given, the table's config takes it and a printer
on such a link, and the doctor warns of a reader named by its USB number."""

from __future__ import annotations

import os
from pathlib import Path

from kiosk.appliance import checks
from kiosk.commands.main import main
from kiosk.config.files import load_table_config
from kiosk.printer.ports import PortSpec

BY_ID = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
BY_PATH = "/dev/serial/by-path/platform-xhci-hcd.0-usb-0:1:1.0-port0"   # colons in it


def test_a_reader_and_printer_by_id_are_written_taken_and_only_unstable_names_warned(
        tmp_path: Path) -> None:
    out = tmp_path / "room"
    assert main(["provision", "--tables", "2", "--event", "spring", "--out", str(out),
                 "--reader-port", BY_ID]) == 0
    table = out / "tables" / "table-2.toml"
    assert f'port = "{BY_ID}"' in table.read_text()
    with table.open("a") as f:
        f.write(f'\n[printer]\nport = "serial:{BY_PATH}?baud=38400"\n')
    cfg = load_table_config(table)
    assert cfg.reader_port == BY_ID
    assert cfg.printer is not None
    assert cfg.printer.port == PortSpec("serial", BY_PATH, 38400)

    # the doctor opens both kinds of name; only the numbered one is warned of
    master, slave = os.openpty()
    try:
        for name in ("usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0", "ttyUSB0"):
            (tmp_path / name).symlink_to(os.ttyname(slave))
        stable = checks.reader(str(tmp_path / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"),
                               9600)
        assert stable.status == "OK"
        numbered = checks.reader(str(tmp_path / "ttyUSB0"), 9600)
        assert numbered.line() == (
            f"WARN reader: {tmp_path}/ttyUSB0 opens at 9600 baud, but a USB device's number "
            "can change at the next boot — fix: set [reader] port to its "
            "/dev/serial/by-id/... name (docs/install.md)")
    finally:
        os.close(master)
        os.close(slave)
