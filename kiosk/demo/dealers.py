"""The demo's dealers: a roster in the demo's room.toml and virtual dealers who badge in at
the tables over the broker like real ones, so a newcomer sees the rotation turn within ten
minutes: the first pushes five minutes in, each relief arriving at the table it is due at,
the dealer pushed off walking on to the string's next table or going on break, and coming
back from it.

Each virtual dealer walks a few seconds to the table it is due at (at the start a table
without a dealer; then each push due; back from each break), waits there for the hand's
end, as a relief standing behind the dealer does, and badges in. The simulated table waits
for the relief at that hand's end (kiosk.sim.engine: "PUSH: Gia badges in"). The director
decides everything; these only stand where the roadmap sends them.
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
         "Lea", "Max", "Nia", "Oto", "Pia", "Quin", "Rui", "Sol", "Tom", "Uma", "Vic",
         "Wes", "Xia", "Yan", "Zoe")
WALK = 8.0      # seconds, at most, from wherever the dealer stands to the table
LOOK = 1.0      # seconds between two looks at the roadmap (on the demo's clock)


def badge(name: str) -> str:
    return f"DEMO-{name.upper().replace(' ', '-')}"


def crew(tables: int) -> list[str]:
    """Enough dealers that no push waits for one: a dealer a table, a relief a string,
    those on break, and one to spare (two a table and one)."""
    return [NAMES[i % len(NAMES)] + (f" {i // len(NAMES) + 1}" if i >= len(NAMES) else "")
            for i in range(2 * tables + 1)]


def roster_toml(tables: int) -> str:
    """`[dealers]` for the demo: ten-minute downs, five-minute breaks, a break after two
    downs, so pushes come five minutes in and the first dealers go on break soon after."""
    entries = "".join(f'\n[[dealers.roster]]\nname = "{name}"\n'
                      f'badge = "{dc.badge_hash(badge(name), SALT)}"\n'
                      for name in crew(tables))
    return (f"[dealers]\ndown_minutes = 10\nbreak_minutes = 5\ndowns_between_breaks = 2\n"
            f'string_size = 4\nsalt = "{SALT}"\n{entries}\n')


class DemoDealers(threading.Thread):
    """The roster's dealers walking the room, until `stop`. `scale`: the demo's clock
    runs this many times as fast as the wall clock (kiosk.demo.room)."""

    def __init__(self, director: Director, stop: threading.Event, seed: int = 1,
                 scale: float = 1.0) -> None:
        super().__init__(daemon=True, name="demo-dealers")
        self.director, self.stop_ = director, stop
        self.rng = random.Random(seed)
        self.scale = scale
        self.client = make_client("demo-dealers", director.config.broker)
        self.topics = director.wire.topics
        self.walks: dict[tuple[str, int, float], float] = {}   # (dealer, table, due): there
        self.names = [d.name for d in director.config.dealers.roster] \
            if director.config.dealers else []

    def send(self, table: int, name: str) -> None:
        req = dm.DealerRequest(id=uuid.uuid4().hex[:16], table=table, badge=badge(name))
        self.client.publish(dm.request_topic(self.topics, table), dm.encode(req), qos=1)

    def arrived(self, name: str, table: int, due: float | None, now: float) -> bool:
        """The dealer has walked (a few seconds) to where the roadmap sends them, and
        stays there."""
        return now >= self.walks.setdefault((name, table, due or 0.0),
                                            now + self.rng.uniform(0, WALK))

    def hand_on(self, table: int) -> bool:
        """The relief at the table sees whether a hand is being dealt."""
        event = self.director.events.get(self.director.room.assigned.get(table, ""))
        state = event.tour.seating.tables.get(table) if event is not None else None
        return bool(state and state.in_hand)

    def step(self) -> None:
        """One look at the roadmap: whoever is due somewhere walks there, waits for the
        hand's end and badges."""
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
            due = road.tables[table].push_at
            if who is not None and self.arrived(who, table, due, now) \
                    and not self.hand_on(table):
                self.send(table, who)
        for name, until in road.breaks():
            if now >= until and road.tables and self.arrived(name, 0, until, now):
                self.send(min(road.tables), name)        # back: the director places them

    def run(self) -> None:
        if not self.names:
            return
        self.client.connect_async(self.director.config.broker.host,
                                  self.director.config.broker.port)
        self.client.loop_start()
        try:
            while not self.stop_.wait(LOOK / self.scale):
                try:
                    self.step()
                except Exception:   # the demo's dealers never stop the demo
                    log.exception("demo dealers: a step failed")
        finally:
            self.client.loop_stop()
            self.client.disconnect()
