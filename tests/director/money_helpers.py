"""A real director (no broker) played down by table reports, served over real HTTP."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from kiosk.config.files import EventConfig
from kiosk.config.floor_users import hash_password
from kiosk.core.calc import button as btn
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.director.web.app import make_app
from kiosk.mqtt.broker import free_port

HASH = hash_password("s3cret")
MONEY = {"buy_in": 100, "fee": 10, "bounty": 50, "bounty_mode": "pko", "table": "shares",
         "shares": [5000, 3000, 2000]}


def money_director(tmp_path: Path, players: int = 12) -> Director:
    cfg = EventConfig(name="money-test", structure="turbo", seed=5, db=str(tmp_path / "e.db"),
                      floor_users={"floor": HASH}, money=MONEY, start_stack=10000)
    d = Director(cfg)
    for i in range(players):
        d.act(commands.Register(name=f"Player {i + 1}", country="IE" if i % 2 else ""))
    d.act(commands.Start())
    return d


class Reports:
    """Sends table reports to the director as its MQTT handler would."""

    def __init__(self, d: Director) -> None:
        self.d, self.n = d, 0

    def send(self, table: int, kind: str, **data: Any) -> None:
        self.n += 1
        rep = {"v": 2, "table": table, "id": f"w{self.n}", "seq": self.n, "ts": 0.0,
               "kind": kind, "data": data}
        self.d.act(commands.decode({"kind": "report", "table": table, "report": rep}))

    def play_down(self, left: int) -> None:
        """Hands in which the lowest seat busts to the next one, until `left` remain."""
        tour = self.d.tour
        while tour.alive > left and tour.finished_at is None:
            tab = next(t for t in tour.active_tables() if t.count >= 2 and not tour.holding(t))
            pos = btn.first_hand(set(tab.seat_of), min(tab.seat_of), tab.seats)
            self.send(tab.id, "hand_started", hand=tab.hand + 1, button=pos.button, sb=pos.sb,
                      bb=pos.bb, dealt=list(pos.dealt), waiting=list(pos.waiting))
            seats = sorted(tab.seat_of)
            self.send(tab.id, "bust", seat=seats[0], player=tab.seat_of[seats[0]],
                      eliminator=seats[1])
            if tour.finished_at is None:
                self.send(tab.id, "hand_ended", hand=tab.hand)
            for pid in sorted(tour.moving):
                p = tour.players[pid]
                self.send(p.table or 0, "present", seat=p.seat)

    def count(self, stacks: list[int]) -> None:
        """Open a chip count and enter `stacks` (in seat order) at the one table left."""
        tour = self.d.tour
        self.d.act(commands.CountChips(label="final table"), "floor")
        tab = tour.active_tables()[0]
        self.send(tab.id, "chip_count", stacks={str(s): v for s, v in
                                                zip(sorted(tab.seat_of), stacks, strict=True)})


class Served:
    """The director's web app on a free port, its loop in a thread; `call` runs a
    function on that loop so the state is only ever touched there."""

    def __init__(self, d: Director) -> None:
        self.d = d
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait(10)
        self.url = f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.runner = web.AppRunner(make_app(self.d))
        self.loop.run_until_complete(self.runner.setup())
        self.loop.run_until_complete(web.TCPSite(self.runner, "127.0.0.1", self.port).start())
        self.ready.set()
        self.loop.run_forever()

    def call(self, fn: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(30)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
