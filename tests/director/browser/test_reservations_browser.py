"""Reservations and leagues in Debian's Chromium at a phone's 390 px, against a real room
director served over HTTP: a player reserves, sees his code (text and QR), is confirmed
at the desk's dashboard and sees his seat; a full event's alternate is called when a
player busts, on his phone (which vibrates) and on the TV; an entry paid ahead for a
scheduled event, at the desk and on the phone; a league's standings read on a phone and
on the TV. The screenshots are the docs' (docs/screens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_kit import SCREENS, fits, readable, serve
from browsers import Browser
from league_kit import EVENTS, LEAGUES, played
from playwright.sync_api import expect
from reservations_kit import PASSWORD, SCHEDULED, room

from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director

PHONE = {"width": 390, "height": 844}
TV = {"width": 1280, "height": 720}
# the phone's vibrations, recorded (headless Chromium has no motor)
VIBRATE = ("window.buzzes = []; Object.defineProperty(Navigator.prototype, 'vibrate', "
           "{configurable: true, value: p => { window.buzzes.push(p); return true; }});")
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def desk_login(context, url: str) -> None:
    r = context.request.post(url + "/api/login", data={"user": "cash", "password": PASSWORD})
    assert r.ok, r.text()


def reserve(phone, name: str) -> str:
    """The public form sent with `name`: the code it shows, then its own page opened."""
    phone.fill("#reserve-name", name)
    phone.click("#reserve-form button")
    code = phone.locator("#reserve-code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{8}$"))
    text = code.inner_text()
    phone.click("#reserve-link")
    return text


def test_reserve_show_the_code_be_confirmed_at_the_desk_and_see_the_seat(
        tmp_path: Path, browser: Browser) -> None:
    d = room(tmp_path)
    served = serve(d)
    SCREENS.mkdir(parents=True, exist_ok=True)
    try:
        with browser:
            phone = browser.new_page(viewport=PHONE)
            phone.goto(served.url + "/p/sunday")
            expect(phone.locator("#reserve-card")).to_be_visible()
            phone.fill("#reserve-name", "Zoë <b>O'Hara</b>")
            phone.click("#reserve-form button")
            expect(phone.locator("#reserve-result")).to_contain_text("plain text")
            text = reserve(phone, "Zoë O'Hara")
            expect(phone.locator("#res-code")).to_have_text(text)
            expect(phone.locator("#res-state")).to_have_text("Reserved: pay at the desk")
            assert phone.locator("#res-qr").evaluate("i => i.complete && i.naturalWidth > 0")
            assert phone.evaluate(FITS)
            phone.screenshot(path=str(SCREENS / "reservation-390x844.png"))
            assert served.call(lambda: [p.name for p in d.events["sunday"].tour.players
                                        .values()]) == []
            # the cashier types the code at the dashboard's desk box
            desk = browser.new_context(viewport=TV)
            desk_login(desk, served.url)
            dash = desk.new_page()
            dash.goto(served.url + "/event/sunday")
            dash.fill("#confirm-code", text.lower())
            dash.click("#confirm-form button")
            expect(dash.locator("#confirm-result")).to_have_text("Zoë O'Hara: registered")
            expect(phone.locator("#res-state")).to_have_text("Confirmed")
            expect(phone.locator("#res-note")).to_contain_text("drawn when play starts")
            for i in range(3):
                served.call(lambda i=i: d.act(commands.Register(name=f"P{i}"), "cash",
                                              event="sunday"))
            served.call(lambda: d.act(commands.Start(), "td", event="sunday"))
            seat = served.call(lambda: next(p for p in d.events["sunday"].tour.players
                                            .values() if p.name == "Zoë O'Hara"))
            expect(phone.locator("#res-table")).to_have_text(str(seat.table))
            expect(phone.locator("#res-seat")).to_have_text(str(seat.seat))
            phone.screenshot(path=str(SCREENS / "reservation-seat-390x844.png"))
            browser.close()
    finally:
        served.close()
        d.store.close()


def test_join_the_alternates_of_a_full_event_and_be_called_when_a_player_busts(
        tmp_path: Path, browser: Browser) -> None:
    d = room(tmp_path)
    for i in range(6):     # six seats, one table: full
        d.act(commands.Register(name=f"Seat {i + 1}"), "cash", event="sunday")
    d.act(commands.Start(), "td", event="sunday")
    served = serve(d)
    try:
        with browser:
            context = browser.new_context(viewport=PHONE)
            context.add_init_script(VIBRATE)
            phone = context.new_page()
            phone.goto(served.url + "/p/sunday")
            expect(phone.locator("#reserve-full")).to_be_visible()
            phone.fill("#reserve-name", "Ann Alternate")
            phone.click("#reserve-form button")
            expect(phone.locator("#reserve-result")).to_contain_text("You are alternate 1")
            expect(phone.locator("#alternates li")).to_have_text(["1. Ann Alternate"])
            phone.click("#reserve-link")
            expect(phone.locator("#res-state")).to_have_text("Alternate 1")
            assert phone.locator("#res-call").is_hidden()
            expect(phone.locator("#res-call")).to_have_text("")
            assert phone.evaluate("window.buzzes.length") == 0
            tv = browser.new_page(viewport=TV)
            tv.goto(served.url + "/clock?event=sunday")
            assert tv.locator("#desk-calls").is_hidden()
            out = served.call(lambda: next(p.id for p in d.events["sunday"].tour.players
                                           .values() if p.name == "Seat 1"))
            served.call(lambda: d.act(commands.decode({"kind": "bust", "player": out}), "td",
                                      event="sunday"))
            call = "Alternate 1: Ann Alternate, to the desk"
            expect(phone.locator("#res-call")).to_be_visible()
            expect(phone.locator("#res-call")).to_have_text(call)
            assert phone.evaluate("window.buzzes.length") == 1
            expect(tv.locator("#desk-calls")).to_have_text(call)
            assert phone.evaluate(FITS)
            phone.screenshot(path=str(SCREENS / "alternate-called-390x844.png"))
            tv.screenshot(path=str(SCREENS / "alternate-called-tv.png"))
            browser.close()
    finally:
        served.close()
        d.store.close()


@pytest.mark.parametrize("results", [True, False], ids=["played", "none-yet"])
def test_a_league_table_on_a_phone_and_on_the_tv(tmp_path: Path, results: bool,
                                                 browser: Browser) -> None:
    """The standings across a phone and a TV; a league none of whose events has finished
    says the points are still to come."""
    if results:
        d = played(tmp_path)
    else:
        (tmp_path / "room.toml").write_text(EVENTS + LEAGUES)
        d = Director(load_director_config(tmp_path / "room.toml"), clock=lambda: 5000.0)
    served = serve(d)
    try:
        with browser:
            phone = browser.new_page(viewport=PHONE)
            phone.goto(served.url + "/p/league/season")
            tv = browser.new_page(viewport=TV)
            tv.goto(served.url + "/clock?league=season")
            expect(tv.locator("#league-tv h1")).to_have_text("Season points")
            if results:
                rows = phone.locator("#standings tbody tr")
                expect(rows).to_have_count(5)
                expect(rows.first).to_contain_text("D")
                expect(rows.first.locator("td.num").first).to_have_text("40.23")
                expect(phone.locator("#ties")).to_contain_text("better finishes")
                expect(tv.locator("#league-tv tr")).to_have_count(6)
                # the table across the screen under its title, every column on it
                title, table = (tv.locator(f"#league-tv {s}").bounding_box()
                                for s in ("h1", "table"))
                assert title and table and table["y"] >= title["y"] + title["height"]
                assert table["width"] >= 0.8 * TV["width"] and table["x"] >= 0 and \
                    table["x"] + table["width"] <= TV["width"], table
            else:
                for page, sel in ((phone, "#empty"), (tv, "#league-empty")):
                    expect(page.locator(sel)).to_have_text(
                        "No results yet: the points come as the league's events finish.")
                expect(phone.locator("#standings")).to_be_hidden()
                expect(tv.locator("#league-tv table")).to_be_hidden()
            assert phone.evaluate(FITS)
            fits(tv, True, "league on the TV")
            readable(tv, "#league-tv", TV["height"] / 30, "league on the TV")
            if results:
                phone.screenshot(path=str(SCREENS / "league-390x844.png"))
                tv.screenshot(path=str(SCREENS / "league-tv.png"))
            browser.close()
    finally:
        served.close()
        d.store.close()


def test_paid_on_friday_for_sunday_reads_so_at_the_desk_and_on_the_phone(
        tmp_path: Path, browser: Browser) -> None:
    """A scheduled event: the desk confirms the code and takes the buy-in; the desk's box
    and the player's phone both say it is paid and entered when the event opens."""
    d = room(tmp_path, SCHEDULED)
    served = serve(d)
    note = "Paid, entered when Sunday Main opens; the seat is drawn when play starts"
    try:
        with browser:
            phone = browser.new_page(viewport=PHONE)
            phone.goto(served.url + "/p/sunday")
            text = reserve(phone, "Ann Friday")
            expect(phone.locator("#res-state")).to_have_text("Reserved: pay at the desk")
            for n, size in enumerate(({"width": 1920, "height": 1080}, TV)):
                desk = browser.new_context(viewport=size)
                desk_login(desk, served.url)
                dash = desk.new_page()
                dash.goto(served.url + "/event/sunday")
                dash.fill("#confirm-code", text)
                dash.click("#confirm-form button")
                result = dash.locator("#confirm-result")
                expect(result).to_have_text(f"Ann Friday: {note}")
                box = result.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
                assert float(result.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) \
                    >= 14
                assert n == 0 or served.call(lambda: len(d.room.tickets)) == 1   # once
                desk.close()
            expect(phone.locator("#res-state")).to_have_text("Confirmed")
            expect(phone.locator("#res-note")).to_have_text(note)
            assert phone.evaluate(FITS)
            phone.screenshot(path=str(SCREENS / "reservation-paid-ahead-390x844.png"))
            browser.close()
    finally:
        served.close()
        d.store.close()
