"""A whole tournament over a real broker, with director and broker restarts."""

from __future__ import annotations

import json
import threading

from mqtt_kit import (
    PLAYERS,
    Probe,
    director_places,
    kill_9_and_restart,
    play_over_mqtt,
    reference_places,
    report,
    wait_for_hands,
)
from waiting import wait_for
from wire_tap import WireTap

from kiosk.director.log.store import EventLog
from kiosk.sim.engine import Simulator


def test_tournament_over_mqtt_matches_the_simulator(mosquitto, director_factory) -> None:
    director = director_factory(players=PLAYERS).start()
    tap = WireTap(mosquitto, director.name)
    play_over_mqtt(mosquitto, director)
    director.stop()
    places, tour = director_places(str(director.db))
    assert places == reference_places()
    assert tour.finished_at is not None and tour.alive == 1
    assert "rejected" not in director.log_text()
    # the simulated tables and the director: every message carries its schema version
    assert {"report", "live", "status", "plan", "ack", "schedule"} <= tap.leaves()
    assert tap.unversioned() == []
    tap.close()


def test_kill_9_mid_tournament_loses_and_duplicates_nothing(mosquitto, director_factory) -> None:
    director = director_factory(players=PLAYERS).start()
    killed = threading.Event()

    def chaos(sim: Simulator) -> None:
        for hands in (60, 200):
            wait_for_hands(sim, hands)
            kill_9_and_restart(director, sim)
        killed.set()

    field = play_over_mqtt(mosquitto, director, during=chaos)
    assert killed.is_set()
    director.stop()
    assert field.resent > 0, "reports sent while the director was down were re-sent"
    places, _ = director_places(str(director.db))
    assert places == reference_places()
    # every report id is in the log once: re-sent reports were applied a single time
    ids = [e["report"] for e in EventLog(director.db).read() if e.get("report")
           and e["kind"] in ("hand_started", "hand_ended", "busted", "all_in")]
    assert len(ids) == len(set(ids))
    assert director.log_text().count("replayed") == 2


def test_broker_restart_everyone_reconnects(mosquitto, director_factory) -> None:
    director = director_factory(players=PLAYERS).start()

    def bounce(sim: Simulator) -> None:
        wait_for_hands(sim, 100)
        mosquitto.stop()   # retained plans and sessions are gone with it
        wait_for(lambda: not sim.field.client.is_connected())   # the tables saw it go
        mosquitto.start()

    play_over_mqtt(mosquitto, director, during=bounce)
    director.stop()
    places, _ = director_places(str(director.db))
    assert places == reference_places()
    assert director.log_text().count("connected to") >= 2


def test_bad_input_is_rejected_with_a_reason_and_changes_nothing(mosquitto,
                                                                 director_factory) -> None:
    director = director_factory(players=18).start()
    probe = Probe(mosquitto, director.name)
    wait_for(lambda: len(probe.plans) >= 2)
    seat, who = next(iter(probe.plans[1]["seats"].items()))
    before = len(EventLog(director.db))

    probe.send(1, b"{not json")
    probe.send(1, b'{"v": 3, "table": 1}')
    probe.send(1, report(1, "r-h", "all_in", seat=int(seat)))           # no hand number
    probe.send(1, report(2, "r-x", "all_in", seat=int(seat), hand=0))   # table 2's report
    probe.send(1, report(1, "r-u", "bust", seat=int(seat), player="p999"))  # wrong player
    probe.send(1, report(9, "r-9", "floor_call"))                        # no such table
    probe.send(9, report(9, "r-9", "floor_call"))
    probe.send(1, json.dumps(report(1, "r-nov", "floor_call")).encode())  # no "v" at all
    for text in ("not JSON", "schema version 3 is not 2", "no schema version",
                 "missing required field `hand` - at `$.data`",
                 "names table 2", f"holds {who['player']}, not p999",
                 "table 9 is not in play"):
        director.wait_log(text)
    assert len(EventLog(director.db)) == before, "rejected reports must not add events"

    probe.send(1, report(1, "r-ok", "floor_call"))
    wait_for(lambda: len(EventLog(director.db)) != before)
    after_one = len(EventLog(director.db))
    assert after_one == before + 1
    probe.send(1, report(1, "r-ok", "floor_call"))  # the same id again: acknowledged only
    director.wait_log("already applied")
    assert len(EventLog(director.db)) == after_one
    wait_for(lambda: [i for a in probe.acks for i in a["ids"]].count("r-ok") == 2, 10)
    rejected = {k: v for a in probe.acks for k, v in a.get("rejected", {}).items()}
    assert "p999" in rejected["r-u"]
    assert rejected["r-nov"] == 'no schema version: every payload carries "v": 2'
    assert "r-nov" not in [e.get("report") for e in EventLog(director.db).read()]
    probe.close()
