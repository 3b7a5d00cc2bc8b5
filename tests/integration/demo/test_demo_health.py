"""The demo's simulated tables fail loudly: logged with a traceback, on the dashboard's
health line, restarted; and when they keep failing the demo stops with an error."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import urllib.request
from pathlib import Path

import pytest
from browsers import Browser, launch
from playwright.sync_api import sync_playwright

from kiosk.base.errors import KioskError
from kiosk.config.room import load_director_config
from kiosk.demo import room as demo
from kiosk.director.service import Director
from kiosk.mqtt.broker import Mosquitto, free_port
from kiosk.sim.engine import Simulator

PLAYERS = 18


def room(tmp_path: Path, broker: Mosquitto) -> tuple[Director, argparse.Namespace]:
    """A demo room's director and options, as `pokerkiosk demo` makes them."""
    args = argparse.Namespace(players=PLAYERS, profile="tda-2017", structure="turbo", seed=1,
                              hand_seconds=0.2, kiosk=False)
    path = demo._write_config(tmp_path, args, f"mqtt://127.0.0.1:{broker.port}",
                              "127.0.0.1", free_port())
    director = Director(load_director_config(path))
    demo._open_room(director, tmp_path)
    return director, args


def dealer_fails(monkeypatch: pytest.MonkeyPatch, times: int) -> None:
    """The daily's dealers' hand-end code raises the first `times` times it runs (the
    satellite's dealers deal on)."""
    left = [times]
    real = Simulator._end_hand

    def flaky(self: Simulator, tid: int, t: float) -> None:
        if left[0] and f"-{demo.DAILY}-" in self.prefix:
            left[0] -= 1
            raise RuntimeError("the dealer fell over")
        real(self, tid, t)

    monkeypatch.setattr(Simulator, "_end_hand", flaky)


def health_line(director: Director) -> str:
    """What the dashboard's health line says, as Debian's Chromium shows it (a Chromium of
    its own: this runs in the thread that polls the demo, not the test's)."""
    with sync_playwright() as pw, Browser(launch(pw), own=True) as browser:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{director.config.http_port}/")
        page.wait_for_selector("#health", state="visible")
        text = page.inner_text("#health")
    return text


def health(director: Director) -> dict:
    url = f"http://127.0.0.1:{director.config.http_port}/api/health"
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


async def serve_until(director: Director, args: argparse.Namespace, done) -> None:
    """Run the demo's room until `done()` holds (then stop it, as Ctrl-C does)."""
    room = asyncio.ensure_future(demo._serve(director, args, []))
    loop = asyncio.get_running_loop()
    for _ in range(600):
        await asyncio.sleep(0.1)
        if room.done() or await loop.run_in_executor(None, done):
            break
    room.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await room


def test_a_dealer_that_fails_once_is_logged_shown_and_restarted(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    director, args = room(tmp_path, mosquitto)
    dealer_fails(monkeypatch, times=1)
    seen: dict = {}

    def dealing_again() -> bool:
        if not director.health:
            return False
        seen.setdefault("hands", {t: tab.hand for t, tab in director.tour.tables.items()})
        seen["health"] = health(director)
        if "line" not in seen:
            seen["line"] = health_line(director)
        return all(tab.hand >= seen["hands"].get(t, 0) + 3 or tab.broken
                   for t, tab in director.tour.tables.items())

    with caplog.at_level(logging.ERROR, "kiosk"):
        asyncio.run(serve_until(director, args, dealing_again))
    assert seen["health"]["failed"] == {
        f"{demo.TABLES} (daily)": "restarted after RuntimeError: the dealer fell over"}
    assert seen["line"] == ("simulated tables (daily): restarted after RuntimeError: "
                            "the dealer fell over")
    failure = next(r for r in caplog.records if "simulated tables (daily) failed" in r.getMessage())
    assert failure.exc_info is not None and "restarting" in failure.getMessage()


def test_dealers_that_keep_failing_stop_the_demo_with_an_error(
        tmp_path: Path, mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    director, args = room(tmp_path, mosquitto)
    dealer_fails(monkeypatch, times=demo.RESTARTS + 1)
    with pytest.raises(KioskError, match="simulated tables stopped for good"):
        asyncio.run(serve_until(director, args, lambda: False))
    assert str(director.health[f"{demo.TABLES} (daily)"]).startswith("stopped by RuntimeError")
