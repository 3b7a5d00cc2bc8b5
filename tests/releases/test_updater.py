"""The table's updater on bad input and at unsafe moments: each refusal names its reason,
and the running version keeps running; a switch waits for the hand and the outbox."""

from __future__ import annotations

import base64
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from release_helpers import fake_wheel, keys

from kiosk.config.files import BrokerConfig, TableConfig
from kiosk.releases import messages as rm
from kiosk.releases.ab import Install
from kiosk.releases.store import ReleaseStore
from kiosk.table.service import TableService
from kiosk.table.updater import Updater, UpdateSettings

LOGIN = "Basic " + base64.b64encode(b"table-1:pw-1").decode()


class Files(http.server.BaseHTTPRequestHandler):
    """The director's /releases/VERSION/FILE, with a switch to cut a download half-way."""

    store: ReleaseStore
    cut = False

    def do_GET(self) -> None:
        _, _, version, name = self.path.split("/")
        if self.headers.get("Authorization") != LOGIN:
            self.send_error(401)
            return
        data = self.store.file(version, name).read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2] if self.cut else data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def room(tmp_path: Path) -> Iterator[dict]:
    private, public = keys(tmp_path)
    store = ReleaseStore(tmp_path / "store")
    store.add(fake_wheel(tmp_path / "dist", "0.9.0"), private)
    handler = type("H", (Files,), {"store": store, "cut": False})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    cfg = TableConfig(table=1, room="test", state_dir=str(tmp_path / "state"), gpio=None,
                      broker=BrokerConfig(host="127.0.0.1", port=1, username="table-1",
                                          password="pw-1"))
    svc = TableService(cfg, connect=False)
    switched: list[bool] = []
    settings = UpdateSettings(root=tmp_path / "opt", url=f"http://127.0.0.1:"
                              f"{server.server_address[1]}", public_key=public, ca_file=None,
                              min_free_mb=0)
    up = Updater(svc, settings, version="0.1.0", on_switch=lambda: switched.append(True))
    yield {"store": store, "up": up, "svc": svc, "handler": handler, "tmp": tmp_path,
           "switched": switched, "private": private}
    server.shutdown()
    svc.stop()


def wanted(store: ReleaseStore, version: str = "0.9.0", **kw: object) -> rm.Wanted:
    data, sig = store.manifest(version)
    return rm.Wanted(version=version, manifest=data.decode(), signature=sig, **kw)


def refused(up: Updater, w: rm.Wanted) -> str:
    up.wanted = w
    up.step()
    assert up.state == "refused", (up.state, up.reason)
    assert not Install(up.cfg.root).target(), "nothing switched"
    return up.reason


def test_a_wheel_with_a_wrong_hash_is_refused(room: dict) -> None:
    path = room["store"].file("0.9.0", "poker_kiosk-0.9.0-py3-none-any.whl")
    path.write_bytes(path.read_bytes()[:-4] + b"evil")
    assert "wrong hash" in refused(room["up"], wanted(room["store"]))
    assert not list((room["tmp"] / "opt" / "downloads" / "0.9.0").iterdir())


def test_another_key_or_no_signature_is_refused(room: dict, tmp_path: Path) -> None:
    other, _ = keys(tmp_path, "other")
    store2 = ReleaseStore(tmp_path / "store2")
    store2.add(fake_wheel(tmp_path / "dist2", "0.9.1"), other)
    assert "another key" in refused(room["up"], wanted(store2, "0.9.1"))
    w = wanted(room["store"])
    w.signature = ""
    assert "not signed" in refused(room["up"], w)


def test_a_download_cut_half_way_is_refused(room: dict) -> None:
    room["handler"].cut = True
    assert "cut at" in refused(room["up"], wanted(room["store"]))


def test_a_full_disk_is_refused_before_downloading(room: dict) -> None:
    up = room["up"]
    up.cfg = UpdateSettings(**{**up.cfg.__dict__, "min_free_mb": 10**9})
    assert "not enough disk space" in refused(up, wanted(room["store"]))
    assert not (room["tmp"] / "opt" / "downloads").exists()


def test_the_switch_waits_for_the_hand_and_the_outbox_then_goes(room: dict) -> None:
    up, svc = room["up"], room["svc"]
    w = wanted(room["store"], now=True)
    up.wanted, up._ready = w, ("0.9.0", w.signature)     # downloaded and installed
    Install(up.cfg.root).root.mkdir(parents=True)
    Install(up.cfg.root).point("current", "0.1.0")
    svc.ctl.ctx.local.in_hand = True
    up.step()
    assert (up.state, up.reason) == ("waiting", "a hand is in play")
    svc.ctl.ctx.local.in_hand = False
    svc.outbox.add({"id": "1-x-1", "seq": 1, "ts": 1.0, "kind": "hand_ended", "table": 1})
    up.step()
    assert (up.state, up.reason) == ("waiting", "1 report(s) still to deliver")
    assert room["switched"] == []
    svc.outbox.ack(["1-x-1"])
    up.step()
    assert room["switched"] == [True] and up.state == "switching"
    ab = Install(up.cfg.root)
    assert (ab.target(), ab.target("previous")) == ("0.9.0", "0.1.0")
    assert ab.switches()[-1]["in_hand"] is False and ab.switches()[-1]["pending"] == 0
    assert svc.act("new_hand").refused                  # nothing slips in after it
    up.step()                  # the release message again before the kiosk has exited
    assert room["switched"] == [True] and ab.target("previous") == "0.1.0"   # its way back


def test_held_waits_and_a_table_not_on_a_break_waits_without_now(room: dict) -> None:
    up = room["up"]
    w = wanted(room["store"], hold=True)
    up.wanted, up._ready = w, ("0.9.0", w.signature)
    Install(up.cfg.root).root.mkdir(parents=True)
    Install(up.cfg.root).point("current", "0.1.0")
    up.step()
    assert up.state == "held" and room["switched"] == []
    w = wanted(room["store"])                       # resumed, but no "now"
    up.wanted = w
    up.svc.ctl.ctx.plan = {**up.svc.ctl.ctx.plan, "event": "main"}   # it deals an event
    up.step()
    assert up.state == "waiting" and "the table is playing" in up.reason
    up.svc.ctl.ctx.plan = {**up.svc.ctl.ctx.plan, "event": None}     # freed: safe
    up.step()
    assert room["switched"] == [True]
