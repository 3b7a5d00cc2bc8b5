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
from browsers import Browser
from floor_client import FloorClient
from release_helpers import fake_wheel, keys
from waiting import wait_for

sys.path.insert(0, str(Path(__file__).parents[1] / "director"))
from browser_kit import SCREENS, fits, no_overlap, readable
from playwright.sync_api import expect

from kiosk import __version__
from kiosk.demo.versions import NO_INSTALL, SimVersions
from kiosk.protocol.topics import Topics
from kiosk.releases import messages as rm
from kiosk.releases.store import ReleaseStore
from kiosk.sim.mqtt_field import MqttField
from kiosk.system.passwords import hash_line


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
                                                             director_factory,
                                                             browser: Browser) -> None:
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
    with browser:
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#upd-rollout:has-text('0.9.0')")
        assert "(held)" in page.inner_text("#upd-rollout")
        assert "to tables 1, 2" in page.inner_text("#upd-rollout")
        browser.close()


PANEL_SIZES = [(1920, 1080), (390, 844)]


def test_the_updates_panel_is_one_line_until_a_release_and_reads_the_simulated_tables(
        tmp_path: Path, mosquitto, director_factory, browser: Browser) -> None:
    """The simulated tables say their version as a kiosk's updater does, and refuse a
    release they cannot install; with no release the panel is one line naming `pokerkiosk
    release add`; once there is one, a director (not a visitor) steers it from the panel."""
    director = director_factory(players=18, web=True, floor_users={"boss": "a-long-pass"})
    director.start()
    url = f"http://127.0.0.1:{director.http_port}"
    field = MqttField(mosquitto.config, director.name)
    try:
        wait_for(field.client.is_connected)
        SimVersions(field, [1, 2]).start()
        with browser:
            pages = {}
            for w, h in PANEL_SIZES:
                for who in (None, "boss"):
                    context = browser.new_context(viewport={"width": w, "height": h})
                    if who:
                        r = context.request.post(url + "/api/login", data=json.dumps(
                            {"user": who, "password": "a-long-pass"}),
                            headers={"Content-Type": "application/json", "Origin": url})
                        assert r.ok, r.text()
                    page = pages[who, w] = context.new_page()
                    page.goto(url + "/")
                    line = page.locator("#upd-line")
                    expect(line).to_have_text(f"Tables: 2 run {__version__}. No release to "
                                              "roll out: add one with pokerkiosk release add.")
                    expect(page.locator("#upd-form")).to_be_hidden()
                    assert page.locator("#updates select, #updates button").evaluate_all(
                        "els => els.filter(e => e.offsetParent).length") == 0
                    panel = page.locator("#updates").bounding_box()
                    assert panel and panel["height"] <= (70 if w > 1000 else 120), panel
                    readable(page, "#updates", 13, "updates")
                    fits(page, False, "updates")
                    if who is None:
                        page.locator("#updates").screenshot(
                            path=str(SCREENS / f"room-updates-none-{w}.png"))
            private, _ = keys(tmp_path / "keys")
            ReleaseStore(tmp_path / "releases").add(fake_wheel(tmp_path / "dist", "0.9.0"),
                                                    private)
            for (who, _w), page in pages.items():
                expect(page.locator("#upd-rollout")).to_have_text(
                    "No rollout; release 0.9.0 ready.")
                if who is None:
                    expect(page.locator("#upd-form")).to_be_hidden()
                    continue
                form = page.locator("#upd-form")
                expect(form).to_be_visible()
                expect(form.get_by_label("Release")).to_have_value("0.9.0")
                visible = [b.inner_text() for b in form.locator("button").all()
                           if b.is_visible()]
                assert visible == ["Roll out"], visible
                fits(page, False, "updates with a release")
                no_overlap(page, ["#upd-form > *"], "updates with a release")
            page = pages["boss", 1920]
            page.fill("#upd-form input[name=tables]", "2")
            page.click("#upd-form [data-a=rollout]")
            expect(page.locator("#upd-rollout")).to_have_text(
                "Rolling out 0.9.0 to tables 2.")
            rows = page.locator("#upd-tables tr")
            expect(page.locator("#upd-detail")).to_have_attribute("open", "")
            expect(rows.nth(1)).to_contain_text("refused")
            expect(rows.nth(1)).to_contain_text(NO_INSTALL)
            expect(rows.nth(0)).to_contain_text("current")
            assert [b.inner_text() for b in page.locator("#upd-form button").all()
                    if b.is_visible()] == ["Roll out", "Hold", "Switch now"]
            page.locator("#updates").screenshot(path=str(SCREENS / "room-updates-rollout.png"))
            browser.close()
    finally:
        field.close()
