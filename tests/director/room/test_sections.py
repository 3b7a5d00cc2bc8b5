"""The floor's sections: written as ranges in room.toml, checked when the file loads, set
by the director at the first start, then edited from the room page (a director's
action, logged with the user) and kept across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from web_kit import LOGINS, PASSWORD, answer, login, served

from kiosk.base.errors import ConfigError
from kiosk.config import floor_users
from kiosk.config.room import load_director_config
from kiosk.core.model import room_events as re_
from kiosk.director.service import Director
from kiosk.director.views.section_view import section_view

ROOM = """
[room]
name = "festival"
tables = 200

[director]
db = "room.db"

[[sections]]
name = "Pavilion"
tables = "1-60"

[[sections]]
name = "Amazon Blue"
tables = "61-120, 125"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "room.toml"
    path.write_text(text)
    return path


def director(tmp_path: Path, text: str = ROOM) -> Director:
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in LOGINS},
                     {u: r for u, r in LOGINS.items() if r})
    return Director(load_director_config(write(tmp_path, text)), clock=lambda: 1000.0)


def test_room_toml_sections_are_ranges_in_file_order(tmp_path: Path) -> None:
    cfg = load_director_config(write(tmp_path, ROOM))
    assert [n for n, _ in cfg.sections] == ["Pavilion", "Amazon Blue"]
    assert cfg.sections[0][1] == tuple(range(1, 61))
    assert cfg.sections[1][1] == (*range(61, 121), 125)


