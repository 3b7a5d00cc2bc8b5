"""Garbage from the tables, through a real Mosquitto, into a real director process that
is killed with -9 twice meanwhile: nothing crashes, nothing forks, nothing is lost.

Thousands of reports with one field broken each (wrong type, out of range, 10^30,
2^64, 70 kB strings, 5,000-deep nesting, missing and unknown fields, another table's
number, version 2), some of them retained, plus retained garbage on the tables' live
and status topics, interleaved with a whole tournament played by simulated tables.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
import urllib.request
from collections import Counter

from fuzzing import garbage_reports, to_bytes
from mqtt_kit import Probe, director_places, kill_9_and_restart, play_over_mqtt, reference_places
from waiting import wait_for

from kiosk.core.event.tournament import Tournament
from kiosk.director.log.store import EventLog

GARBAGE = 3000
LIVE_GARBAGE = [{"table": 2, "hand": 1, "all_in": 5}, {"table": 2, "hand": "x"},
                {"table": 9, "hand": 1}, {"table": 2, "hand": 10**30},
                {"table": 2, "hand": 1, "clock_call": {"id": 5}}, [1, 2], "x"]


def test_garbage_and_kill_9_leave_the_tournament_as_without_them(mosquitto,
                                                                 director_factory) -> None:
    director = director_factory(players=60, web=True).start()
    probe = Probe(mosquitto, director.name)
    sent: Counter[str] = Counter()
    retained: set[str] = set()
    payloads: dict[str, tuple[int, bytes]] = {}
    kills = threading.Event()

    def chaos(sim) -> None:
        rng = random.Random(11)
        gens = {t: garbage_reports(t, rng) for t in range(1, 8)}
        kill_at = [GARBAGE // 3, 2 * GARBAGE // 3]
        for n in range(GARBAGE):
            if kill_at and n == kill_at[0]:
                kill_at.pop(0)
                kill_9_and_restart(director, sim)
            table = rng.randint(1, 7)
            rid, msg = next(gens[table])
            raw = to_bytes(msg)
            keep = rng.random() < 0.03
            probe.client.publish(probe.topics.report(table), raw, qos=1, retain=keep)
            if keep:
                retained.add(rid)
            sent[rid] += 1
            payloads[rid] = (table, raw)
            if n % 50 == 0:
                body = rng.choice(LIVE_GARBAGE)
                probe.client.publish(probe.topics.live(2), json.dumps(body), qos=1,
                                     retain=True)
                probe.client.publish(probe.topics.table_status(3), b'{"v":2,"state":7}',
                                     qos=1, retain=True)
            time.sleep(0.004)      # the garbage spread over the tournament: a pace, not a wait
        kills.set()

    field = play_over_mqtt(mosquitto, director, during=chaos)
    assert wait_for(kills.is_set, 120)

    def acked() -> Counter[str]:
        return Counter(i for a in probe.acks for i in a["ids"])

    # like a table's outbox: re-send what was not acknowledged (sent while a director was down)
    deadline = time.monotonic() + 60
    while (missing := [r for r in sent if r not in acked()]) and time.monotonic() < deadline:
        for rid in missing:
            table, raw = payloads[rid]
            probe.client.publish(probe.topics.report(table), raw, qos=1)
            sent[rid] += 1
        with contextlib.suppress(AssertionError):   # a resend every 2 s until all acked
            wait_for(lambda: all(r in acked() for r in sent), timeout=2)
    counts = acked()
    assert director.proc is not None and director.proc.poll() is None, "director alive"
    assert not [r for r in sent if r not in counts], "every garbage report acknowledged"
    rejected = {k: v for a in probe.acks for k, v in a.get("rejected", {}).items()}
    assert set(sent) <= set(rejected), "and acknowledged as rejected"
    assert all(rejected[r] for r in sent), "with a reason"
    over = [r for r in sent if r not in retained and counts[r] > sent[r]]
    assert not over, f"acknowledged more often than sent: {over[:5]}"
    real_refused = {k: v for k, v in field.rejected.items() if not k.startswith("fz-")}
    assert real_refused == {}, "no real report was refused"

    # the dashboard still answers after retained garbage on live and status topics
    for path in ("/api/snapshot", "/api/players?q=Player"):
        url = f"http://127.0.0.1:{director.http_port}{path}"
        with urllib.request.urlopen(url, timeout=10) as resp:
            assert resp.status == 200
            json.loads(resp.read())
    probe.close()
    director.stop()

    places, tour = director_places(str(director.db))
    assert places == reference_places(), "the same places as a run without garbage"
    assert tour.finished_at is not None
    replayed = Tournament.replay(EventLog(director.db).read())
    assert replayed.places() == tour.places()
    assert director.log_text().count("replayed") == 2
    print(f"\nfuzz: {len(sent)} garbage reports ({sum(sent.values())} sends, "
          f"{len(retained)} retained), {len(rejected)} rejected with a reason, "
          f"2 kill -9, {len(EventLog(director.db))} events logged")


def test_a_flooding_table_neither_starves_another_nor_fills_the_log(mosquitto,
                                                                    director_factory) -> None:
    """Table 1 sends 5,000 valid reports as fast as it can; table 2 keeps dealing."""
    director = director_factory(players=18).start()
    probe = Probe(mosquitto, director.name)
    wait_for(lambda: len(probe.plans) >= 2, 10)
    seat1 = int(next(iter(probe.plans[1]["seats"])))
    seat2 = int(next(iter(probe.plans[2]["seats"])))
    before = len(EventLog(director.db))
    stop = threading.Event()

    def flood() -> None:
        for n in range(5000):
            kind = "absent" if n % 2 else "present"
            body = {"v": 2, "table": 1, "id": f"fl-{n}", "seq": n, "ts": 1.0, "kind": kind,
                    "data": {"seat": seat1}}
            probe.client.publish(probe.topics.report(1), json.dumps(body), qos=0)
            if stop.is_set():
                return

    started = time.monotonic()
    flooding = threading.Thread(target=flood, daemon=True)
    flooding.start()
    good = []
    for n in range(40):
        rid = f"ok-{n}"
        probe.send(2, {"v": 2, "table": 2, "id": rid, "seq": n, "ts": 1.0,
                       "kind": "absent" if n % 2 == 0 else "present", "data": {"seat": seat2}})
        good.append(rid)
        time.sleep(0.05)       # a table dealing at its pace beside the flood, not a wait
    stop.set()
    flooding.join(30)
    # the last report on the probe's connection: once it is acknowledged, the director has
    # taken every report of the flood before it (the broker keeps one client's order)
    good.append("ok-last")
    probe.send(2, {"v": 2, "table": 2, "id": "ok-last", "seq": 40, "ts": 1.0,
                   "kind": "absent", "data": {"seat": seat2}})
    acked = wait_for(lambda: {i for a in probe.acks for i in a["ids"]} >= set(good) and
                     {i for a in probe.acks for i in a["ids"]}, 30)
    assert set(good) <= acked, "every report of the well-behaved table was acknowledged"
    from_flood = len(EventLog(director.db)) - before - len(good)
    # the budget refills in real time: whatever lag, no more than burst + rate x time
    span = time.monotonic() - started
    assert from_flood <= 200 + 50 * span, "the flood is cut at the table's budget"
    assert "table/1 is over its budget" in director.log_text()
    assert director.proc is not None and director.proc.poll() is None
    probe.close()
