"""`pokerkiosk demo --printer file:PATH`: the desk's slips as the room runs, in raw ESC/POS
bytes that decode back to seat cards, receipts and, as the field shrinks, moves."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from demo_kit import start_demo, stop
from waiting import wait_for

from kiosk.printer import escpos


def labels(paper: Path) -> list[str]:
    data = paper.read_bytes() if paper.exists() else b""
    cut = data.rfind(escpos.CUT)
    slips = escpos.decode(data[:cut + len(escpos.CUT)], 42) if cut >= 0 else []
    return [s[1].text for s in slips]


def entries(url: str) -> int:
    """Entries sold across the demo room's events (the desk prints a receipt for each)."""
    with urllib.request.urlopen(url + "api/room", timeout=5) as r:
        return sum(e["entries"] for e in json.load(r)["events"])


def test_the_demo_prints_at_the_desk(tmp_path: Path) -> None:
    paper = tmp_path / "paper.bin"
    proc, found = start_demo(tmp_path, "--printer", f"file:{paper}")
    try:
        assert found["printer"] == found["dashboard"] + "printer"      # its page, its port
        assert f"(queue and reprints of file:{paper})" in (tmp_path / "demo.out").read_text()
        sold = entries(found["dashboard"])
        assert sold >= 27 + 6, "the daily and the satellite both sold their seats"
        wait_for(lambda: labels(paper).count("RECEIPT") == sold
                 and labels(paper).count("SEAT CARD") >= sold, timeout=60)
        with urllib.request.urlopen(found["dashboard"] + "api/printer", timeout=5) as r:
            status = json.load(r)
        assert status["configured"] and status["online"] and status["port"] == f"file:{paper}"
    finally:
        assert stop(proc) == 0
    assert escpos.decode(paper.read_bytes(), 42)      # every job whole after the stop
