"""The other ports: a USB printer found by vendor and product id in sysfs and driven as a
device file, and a network printer's raw port, each answering the paper question."""

from __future__ import annotations

import socket
import threading
import tty
from pathlib import Path

import pytest
from serial_printer import PAPER_OK, SerialPrinter

from kiosk.printer import cards, escpos
from kiosk.printer.ports import FdPort, PortSpec, usb_device
from kiosk.printer.settings import PrinterConfig
from kiosk.printer.spooler import Spooler

HEAD = cards.Heading(event="e1", title="Friday Turbo", columns=32)


def test_a_usb_printer_is_found_by_its_ids(tmp_path: Path) -> None:
    sysfs = tmp_path / "usbmisc"
    for lp, ids in (("lp0", ("0483", "5720")), ("lp1", ("04b8", "0202"))):
        iface = tmp_path / "devices" / f"1-{lp[-1]}" / f"1-{lp[-1]}:1.0"
        iface.mkdir(parents=True)
        (iface.parent / "idVendor").write_text(ids[0] + "\n")
        (iface.parent / "idProduct").write_text(ids[1] + "\n")
        (sysfs / lp).mkdir(parents=True)
        (sysfs / lp / "device").symlink_to(iface)
    assert usb_device("04b8:0202", sysfs) == "/dev/usb/lp1"
    with pytest.raises(OSError, match="no USB printer 1234:5678"):
        usb_device("1234:5678", sysfs)


def test_a_device_file_printer_answers_and_prints(tmp_path: Path) -> None:
    printer = SerialPrinter(tmp_path / "lp0")        # a character device, as usblp is
    port = FdPort(str(tmp_path / "lp0"))
    tty.setraw(port.fd)             # a pty is a terminal: no line editing, no echo (usblp
    try:                            # has neither)
        port.write(escpos.STATUS_PAPER)
        assert port.read(1, 2.0) == bytes([PAPER_OK])
        slip = cards.seat_card(HEAD, "Ann", 2, 8, 0)
        port.write(escpos.render(slip, 32))
        assert escpos.decode(printer.wait_for(1)[3:], 32) == [slip.lines]
    finally:
        port.close()
        printer.unplug()


def test_a_network_printer_on_its_raw_port(tmp_path: Path) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    got = bytearray()
    done = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            while escpos.CUT not in got:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                got.extend(chunk)
                for _ in range(chunk.count(escpos.STATUS_PAPER)):
                    conn.sendall(bytes([PAPER_OK]))
            conn.sendall(bytes([PAPER_OK]))       # the question after the cut
            done.set()

    threading.Thread(target=serve, daemon=True).start()
    port = f"tcp:127.0.0.1:{server.getsockname()[1]}"
    assert PortSpec("tcp", port[4:]).answers
    spool = Spooler(PrinterConfig.of(port, columns=32, retry=0.2), tmp_path / "q.db")
    try:
        slip = cards.receipt(HEAD, "Bo", "Buy-in", [("Prize pool", 20), ("Fee", 2)], 0)
        spool.submit(slip)
        assert done.wait(10) and spool.wait_idle(10)
        assert escpos.decode(bytes(got), 32) == [slip.lines]
    finally:
        spool.close()
        server.close()
