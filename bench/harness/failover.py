"""A failover rehearsal: a tournament played by virtual tables over a real Mosquitto while
its directors are killed, frozen, and the database restarted; then the result against a
fault-free reference.

On PostgreSQL two director processes share the log (both `--standby`: the first leads);
a supervisor restarts any that dies, as systemd would. Faults, spread over the
tournament: the leader killed with SIGKILL; the leader frozen with SIGSTOP until the
standby has taken over, then woken (a zombie: its writes must be refused); the database
restarted (a private cluster of our own only: never the machine's server). On SQLite one
director is killed and restarted instead (there is no standby to take over).

What is measured: how long the tables waited for a new leader's plans (takeover), and
what the log holds at the end against the in-process simulator of the same seed: the
places, the stream of decisions (seats, busts, moves, breaks, the final table), no
acknowledged report missing, none applied twice, no row written by a deposed leader.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from kiosk.config.database import connect, is_dsn
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.events import Event
from kiosk.director.log.store import EventLog
from kiosk.mqtt.broker import Mosquitto, free_port
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField

EVENT = "chaos"
# the decisions whose stream must not change with faults (the clock's events are wall time)
DECISIONS = {"seated", "busted", "knockout", "moved", "move_ordered", "move_cancelled",
             "table_breaking", "table_broken", "final_ordered", "final_seated",
             "arrived", "finished", "hand_started", "hand_ended", "all_in"}
_TIMING = {"t", "ts", "at"}


@dataclass
class Plan:
    """What to break, and how often."""

    kills: int = 3
    zombies: int = 1
    pg_restarts: int = 0
    players: int = 60
    seed: int = 7
    structure: str = "turbo"
    # the event's house rules, and the reference's: the same rules or the decisions part
    # ways (TDA 2024 deals on at a table three short that 2017 halts)
    profile: str = "tda-2024"


@dataclass
class Outcome:
    backend: str
    kills: int = 0
    zombies: int = 0
    pg_restarts: int = 0
    takeovers_s: list[float] = field(default_factory=list)
    zombie_stepped_down: int = 0
    notes: list[str] = field(default_factory=list)


def decisions(events: list[Event]) -> list[tuple[Any, ...]]:
    """The decision stream of a log: every decision with its content, without times."""
    out = []
    for ev in events:
        if ev.kind in DECISIONS:
            body = msgspec.to_builtins(ev)
            out.append(tuple(sorted((k, repr(v)) for k, v in body.items() if k not in _TIMING)))
    return out


def reference(plan: Plan) -> tuple[list[str], list[Event]]:
    """The fault-free run: the in-process simulator, every event it decided."""
    sim = Simulator(plan.players, seed=plan.seed, structure=plan.structure,
                    profile=plan.profile)
    tour = sim.tour
    assert tour is not None   # an in-process simulator has its own tournament
    events: list[Event] = [tour.config]
    orig = tour.execute

    def capture(cmd: Any, t: float) -> list[Event]:
        evs = orig(cmd, t)
        events.extend(evs)
        return evs

    tour.execute = capture  # type: ignore[method-assign]
    return sim.run().places, events


class DirectorSlot:
    """One director machine: its config, its process, restarted when it dies."""

    def __init__(self, work: Path, broker: Mosquitto, db: str, plan: Plan, standby: bool,
                 name: str) -> None:
        self.dir = work / name
        self.dir.mkdir(parents=True)
        self.name = name
        self.standby = standby
        self.config = self.dir / "event.toml"
        self.config.write_text(
            f'[event]\nname = "{EVENT}"\nprofile = "{plan.profile}"\n'
            f'structure = "{plan.structure}"\nseats = 9\nseed = {plan.seed}\nbuy_in = 100\n\n'
            f'[broker]\nurl = "mqtt://127.0.0.1:{broker.port}"\n\n'
            f'[director]\ndb = "{db}"\nhttp = "127.0.0.1:{free_port()}"\n')
        self.players = self.dir / "players.csv"
        self.players.write_text("name,card\n" + "".join(
            f"Player {i + 1},C{i + 1:04d}\n" for i in range(plan.players)))
        self.log = self.dir / "director.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        cmd = [sys.executable, "-m", "kiosk", "director", "--config", str(self.config),
               "--players", str(self.players), "--start", "--no-web"]
        if self.standby:
            cmd.append("--standby")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=out)
        self.starts += 1

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Room:
    """The directors of the rehearsal, supervised: a dead one is restarted in 0.5 s."""

    def __init__(self, slots: list[DirectorSlot], db: str) -> None:
        self.slots = slots
        self.db = db
        self.stopping = threading.Event()
        self._thread = threading.Thread(target=self._supervise, daemon=True)

    def start(self) -> None:
        for slot in self.slots:
            slot.start()
            wait(lambda s=slot: "connected to" in s.text() or "standby of room" in s.text(),
                 60, f"{slot.name} did not start: {slot.text()[-1500:]}")
        self._thread.start()

    def _supervise(self) -> None:
        while not self.stopping.wait(0.1):
            for slot in self.slots:
                if slot.proc is not None and slot.proc.poll() is not None:
                    time.sleep(0.5)
                    if not self.stopping.is_set():
                        slot.start()

    def leader(self) -> DirectorSlot:
        """The slot whose process holds the lease (the only one, on SQLite)."""
        if not is_dsn(self.db):
            return self.slots[0]
        with connect(self.db) as conn:
            row = conn.execute("SELECT holder FROM lease WHERE expires > clock_timestamp()"
                               ).fetchone()
        pid = int(row[0].split(" pid ")[1].split("/")[0]) if row else -1
        for slot in self.slots:
            if slot.proc is not None and slot.proc.pid == pid:
                return slot
        raise RuntimeError(f"no live leader (lease: {row})")

    def settled(self) -> bool:
        """Every director runs; one leads, each other one follows as a standby."""
        if any(s.proc is None or s.proc.poll() is not None for s in self.slots):
            return False
        try:
            lead = self.leader()
        except RuntimeError:
            return False
        return all(s is lead or s.text().rfind("standby of room") > max(
            s.text().rfind("took over"), s.text().rfind("connected to")) for s in self.slots)

    def stop(self) -> None:
        self.stopping.set()
        for slot in self.slots:
            slot.stop()


def wait(cond: Any, timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(message)
        time.sleep(0.02)


class Faults:
    """The faults, injected from a thread while the simulator plays."""

    def __init__(self, room: Room, field_: MqttField, plan: Plan, cluster: Any,
                 out: Outcome, total_hands: int) -> None:
        self.room, self.field, self.plan, self.cluster = room, field_, plan, cluster
        self.out = out
        kinds = (["kill"] * plan.kills + ["zombie"] * plan.zombies
                 + ["pg"] * plan.pg_restarts)
        order = sorted(range(len(kinds)), key=lambda i: (i * 7919) % (len(kinds) or 1))
        self.faults = [kinds[i] for i in order]
        n = len(self.faults)
        self.at = [int(total_hands * (0.1 + 0.7 * i / max(1, n - 1))) if n > 1
                   else total_hands // 3 for i in range(n)]
        self.error: BaseException | None = None

    def run(self, sim: Simulator) -> None:
        try:
            for fault, hands in zip(self.faults, self.at, strict=True):
                while sim.res.hands < hands and not self.field.finished():
                    time.sleep(0.01)
                if self.field.finished():
                    self.out.notes.append(f"tournament over before the {fault}")
                    break
                self.out.notes.append(f"{time.strftime('%H:%M:%S')} {fault} at hand "
                                      f"{sim.res.hands}")
                getattr(self, fault)()
        except BaseException as exc:   # reported by the caller, not lost in a thread
            self.error = exc

    def _takeover(self, before: float) -> float:
        """Seconds until the tables get plans of a newer epoch."""
        t0 = time.monotonic()
        wait(lambda: self.field.epoch() > before, 60, "no new leader's plans")
        return time.monotonic() - t0

    def kill(self) -> None:
        victim = self.room.leader()
        before = self.field.epoch()
        self.out.notes.append(f"SIGKILL {victim.name} pid {victim.proc and victim.proc.pid}")
        victim.signal(signal.SIGKILL)
        self.out.takeovers_s.append(self._takeover(before))
        self.out.kills += 1
        self._standby_ready(victim)

    def zombie(self) -> None:
        if not is_dsn(self.room.db):
            return self.kill()
        victim = self.room.leader()
        before, seen = self.field.epoch(), len(victim.text())
        victim.signal(signal.SIGSTOP)
        self.out.takeovers_s.append(self._takeover(before))
        time.sleep(0.5)
        victim.signal(signal.SIGCONT)       # wakes as a deposed leader
        wait(lambda: "no longer leads" in victim.text()[seen:], 30,
             "the woken leader did not step down")
        self.out.zombies += 1
        self.out.zombie_stepped_down += 1
        self._standby_ready(victim)
        return None

    def pg(self) -> None:
        if self.cluster is None:
            self.out.notes.append("no database restart: not a private cluster")
            return
        self.cluster.restart()
        self.out.pg_restarts += 1
        # as after the other faults: both directors back (one leading, one following)
        # before the next fault, so a takeover is timed with a standby there to take over
        wait(self.room.settled, 60, "the directors did not settle after the database "
             "restart")

    def _standby_ready(self, slot: DirectorSlot) -> None:
        """Both machines are back before the next fault: one leads, the other is a warm
        standby (the one that failed may have taken the lease first: either is fine)."""
        if is_dsn(self.room.db):
            wait(self.room.settled, 60, f"{slot.name} did not come back")


@contextlib.contextmanager
def database(backend: str, dsn: str | None, private: bool,
             work: Path) -> Iterator[tuple[str, Any]]:
    """(the log's db setting, the private cluster or None) for the run."""
    if backend == "sqlite":
        yield str(work / "event.db"), None
        return
    from harness.pg_admin import LOCAL_SERVER, PrivateCluster, scratch_database
    if private:
        cluster = PrivateCluster(free_port())
        try:
            cluster.start()
            with scratch_database(cluster.dsn, prefix="pk_chaos") as db:
                yield db, cluster
        finally:
            cluster.remove()
        return
    with scratch_database(dsn or LOCAL_SERVER, prefix="pk_chaos") as db:
        yield db, None


def rehearse(plan: Plan, backend: str = "postgresql", dsn: str | None = None,
             private: bool = False, work: Path | None = None) -> dict[str, Any]:
    """Run the rehearsal; the figures and verdicts as one dict."""
    work = work or Path(tempfile.mkdtemp(prefix="pk-failover-"))
    places_ref, events_ref = reference(plan)
    hands_ref = sum(1 for e in events_ref if e.kind == "hand_started")
    out = Outcome(backend)
    broker = Mosquitto(workdir=str(work)).start()
    try:
        with database(backend, dsn, private, work) as (db, cluster):
            slots = [DirectorSlot(work, broker, db, plan, backend != "sqlite", name)
                     for name in (("a", "b") if backend != "sqlite" else ("a",))]
            room = Room(slots, db)
            room.start()
            try:
                result = _play(room, broker, plan, cluster, out, hands_ref)
            finally:
                room.stop()
            return _verdict(out, db, places_ref, events_ref, result)
    finally:
        broker.stop()


def _play(room: Room, broker: Mosquitto, plan: Plan, cluster: Any, out: Outcome,
          hands: int) -> dict[str, Any]:
    field_ = MqttField(broker.config, EVENT, resend_every=1.0, ack_timeout=90)
    try:
        field_.wait_ready(30)
        wait(lambda: len(field_.tables()) >= -(-plan.players // 9), 30, "tables not seated")
        faults = Faults(room, field_, plan, cluster, out, hands)
        sim = Simulator(plan.players, seed=plan.seed, structure=plan.structure,
                        profile=plan.profile, field=field_)
        thread = threading.Thread(target=faults.run, args=(sim,), daemon=True)
        thread.start()
        try:
            res = sim.run()
        except TimeoutError:   # a director stopped answering: its stacks go to its log
            for slot in room.slots:
                slot.signal(signal.SIGUSR1)
            time.sleep(1)
            raise
        thread.join(120)
        if faults.error is not None:
            raise faults.error
        return {"acked": set(field_.acked), "rejected": dict(field_.rejected),
                "violations": res.invariant_violations, "resent": field_.resent}
    finally:
        field_.close()


def _verdict(out: Outcome, db: str, places_ref: list[str], events_ref: list[Event],
             result: dict[str, Any]) -> dict[str, Any]:
    log = EventLog(db)
    events = list(log.read())
    log.close()
    tour = Tournament.replay(iter(events))
    ranks = tour.places()
    places = sorted(ranks, key=lambda p: (ranks[p], p))
    per_id, per_id_ref = _report_counts(events), _report_counts(events_ref)
    lost = {rid for rid in result["acked"] if per_id_ref.get(rid) and not per_id.get(rid)}
    twice = {rid for rid, n in per_id.items() if n > per_id_ref.get(rid, 0)}
    takeovers = sorted(out.takeovers_s)
    p99 = takeovers[min(len(takeovers) - 1, int(0.99 * len(takeovers)))] if takeovers else 0
    return {
        "backend": out.backend, "kills": out.kills, "zombies": out.zombies,
        "pg_restarts": out.pg_restarts,
        "takeover_p50_s": round(takeovers[len(takeovers) // 2], 2) if takeovers else 0,
        "takeover_p99_s": round(p99, 2), "takeover_max_s": round(max(takeovers, default=0), 2),
        "lost_acked": len(lost), "applied_twice": len(twice),
        "zombie_writes": _zombie_writes(db), "zombies_stepped_down": out.zombie_stepped_down,
        "places_identical": places == places_ref,
        "decisions_identical": decisions(events) == decisions(events_ref),
        "events": len(events), "reports_acked": len(result["acked"]),
        "rejected": len(result["rejected"]), "resent": result["resent"],
        "invariant_violations": result["violations"], "notes": out.notes,
    }


def _report_counts(events: list[Event]) -> Counter[str]:
    return Counter(str(rid) for e in events if (rid := getattr(e, "report", None)))


def _zombie_writes(db: str) -> int:
    """Rows a deposed leader wrote: a term lower than one already in the log before it."""
    if not is_dsn(db):
        return 0
    with connect(db) as conn:
        terms = [r[0] for r in conn.execute("SELECT term FROM events ORDER BY seq")]
    high, bad = 0, 0
    for term in terms:
        bad += term < high
        high = max(high, term)
    return bad
