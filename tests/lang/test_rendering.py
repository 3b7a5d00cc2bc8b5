"""Who reads in which language, and how a message key, a number, a blind, money and a
time read in each: the rendering every screen and slip goes through."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError, NeedsTable, RuleError
from kiosk.base.texts import M_, Msg
from kiosk.config.room import load_director_config
from kiosk.core.play.penalties import decide_penalty
from kiosk.director.mqtt.speech import Speech
from kiosk.lang.catalogue import catalogue
from kiosk.lang.codes import UnknownLanguage, check, negotiate
from kiosk.lang.extract import extract_html, extract_kv
from kiosk.lang.formats import Formats
from kiosk.lang.pages import PLAYER_FILES, PLAYER_KEYS, catalogue_json
from kiosk.lang.pseudo import is_marked, pseudo
from kiosk.protocol.messages import check as check_message
from kiosk.rules.loader import load_profile


@pytest.mark.parametrize(("code", "chips", "blinds", "money", "clock"), [
    ("en", "12,500", "1,000/2,000", "€1,500", "21:35"),
    ("de", "12.500", "1.000/2.000", "1.500\xa0€", "21:35"),
    ("fr", "12\u202f500", "1\u202f000 / 2\u202f000", "1\u202f500\xa0€", "21:35"),
    ("cs", "12\xa0500", "1\xa0000 / 2\xa0000", "1\xa0500\xa0€", "21:35"),
    ("es", "12.500", "1.000/2.000", "1.500\xa0€", "21:35"),
    ("pt_BR", "12.500", "1.000/2.000", "€\xa01.500", "21:35"),
    ("zh_Hans", "12,500", "1,000/2,000", "€1,500", "21:35"),
])
def test_chips_blinds_money_and_times_read_as_each_locale_writes_them(
        code: str, chips: str, blinds: str, money: str, clock: str) -> None:
    f = Formats(code, "Europe/Madrid", "EUR")
    assert (f.chips(12500), f.blinds(1000, 2000), f.money(1500)) == (chips, blinds, money)
    assert f.time(1_699_994_100) == clock        # 20:35 UTC: 21:35 in Madrid
    assert f.blinds(100, 200) == "100/200"       # small blinds need no spaces


def test_a_time_follows_the_rooms_zone_and_the_locales_clock() -> None:
    t = 1_700_000_000                      # 22:13 UTC
    assert Formats("en", "Europe/Prague").time(t) == "23:13"
    assert Formats("de", "America/New_York").time(t) == "17:13"
    assert Formats("zh_Hans", "Asia/Macau").time(t) == "06:13"


def test_places_read_as_each_language_writes_them() -> None:
    assert [Formats(c).ordinal(18) for c in ("en", "de", "fr", "es", "pt_BR", "cs",
                                             "zh_Hans")] == \
        ["18th", "18.", "18e", "18.º", "18º", "18.", "第18"]
    assert [Formats("en").ordinal(n) for n in (1, 2, 3, 11, 22)] == \
        ["1st", "2nd", "3rd", "11th", "22nd"]


def test_a_message_key_renders_in_each_language_with_plural_forms() -> None:
    m = NeedsTable("daily", 3).msg
    assert catalogue("en").render(m) == "daily needs 3 more tables: grant them from the " \
        "room's pool"
    assert catalogue("cs").render(m) == "daily potřebuje 3 další stoly: přidělte je ze sálu"
    assert catalogue("cs").render(NeedsTable("daily", 5).msg).startswith(
        "daily potřebuje 5 dalších stolů")
    assert catalogue("de").render(NeedsTable("d", 1).msg).startswith("d braucht 1 weiteren")
    nested = M_("hand.holding", "table {table} must not deal now: {why}", table=4,
                why=M_("hold.breaking", "the table is breaking"))
    assert catalogue("de").render(nested) == \
        "Tisch 4 darf jetzt nicht austeilen: der Tisch wird aufgelöst"
    assert catalogue("zh_Hans").render(nested) == "牌桌 4 现在不得发牌:本桌正在拆桌"
    assert "«" in catalogue("en_XA").render(nested)


def test_a_refusal_keeps_its_key_across_processes_and_reads_english_in_logs() -> None:
    exc = RuleError(M_("seat.empty", "table {table} seat {seat} is empty", table=3, seat=4))
    assert str(exc) == "table 3 seat 4 is empty"
    back = pickle.loads(pickle.dumps(exc))
    assert back.msg == exc.msg and str(back) == str(exc)
    assert catalogue("fr").render(back.msg) == "table 3 : le siège 4 est vide"
    plain = RuleError("an old refusal in English")
    assert plain.msg is None
    fr = catalogue("fr")
    before = fr.missing()
    assert fr.render(str(plain)) == "an old refusal in English"   # shown, and counted
    assert fr.missing() == before + 1


def test_a_penalty_carries_its_key_and_the_english_the_log_keeps() -> None:
    d = decide_penalty(load_profile("tda-2017").penalties, "rounds", 2, 7, 0)
    assert d.text == "2 rounds = 14 hands"
    assert catalogue("de").render(d.msg) == "2 Runden = 14 Hände"
    assert catalogue("cs").render(decide_penalty(load_profile("tda-2017").penalties,
                                                 "hands", 3, 7, 0).msg) == "3 hry"


def test_the_plan_says_each_tables_language_and_older_kiosks_read_the_rooms(
        tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text('[room]\nname = "rozvadov"\ntables = 20\nlanguages = ["cs", "de", '
                    '"en"]\ntable_languages = { "12" = "de" }\ntimezone = "Europe/Prague"\n'
                    'currency = "CZK"\n\n[[dealers.roster]]\nname = "Wei"\nlanguage = '
                    '"zh-Hans"\n')
    cfg = load_director_config(path)
    assert (cfg.language, cfg.table_language(12), cfg.table_language(3)) == ("cs", "de", "cs")
    speech = Speech(cfg)
    hold = M_("hold.breaking", "the table is breaking")
    body = {"table": 3, "rev": 1, "event": "main", "seats": {}, "moves_out": [],
            "moves_in": [], "hold_reason": str(hold), "hold_msg": hold,
            "dealer": {"dealer": "Wei", "outgoing_to": "Table 4",
                       "outgoing_to_msg": M_("dealer.to_table", "Table {table}", table=4)}}
    out = check_message("plan", speech.plan(3, body))
    assert out["language"] == "cs" and out["dealer"]["language"] == "zh_Hans"
    assert out["hold_reason"] == "stůl se ruší"          # what an older kiosk shows
    assert out["hold_msg"] == {"key": "hold.breaking"}
    assert out["dealer"]["outgoing_to"] == "Stůl 4"


@pytest.mark.parametrize(("text", "key"), [
    ('languages = ["de", "klingon"]', "room.languages.1"),
    ('languages = []', "room.languages"),
    ('table_languages = { "3" = "xx" }', "room.table_languages.3"),
    ('table_languages = { "30" = "de" }', "room.table_languages.30"),
    ('currency = "XYZ"', "room.currency"),
])
def test_an_unknown_language_in_room_toml_is_refused_naming_the_key(
        tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "room.toml"
    path.write_text(f'[room]\nname = "r"\ntables = 8\n{text}\n')
    with pytest.raises(ConfigError) as err:
        load_director_config(path)
    assert err.value.key == key
    assert "room.toml" in str(err.value)


def test_an_unknown_language_in_the_roster_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text('[room]\nname = "r"\n\n[[dealers.roster]]\nname = "Ann"\n'
                    'language = "elvish"\n')
    with pytest.raises(ConfigError, match="unknown language 'elvish': one of en, es, de"):
        load_director_config(path)


def test_a_phone_gets_the_language_it_asks_for_else_the_rooms() -> None:
    offered = ["cs", "de", "en", "zh_Hans"]
    assert negotiate("de-AT,de;q=0.9,en;q=0.5", offered, "cs") == "de"
    assert negotiate("ja-JP,ja;q=0.9", offered, "cs") == "cs"        # unshipped: default
    assert negotiate("fr;q=0.9,en;q=0.8", offered, "cs") == "en"     # not offered here
    assert negotiate("zh-CN,zh;q=0.9", offered, "cs") == "zh_Hans"
    assert negotiate("zh-TW", offered, "cs") == "cs"                 # not Simplified
    assert negotiate("", offered, "de") == "de"
    assert negotiate("en;q=0,de", offered, "cs") == "de"
    assert check("pt-br") == "pt_BR" and check("zh_CN") == "zh_Hans"
    with pytest.raises(UnknownLanguage):
        check("en_XA")                       # the pseudo-locale is for tests only


def test_the_pseudo_locale_marks_and_lengthens_and_keeps_placeholders() -> None:
    text = "Seat {seat}: bounties {amount}"
    p = pseudo(text)
    assert is_marked(p) and "{seat}" in p and "{amount}" in p
    assert len(p) >= len(text) * 1.35
    assert not is_marked(text)


def test_a_page_marks_its_strings_and_gets_its_catalogue_as_json() -> None:
    html = io.BytesIO(b'<h2 data-i18n>Players left</h2><input data-i18n-attr="placeholder"'
                      b' placeholder="Your name"><p>not marked</p>')
    assert [m[2] for m in extract_html(html, {}, [], {})] == ["Players left", "Your name"]
    kv = io.BytesIO(b'    text: tr._("NEW\\nHAND")\n    text: "raw"\n')
    assert [m[2] for m in extract_kv(kv, {}, [], {})] == ["NEW\nHAND"]
    data = catalogue_json("de")
    assert data["language"] == "de" and data["messages"]["TABLE CLOSED"] == \
        "TISCH GESCHLOSSEN"
    assert data["messages"]["{n} card"] == {"one": "{n} Karte", "other": "{n} Karten"}
    assert data["keys"]["hold.breaking"] == "der Tisch wird aufgelöst"
    cs = catalogue_json("cs")["messages"]["{n} card"]
    assert cs == {"one": "{n} karta", "few": "{n} karty", "other": "{n} karet"}
    # a phone's download: the page's texts and the refusals a player meets (every other
    # refusal comes said in the phone's language already, as the reply's `error`)
    phone = catalogue_json("zh_Hans", PLAYER_KEYS, PLAYER_FILES)
    assert len(str(phone).encode()) < 20_000
    assert "seat.two_letters" in phone["keys"] and "role.clock" not in phone["keys"]
    assert "role.clock" in catalogue_json("zh_Hans")["keys"]     # the floor's pages


def test_the_wire_refuses_a_malformed_key() -> None:
    import msgspec
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"key": "Not A Key"}, Msg)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"key": "hold.x", "args": {"a": [1]}}, Msg)
