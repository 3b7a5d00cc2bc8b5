"""A refusal on the director's web reads in its reader's language: a floor login's own,
else the room's default, a phone's by its `Accept-Language` among the room's languages.
The one error reply carries `error` in that language and `error_msg`, the key and its
arguments, which the page's JSON catalogue renders the same way; the CSV import's errors,
the players' seat lookup and the deal calculator's notes likewise. The command line (the
room client renders `error_msg` in English) and the log keep English. Against a real room
director and its HTTP app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from reservations_kit import Clock, served

from kiosk.config import floor_users
from kiosk.config.room import load_director_config
from kiosk.director.service import Director
from kiosk.director.web.client import english_reason
from kiosk.lang.pages import catalogue_json

PASSWORD = "a-long-one-9"
ROOM = """
[room]
name = "rozvadov"
tables = 4
languages = ["de", "cs", "en"]

[director]
db = "room.db"

[[events]]
name = "main"
structure = "turbo"
seed = 9
seats = 6
"""


def room(tmp_path: Path) -> Director:
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in ("td", "fl", "cash")},
                     {"fl": "floor", "cash": "cashier"}, {"fl": "cs"})
    (tmp_path / "room.toml").write_text(ROOM)
    return Director(load_director_config(tmp_path / "room.toml"), clock=Clock())


async def login(client: TestClient, user: str) -> dict[str, str]:
    r = await client.post("/api/login", json={"user": user, "password": PASSWORD})
    return {"X-CSRF-Token": (await r.json())["csrf"]}


def page_render(code: str, error_msg: dict[str, Any]) -> str:
    """What a page does with `error_msg`: its text from the JSON catalogue's `keys`, the
    arguments filled in (these carry no counts: one form)."""
    text = catalogue_json(code)["keys"][error_msg["key"]]
    assert isinstance(text, str)
    return text.format(**error_msg.get("args", {}))


def test_a_refused_action_reads_in_the_readers_language_and_keeps_its_key(
        tmp_path: Path) -> None:
    d = room(tmp_path)
    seen: dict[str, Any] = {}

    async def go(client: TestClient) -> None:
        r = await client.post("/api/act?event=main", json={"kind": "start"},
                              headers={"Accept-Language": "cs"})    # no login at all
        seen["anon"] = (r.status, await r.json())
        r = await client.get("/api/dealers", headers={"Accept-Language": "en-GB,en;q=0.9"})
        seen["en"] = (r.status, await r.json())
        r = await client.get("/api/dealers", headers={"Accept-Language": "ja"})
        seen["ja"] = (r.status, await r.json())
        cash = await login(client, "cash")              # no language of its own: the room's
        r = await client.post("/api/act?event=main", headers=cash,
                              json={"kind": "clock", "action": "resume"})
        seen["de"] = (r.status, await r.json())
        fl = await login(client, "fl")                  # Czech, its own
        r = await client.post("/api/act?event=main", headers=fl,
                              json={"kind": "bust", "player": "p1"})
        seen["cs"] = (r.status, await r.json())
        r = await client.post("/api/act?event=nowhere", headers=fl,
                              json={"kind": "register", "name": "Ann"})
        seen["cs-404"] = (r.status, await r.json())

    try:
        served(d, go)
    finally:
        d.store.close()
    status, body = seen["de"]
    assert status == 403
    assert body["error"] == ("Ihre Rolle (cashier) darf die Uhr nicht führen: fragen Sie "
                             "einen Director")
    assert body["error_msg"] == {"key": "role.clock", "args": {"role": "cashier"}}
    assert page_render("de", body["error_msg"]) == body["error"]
    assert english_reason(body) == \
        "your role (cashier) may not run the clock: ask a director"     # the CLI's words
    status, body = seen["cs"]
    assert (status, body["error_msg"]["key"]) == (400, "player.unknown")
    assert body["error"] == "neznámý hráč 'p1'"
    status, body = seen["cs-404"]
    assert status == 404 and body["error"] == \
        "žádný turnaj 'nowhere' v tomto sále (turnaje: main)"
    status, body = seen["anon"]
    assert status == 401 and body["error_msg"] == {"key": "login.act"}
    assert body["error"] == "přihlaste se jako personál floor, abyste mohli jednat"
    assert seen["en"][1]["error"] == "log in as floor staff to see the dealers"
    assert seen["ja"][1]["error"] == \
        "melden Sie sich als Floor-Personal an, um die Dealer zu sehen"   # the room's


def test_the_import_the_seat_lookup_and_the_deal_read_in_the_readers_language(
        tmp_path: Path) -> None:
    d = room(tmp_path)
    seen: dict[str, Any] = {}

    async def go(client: TestClient) -> None:
        r = await client.get("/p/main/seat?name=x", headers={"Accept-Language": "de"})
        seen["seat"] = (r.status, await r.json())
        r = await client.get("/api/deal?event=main", headers={"Accept-Language": "cs"})
        seen["deal"] = await r.json()
        fl = await login(client, "fl")
        r = await client.post("/api/import?event=main", data="name,card\nAnn,C1\nBo,C1\n",
                              headers={**fl, "Content-Type": "text/csv"})
        seen["import"] = await r.json()

    try:
        served(d, go)
        added, errors = d.import_csv("name,card\nCy,C1\n", "main")   # the command line's
    finally:
        d.store.close()
    body = seen["import"]
    assert body["added"] == 1 and body["errors"] == ["řádek 3: karta C1 už patří hráči Ann"]
    assert body["errors_msg"][0]["key"] == "import.line"
    assert body["errors_msg"][0]["args"]["why"]["key"] == "card.taken"
    assert english_reason({"error": body["errors"][0], "error_msg": body["errors_msg"][0]}) \
        == "line 3: card C1 already belongs to Ann"      # nested keys, in English
    assert (added, [str(e) for e in errors]) == (0, ["line 2: card C1 already belongs to Ann"])
    status, body = seen["seat"]
    assert status == 400 and body["error"] == \
        "geben Sie mindestens zwei Buchstaben Ihres Namens ein"
    assert body["error_msg"] == {"key": "seat.two_letters"}
    assert seen["deal"]["error"] == "dohoda potřebuje aspoň dva zbývající hráče"
    assert seen["deal"]["error_msg"] == {"key": "money_deal.two_left"}
