"""A whole room played in one process through the director's own inbox, no broker.

The director object is real (its log, transactions, plans and acknowledgements); only its
MQTT client is replaced by a loopback that keeps what a broker would retain and what the
tables would read in their acknowledgements. The dealers of every event are simulators
(kiosk.sim.engine) on a `DirectorField`, and they take turns in the order of the
tournament clock (`Turns`), so two runs of the same seeds interleave alike. The room
benchmark and the soak both play rooms this way.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from kiosk.config.room import RoomConfig, load_director_config
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.commands import AnyTableReport
from kiosk.director.service import Director
from kiosk.protocol.messages import VERSION, encode
from kiosk.sim.fields import LocalField


class Loopback:
    """Stands where the director's paho client would: keeps the newest retained message
    of every topic and the acknowledgements, as a broker and the tables would see them."""

    def __init__(self) -> None:
        self.retained: dict[str, bytes] = {}
        self.acked: set[tuple[int, str]] = set()
        self.rejected: dict[tuple[int, str], str] = {}
        self.last_ack: dict[int, dict[str, Any]] = {}   # table -> its newest ack's body

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        if retain:
            self.retained[topic] = payload
        elif "/director/ack/" in topic:
            table = int(topic.rsplit("/", 1)[1])
            body = json.loads(payload)
            self.last_ack[table] = body
            self.acked.update((table, rid) for rid in body["ids"])
            self.rejected.update({(table, rid): why
                                  for rid, why in body.get("rejected", {}).items()})


class LoopRoom:
    """The room under test: a director over a loopback, the room's clock, and the kill
    (the director thrown away and folded back from its log, as after SIGKILL)."""

    def __init__(self, folder: Path, room_toml: str, kill_at: int | None = None,
                 t0: float = 1_000_000.0) -> None:
        (folder / "room.toml").write_text(room_toml)
        self.config: RoomConfig = load_director_config(folder / "room.toml")
        self.now = t0
        self.net = Loopback()
        self.kill_at, self.kills, self.reports = kill_at, 0, 0
        self.latency: list[float] = []
        self.bugs: list[str] = []    # the internal errors of the directors thrown away
        self.d = self.director()

    def director(self) -> Director:
        d = Director(self.config, clock=lambda: self.now)
        d.wire.client = self.net   # type: ignore[assignment]
        d.republish_all()
        return d

    def kill(self) -> None:
        """Throw the director away and fold a new one from the log, as after SIGKILL."""
        self.bugs += self.d.service.tx.bugs
        self.d.store.close()
        self.d = self.director()
        self.kills += 1

    def send(self, event: str, rep: AnyTableReport, t: float) -> dict[str, Any]:
        """One report through the director's inbox, timed until its plans are out; the
        acknowledgement its table got."""
        self.reports += 1
        if self.kill_at is not None and self.reports == self.kill_at:
            self.kill()
        body = {**msgspec.to_builtins(rep), "v": VERSION, "seq": self.reports, "ts": t,
                "event": event}
        d = self.d
        self.net.last_ack.pop(rep.table, None)
        start = time.perf_counter()
        d.inbox.queue.append((d.topics.report(rep.table), encode(body)))
        d.drain()
        self.latency.append(time.perf_counter() - start)
        return self.net.last_ack.get(rep.table, {})

    def report(self, event: str, rep: AnyTableReport, t: float) -> bool:
        """Send a report; True when its table got it acknowledged and not rejected."""
        ack = self.send(event, rep, t)
        return rep.id in ack.get("ids", ()) and rep.id not in ack.get("rejected", {})


class DirectorField(LocalField):
    """One event's tables as its dealers see them: the director's tournament (whichever
    director object runs now), reports sent through the room's inbox. `holds` says when
    the event is done though it has no winner (a flight's bag); `idle` is asked when
    every table holds (the floor may release them)."""

    def __init__(self, room: LoopRoom, event: str, done: Callable[[], bool] | None = None,
                 idle: Callable[[], bool] | None = None) -> None:
        self.room, self.event = room, event
        self._done, self._idle = done, idle

    @property
    def tour(self) -> Tournament:  # type: ignore[override]
        return self.room.d.events[self.event].tour

    def report(self, rep: AnyTableReport, t: float) -> bool:  # type: ignore[override]
        self.room.now = max(self.room.now, t)
        return self.room.report(self.event, rep, t)

    def finished(self) -> bool:
        if self._done is not None and self._done():
            return True
        return super().finished()

    def idle(self) -> bool:
        return self._idle() if self._idle is not None else False


class Turns:
    """The dealers of every event take turns in tournament-clock order (ties by name), one
    at a time, so a run and its reference interleave alike whatever the threads do."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.wants: dict[str, float] = {}
        self.live: set[str] = set()
        self.running: str | None = None
        self.errors: list[BaseException] = []
        self.opening = False

    @contextmanager
    def together(self) -> Iterator[None]:
        """Spawn several dealers at once: none takes a turn before all of them wait
        (the first spawned would otherwise deal alone while the others start)."""
        with self.cond:
            self.opening = True
        try:
            yield
        finally:
            with self.cond:
                self.opening = False
                self._choose()

    def spawn(self, name: str, t: float, body: Callable[[], None]) -> threading.Thread:
        with self.cond:
            self.live.add(name)
            self.wants[name] = t

        def main() -> None:
            try:
                self._wait(name)
                body()
            except BaseException as exc:   # raised again by the runner once all stop
                self.errors.append(exc)
            finally:
                with self.cond:
                    self.live.discard(name)
                    self.wants.pop(name, None)
                    self.running = None
                    self._choose()

        th = threading.Thread(target=main, name=f"dealers-{name}", daemon=True)
        th.start()
        return th

    def pace(self, name: str, t: float) -> None:
        with self.cond:
            self.wants[name] = t
            self.running = None
            self._choose()
        self._wait(name)

    def _wait(self, name: str) -> None:
        with self.cond:
            self._choose()
            while self.running != name:
                self.cond.wait()

    def _choose(self) -> None:
        if self.running is None and not self.opening and self.wants \
                and len(self.wants) == len(self.live):
            self.running = min(self.wants, key=lambda n: (self.wants[n], n))
            del self.wants[self.running]
            self.cond.notify_all()

    def join(self, threads: list[threading.Thread]) -> None:
        """Wait for every dealer thread (the list may grow meanwhile); raise the first
        error one of them raised."""
        while any(th.is_alive() for th in list(threads)):
            for th in list(threads):
                th.join(0.5)
        if self.errors:
            raise self.errors[0]
