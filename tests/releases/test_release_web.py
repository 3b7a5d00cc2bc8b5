"""The director's side, as a process: the floor steers the rollout from the room page,
the wanted release goes to the tables retained, and files go to table logins only."""

from __future__ import annotations

import base64
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
from floor_client import FloorClient
from playwright.sync_api import sync_playwright
from release_helpers import fake_wheel, keys
from waiting import wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "director"))
from browser_kit import chromium

from kiosk.appliance.passwords import hash_line
from kiosk.protocol.topics import Topics
from kiosk.releases import messages as rm
from kiosk.releases.store import ReleaseStore


def fetch(url: str, login: str | None = None) -> tuple[int, bytes]:
    headers = {"Authorization": "Basic " + base64.b64encode(login.encode()).decode()} \
        if login else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_floor_rolls_out_and_only_a_table_login_downloads(tmp_path: Path, mosquitto,
                                                             director_factory) -> None:
    (tmp_path / "table-logins").write_text(hash_line("table-3", "pw-3") + "\n")
    director = director_factory(players=18, web=True, floor_users={"boss": "a-long-pass"})
    director.start()
    url = f"http://127.0.0.1:{director.http_port}"
    private, _ = keys(tmp_path / "keys")
    store = ReleaseStore(tmp_path / "releases")
    wheel = fake_wheel(tmp_path / "dist", "0.9.0")
    store.add(wheel, private)
    # a table's view of its wanted release, retained on its topic
    got: list[rm.Wanted] = []
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    sub.on_message = lambda c, u, m: got.append(rm.decode_wanted(m.payload))
    sub.connect("127.0.0.1", mosquitto.port)
    sub.subscribe(rm.release_topic(Topics(director.name), 1), qos=1)
    sub.loop_start()
    try:
        wait_for(lambda: got and got[-1].version is None)
        status, body = fetch(f"{url}/api/releases")
        assert status == 200 and [r["version"] for r in json.loads(body)["releases"]] \
            == ["0.9.0"]
        anonymous = urllib.request.Request(f"{url}/api/releases", json.dumps(
            {"action": "rollout", "version": "0.9.0"}).encode(),
            {"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(anonymous, timeout=10)
            raise AssertionError("an anonymous rollout was taken")
        except urllib.error.HTTPError as exc:
            assert exc.code == 401
        floor = FloorClient(url, "boss", "a-long-pass")
        bad = floor.post("api/releases", {"action": "rollout", "version": "7.7.7"})
        assert not bad["ok"] and "no release 7.7.7" in bad["error"]
        assert floor.post("api/releases", {"action": "rollout", "version": "0.9.0",
                                           "tables": [1, 2]})["ok"]
        wait_for(lambda: got[-1].version == "0.9.0")
        data, sig = store.manifest("0.9.0")
        assert got[-1].manifest.encode() == data and got[-1].signature == sig
        assert floor.post("api/releases", {"action": "hold"})["ok"]
        wait_for(lambda: got[-1].hold)
    finally:
        sub.loop_stop()
        sub.disconnect()
    file_url = f"{url}/releases/0.9.0/{wheel.name}"
    assert fetch(file_url)[0] == 401
    assert fetch(file_url, "table-3:wrong")[0] == 401
    assert fetch(file_url, "boss:a-long-pass")[0] == 401      # a floor login is no table's
    assert fetch(f"{url}/releases/0.9.0/other.whl", "table-3:pw-3")[0] == 404
    assert fetch(file_url, "table-3:pw-3") == (200, wheel.read_bytes())
    # the room page shows the rollout and each table's wanted version
    with sync_playwright() as pw:
        browser = chromium(pw)
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#upd-rollout:has-text('0.9.0')")
        assert "(held)" in page.inner_text("#upd-rollout")
        assert "to tables 1, 2" in page.inner_text("#upd-rollout")
        browser.close()
