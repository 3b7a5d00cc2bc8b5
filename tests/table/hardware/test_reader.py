"""The card reader through pyserial's `loop://` port: what is written is read back."""

from __future__ import annotations

import random
import threading
import time

import serial
from table_helpers import T0, plan, schedule, seating
from waiting import wait_for

from kiosk.table.controller import Result, TableController
from kiosk.table.hardware.reader import CardReader, parse_line


class Ports:
    """Hands the reader a fresh loop:// port on every (re)open and keeps them for writing."""

    def __init__(self) -> None:
        self.opened: list[serial.SerialBase] = []

    def __call__(self, url: str, **kw: object) -> serial.SerialBase:
        port = serial.serial_for_url(url, **kw)
        self.opened.append(port)
        return port


def controller() -> TableController:
    c = TableController(3, rng=random.Random(5), boot="r")
    c.directions.apply_schedule(schedule())
    c.apply_plan(plan(rev=1), T0)
    c.directions.apply_seating(seating())
    return c


def start(on_card) -> tuple[CardReader, Ports]:
    ports = Ports()
    reader = CardReader("loop://", on_card, opener=ports, backoff=(0.05, 0.2))
    reader.start()
    wait_for(lambda: ports.opened)
    return reader, ports


def test_check_ins_right_wrong_unknown_and_garbage() -> None:
    c, results = controller(), []
    lock = threading.Lock()

    def on_card(card: str) -> None:
        with lock:
            results.append(c.card(time.time(), card))

    reader, ports = start(on_card)
    try:
        port = ports.opened[0]
        port.write(b"ca000004\r\n")                       # seat 4's card, lower case
        port.write(b"\xff\xfe\x00garbage!!\n")           # line noise
        port.write(b"CB000007\r")                         # belongs to table 7 seat 2
        port.write(b"0BADC0DE\n")                         # nobody's card
        wait_for(lambda: len(results) == 3)
        right, wrong, unknown = results
        assert right.report["kind"] == "checkin"
        assert right.report["data"] == {"card": "CA000004", "seat": 4}
        assert right.message == "Seat 4: welcome Dev E"
        assert wrong.refused and wrong.report is None
        assert wrong.message == "Wrong seat — table 7 seat 2 (Zoe Other)"
        # nobody's card here: the director is asked whether it is a dealer's badge (and
        # answers "Unknown card — ask the floor" when it is not); no check-in report
        assert unknown.report is None and unknown.dealer == {"badge": "0BADC0DE"}
        assert reader.ignored == 1
    finally:
        reader.stop()


def test_reader_survives_unplug_and_replug() -> None:
    cards: list[str] = []
    reader, ports = start(cards.append)
    try:
        ports.opened[0].write(b"04A1B2C3\n")
        wait_for(lambda: cards == ["04A1B2C3"])
        ports.opened[0].close()                            # unplugged
        wait_for(lambda: len(ports.opened) == 2)           # reopened after a back-off
        ports.opened[1].write(b"04A1B2C4\n")
        wait_for(lambda: cards == ["04A1B2C3", "04A1B2C4"])
        assert reader.opens == 2
    finally:
        reader.stop()


def test_arriving_player_checks_in_and_is_dealt() -> None:
    c = controller()
    seats = plan(rev=2)["seats"] | {"2": {"player": "p20", "name": "Anna", "card": "C0FFEE01",
                                          "status": "arriving"}}
    c.apply_plan(plan(rev=2, moves_in=[{"player": "p20", "name": "Anna", "seat": 2,
                                        "from_table": 5, "from_seat": 1}]) | {"seats": seats},
                 T0)
    assert c.view(T0).arrivals == ("Seat 2: arriving from T5",)
    res: Result = c.card(T0 + 1, "c0ffee01")
    assert res.report["data"] == {"card": "C0FFEE01", "seat": 2}
    assert c.view(T0 + 1).arrivals == () and c.view(T0 + 1).seats[1].occupied
    assert c.card(T0 + 1.5, "C0FFEE01").refused             # the same card twice at once


def test_parse_line_validates() -> None:
    assert parse_line(b" 04a1b2c3 ") == "04A1B2C3"
    assert parse_line(b"hello") is None and parse_line(b"\x80\x81") is None
    assert parse_line(b"12") is None
