"""The demo's dealers: a roster in the demo's room.toml and virtual dealers who badge in at
the tables over the broker like real ones, so a newcomer sees the rotation run: pushes at a
hand's end on the simulated tables, on the dealers' board and on /dealers.

Each virtual dealer's badge is read at the table it is due at, after a walk of a few
seconds: at the start at a table without a dealer, then at each push due (refused while
the hand is on, so it badges again), and back from each break. The director decides
everything; these only stand where the roadmap sends them.
"""

from __future__ import annotations

import logging
import random
import threading
import uuid

from kiosk.config import dealers as dc
from kiosk.director.service import Director
from kiosk.mqtt.client import make_client
from kiosk.protocol import dealer_messages as dm

log = logging.getLogger("kiosk.sim")
SALT = "d3a10000d3a10000d3a10000d3a10000"   # the demo's own room: no secret to keep
NAMES = ("Ann", "Bob", "Cara", "Dan", "Eve", "Finn", "Gia", "Hal", "Ivy", "Jon", "Kai",
         "Lea", "Max", "Nia", "Oto", "Pia")
WALK = 8.0      # seconds, at most, from wherever the dealer stands to the table


def badge(name: str) -> str:
    return f"DEMO-{name.upper()}"


def roster_toml(tables: int) -> str:
    """`[dealers]` for the demo: short downs so pushes come soon, a dealer a table and a
    relief for every string, two to spare."""
    n = min(len(NAMES), tables + (tables + 3) // 4 + 2)
    entries = "".join(f'\n[[dealers.roster]]\nname = "{name}"\n'
                      f'badge = "{dc.badge_hash(badge(name), SALT)}"\n' for name in NAMES[:n])
    return (f"[dealers]\ndown_minutes = 10\nbreak_minutes = 5\nstring_size = 4\n"
            f'salt = "{SALT}"\n{entries}\n')


class DemoDealers(threading.Thread):
    """The roster's dealers walking the room, until `stop`."""

    def __init__(self, director: Director, stop: threading.Event, seed: int = 1) -> None:
        super().__init__(daemon=True, name="demo-dealers")
        self.director, self.stop_ = director, stop
        self.rng = random.Random(seed)
        self.client = make_client("demo-dealers", director.config.broker)
        self.topics = director.wire.topics
        self.walking: dict[str, float] = {}     # dealer -> when the walk ends
        self.names = [d.name for d in director.config.dealers.roster] \
            if director.config.dealers else []

    def send(self, table: int, name: str) -> None:
        req = dm.DealerRequest(id=uuid.uuid4().hex[:16], table=table, badge=badge(name))
        self.client.publish(dm.request_topic(self.topics, table), dm.encode(req), qos=1)

    def step(self) -> None:
        """One look at the roadmap: whoever is due somewhere walks there and badges."""
        road, now = self.director.room.roadmap, self.director.now()
        free = sorted(n for n, tb in road.tables.items() if tb.dealer is None)
        out = [n for n in self.names if n not in road.dealers
               or road.dealers[n].status == "out"]
        for table, name in zip(free, out, strict=False):
            self.send(table, name)
        for name in out[len(free):]:
            if road.tables:
                self.send(min(road.tables), name)       # clocks in: a relief or waiting
        for table in road.due(now):
            who = road.incoming(table, now)
            if who is None:
                continue
            if now >= self.walking.setdefault(who, now + self.rng.uniform(0, WALK)):
                self.walking.pop(who, None)
                self.send(table, who)
        for name, until in road.breaks():
            if now >= until and road.tables:
                self.send(min(road.tables), name)        # back: the director places them

    def run(self) -> None:
        if not self.names:
            return
        self.client.connect_async(self.director.config.broker.host,
                                  self.director.config.broker.port)
        self.client.loop_start()
        try:
            while not self.stop_.wait(2.0):
                try:
                    self.step()
                except Exception:   # the demo's dealers never stop the demo
                    log.exception("demo dealers: a step failed")
        finally:
            self.client.loop_stop()
            self.client.disconnect()
