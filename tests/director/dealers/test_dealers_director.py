"""The dealers' rotation in the room's director: badges and PINs checked at the director,
pushes that wait for the hand's end, a badge at the wrong table told where to go, the
lockout after five wrong PINs, tables breaking out of the roadmap, and a restart that
folds the same roadmap back from the log, which never holds a badge or a PIN."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dealer_kit import NAMES, ROOM, SALT, Clock, director, hand_start, report, roster, start

from kiosk.commands.main import main
from kiosk.core.model import commands


def test_dealers_badge_in_push_at_a_hand_end_and_a_restart_keeps_the_roadmap(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    d = director(tmp_path, clock)
    start(d)
    road = d.room.roadmap
    assert sorted(road.tables) == [1, 2, 3, 4]
    assert [a["kind"] for a in d.dealers.board()["alerts"]][:4] == ["no_dealer"] * 4
    assert d.dealers.badge(1, "NOT-A-BADGE").text == "Unknown card — ask the floor"
    assert d.dealers.badge(1, "p3").ok is False           # a player's card is no badge
    # ... and the director, which knows where that player sits now, says where (the
    # table's seating directory may lag the plans in a big room)
    p3 = next(p for p in d.events["daily"].tour.players.values() if p.name == "P3")
    assert d.dealers.badge(1, " P3").text == \
        f"Wrong seat — table {p3.table} seat {p3.seat} (P3)"
    # at the player's own table (its plan not there yet) it says so, not "wrong seat"
    assert d.dealers.badge(p3.table, "p3").text == f"P3: seat {p3.seat} here — scan the card again"
    for i in range(4):
        ans = d.dealers.badge(i + 1, f"BADGE-{i}")
        assert ans.ok and ans.text == f"{NAMES[i]} deals table {i + 1}"
    eve = d.dealers.badge(3, "BADGE-4")                    # the string's relief
    assert eve.ok and eve.text == "Eve is in: Table 1"
    assert road.reliefs == {0: "Eve"}
    wrong = d.dealers.badge(3, "BADGE-1")
    assert not wrong.ok and "due at table 2" in wrong.text and "Cy deals it" in wrong.text
    early = d.dealers.badge(1, "BADGE-4")                   # long before the push: wait
    assert not early.ok and "table 1's push is at" in early.text
    assert road.tables[1].dealer == "Ann"
    # the push: due at table 1 first; the hand on is finished first
    clock.t = road.tables[1].push_at or 0.0
    hand_start(d, 1)
    busy = d.dealers.badge(1, "BADGE-4")
    assert not busy.ok and "hand is still on" in busy.text
    assert road.tables[1].dealer == "Ann"
    report(d, 1, "hand_ended", hand=d.events["daily"].tour.tables[1].hand)
    done = d.dealers.badge(1, "BADGE-4")
    assert done.ok and done.where is not None and done.where["text"] == "Table 2"
    assert road.tables[1].dealer == "Eve" and road.downs[0].hands == 1
    # Eve is not due at table 1 twice: two dealers never claim one table
    again = d.dealers.badge(1, "BADGE-0")
    assert not again.ok and "due at table 2" in again.text
    clock.t = max(clock.t + 60, road.tables[2].push_at or 0.0)
    bob = d.dealers.badge(2, "BADGE-0")
    assert bob.ok and bob.where is not None and bob.where["text"] == "Table 3"
    seen = (sorted((n, tb.dealer, tb.push_at) for n, tb in road.tables.items()),
            dict(road.reliefs), road.breaks())
    d.store.close()
    back = director(tmp_path, clock)
    r2 = back.room.roadmap
    assert (sorted((n, tb.dealer, tb.push_at) for n, tb in r2.tables.items()),
            dict(r2.reliefs), r2.breaks()) == seen
    blob = (tmp_path / "room.db").read_bytes()
    assert b"BADGE-" not in blob and b"2468" not in blob
    back.store.close()
    # the records: two downs closed, the staff share (20 entries x 301) split to the cent
    assert main(["dealers", "--db", str(tmp_path / "room.db"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["staff"] == {"daily": 6020}
    assert [(r["dealer"], r["downs"], r["share"]) for r in out["dealers"]] == [
        ("Ann", 1, 3010), ("Bob", 1, 3010)]
    assert [(x["dealer"], x["table"], x["hands"]) for x in out["downs"]] == [
        ("Ann", 1, 1), ("Bob", 2, 0)]
    assert main(["dealers", "--db", str(tmp_path / "room.db"), "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("Ann,1,")


def test_five_wrong_pins_lock_a_dealer_out_until_the_floor_clears_it(tmp_path: Path) -> None:
    clock = Clock()
    d = director(tmp_path, clock)
    start(d)
    assert d.dealers.pin(2, "Bob", "2468").ok               # clocked in at table 2
    for _ in range(5):
        ans = d.dealers.pin(2, "Bob", "1111")
        assert not ans.ok and "Wrong PIN" in ans.text
    assert "locked out" in ans.text
    assert "locked out" in d.dealers.pin(2, "Bob", "2468").text
    assert d.dealers.board()["locked"] == ["Bob"]
    d.room_act({"kind": "dealer_pin_clear", "dealer": "Bob"}, user="floor")
    assert d.dealers.pin(2, "Bob", "2468").ok
    assert d.dealers.pin(2, "Ann", "2468").text.startswith("Ann has no PIN")


def test_the_events_break_holds_the_push_clock_and_its_end_lets_it_go(
        tmp_path: Path) -> None:
    clock = Clock()
    (tmp_path / "room.toml").write_text(       # two-hour downs: the break comes first
        ROOM.format(salt=SALT).replace("down_minutes = 30", "down_minutes = 120") + roster())
    d = director(tmp_path, clock)
    start(d)
    for i in range(5):
        assert d.dealers.badge(i % 4 + 1, f"BADGE-{i}").ok
    road, tour = d.room.roadmap, d.events["daily"].tour
    t = clock.t
    while not tour.levels.in_break(t):            # the structure's first break
        t += 60
    clock.t = t + 1
    due = road.tables[4].push_at
    assert due is not None and due > clock.t
    d.dealers.tick()
    assert "daily" in road.held and road.tables[4].push_at is None
    assert road.due(clock.t + 10_000) == []       # no push falls due in the break
    while tour.levels.in_break(clock.t):
        clock.t += 60
    d.dealers.tick()
    assert "daily" not in road.held
    # the down goes on where it stopped: its push as far off as when the break began
    assert road.tables[4].push_at == clock.t + (due - (t + 1))
    assert d.internal_errors == 0


def test_a_dealers_badge_is_refused_as_a_players_card_and_a_players_card_as_a_badge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table would take the one for the other: each side refuses with the reason."""
    from kiosk.base.errors import RuleError

    clock = Clock()
    d = director(tmp_path, clock)
    with pytest.raises(RuleError, match="this card is a dealer's badge"):
        d.act(commands.Register(name="Zed", card="BADGE-2"), event="daily")
    with pytest.raises(RuleError, match="this card is a dealer's badge"):
        d.room_act({"kind": "add_player", "name": "Zed", "card": " BADGE-3"})
    assert not d.events["daily"].tour.by_card and not d.room.people.by_card
    start(d)                                      # players P0.. hold cards p0..
    d.room_act({"kind": "add_player", "name": "Yan", "card": "room-7"})
    assert d.room.people.by_card["room-7"]
    for card in ("p5", "room-7"):
        with pytest.raises(RuleError, match=r"this badge is player .*'s card"):
            d.dealers.edit_roster("add", "Gus", badge=card)
    assert "Gus" not in (tmp_path / "room.toml").read_text()
    assert main(["dealer", "add", "Gus", "--config", str(tmp_path / "room.toml"),
                 "--badge", "p7"]) != 0                    # the command line, on the log
    assert "this badge is player" in capsys.readouterr().err
    assert "Gus" not in (tmp_path / "room.toml").read_text()
    assert str(d.dealers.edit_roster("add", "Gus", badge="BADGE-9")) == "added Gus"
    with pytest.raises(RuleError, match="this card is a dealer's badge"):
        d.room_act({"kind": "update_player", "player": d.room.people.by_card["room-7"],
                    "card": "BADGE-9"})
    d.store.close()
