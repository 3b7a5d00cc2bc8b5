"""A room that speaks German and English, whose players and floor logins each read their
own language, its director in process with a `file:` desk printer."""

from __future__ import annotations

from pathlib import Path

from reservations_kit import Clock

from kiosk.config import floor_users
from kiosk.config.room import load_director_config
from kiosk.director.service import Director

PASSWORD = "a-long-one-9"
ROOM = """
[room]
name = "rozvadov"
title = "Rozvadov"
tables = 4
languages = ["de", "en"]
currency = "EUR"
timezone = "Europe/Berlin"

[director]
db = "room.db"

[printer]
port = "file:paper.bin"
columns = 42

[[events]]
name = "sunday"
title = "Sunday Main"
structure = "turbo"
seed = 9
seats = 6
reservations = true
"""


def room(tmp_path: Path) -> Director:
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in ("td", "fl")},
                     {"fl": "floor"}, {"fl": "cs"})
    (tmp_path / "room.toml").write_text(ROOM)
    return Director(load_director_config(tmp_path / "room.toml"), clock=Clock())
