"""`pokerkiosk demo`: the whole room on one machine, with either broker."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from demo_kit import get, start_demo, stop
from floor_client import FloorClient
from waiting import wait_for

from kiosk.config import floor_users
from kiosk.config.files import load_table_config
from kiosk.director.log.store import Store
from kiosk.table.service import TableService


def snapshot(url: str) -> dict:
    """The dashboard's snapshot, or {} while its server is still starting."""
    return get(url, "api/snapshot")


def hands(db: Path) -> dict[str, int]:
    """Hands dealt in each event of the demo's room log."""
    store = Store(db)
    try:
        return {name: sum(1 for e in store.read(name) if e["kind"] == "hand_started")
                for name in store.event_streams()}
    finally:
        store.close()


class Statuses:
    """The room's tables' retained statuses, as the broker keeps them."""

    def __init__(self, broker_url: str) -> None:
        self.online: dict[int, bool] = {}
        self.client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=f"demo-watch-{time.monotonic_ns()}")
        self.client.on_connect = lambda c, *_: c.subscribe("pk/v2/demo/table/+/status", 1)
        self.client.on_message = self._status
        self.client.connect("127.0.0.1", int(broker_url.split(":")[-1].split("?")[0]))
        self.client.loop_start()

    def _status(self, c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        if m.topic.endswith("/status"):    # the embedded broker sends more than asked
            self.online[int(m.topic.split("/")[4])] = json.loads(m.payload)["state"] == "online"

    def up(self) -> set[int]:
        return {n for n, up in self.online.items() if up}

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_demo_runs_a_live_room(tmp_path: Path, broker: str) -> None:
    """Two events at once, a daily and a satellite to Sunday's main event (announced,
    not open), on the room's tables with two left free."""
    proc, found = start_demo(tmp_path, "--broker", broker)
    banner = (tmp_path / "demo.out").read_text()
    assert re.search(r"^room\s+Demo Room: 6 tables, free 5, 6$", banner, re.M), banner
    assert re.search(r"^event\s+Daily 100 \(daily\): tables 1, 2, 3$", banner, re.M)
    assert re.search(r"^event\s+Satellite to Sunday \(sunday-sat\): tables 4$", banner, re.M)
    assert re.search(r"^event\s+Sunday Main \(sunday\): tables none$", banner, re.M)
    # the demo's events are new ones: the default profile, and it says so
    assert re.search(r"^rules\s+TDA 2024 \(tda-2024\), the default for new events$", banner,
                     re.M), banner
    try:
        url = found["dashboard"]
        # every kiosk of the room is up, the two free ones showing their idle screen
        statuses = Statuses(found["broker"])
        wait_for(lambda: statuses.up() == set(range(1, 7)), timeout=60)
        statuses.close()
        snap = wait_for(lambda: (s := snapshot(url)) and len(s["tables"]) == 3
                        and all(t["online"] and t["hand"] >= 3 for t in s["tables"]) and s)
        assert snap["summary"]["started"] and snap["summary"]["players_left"] <= 27
        # the simulated tables press CLOCK and FLOOR too: calls reach the floor's queue
        wait_for(lambda: (s := snapshot(url)) and s["calls"]["floor"] and s["calls"]["clock"],
                 timeout=60)
        with urllib.request.urlopen(url + "clock", timeout=5) as r:
            assert b"/static/live.js" in r.read()
        # the demo's dealers badge in like real ones: each table in play has its dealer,
        # each string its relief, on the break room's roadmap
        road = wait_for(lambda: (r := get(url, "api/dealers/public")) and r["tables"]
                        and all(t["dealer"] for t in r["tables"])
                        and all(s["relief"] for s in r["strings"]) and r, timeout=30)
        assert len({t["dealer"] for t in road["tables"]}) == len(road["tables"])
        # the banner's two logins: the floor's role, which may not open events, and the
        # director's, which may
        assert re.search(r"^dashboard .*floor / floor the floor's role, director / "
                         r"director the director's", banner, re.M), banner
        floor = FloorClient(url, floor_users.DEMO_USER, floor_users.DEMO_PASSWORD)
        assert floor.get("api/room")["role"] == "floor"
        refused = floor.post("api/room/events", {"name": "extra", "structure": "turbo"})
        assert not refused["ok"] and "your role (floor)" in refused["error"]
        director = FloorClient(url, floor_users.DEMO_DIRECTOR,
                               floor_users.DEMO_DIRECTOR_PASSWORD)
        assert director.get("api/room")["role"] == "director"
        # the players' page the demo prints follows the same event
        with urllib.request.urlopen(found["players"] + "/state.json", timeout=5) as r:
            clock = json.load(r)["parts"]["clock"]
        assert clock["started"] and clock["entries"] == 27
    finally:
        assert stop(proc) == 0
    dealt = hands(tmp_path / "demo" / "demo.db")
    assert dealt["daily"] >= 9 and dealt["sunday-sat"] >= 3 and dealt["sunday"] == 0


def test_a_real_kiosk_plays_table_1_of_the_demo(tmp_path: Path) -> None:
    proc, found = start_demo(tmp_path, "--kiosk", "yes")
    try:
        url = found["dashboard"]
        cfg = load_table_config(tmp_path / "demo" / "table-1.toml")
        kiosk = TableService(cfg, resend_s=1.0, debounce_s=0.0)
        kiosk.start()
        wait_for(lambda: sum(1 for s in kiosk.view().seats if s.name) >= 8)
        others = wait_for(lambda: (s := snapshot(url)) and all(
            t["hand"] >= 2 for t in s["tables"] if t["table"] != 1) and s)
        assert next(t for t in others["tables"] if t["table"] == 1)["hand"] == 0
        for _ in range(2):                       # the dealer plays two hands by touch
            assert not kiosk.act("new_hand").refused
            assert not kiosk.act("end_hand").refused
        wait_for(lambda: next(t for t in snapshot(url)["tables"] if t["table"] == 1)["hand"]
                 == 2)
        kiosk.stop()
    finally:
        assert stop(proc) == 0


class Floor(FloorClient):
    """The desk at the demo's dashboard: the demo's director login (selling re-entries and
    rebuys is the cashier's and the director's), acting over HTTP."""

    def __init__(self, url: str) -> None:
        super().__init__(url, floor_users.DEMO_DIRECTOR, floor_users.DEMO_DIRECTOR_PASSWORD)

    def busted(self, players: int) -> str | None:
        """A player who is out (and did not buy back in at the table)."""
        for i in range(1, players + 1):
            found = self.get(f"api/players?q=D{i:04d}")["players"]
            if found and found[0]["status"] == "busted":
                return found[0]["player"]
        return None


def dealt_in(events: list[dict], player: str, after: int) -> bool:
    """Whether `player`, seated by the floor at event `after`, was dealt a hand there."""
    seat = None
    for i, e in enumerate(events):
        if i >= after and e["kind"] == "seated" and e["player"] == player:
            seat = (e["table"], e["seat"])
        elif seat and e["kind"] == "hand_started" and e["table"] == seat[0] \
                and seat[1] in e["dealt"]:
            return True
        elif seat and e["kind"] == "moved" and e["player"] == player:
            seat = (e["to_table"], e["to_seat"])    # balanced away before a hand: deal there
    return False


@pytest.mark.parametrize(("profile", "buy_back"), [("tda-2017", "reenter"),
                                                   ("home-roberts", "rebuy")])
def test_the_floor_sells_seats_while_the_demo_deals(tmp_path: Path, profile: str,
                                                     buy_back: str) -> None:
    """Registering, re-entering or rebuying from the dashboard: every table keeps dealing
    and the players are dealt in like anyone else; the health line stays clear."""
    proc, found = start_demo(tmp_path, "--profile", profile)
    try:
        url = found["dashboard"]
        wait_for(lambda: (s := snapshot(url)) and all(t["hand"] >= 2 for t in s["tables"]))
        floor = Floor(url)
        assert floor.post("api/act", {"kind": "register", "name": "Nia Newcomer"})["ok"]
        again = wait_for(lambda: floor.busted(27), timeout=60)
        assert floor.post("api/act", {"kind": buy_back, "player": again})["ok"]
        before = {t["table"]: t["hand"] for t in snapshot(url)["tables"]}
        wait_for(lambda: all(t["hand"] >= before.get(t["table"], 0) + 10
                             for t in snapshot(url)["tables"]), timeout=60)
        assert floor.get("api/health").get("failed", {}) == {}
        assert proc.poll() is None
    finally:
        assert stop(proc) == 0
    store = Store(tmp_path / "demo" / "demo.db")
    events = list(store.stream("daily").read())
    store.close()
    newcomer = next(e for e in events if e["kind"] == "registered" and e["name"] ==
                    "Nia Newcomer")
    bought = next(i for i, e in enumerate(events) if e["kind"] == buy_back.replace(
        "reenter", "reentered") and e["player"] == again)
    assert dealt_in(events, newcomer["player"], events.index(newcomer))
    assert dealt_in(events, again, bought)
