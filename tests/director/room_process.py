"""A room director as a child process (`pokerkiosk director --config room.toml`), with its
dashboard, over a real Mosquitto, and one floor login per role."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from room_kit import ROOM

from kiosk.config import floor_users

PASSWORD = "a-long-one-9"
LOGINS = {"td": "director", "fl": "floor", "cash": "cashier"}


def room_process(director_factory: Any, mosquitto: Any, tmp_path: Path,
                 text: str = ROOM, players: int = 12) -> Any:
    """The room of room_kit served by a director process, `players` registered
    in its first event; `.url` its dashboard."""
    d = director_factory(web=True, players=players)
    floor_users.save(tmp_path / floor_users.FILE,
                     {u: floor_users.hash_password(PASSWORD) for u in LOGINS}, LOGINS)
    head, _, rest = text.partition("[director]\n")
    room = (f"{head}[broker]\nurl = \"mqtt://127.0.0.1:{mosquitto.port}\"\n\n[director]\n"
            f"http = \"127.0.0.1:{d.http_port}\"\n{rest}")
    d.config = tmp_path / "room.toml"
    d.config.write_text(room)
    d.start(start_event=False)
    d.url = f"http://127.0.0.1:{d.http_port}"
    return d
