"""Who reads in which language, kept where the room keeps people: a player's own language
at registration (the CSV's column, the desk's register command, a phone's reservation)
used for that player's slips from the desk's printer; a floor login's own language in the
floor users file, on the login and snapshot JSON; the demo room in a language; and the
texts shown in English for want of a translation counted on /api/health and the doctor's
lines. An unknown code is refused with the line or key that holds it. Against a real room
director and its HTTP app; the slips read back from the bytes its `file:` printer got."""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from languages_kit import PASSWORD, room
from reservations_kit import served

from kiosk.appliance.lang_checks import shown_in_english
from kiosk.base.errors import ConfigError
from kiosk.commands.main import main
from kiosk.config import floor_users
from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.lang.catalogue import catalogue, reload
from kiosk.printer import escpos
from kiosk.printer.escpos import Raster
from kiosk.printer.slip import Line

COLUMNS = 42
CSV = ("name,card,language\nAnna Nováková,C1,cs\nWang Wei,C2,zh-CN\nBo Berg,C3,\n"
       "Xavier,C4,klingon\n")


def slips(d: Director, tmp_path: Path) -> list[list[escpos.Printed]]:
    assert d.printer is not None and d.printer.spooler.wait_idle(20)
    return escpos.decode((tmp_path / "paper.bin").read_bytes(), COLUMNS)


def texts(slip: list[escpos.Printed]) -> list[str]:
    return [ln.text for ln in slip if isinstance(ln, Line)]


def test_a_csv_keeps_each_players_language_and_their_slips_speak_it(tmp_path: Path) -> None:
    d = room(tmp_path)
    try:
        added, errors = d.import_csv(CSV, "sunday")
        assert added == 3
        assert [str(e) for e in errors] == ["line 5: language: unknown language 'klingon': "
                                            "one of en, es, de, fr, cs, pt_BR, zh_Hans"]
        tour = d.events["sunday"].tour
        spoken = {p.name: p.language for p in tour.players.values()}
        assert spoken == {"Anna Nováková": "cs", "Wang Wei": "zh_Hans", "Bo Berg": ""}
        rooms = {p.name: p.language for p in d.service.repo.room.players.values()}
        assert rooms["Wang Wei"] == "zh_Hans"          # the room's record keeps it too
        d.act(commands.Start(), event="sunday")
        found = slips(d, tmp_path)
        anna = [texts(s) for s in found if "Anna Nováková" in texts(s)]
        assert {t[1] for t in anna} == {"POTVRZENÍ", "KARTA MÍSTA"}
        assert any("Buy-in" in line for t in anna for line in t)
        bo = [texts(s) for s in found if "Bo Berg" in texts(s)]
        assert {t[1] for t in bo} == {"QUITTUNG", "PLATZKARTE"}    # the room's default
        wei = [s for s in found if not ({"Anna Nováková", "Bo Berg"} & set(texts(s)))]
        assert len(wei) == 2 and all(sum(isinstance(ln, Raster) for ln in s) >= 3 for s in wei)
    finally:
        d.store.close()


