"""Leagues: three events played through a real room director, and each formula's
standings checked against points worked out by hand here; the same table over HTTP, from
the terminal and after a restart; a formula that does not parse or divides by zero
refused when the room's file is loaded, with its line."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from league_kit import played

from kiosk.base.errors import ConfigError
from kiosk.commands import main as cli
from kiosk.config.room import load_director_config
from kiosk.core.season.leagues import EventResult, LeagueSpec, Result, Standings, formula
from kiosk.director.service import Director
from kiosk.director.web.app import make_app


def table(d: Director, league: str) -> list[tuple[str, float]]:
    data = d_board(d).table(league)
    return [(r["name"], r["points"]) for r in data["standings"]]


def d_board(d: Director):  # the board the web app serves
    from kiosk.director.views.leagues import LeagueBoard
    return LeagueBoard(d.service.repo)


def test_each_formula_gives_the_points_worked_out_by_hand(tmp_path: Path) -> None:
    d = played(tmp_path)
    # places: e1 A B C D (4 entrants), e2 B C D E A (5), e3 D C E (3)
    # sqrt: 10 * sqrt(entrants / place), each result to 2 decimals
    # A: e1 20.00 + e2 10.00            B: e1 14.14 + e2 22.36
    # C: e1 11.55 + e2 15.81 + e3 12.25 D: e1 10.00 + e2 12.91 + e3 17.32
    # E: e2 11.18 + e3 10.00
    assert table(d, "season") == [("D", 40.23), ("C", 39.61), ("B", 36.5), ("A", 30.0),
                                  ("E", 21.18)]
    # table 25/18/15/12 (0 after), best 2 of each: A 25+0, B 18+25, C 18+18 (of 15, 18,
    # 18), D 25+15 (of 12, 15, 25), E 12+15
    assert table(d, "table") == [("B", 43.0), ("D", 40.0), ("C", 36.0), ("E", 27.0),
                                 ("A", 25.0)]
    # 100 * (entrants - place + 1) / entrants + buy_in / 100, e1 (buy-in 100) and e3 (50)
    # A 100 + 1; B 75 + 1; C 50 + 1 + 66.67 + 0.5; D 25 + 1 + 100 + 0.5; E 33.33 + 0.5
    assert table(d, "custom") == [("D", 126.5), ("C", 118.17), ("A", 101.0), ("B", 76.0),
                                  ("E", 33.83)]
    # everyone 10 a result: ties broken by the better finishes. C and D have 30: D's
    # best is a 1st, C's a 2nd. A, B and E have 20: B has 1st and 2nd, A 1st and 5th,
    # E two 4ths.
    assert table(d, "flat") == [("D", 30.0), ("C", 30.0), ("B", 20.0), ("A", 20.0),
                                ("E", 20.0)]
    line = d_board(d).table("season")["standings"][0]
    assert (line["events"], sorted(line["places"]), line["rank"]) == (3, [1, 3, 4], 1)
    assert {r["event"] for r in line["results"]} == {"e1", "e2", "e3"}
    d.store.close()
    # the same after a replay of the log
    again = Director(load_director_config(tmp_path / "room.toml"), clock=lambda: 5000.0)
    assert table(again, "season")[0] == ("D", 40.23)
    again.store.close()


def test_the_standings_are_public_and_the_terminal_prints_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = played(tmp_path)

    async def go() -> tuple[dict, dict, int, str]:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        try:
            index = await (await client.get("/p/leagues.json")).json()
            season = await (await client.get("/p/league/season.json")).json()
            missing = await client.get("/p/league/nope.json")
            page = await (await client.get("/p/league/season")).text()
            return index, season, missing.status, page
        finally:
            await client.close()

    index, season, missing, page = asyncio.run(go())
    assert [lg["league"] for lg in index["leagues"]] == ["season", "table", "custom", "flat"]
    assert season["title"] == "Season points" and "tie_rule" in season
    assert missing == 404 and 'data-league="season"' in page
    d.store.close()
    assert cli.main(["league", "--db", str(tmp_path / "room.db"), "season", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["standings"] == season["standings"]
    assert cli.main(["league", "--db", str(tmp_path / "room.db"), "table", "--csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "rank,name,points,events,counted,places" and rows[1].startswith("1,B,43")
    assert cli.main(["league", "--db", str(tmp_path / "room.db"), "nope"]) == 2
    assert "no league 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize(("expression", "why"), [
    ("100 / (place - 1)", "line 13: 100 / (place - 1) divides by zero"),
    ("prize / buy_in", "divides by zero"),
    ("entrants +", "does not parse"),
    ("__import__('os').system('true')", "is not allowed in a formula"),
    ("open('x')", "unknown function 'open'"),
    ("place ** entrants", "a power is at most 10"),
    ("log(place - 1)", "math domain error"),
    ("players / place", "unknown name 'players'"),
])
def test_a_bad_formula_is_refused_when_the_file_is_loaded(tmp_path: Path, expression: str,
                                                          why: str) -> None:
    (tmp_path / "room.toml").write_text(
        '[room]\nname = "casino"\n\n[[events]]\nname = "e1"\n\n'
        f'[[leagues]]\nname = "x"\n\n[[leagues]]\nname = "bad"\nformula = "expression"\n'
        f"expression = {json.dumps(expression)}\n")
    with pytest.raises(ConfigError, match=r"leagues\.1\.expression") as err:
        load_director_config(tmp_path / "room.toml")
    assert why in str(err.value)


def test_one_result_updated_gives_the_table_a_full_recompute_gives() -> None:
    rng = random.Random(7)
    events = []
    for e in range(40):
        field = rng.sample(range(300), rng.randint(5, 60))
        events.append(EventResult(f"e{e}", "", "event", float(e), rng.choice([0, 50, 100]),
                                  len(field), tuple(Result(f"p{p}", f"P{p}", i + 1,
                                                           rng.choice([0, 100]), 0)
                                                    for i, p in enumerate(field))))
    spec = LeagueSpec("s", "S", formula("expression", "sqrt(entrants) * 10 / place + "
                                                      "prize / 100"), best=5)
    live = Standings(spec)
    live.recompute(events[:-1])
    changed = events[3]
    fixed = EventResult(changed.name, "", "event", changed.finished_at, changed.buy_in,
                        changed.entrants, changed.results[::-1])
    live.update(events[-1], events[-1].name)
    live.update(fixed, fixed.name)
    full = Standings(spec)
    full.recompute([*events[:3], fixed, *events[4:]])
    assert [ln.to_dict() for ln in live.table] == [ln.to_dict() for ln in full.table]
