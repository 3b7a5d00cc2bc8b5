"""2,000 phones on one event's player page: how long a bust takes to reach them all.

The director (a real Director and its web app, in a process of its own) runs a started
event with a chip count entered at every table and the clock paused, so only the busts
change what the pages show. Each phone is a real TCP connection from an address of its
own (127.0.x.y, as phones on the room's Wi-Fi), holding /p/EVENT/events open. Every
BUST_EVERY seconds the director busts a player; a phone's figure for that update is the
time from just before the bust command to the moment the update carrying that player's
place arrived (matched by the place's row, so a keep-alive, a resync or two busts sent in
one update never shift the figures). The bench fails its own check when any phone misses
a bust's update, when a time comes out negative, or when the first message a phone gets
(the clock and a page of the field: its own seat it looks up) is 20 KB or more.

A room of several languages (`--languages de,cs,zh_Hans`): the phones take turns at
asking for each in `Accept-Language`; the feed they hold is the same bytes for all (its
words are said on the phone), and a phone's first page in each language (the HTML and
its texts' script) is measured and held to the same 20 KB.

    python bench/players_bench.py [--phones 2000] [--players 300] [--busts 20]
                                  [--languages de,cs,zh_Hans] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing as mp
import re
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from kiosk.mqtt.broker import free_port

EVENT = "bench"
BUST_EVERY = 0.5       # seconds between two busts (above the feed's 0.1 s throttle)
STAMP = re.compile(rb'"t":([0-9.]+)')
FIRST_MAX = 20_000     # bytes: a phone's first message (the room's Wi-Fi when 5,000 connect)
_decode = __import__("msgspec").json.Decoder()


def serve(port: int, players: int, busts: int, pipe: Connection,
          languages: tuple[str, ...] = ()) -> None:
    """The director side: build the event (in a room speaking `languages`, English
    first), serve it, bust on the parent's word."""
    from dataclasses import replace

    from aiohttp import web

    from kiosk.config.files import EventConfig
    from kiosk.config.room import RoomConfig
    from kiosk.core.model import commands
    from kiosk.director.service import Director
    from kiosk.director.web.app import make_app

    tmp = tempfile.mkdtemp(prefix="players-bench-")
    room = RoomConfig.of_event(EventConfig(
        name=EVENT, structure="turbo", seed=1, db=f"{tmp}/e.db",
        money={"buy_in": 100, "bounty": 50, "bounty_mode": "pko"}))
    d = Director(replace(room, languages=tuple(dict.fromkeys(("en", *languages))),
                         currency="EUR", timezone="Europe/Prague"))
    for i in range(players):
        d.act(commands.decode({"kind": "register", "name": f"Player {i + 1}"}))
    d.act(commands.decode({"kind": "start"}))
    d.act(commands.decode({"kind": "clock", "action": "pause"}), "floor")
    d.act(commands.decode({"kind": "count_chips", "label": "level 1"}), "floor")
    for n, tab in sorted(d.tour.tables.items()):
        stacks = {str(s): 9_000 + s for s in sorted(tab.seat_of)}
        rep = {"v": 2, "table": n, "id": f"c{n}", "seq": 1, "ts": 0.0, "kind": "chip_count",
               "data": {"stacks": stacks}}
        d.act(commands.decode({"kind": "report", "table": n, "report": rep}))

    async def main() -> None:
        runner = web.AppRunner(make_app(d), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port, backlog=4096).start()
        loop = asyncio.get_running_loop()
        order = sorted(p.id for p in d.tour.players.values())[:busts]
        keys = {pid: format(i, "x") for i, pid in enumerate(d.tour.players)}
        pipe.send(("ready", [keys[pid] for pid in order]))
        await loop.run_in_executor(None, pipe.recv)       # the phones are connected
        sent = []
        ids = sorted(p.id for p in d.tour.players.values())
        for pid in ids[:busts]:
            await asyncio.sleep(BUST_EVERY)
            sent.append(time.monotonic())
            d.act(commands.decode({"kind": "bust", "player": pid}), "floor")
        await asyncio.sleep(1.0)
        pipe.send(sent)
        await loop.run_in_executor(None, pipe.recv)
        await runner.cleanup()

    asyncio.run(main())


