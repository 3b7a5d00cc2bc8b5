"""The floor dashboard in Debian's Chromium against a real director: a page on another
port of the same host cannot act with the floor's login, and hostile text stays text."""

from __future__ import annotations

import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import Browser, expect

from kiosk.mqtt.broker import free_port

EVIL_ID = 'px"><img src=x onerror="window.pwned=1">'
PASSWORD = "s3cret-floor"


def snapshot(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/snapshot", timeout=5) as r:
        return json.load(r)


def log_in(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url + "/event")
    page.fill("#login input[name=user]", "floor")
    page.fill("#login input[name=password]", PASSWORD)
    page.click("#login button")
    expect(page.locator("#user")).to_have_text("floor")


def attacker_site(target: str) -> tuple[ThreadingHTTPServer, str]:
    """Another program on this host: its page posts a form to the director at once."""
    body = (f'<form method="POST" action="{target}/api/act" enctype="text/plain">'
            '<input name=\'{"kind":"clock","action":"pause","x":"\' value=\'"}\'></form>'
            "<script>document.forms[0].submit()</script>").encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def test_a_form_from_another_port_cannot_move_the_clock(director_factory,
                                                        browser: Browser) -> None:
    d = director_factory(players=18, web=True, floor_users={"floor": PASSWORD}).start()
    url = f"http://127.0.0.1:{d.http_port}"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    log_in(page, url)
    server, evil = attacker_site(url)
    try:
        other = context.new_page()             # same browser, same cookies
        with other.expect_response(lambda r: "/api/act" in r.url) as resp:
            other.goto(evil)
        assert resp.value.status == 403
        assert not snapshot(url)["summary"]["paused"]
        page.click("#controls button:has-text('Pause clock')")   # the floor still can
        expect(page.locator("#toast")).to_contain_text("Done")
        assert snapshot(url)["summary"]["paused"]
    finally:
        server.shutdown()


def test_a_hostile_player_id_is_shown_as_text(director_factory, browser: Browser) -> None:
    d = director_factory(players=18, seats=10, web=True,
                         floor_users={"floor": PASSWORD}).start()
    url = f"http://127.0.0.1:{d.http_port}"
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    log_in(page, url)
    csrf = page.evaluate("fetch('/api/snapshot').then(r => r.json()).then(s => s.csrf)")
    hdr = {"X-CSRF-Token": csrf}
    csv = "name,id\n" + f'Eve Mallory,"{EVIL_ID.replace(chr(34), chr(34) * 2)}"\n'
    r = page.request.post(url + "/api/import", data=csv, headers={**hdr,
                                                                   "Content-Type": "text/csv"})
    assert r.json()["added"] == 1, r.json()
    snap = snapshot(url)
    home = next(t["table"] for t in snap["tables"] for s in t["seats"]
                if s.get("player") == EVIL_ID)
    free = next((t["table"], s["seat"]) for t in snap["tables"] for s in t["seats"]
                if not s.get("player") and t["table"] != home)
    r = page.request.post(url + "/api/act", headers={**hdr, "Content-Type": "application/json"},
                          data=json.dumps({"kind": "move", "player": EVIL_ID,
                                           "table": free[0], "seat": free[1]}))
    assert r.ok, r.text()
    moves = page.locator("#moves")
    expect(moves).to_contain_text("Eve Mallory")
    assert moves.locator("img").count() == 0
    assert page.locator("#tables img").count() == 0
    assert page.evaluate("window.pwned") is None
    assert moves.locator("[data-arrived]").get_attribute("data-arrived") == EVIL_ID
    moves.locator("[data-arrived]").click()                 # the right player arrives
    expect(page.locator("#toast")).to_contain_text("Done")