@pytest.mark.parametrize(("extra", "key", "why"), [
    ('[[sections]]\nname = "Rail"\ntables = "118-130"\n', "sections",
     "tables 118-120, 125 are in section 'Amazon Blue' and 'Rail'"),
    ('[[sections]]\nname = "Rail"\ntables = "195-205"\n', "sections",
     "section 'Rail': tables 201-205 are not the room's (the room has 1-200)"),
    ('[[sections]]\nname = "Rail"\ntables = "130-x"\n', "sections.2.tables",
     "'130-x' is not a table or a range"),
    ('[[sections]]\nname = "Rail"\ntables = "140-130"\n', "sections.2.tables",
     "from a low table to a higher one"),
    ('[[sections]]\nname = "Pavilion"\ntables = "130"\n', "sections",
     "two sections are named 'Pavilion'"),
])
def test_a_bad_section_is_refused_when_the_file_loads(tmp_path: Path, extra: str, key: str,
                                                      why: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_director_config(write(tmp_path, ROOM + extra))
    assert err.value.key == key and why in str(err.value), str(err.value)


def test_the_director_sets_the_files_sections_once_and_the_floor_edits_them(
        tmp_path: Path) -> None:
    d = director(tmp_path)
    assert list(d.room.floor_sections.sections) == ["Pavilion", "Amazon Blue"]
    assert d.room.floor_sections.section_of(125) == "Amazon Blue"
    assert d.room.floor_sections.section_of(130) is None

    async def go(client: TestClient) -> None:
        status, view = await answer(await client.get("/api/room/sections"))
        assert status == 200 and view["set_by"] == "room.toml"
        assert [(s["name"], s["ranges"]) for s in view["sections"]] == \
            [("Pavilion", "1-60"), ("Amazon Blue", "61-120, 125")]
        body = {"sections": [{"name": "Pavilion", "tables": "1-50"},
                             {"name": "Amazon Blue", "tables": "51-120"},
                             {"name": "Rail", "tables": "121-200"}]}
        status, ans = await answer(await client.post("/api/room/sections", json=body))
        assert status == 401, "a visitor sets nothing"
        fl = await login(client, "fl")
        status, ans = await answer(await client.post("/api/room/sections", json=body,
                                                     headers=fl))
        assert status == 403 and "director" in ans["error"]
        td = await login(client, "td")
        bad = {"sections": [{"name": "A", "tables": "1-50"}, {"name": "B", "tables": "50"}]}
        status, ans = await answer(await client.post("/api/room/sections", json=bad,
                                                     headers=td))
        assert status == 400 and "table 50 is in section 'A' and 'B'" in ans["error"]
        status, ans = await answer(await client.post("/api/room/sections", json=body,
                                                     headers=td))
        assert status == 200 and [s["ranges"] for s in ans["sections"]] == \
            ["1-50", "51-120", "121-200"]

    before = d.store.last_seq
    served(d, go)
    logged = [e for e in d.store.read("room") if isinstance(e, re_.SectionsSet)]
    assert [e.by for e in logged] == ["room.toml", "td"] and d.store.last_seq == before + 1
    stop(d)
    again = director(tmp_path)   # a restart keeps the floor's sections, not the file's
    assert list(again.room.floor_sections.sections) == ["Pavilion", "Amazon Blue", "Rail"]
    assert again.room.floor_sections.section_of(125) == "Rail"
    stop(again)


def stop(d: Director) -> None:
    if d.ha is not None:
        d.ha.close()
    d.store.close()


def test_the_floor_gives_an_event_a_break_order_of_sections_by_name(tmp_path: Path) -> None:
    d = director(tmp_path, ROOM + '\n[[events]]\nname = "day1d"\nstructure = "turbo"\n'
                 'seed = 4\n')
    for i in range(40):
        d.act({"kind": "register", "name": f"P{i}"}, event="day1d")
    d.act({"kind": "start"}, event="day1d")

    async def go(client: TestClient) -> None:
        fl = await login(client, "fl")
        order = {"event": "day1d", "sections": "Amazon Blue, then Pavilion"}
        status, ans = await answer(await client.post("/api/room/break-order", json=order,
                                                     headers=fl))
        assert status == 200 and ans["sections"] == ["Amazon Blue", "Pavilion"], ans
        status, ans = await answer(await client.post(
            "/api/room/break-order", json={"event": "day1d", "sections": ["Ballroom"]},
            headers=fl))
        assert status == 400 and "no section 'Ballroom'" in ans["error"]
        cash = await login(client, "cash")
        status, ans = await answer(await client.post("/api/room/break-order", json=order,
                                                     headers=cash))
        assert status == 403

    served(d, go)
    tour = d.events["day1d"].tour
    assert [n for n, _ in tour.balancing.sections] == ["Amazon Blue", "Pavilion"]
    # the event holds tables 1-5: the Pavilion's, so they break in the Pavilion's order
    assert tour.break_order() == sorted(tour.break_order(), reverse=True)
    stop(d)


CALLS = ROOM.replace('tables = 200\n', 'tables = 200\ncalls_to_room_s = 30\n') + '''
[[events]]
name = "day1d"
structure = "turbo"
seed = 4
'''


def test_a_call_reaches_its_section_first_then_the_room_late_and_says_who_took_it(
        tmp_path: Path) -> None:
    now = [1000.0]
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in LOGINS},
                     {u: r for u, r in LOGINS.items() if r})
    d = Director(load_director_config(write(tmp_path, CALLS)), clock=lambda: now[0])
    d.room_act({"kind": "assign_table", "table": 61, "event": "day1d"}, user="td")
    for i in range(6):
        d.act({"kind": "register", "name": f"P{i}"}, event="day1d")
    d.act({"kind": "start"}, event="day1d")
    assert d.room.tables_of("day1d") == [61]
    rep = {"v": 2, "table": 61, "id": "fc-1", "seq": 1, "ts": 0.0, "kind": "floor_call",
           "data": {"seat": 3}, "event": "day1d"}
    d.act({"kind": "report", "table": 61, "report": rep}, event="day1d")

    def view(section: str | None) -> dict:
        return section_view(d.service.repo, d.feed, now[0], section)

    amazon, pavilion = view("Amazon Blue"), view("Pavilion")
    assert [(c["table"], c["to"], c["late"]) for c in amazon["calls"]] == \
        [(61, "section", False)]
    assert pavilion["calls"] == [], "another section does not hear it yet"
    assert any(n["table"] == 61 and "floor call" in n["why"] for n in amazon["need"])
    now[0] += 31
    late = view("Pavilion")["calls"]
    assert [(c["table"], c["to"], c["late"]) for c in late] == [(61, "room", True)]
    call = late[0]["call"]
    d.act({"kind": "floor_ack", "call": call}, user="fl", event="day1d")
    taken = view(None)["calls"][0]
    assert taken["by"] == "fl" and taken["state"] == "acked" and not taken["late"]
    assert view("Pavilion")["calls"] == [], "answered: back with its own section"
    stop(d)