class Phone(asyncio.Protocol):
    """One phone holding the live feed open: when each update arrived (a protocol, not a
    coroutine per phone, so the bench's own reading costs little of what it measures)."""

    def __init__(self, n: int, keys: list[str], language: str = "") -> None:
        self.addr = f"127.0.{n // 250}.{n % 250 + 1}"
        self.language = language          # what its Accept-Language asks for first
        self.pending = {k: i for i, k in enumerate(keys)}   # busted player's key -> bust
        self.arrivals: list[float | None] = [None] * len(keys)
        self.from_feed: list[float] = []      # ms from the feed's rebuild (its "t")
        self.sizes: list[int] = []
        self.first = 0
        self.buf = b""
        self.head = True
        self.connected = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        accept = f"Accept-Language: {self.language.replace('_', '-')},en;q=0.5\r\n" \
            if self.language else ""
        transport.write(f"GET /p/{EVENT}/events HTTP/1.0\r\nHost: 127.0.0.1\r\n{accept}"
                        "Accept: text/event-stream\r\n\r\n".encode())

    def data_received(self, data: bytes) -> None:
        now, wall = time.monotonic(), time.time()
        self.buf += data
        if self.head:
            if b"\r\n\r\n" not in self.buf:
                return
            head, _, self.buf = self.buf.partition(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                self.connected.set_exception(RuntimeError(f"{self.addr}: {head[:200]!r}"))
                return
            self.head = False
        while b"\n\n" in self.buf:
            msg, _, self.buf = self.buf.partition(b"\n\n")
            if b"data:" not in msg:
                continue
            if not self.connected.done():           # the whole state, on connecting
                self.first = len(msg)
                self.connected.set_result(None)
            elif not msg.startswith(b"event: ping") and b'"results"' in msg:
                placed = self._placed(msg)
                if not placed:
                    continue
                for i in placed:
                    self.arrivals[i] = now
                self.sizes.append(len(msg))
                stamp = STAMP.search(msg)
                if stamp:
                    self.from_feed.append((wall - float(stamp.group(1))) * 1000)

    def _placed(self, msg: bytes) -> list[int]:
        """The busts whose place this update brings for the first time."""
        body = _decode.decode(msg.partition(b"data: ")[2])
        rows = dict((body.get("parts") or {}).get("results", {}).get("rows") or {})
        rows.update(((body.get("rows") or {}).get("results") or {}).get("set") or {})
        return [self.pending.pop(k) for k in rows if k in self.pending]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.connected.done():
            self.connected.set_exception(ConnectionError(f"{self.addr}: closed"))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def phones_on(port: int, n: int, keys: list[str], languages: tuple[str, ...] = ()
                    ) -> tuple[list[Phone], float]:
    loop = asyncio.get_running_loop()
    phones = [Phone(i, keys, languages[i % len(languages)] if languages else "")
              for i in range(n)]
    started = time.monotonic()
    for batch in range(0, n, 100):             # as a room's Wi-Fi would: not all at once
        group = phones[batch:batch + 100]
        for ph in group:
            await loop.create_connection(lambda ph=ph: ph, "127.0.0.1", port,  # type: ignore[misc]
                                         local_addr=(ph.addr, 0))
        await asyncio.wait_for(asyncio.gather(*(ph.connected for ph in group)), 60)
    return phones, time.monotonic() - started


async def first_page(port: int, language: str) -> tuple[str, int]:
    """The language a phone asking for `language` is served, and the bytes of its first
    page: the HTML and the texts' script it names."""
    async def get(path: str) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n"
                     f"Accept-Language: {language.replace('_', '-')}\r\n\r\n".encode())
        body = (await reader.read()).partition(b"\r\n\r\n")[2]
        writer.close()
        return body

    page = await get(f"/p/{EVENT}")
    served = re.search(rb'data-lang="([^"]+)"', page)
    src = re.search(rb'<script src="(/lang/[^"]+)"', page)
    if served is None or src is None:
        raise RuntimeError(f"no language on the page: {page[:200]!r}")
    texts = await get(src.group(1).decode().replace("&amp;", "&"))
    return served.group(1).decode(), len(page) + len(texts)