def test_the_desks_register_command_and_a_phones_reservation_keep_a_language(
        tmp_path: Path) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        r = await client.post("/api/login", json={"user": "td", "password": PASSWORD})
        login = await r.json()
        assert login["language"] is None              # td has none: the room's
        hdr = {"X-CSRF-Token": login["csrf"]}
        r = await client.post("/api/act?event=sunday", headers=hdr, json={
            "kind": "register", "name": "Élodie", "language": "fr"})
        assert r.status == 200, await r.text()
        r = await client.post("/api/act?event=sunday", headers=hdr, json={
            "kind": "register", "name": "Nobody", "language": "xx"})
        refused = await r.json()                  # td reads the room's language, German
        assert r.status == 400 and "language: unbekannte Sprache 'xx'" in refused["error"]
        assert refused["error_msg"]["key"] == "language.unknown"
        r = await client.post("/p/sunday/register", json={"name": "João Silva"},
                              headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
        code = (await r.json())["code"]
        assert r.status == 201 and d.bookings.book.codes[code].language == "pt_BR"
        r = await client.post("/p/sunday/register", json={"name": "Ji", "language": "ja"},
                              headers={"Accept-Language": "en"})    # td's browser: German
        assert r.status == 400 and "unbekannte Sprache 'ja'" in (await r.json())["error"]
        r = await client.post("/api/act?event=sunday", headers=hdr, json={
            "kind": "confirm_reservation", "code": code})
        assert r.status == 200

    try:
        served(d, go)
        spoken = {p.name: p.language for p in d.events["sunday"].tour.players.values()}
        assert spoken == {"Élodie": "fr", "João Silva": "pt_BR"}
    finally:
        d.store.close()


def test_a_floor_login_keeps_its_own_language(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    d = room(tmp_path)

    async def go(client: TestClient) -> None:
        r = await client.post("/api/login", json={"user": "fl", "password": PASSWORD})
        assert (await r.json())["language"] == "cs"
        snap = await (await client.get("/api/snapshot?event=sunday")).json()
        assert snap["user"] == "fl" and snap["language"] == "cs"

    try:
        served(d, go)
    finally:
        d.store.close()
    users = tmp_path / floor_users.FILE
    monkeypatch.setattr("sys.stdin", io.StringIO("another-long-1\n"))
    assert main(["floor-user", "add", "td", "--users", str(users), "--language", "zh-CN"]) == 0
    assert floor_users.load_languages(users) == {"fl": "cs", "td": "zh_Hans"}
    assert floor_users.load_roles(users) == {"fl": "floor"}        # kept as they were
    assert main(["floor-user", "list", "--users", str(users)]) == 0
    assert "td (director, zh_Hans)" in capsys.readouterr().out
    assert main(["floor-user", "add", "td", "--users", str(users), "--language", "xx"]) == 2
    assert "--language: unknown language 'xx'" in capsys.readouterr().err
    users.write_text(users.read_text().replace('fl = "cs"', 'fl = "klingon"'))
    with pytest.raises(ConfigError) as err:
        floor_users.load(users)
    assert err.value.key == "languages.fl" and "unknown language 'klingon'" in str(err.value)


def test_the_demo_room_speaks_the_language_asked_for(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    from kiosk.demo import room as demo
    args = argparse.Namespace(players=12, profile="tda-2017", structure="turbo", seed=1,
                              printer=None, language="cs")
    cfg = load_director_config(demo._write_config(tmp_path, args, "mqtt://127.0.0.1:1",
                                                  "127.0.0.1", 8080))
    assert cfg.languages == ("cs", "en") and cfg.table_language(3) == "cs"
    assert main(["demo", "--language", "klingon"]) == 2
    assert "unknown language 'klingon': one of en, es" in capsys.readouterr().err


def test_texts_shown_in_english_are_counted_on_the_health_line(tmp_path: Path) -> None:
    reload()
    d = room(tmp_path)
    try:
        de = catalogue("de")
        assert de.gettext("A sentence no catalogue has") == "A sentence no catalogue has"
        assert de.render({"key": "no.such_key"}, "Worte") == "Worte"
        d.feed.live[3] = {"table": 3, "untranslated": 2}       # a kiosk's live snapshot
        health: dict[str, Any] = {}

        async def go(client: TestClient) -> None:
            health.update(await (await client.get("/api/health")).json())

        served(d, go)
        assert health["untranslated"] == {"director": {"de": 2}, "tables": {"3": 2}}
        [line] = shown_in_english(health)
        assert line.status == "WARN" and "de 2" in line.message and "table 3: 2" in line.message
    finally:
        d.store.close()
        reload()


def test_a_dealers_answer_travels_as_a_key_with_the_rooms_words_beside_it(
        tmp_path: Path) -> None:
    d = room(tmp_path)
    try:
        reply = d.dealer_requests.reply("r1", d.dealers.badge(1, "NOT-A-BADGE"))
        assert reply.text == "Unbekannte Karte — Floor fragen"     # the room's default
        assert reply.text_msg is not None and reply.text_msg.key == "dealer.unknown_card"
        assert catalogue("zh_Hans").render(reply.text_msg) == "未知卡 — 请询问现场裁判"
    finally:
        d.store.close()
