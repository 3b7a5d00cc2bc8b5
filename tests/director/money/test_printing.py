"""The director's desk printer, end to end in process: every registration, seat, move,
bust in the money and deal becomes the slip a card room hands out, read back from the
bytes a `file:` printer received; a printer that is not there never costs a registration."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from money_helpers import Reports, money_director
from printer_kit import COLUMNS, director
from serial_printer import SerialPrinter
from waiting import wait_for

from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.director.web.app import make_app
from kiosk.printer import escpos
from kiosk.printer.slip import Line


def printed(d: Director, path: Path) -> list[list[Line]]:
    assert d.printer is not None and d.printer.spooler.wait_idle(10)
    return escpos.decode(path.read_bytes(), COLUMNS)


def texts(slip: list[Line]) -> list[str]:
    return [ln.text for ln in slip]


def kind(slips: list[list[Line]], label: str) -> list[list[Line]]:
    return [s for s in slips if texts(s)[1] == label]


def value(slip: list[Line], label: str) -> str:
    line = next(t for t in texts(slip) if t.startswith(label))
    return line[len(label):].strip()


def test_receipts_seat_cards_and_payouts_as_the_event_runs(tmp_path: Path) -> None:
    out = tmp_path / "paper.bin"
    d = director(tmp_path, f"file:{out}")
    try:
        slips = printed(d, out)
        receipts, cards = kind(slips, "RECEIPT"), kind(slips, "SEAT CARD")
        assert len(receipts) == 12 and len(cards) == 12
        first = receipts[0]
        assert "Player 1" in texts(first)
        assert (value(first, "Prize pool"), value(first, "Bounty"), value(first, "Fee"),
                value(first, "Paid")) == ("100", "50", "10", "160")
        for i, card in enumerate(cards):
            p = d.tour.players[next(pid for pid, pl in d.tour.players.items()
                                    if pl.name == texts(card)[3])]
            assert f"TABLE {p.table}" in texts(card) and f"SEAT {p.seat}" in texts(card), i
            assert [ln.qr for ln in card if ln.qr] == ["https://poker.example/p/sunday"]

        Reports(d).play_down(1)
        slips = printed(d, out)
        moved = [c for c in kind(slips, "SEAT CARD") if any("moved from table" in t
                                                            for t in texts(c))]
        assert moved, "balancing moved players: each got a new seat card"
        payouts = {texts(s)[3]: s for s in kind(slips, "PAYOUT")}
        prizes = {p.name: d.tour.prizes().get(pid, 0) for pid, p in d.tour.players.items()}
        paid = {name for name, prize in prizes.items() if prize}
        assert len(paid) == 3 and paid <= set(payouts)
        for name in paid:
            bounty = d.tour.bounty_cash.get(next(pid for pid, p in d.tour.players.items()
                                                 if p.name == name), 0)
            assert value(payouts[name], "Prize") == f"{prizes[name]:,}"
            assert value(payouts[name], "To pay") == f"{prizes[name] + bounty:,}"
        winner = next(iter(d.tour.places().items()))
        assert any(value(s, "Place") == "1st" for s in payouts.values()), winner

        job = d.printer.results("sunday")
        sheet = printed(d, out)[-1]
        assert texts(sheet)[1] == "RESULTS" and job
        assert value(sheet, "Entries") == "12"
    finally:
        d.printer.close()
        d.store.close()


def test_a_deal_prints_one_slip_per_player(tmp_path: Path) -> None:
    out = tmp_path / "paper.bin"
    d = director(tmp_path, f"file:{out}", players=6)
    try:
        Reports(d).play_down(3)
        alive = [pid for pid, p in d.tour.players.items() if p.status in ("seated", "moving")]
        before = len(kind(printed(d, out), "PAYOUT"))
        pool = sum(d.tour.current_payouts()[:3])
        amounts = dict(zip(alive, [pool - 2 * (pool // 3), pool // 3, pool // 3], strict=True))
        d.act(commands.Deal(amounts=amounts, method="chip_chop"), "floor")
        deal = kind(printed(d, out), "PAYOUT")[before:]
        assert len(deal) == 3
        for slip in deal:
            assert "By the deal agreed at the final table" in texts(slip)
        assert sorted(int(value(s, "Prize").replace(",", "")) for s in deal) == \
            sorted(amounts.values())
    finally:
        d.printer.close()
        d.store.close()


def test_no_printer_never_blocks_registration(tmp_path: Path) -> None:
    d = director(tmp_path, f"serial:{tmp_path / 'nothing-here'}", players=2)
    try:
        started = time.monotonic()
        for i in range(20):
            d.act(commands.Register(name=f"Late {i}"))
        assert time.monotonic() - started < 10    # a printer waited for: 44 slips x its 2 s
        assert len(d.tour.players) == 22 and all(p.seat for p in d.tour.players.values())
        status = d.printer.spooler.status()
        assert status["waiting"] >= 44       # a receipt and a seat card each, kept
        status = wait_for(lambda: (s := d.printer.spooler.status())["error"] and s)
        assert status["online"] is False and "nothing-here" in status["error"]
        line = str(d.health["printer"])                                # the dashboard's line
        assert f"{status['waiting']} slips wait at /printer" in line, line
        assert (tmp_path / "printer-queue.db").exists()
    finally:
        d.printer.close()
        d.store.close()


def test_the_dashboard_lists_previews_and_reprints(tmp_path: Path) -> None:
    out = tmp_path / "paper.bin"
    d = director(tmp_path, f"file:{out}", players=3)

    async def go() -> None:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        assert d.printer is not None and d.printer.spooler.wait_idle(10)
        page = await client.get("/printer")
        assert page.status == 200 and "/static/printer.js" in await page.text()
        status = await (await client.get("/api/printer")).json()
        assert status["configured"] and status["online"] and status["waiting"] == 0
        assert status["events"] == ["sunday"] and len(status["jobs"]) == 6
        card = next(j for j in status["jobs"] if j["kind"] == "seat")
        png = await client.get(f"/api/printer/jobs/{card['id']}.png")
        body = await png.read()
        assert png.content_type == "image/png" and body.startswith(b"\x89PNG")
        assert (await client.get("/api/printer/jobs/999.png")).status == 404

        refused = await client.post("/api/printer/reprint", json={"job": card["id"]})
        assert refused.status == 401 and len(printed(d, out)) == 6
        login = await client.post("/api/login", json={"user": "floor", "password": "s3cret"})
        token = {"X-CSRF-Token": (await login.json())["csrf"]}
        again = await (await client.post("/api/printer/reprint", headers=token,
                                         json={"job": card["id"]})).json()
        assert again["ok"] and again["job"] > card["id"]
        sheet = await (await client.post("/api/printer/results", headers=token,
                                         json={"event": "sunday"})).json()
        assert sheet["ok"]
        missing = await client.post("/api/printer/reprint", headers=token, json={"job": 999})
        assert missing.status == 404
        slips = printed(d, out)
        assert slips[-2] == slips[[j["id"] for j in reversed(status["jobs"])].index(
            card["id"])]
        assert texts(slips[-1])[1] == "RESULTS"
        await client.close()

    try:
        asyncio.run(go())
    finally:
        d.printer.close()
        d.store.close()


def test_without_a_printer_the_page_says_so(tmp_path: Path) -> None:
    d = money_director(tmp_path, players=2)

    async def go() -> None:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        assert (await (await client.get("/api/printer")).json())["configured"] is False
        await client.close()

    try:
        assert d.printer is None
        asyncio.run(go())
    finally:
        d.store.close()


def test_a_serial_printer_plugged_in_late_prints_every_slip_in_order(tmp_path: Path) -> None:
    link = tmp_path / "ttyPRINTER"
    printer = SerialPrinter(link)
    printer.unplug()
    d = director(tmp_path, f"serial:{link}?baud=19200", players=2)
    try:
        d.act(commands.Register(name="Late Lou"))
        wait_for(lambda: "printer" in d.health)
        printer.plug()
        d.printer.spooler.retry_now()
        data = printer.wait_for(6)      # 2 receipts, 2 seat cards at the start, Lou's two
        assert d.printer.spooler.wait_idle(10)
        slips = escpos.decode(data, COLUMNS)
        assert [texts(s)[1] for s in slips] == ["RECEIPT", "RECEIPT", "SEAT CARD",
                                                "SEAT CARD", "RECEIPT", "SEAT CARD"]
        assert "Late Lou" in texts(slips[-1]) and "printer" not in d.health
    finally:
        d.printer.close()
        d.store.close()
        printer.unplug()