def measure(n_phones: int, players: int, busts: int,
            languages: tuple[str, ...] = ()) -> dict[str, Any]:
    port = free_port()
    ours, theirs = mp.Pipe()
    server = mp.Process(target=serve, args=(port, players, busts, theirs, languages),
                        daemon=True)
    server.start()
    ready, keys = ours.recv()
    if ready != "ready":
        raise RuntimeError("the director did not start")
    pages: dict[str, int] = {}

    async def main() -> tuple[list[Phone], list[float], float]:
        for lang in languages:
            served, size = await first_page(port, lang)
            if served != lang:
                raise RuntimeError(f"a phone asking for {lang} was served {served}")
            pages[lang] = size
        phones, connect_s = await phones_on(port, n_phones, keys, languages)
        gc.freeze()        # the instrument's own collections stay out of the figures
        loop = asyncio.get_running_loop()
        ours.send("go")
        sent: list[float] = await loop.run_in_executor(None, ours.recv)
        ours.send("stop")
        for ph in phones:
            if ph.transport is not None:
                ph.transport.close()
        return phones, sent, connect_s

    phones, sent, connect_s = asyncio.run(main())
    server.join(10)
    lat = []
    per_bust: list[list[float]] = [[] for _ in sent]
    missing = negative = 0
    for ph in phones:
        for k, (t0, t1) in enumerate(zip(sent, ph.arrivals, strict=True)):
            if t1 is None:
                missing += 1
                continue
            ms = (t1 - t0) * 1000
            negative += ms < 0
            lat.append(ms)
            per_bust[k].append(ms)
    if not lat:
        lat = [float("nan")]
    sizes = [s for ph in phones for s in ph.sizes]
    feed = [x for ph in phones for x in ph.from_feed]
    return {"phones": n_phones, "players": players, "busts": len(sent),
            "languages": list(languages), "first_page_bytes": pages,
            "connect_all_s": round(connect_s, 2), "updates": len(lat), "missing": missing,
            "p50_ms": round(pct(lat, 50), 1), "p99_ms": round(pct(lat, 99), 1),
            "max_ms": round(max(lat), 1),
            "feed_p50_ms": round(pct(feed, 50), 1), "feed_p99_ms": round(pct(feed, 99), 1),
            "last_phone_per_bust_median_ms": round(statistics.median(max(b) for b in per_bust
                                                                     if b), 1),
            "last_phone_per_bust_ms": [round(max(b), 1) for b in per_bust if b],
            "negative": negative,
            "first_message_bytes": max(ph.first for ph in phones),
            "update_bytes_median": int(statistics.median(sizes)) if sizes else 0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phones", type=int, default=2000)
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--busts", type=int, default=20)
    ap.add_argument("--languages", default="",
                    help="the phones' languages, in turn (de,cs,zh_Hans); none: English")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    languages = tuple(x.strip() for x in args.languages.split(",") if x.strip())
    if args.phones > 250 * 250:
        ap.error("at most 62,500 phones (one loopback address each)")
    out = measure(args.phones, args.players, args.busts, languages)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['phones']} phones, {out['players']} entrants, {out['busts']} busts; "
              f"all connected in {out['connect_all_s']} s")
        print(f"bust to a phone's update: p50 {out['p50_ms']} ms, p99 {out['p99_ms']} ms, "
              f"max {out['max_ms']} ms ({out['updates']} updates, {out['missing']} missing)")
        print(f"the feed's rebuild to a phone (the bust's own write excluded): "
              f"p50 {out['feed_p50_ms']} ms, p99 {out['feed_p99_ms']} ms")
        print(f"bust to the last phone (median over busts): "
              f"{out['last_phone_per_bust_median_ms']} ms")
        print(f"first message {out['first_message_bytes']:,} bytes; an update "
              f"{out['update_bytes_median']:,} bytes (median)")
        for lang, size in out["first_page_bytes"].items():
            print(f"first page in {lang} (HTML and its texts): {size:,} bytes")
    checks = {"p99 < 250 ms": out["p99_ms"] < 250, "no update missing": not out["missing"],
              "no negative time": not out["negative"],
              f"first message < {FIRST_MAX:,} bytes": out["first_message_bytes"] < FIRST_MAX}
    if languages:
        checks[f"first page < {FIRST_MAX:,} bytes in every language"] = \
            max(out["first_page_bytes"].values()) < FIRST_MAX
    for what, met in checks.items():
        print(f"{what}:", "met" if met else "MISSED", file=sys.stderr)
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
