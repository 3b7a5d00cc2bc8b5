"""The players' public pages' director in process: an event with players (a name of
emoji, a name of HTML), chip counts at every table, and the room the pages are read in
each shipped language."""

from __future__ import annotations

from pathlib import Path

from room_kit import ROOM as DIRECTORS_ROOM

from kiosk.config.files import EventConfig
from kiosk.config.floor_users import hash_password
from kiosk.config.room import RoomConfig
from kiosk.core.model import commands
from kiosk.director.service import Director

EMOJI = "\U0001F0CF" * 64                      # a name of 64 emoji (playing-card joker)
HTML_NAME = '<img src=x onerror="alert(1)">Eve'
HASH = hash_password("s3cret")
BOUNTY = {"buy_in": 100, "fee": 10, "bounty": 50, "bounty_mode": "pko"}
# room_kit's room less its satellite, on four tables, in seven languages, euros
# and Berlin's time: the daily's buy-in 1,234, Sunday announced with reservations
ROOM = (DIRECTORS_ROOM[:DIRECTORS_ROOM.index('[[events]]\nname = "sat"')]
        .replace("tables = 8\n", 'tables = 4\nlanguages = ["de", "en", "cs", "es", "fr", "pt_BR", '
                 '"zh_Hans"]\ncurrency = "EUR"\ntimezone = "Europe/Berlin"\n', 1)
        .replace("tables = 2\n", "buy_in = 1234\n", 1)
        .replace("scheduled = true\n", 'seats = 6\nscheduled = true\nreservations = true\n'
                 'starts = "2026-12-06T12:00"\n', 1))


def director(tmp_path: Path, players: int = 18, *, public_counts: bool = True,
             extra: tuple[str, ...] = (), public_url: str = "") -> Director:
    cfg = EventConfig(name="open-7", structure="turbo", seed=3, db=str(tmp_path / "e.db"),
                      floor_users={"floor": HASH}, money=BOUNTY, public_counts=public_counts,
                      public_url=public_url)
    d = Director(RoomConfig.of_event(cfg))
    for i in range(players):
        d.act(commands.decode({"kind": "register", "name": f"Player {i + 1}",
                               "card": f"C{i + 1:04d}"}))
    for i, name in enumerate(extra):
        d.act(commands.decode({"kind": "register", "name": name, "card": f"SECRET-CARD-{i}"}))
    d.act(commands.decode({"kind": "start"}))
    return d


def count_every_table(d: Director) -> None:
    """A chip count entered at every table: each stack its start stack plus its seat."""
    d.act(commands.decode({"kind": "count_chips", "label": "level 1"}), "floor")
    for n, tab in sorted(d.tour.tables.items()):
        if tab.broken:
            continue
        stacks = {str(s): d.tour.chips // d.tour.alive - 100 + s for s in sorted(tab.seat_of)}
        rep = {"v": 2, "table": n, "id": f"c{n}", "seq": 1, "ts": 0.0, "kind": "chip_count",
               "data": {"stacks": stacks}}
        d.act(commands.decode({"kind": "report", "table": n, "report": rep}))
