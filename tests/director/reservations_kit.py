"""A room that takes reservations from phones, its director in process served over its
real HTTP app, and a clock the test moves: the reservations and languages tests use it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import web_kit
from aiohttp.test_utils import TestClient

from kiosk.config import floor_users
from kiosk.config.room import load_director_config
from kiosk.director.service import Director

PASSWORD = "a-long-one-9"
LOGINS = {"td": "director", "fl": "floor", "cash": "cashier"}
ROOM = """
[room]
name = "casino"
title = "Casino Hall"
tables = 4

[director]
db = "room.db"

[[events]]
name = "sunday"
title = "Sunday Main"
structure = "turbo"
seed = 9
seats = 6
max_tables = 1
reservations = true
reservation_hold = "start"

[[events]]
name = "daily"
structure = "turbo"
seed = 1
seats = 6
"""
SCHEDULED = ROOM.replace('reservation_hold = "start"', "scheduled = true\nbuy_in = 300")


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def room(tmp_path: Path, text: str = ROOM) -> Director:
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in LOGINS}, LOGINS)
    (tmp_path / "room.toml").write_text(text)
    return Director(load_director_config(tmp_path / "room.toml"), clock=Clock())


def served(d: Director, go: Callable[[TestClient], Awaitable[None]],
           forms: int = 100) -> None:
    """The director's app, a hundred forms allowed at once unless said."""
    web_kit.served(d, go, forms)
